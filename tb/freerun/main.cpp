// Verilator top level of the free-running harness (tb/freerun/bench_top.v): the clock, until $finish.
// It also times the kernel's cycles itself (from the clock edge that raises `running` to the one that
// lowers it, that last cycle left out: it writes the final memory), as the CPU time of this thread
// and as wall time: a short kernel runs for less than a millisecond, less than the delay with which
// a reader of the output sees the harness's start and end markers on a busy machine.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>

#include "Vbench_top.h"
#include "verilated.h"

static long long cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long wall_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
    const std::unique_ptr<VerilatedContext> context{new VerilatedContext};
    context->commandArgs(argc, argv);
    const std::unique_ptr<Vbench_top> top{new Vbench_top{context.get()}};
    top->clk = 0;
    top->eval();
    bool timing = false;
    long long cpu0 = 0, wall0 = 0, cpu = 0, wall = 0;
    while (!context->gotFinish() && !top->finished) {
        const long long c = cpu_ns(), w = wall_ns();  // before this cycle
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
        if (top->running && !timing) {
            timing = true;
            cpu0 = cpu_ns();
            wall0 = wall_ns();
        } else if (!top->running && timing) {
            timing = false;
            cpu = c - cpu0;
            wall = w - wall0;
        }
    }
    top->final();
    std::printf("FREERUN-TIMED cpu_ns=%lld wall_ns=%lld\n", cpu, wall);
    return 0;
}
