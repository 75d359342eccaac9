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

    reg [15:0] ar [0:NUM_WARPS*256-1];  // [warp][$a][lane]

    wire [31:0] base = {{(32-WB){1'b0}}, warp} * 256;
    assign rd_regs[511:0] = 512'd0;
    genvar g;
    generate
        for (g = 32; g < 256; g = g + 1) begin : reads
            assign rd_regs[16 * g +: 16] = ar[base + g];
        end
    endgenerate

    wire [31:0] lane0 = {26'd0, pass} * NUM_SP;
    integer l, w;
    always @(posedge clk) begin
        if (clr_we)
            for (l = 0; l < 256; l = l + 1) ar[{{(32-WB){1'b0}}, clr_warp} * 256 + l] <= 16'd0;
        if ((wr_mask | inc_mask) != {NUM_SP{1'b0}})  // the lane loop only in a cycle that writes
            for (w = 0; w < NUM_SP; w = w + 1) begin
                if (wr_mask[w] && wr_reg != 3'd0) ar[base + {24'd0, wr_reg, 5'd0} + lane0 + w] <= wr_data[16 * w +: 16];
                if (inc_mask[w] && inc_reg != 3'd0) ar[base + {24'd0, inc_reg, 5'd0} + lane0 + w] <= inc_data[16 * w +: 16];
            end
    end
endmodule
