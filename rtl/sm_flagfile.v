`timescale 1ns / 1ps
// The flag registers $c0-$c3: four bits {O, C, S, Z} per lane, per warp. The launch sweep clears a
// warp's flags; the write-back of a pass writes one $c of its lanes. The warp in execute sees all
// its flags (guard, carry-in, C2R).
module sm_flagfile #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    localparam integer WB = $clog2(NUM_WARPS)
) (
    input  wire                 clk,
    input  wire                 clr_we,
    input  wire [WB-1:0]        clr_warp,
    input  wire [WB-1:0]        warp,         // the warp in execute
    input  wire [5:0]           pass,
    input  wire [NUM_SP-1:0]    wr_mask,
    input  wire [1:0]           wr_reg,
    input  wire [NUM_SP*4-1:0]  wr_data,
    output wire [511:0]         rd_regs       // [$c * 128 + lane * 4 +: 4]
);

    // one word a warp, [$c * 128 + lane * 4 +: 4]: the warp in execute reads its flags through one
    // read port (as 128 array reads each with its own address adder, every change of the warp
    // in execute cost an event-driven simulator 128 adds and 128 reads; docs/design/rtl.md,
    // "Simulators")
    reg [511:0] cc [0:NUM_WARPS-1];

    assign rd_regs = cc[warp];

    // log2 NUM_SP: a pass's first lane as a concatenation, not a multiply (vvp evaluates a net's
    // multiply on every change of the pass, through its generic arithmetic; docs/design/rtl.md, "Simulators")
    localparam integer SPB = $clog2(NUM_SP);
    wire [31:0] lane0 = {{(26 - SPB){1'b0}}, pass, {SPB{1'b0}}};
    integer w;
    always @(posedge clk) begin
        if (clr_we) cc[clr_warp] <= 512'd0;
        // the lane loop only in a cycle that writes part of the pass's lanes; all of them, the
        // common case, are one write (an event-driven simulator runs this block every cycle)
        if (wr_mask == {NUM_SP{1'b1}}) cc[warp][({25'd0, wr_reg, 5'd0} + lane0) * 4 +: NUM_SP * 4] <= wr_data;
        else if (wr_mask != {NUM_SP{1'b0}})
            for (w = 0; w < NUM_SP; w = w + 1)
                if (wr_mask[w]) cc[warp][({25'd0, wr_reg, 5'd0} + lane0 + w) * 4 +: 4] <= wr_data[4 * w +: 4];
    end
endmodule
