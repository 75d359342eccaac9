`timescale 1ns / 1ps
// Icarus top level of the free-running harness: the clock, and the end.
module bench_icarus;
    reg clk = 1'b0;
    wire running, finished;
    /* verilator lint_off PINMISSING */
    bench_top #(.NUM_SP(`NUM_SP)) top (.clk(clk), .running(running), .finished(finished));  // the commit port is left open
    always #5 clk = ~clk;
    always @(posedge finished) $finish;
endmodule
