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

    reg [3:0] cc [0:NUM_WARPS*128-1];  // [warp][$c][lane]

    wire [31:0] base = {{(32-WB){1'b0}}, warp} * 128;
    genvar g;
    generate
        for (g = 0; g < 128; g = g + 1) begin : reads
            assign rd_regs[4 * g +: 4] = cc[base + g];
        end
    endgenerate

    wire [31:0] wr_base = base + {25'd0, wr_reg, 5'd0} + {26'd0, pass} * NUM_SP;
    integer l, w;
    always @(posedge clk) begin
        if (clr_we)
            for (l = 0; l < 128; l = l + 1) cc[{{(32-WB){1'b0}}, clr_warp} * 128 + l] <= 4'd0;
        if (wr_mask != {NUM_SP{1'b0}})  // the lane loop only in a cycle that writes
            for (w = 0; w < NUM_SP; w = w + 1)
                if (wr_mask[w]) cc[wr_base + w] <= wr_data[4 * w +: 4];
    end
endmodule
