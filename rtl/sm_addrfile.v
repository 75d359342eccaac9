`timescale 1ns / 1ps
// The address registers $a1-$a7: 16 bits per lane, per warp; $a0 reads 0 and is never written. The
// launch sweep clears a warp's registers. A pass writes one $a of its lanes through each of two
// ports: R2A / ADA, and the post-increment of a memory operand (which wins when both write the same
// register). The warp in execute sees all its address registers.
module sm_addrfile #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    localparam integer WB = $clog2(NUM_WARPS)
) (
    input  wire                 clk,
    input  wire                 clr_we,
    input  wire [WB-1:0]        clr_warp,
    input  wire [WB-1:0]        warp,         // the warp in execute
    input  wire [5:0]           pass,
    input  wire [NUM_SP-1:0]    wr_mask,      // R2A, ADA
    input  wire [2:0]           wr_reg,
    input  wire [NUM_SP*16-1:0] wr_data,
    input  wire [NUM_SP-1:0]    inc_mask,     // post-increment
    input  wire [2:0]           inc_reg,
    input  wire [NUM_SP*16-1:0] inc_data,
    output wire [4095:0]        rd_regs       // [$a * 512 + lane * 16 +: 16]
);

    // one word a warp holds $a1-$a7, [($a - 1) * 512 + lane * 16 +: 16]: the warp in execute reads
    // them through one read port (as 224 array reads each with its own address adder, every change
    // of the warp in execute cost an event-driven simulator 224 adds and 224 reads; docs/design/rtl.md,
    // "Simulators")
    reg [3583:0] ar [0:NUM_WARPS-1];

    assign rd_regs = {ar[warp], 512'd0};

    // log2 NUM_SP: a pass's first lane as a concatenation, not a multiply (vvp evaluates a net's
    // multiply on every change of the pass, through its generic arithmetic; docs/design/rtl.md, "Simulators")
    localparam integer SPB = $clog2(NUM_SP);
    wire [31:0] lane0 = {{(26 - SPB){1'b0}}, pass, {SPB{1'b0}}};
    wire [31:0] wr_at = {24'd0, wr_reg - 3'd1, 5'd0} + lane0;   // the lane0 word of $a[wr_reg]
    wire [31:0] inc_at = {24'd0, inc_reg - 3'd1, 5'd0} + lane0;
    integer w;
    always @(posedge clk) begin
        if (clr_we) ar[clr_warp] <= 3584'd0;
        if ((wr_mask | inc_mask) != {NUM_SP{1'b0}})  // the lane loop only in a cycle that writes
            for (w = 0; w < NUM_SP; w = w + 1) begin
                if (wr_mask[w] && wr_reg != 3'd0) ar[warp][(wr_at + w) * 16 +: 16] <= wr_data[16 * w +: 16];
                if (inc_mask[w] && inc_reg != 3'd0) ar[warp][(inc_at + w) * 16 +: 16] <= inc_data[16 * w +: 16];
            end
    end
endmodule
