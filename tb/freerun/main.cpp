// Verilator top level of the free-running harness (tb/freerun/bench_top.v): the clock, until $finish.
#include <memory>

#include "Vbench_top.h"
#include "verilated.h"

int main(int argc, char** argv) {
    const std::unique_ptr<VerilatedContext> context{new VerilatedContext};
    context->commandArgs(argc, argv);
    const std::unique_ptr<Vbench_top> top{new Vbench_top{context.get()}};
    top->clk = 0;
    top->eval();
    while (!context->gotFinish() && !top->finished) {
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
    }
    top->final();
    return 0;
}
