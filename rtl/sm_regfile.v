`timescale 1ns / 1ps
// The general-purpose register file: REG_WORDS 32-bit words, a warp's registers allocated
// consecutively (word = warp * 32 * registers per thread + register * 32 + lane), so that the lanes
// of one pass are NUM_SP consecutive words. A register past the allocation reads 0 and is not
// written (ISA.md 7.1).
//
// Write ports, in increasing priority (they are never used in the same cycle): the launch sweep
// (a row of 32 words), the write-back of a pass (full register, or its low or high half) and the
// data of a load response (one lane). Read ports: four of a pass (operand slots A, B, C and the
// data of a shared store) and two of one lane (address and data of a global or local access).
module sm_regfile #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    parameter integer REG_WORDS = 8192,
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer RB = $clog2(REG_WORDS / 32)
) (
    input  wire                 clk,
    input  wire [7:0]           nregs,        // registers per thread
    // launch sweep
    input  wire                 init_we,
    input  wire [RB-1:0]        init_row,
    input  wire [1023:0]        init_data,
    // the warp and pass in execute
    input  wire [WB-1:0]        warp,
    input  wire [5:0]           pass,
    // write-back of the pass: half 0 full register, 1 low half, 2 high half
    input  wire [NUM_SP-1:0]    wb_mask,
    input  wire [6:0]           wb_reg,
    input  wire [1:0]           wb_half,
    input  wire [NUM_SP*32-1:0] wb_data,
    // load response
    input  wire                 ld_we,
    input  wire [7:0]           ld_reg,
    input  wire [4:0]           ld_lane,
    input  wire [31:0]          ld_data,
    // reads of the pass's lanes
    input  wire [6:0]           rd_reg_a, rd_reg_b, rd_reg_c, rd_reg_s,
    output wire [NUM_SP*32-1:0] rd_a, rd_b, rd_c, rd_s,
    // reads of one lane
    input  wire [4:0]           ln_lane,
    input  wire [6:0]           ln_reg_0, ln_reg_1,
    output wire [31:0]          ln_0, ln_1
);

    reg [31:0] rf [0:REG_WORDS-1];

    wire [31:0] warp_base = {{(32-WB){1'b0}}, warp} * 32 * {24'd0, nregs};
    wire [31:0] pass_lane = {26'd0, pass} * NUM_SP;

    assign ln_0 = ({1'b0, ln_reg_0} >= nregs) ? 32'd0 : rf[warp_base + {25'd0, ln_reg_0} * 32 + {27'd0, ln_lane}];
    assign ln_1 = ({1'b0, ln_reg_1} >= nregs) ? 32'd0 : rf[warp_base + {25'd0, ln_reg_1} * 32 + {27'd0, ln_lane}];

    // continuous reads: Icarus makes a process that indexes a large memory sensitive to each word
    genvar g;
    generate
        for (g = 0; g < NUM_SP; g = g + 1) begin : reads
            assign rd_a[32 * g +: 32] = ({1'b0, rd_reg_a} >= nregs) ? 32'd0 : rf[warp_base + {25'd0, rd_reg_a} * 32 + pass_lane + g];
            assign rd_b[32 * g +: 32] = ({1'b0, rd_reg_b} >= nregs) ? 32'd0 : rf[warp_base + {25'd0, rd_reg_b} * 32 + pass_lane + g];
            assign rd_c[32 * g +: 32] = ({1'b0, rd_reg_c} >= nregs) ? 32'd0 : rf[warp_base + {25'd0, rd_reg_c} * 32 + pass_lane + g];
            assign rd_s[32 * g +: 32] = ({1'b0, rd_reg_s} >= nregs) ? 32'd0 : rf[warp_base + {25'd0, rd_reg_s} * 32 + pass_lane + g];
        end
    endgenerate

    wire [31:0] wb_base = warp_base + {25'd0, wb_reg} * 32 + pass_lane;
    wire        wb_ok = {1'b0, wb_reg} < nregs;
    integer l, w;
    always @(posedge clk) begin
        if (init_we)
            for (l = 0; l < 32; l = l + 1) rf[{{(27-RB){1'b0}}, init_row, 5'd0} + l] <= init_data[32 * l +: 32];
        for (w = 0; w < NUM_SP; w = w + 1)
            if (wb_mask[w] && wb_ok && wb_base + w < REG_WORDS) begin
                case (wb_half)
                    2'd1: rf[wb_base + w] <= {rf[wb_base + w][31:16], wb_data[32 * w +: 16]};
                    2'd2: rf[wb_base + w] <= {wb_data[32 * w +: 16], rf[wb_base + w][15:0]};
                    default: rf[wb_base + w] <= wb_data[32 * w +: 32];
                endcase
            end
        if (ld_we && ld_reg < nregs) rf[warp_base + {24'd0, ld_reg} * 32 + {27'd0, ld_lane}] <= ld_data;
    end
endmodule
