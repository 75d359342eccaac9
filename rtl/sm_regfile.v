`timescale 1ns / 1ps
// The general-purpose register file: REG_WORDS 32-bit words, a warp's registers allocated
// consecutively (word = warp * 32 * registers per thread + register * 32 + lane), so that the lanes
// of one pass are NUM_SP consecutive words. A register past the allocation reads 0 and is not
// written (ISA.md 7.1).
//
// Each row (one register of a warp's 32 lanes) has a valid bit: the start of a round clears them
// all in one cycle and an invalid row reads zero, so that only the R0 rows need a launch sweep step.
// The first write to an invalid row zeroes its other words in the same cycle.
//
// Write ports: the launch sweep (a row of 32 words), the write-back of a pass (full register, or
// its low or high half) and the data of a load response (up to 16 words, a 64-byte line, of a
// parked load's warp, which may come in the same cycle as the write-back of another warp's pass:
// different rows). Read ports: four of a pass (operand slots A, B, C and the data of a shared
// store), two of one lane (address and data of a global or local access) and two of 16 words each
// with its own register and lane (the memory unit: a half-warp's addresses, a line's store data).
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
    input  wire                 init_clear,   // a round starts: every row reads zero until written
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
    // load response: up to 16 words (a 64-byte line), each its own register and lane
    input  wire [15:0]          ld_we,
    input  wire [WB-1:0]        ld_warp,      // a parked load's warp, not the warp in execute
    input  wire [16*8-1:0]      ld_reg,
    input  wire [16*5-1:0]      ld_lane,
    input  wire [16*32-1:0]     ld_data,
    // reads of the pass's lanes
    input  wire [6:0]           rd_reg_a, rd_reg_b, rd_reg_c, rd_reg_s,
    output wire [NUM_SP*32-1:0] rd_a, rd_b, rd_c, rd_s,
    // reads of one lane, and of 16 words, of the memory unit's warp
    input  wire [WB-1:0]        ln_warp,
    input  wire [4:0]           ln_lane,
    input  wire [6:0]           ln_reg_0, ln_reg_1,
    output wire [31:0]          ln_0, ln_1,
    // reads of 16 words (the memory unit: addresses of a half-warp, store data of a line), each its own register and lane
    input  wire [16*7-1:0]      qa_reg, qd_reg,
    input  wire [16*5-1:0]      qa_lane, qd_lane,
    output wire [16*32-1:0]     qa, qd
);

    reg [31:0]             rf [0:REG_WORDS-1];
    reg [REG_WORDS/32-1:0] rf_valid;

    wire [31:0] warp_base = {{(32-WB){1'b0}}, warp} * 32 * {24'd0, nregs};
    wire [31:0] pass_lane = {26'd0, pass} * NUM_SP;

    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] ln_base = {{(32-WB){1'b0}}, ln_warp} * 32 * {24'd0, nregs};
    wire [31:0] ln_i0 = ln_base + {25'd0, ln_reg_0} * 32 + {27'd0, ln_lane};
    wire [31:0] ln_i1 = ln_base + {25'd0, ln_reg_1} * 32 + {27'd0, ln_lane};
    /* verilator lint_on UNUSEDSIGNAL */
    assign ln_0 = ({1'b0, ln_reg_0} >= nregs || !rf_valid[ln_i0[RB+4:5]]) ? 32'd0 : rf[ln_i0];
    assign ln_1 = ({1'b0, ln_reg_1} >= nregs || !rf_valid[ln_i1[RB+4:5]]) ? 32'd0 : rf[ln_i1];

    // continuous reads: Icarus makes a process that indexes a large memory sensitive to each word.
    // The lanes of a pass are consecutive words of one row: the row's first word, its valid bit and
    // the allocation check are computed once per port, not once per lane (each is an arithmetic
    // node that an event-driven simulator re-evaluates whenever the pass or the register changes)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] base_a = warp_base + {20'd0, rd_reg_a, 5'd0} + pass_lane;
    wire [31:0] base_b = warp_base + {20'd0, rd_reg_b, 5'd0} + pass_lane;
    wire [31:0] base_c = warp_base + {20'd0, rd_reg_c, 5'd0} + pass_lane;
    wire [31:0] base_s = warp_base + {20'd0, rd_reg_s, 5'd0} + pass_lane;
    /* verilator lint_on UNUSEDSIGNAL */
    wire ok_a = {1'b0, rd_reg_a} < nregs && rf_valid[base_a[RB+4:5]];
    wire ok_b = {1'b0, rd_reg_b} < nregs && rf_valid[base_b[RB+4:5]];
    wire ok_c = {1'b0, rd_reg_c} < nregs && rf_valid[base_c[RB+4:5]];
    wire ok_s = {1'b0, rd_reg_s} < nregs && rf_valid[base_s[RB+4:5]];
    genvar g;
    generate
        for (g = 0; g < 16; g = g + 1) begin : qreads
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] ia = ln_base + {25'd0, qa_reg[7 * g +: 7]} * 32 + {27'd0, qa_lane[5 * g +: 5]};
            wire [31:0] id = ln_base + {25'd0, qd_reg[7 * g +: 7]} * 32 + {27'd0, qd_lane[5 * g +: 5]};
            /* verilator lint_on UNUSEDSIGNAL */
            assign qa[32 * g +: 32] = ({1'b0, qa_reg[7 * g +: 7]} >= nregs || !rf_valid[ia[RB+4:5]]) ? 32'd0 : rf[ia];
            assign qd[32 * g +: 32] = ({1'b0, qd_reg[7 * g +: 7]} >= nregs || !rf_valid[id[RB+4:5]]) ? 32'd0 : rf[id];
        end
        for (g = 0; g < NUM_SP; g = g + 1) begin : reads
            assign rd_a[32 * g +: 32] = ok_a ? rf[base_a + g] : 32'd0;
            assign rd_b[32 * g +: 32] = ok_b ? rf[base_b + g] : 32'd0;
            assign rd_c[32 * g +: 32] = ok_c ? rf[base_c + g] : 32'd0;
            assign rd_s[32 * g +: 32] = ok_s ? rf[base_s + g] : 32'd0;
        end
    endgenerate

    // the lanes of a pass are in one row
    wire [31:0]   wb_base = warp_base + {20'd0, wb_reg, 5'd0} + pass_lane;
    wire          wb_ok = {1'b0, wb_reg} < nregs && wb_base < REG_WORDS;
    wire [RB-1:0] wb_row = wb_base[RB+4:5];
    wire          wb_valid = rf_valid[wb_row];
    wire [31:0]   ld_base = {{(32-WB){1'b0}}, ld_warp} * 32 * {24'd0, nregs};
    wire [16*32-1:0] ld_idx;
    wire [15:0]      ld_ok;
    generate
        for (g = 0; g < 16; g = g + 1) begin : ldw
            assign ld_idx[32 * g +: 32] = ld_base + {24'd0, ld_reg[8 * g +: 8]} * 32 + {27'd0, ld_lane[5 * g +: 5]};
            assign ld_ok[g] = ld_we[g] && ld_reg[8 * g +: 8] < nregs && ld_idx[32 * g +: 32] < REG_WORDS;
        end
    endgenerate
    integer l, w;
    always @(posedge clk) begin
        if (init_clear) rf_valid <= {(REG_WORDS/32){1'b0}};
        if (init_we) begin
            for (l = 0; l < 32; l = l + 1) rf[{{(27-RB){1'b0}}, init_row, 5'd0} + l] <= init_data[32 * l +: 32];
            rf_valid[init_row] <= 1'b1;
        end
        if (wb_ok && wb_mask != {NUM_SP{1'b0}}) begin
            if (!wb_valid)
                for (l = 0; l < 32; l = l + 1) rf[{{(27-RB){1'b0}}, wb_row, 5'd0} + l] <= 32'd0;
            rf_valid[wb_row] <= 1'b1;
        end
        // the lane loops run only in a cycle that writes (an event-driven simulator runs this block
        // every cycle)
        if (wb_ok && wb_mask != {NUM_SP{1'b0}})
            for (w = 0; w < NUM_SP; w = w + 1)
                if (wb_mask[w]) begin
                    case (wb_half)
                        2'd1: rf[wb_base + w] <= {wb_valid ? rf[wb_base + w][31:16] : 16'd0, wb_data[32 * w +: 16]};
                        2'd2: rf[wb_base + w] <= {wb_data[32 * w +: 16], wb_valid ? rf[wb_base + w][15:0] : 16'd0};
                        default: rf[wb_base + w] <= wb_data[32 * w +: 32];
                    endcase
                end
        // the load words: rows not yet written are zeroed first, then every word is written
        if (ld_ok != 16'd0) begin
            for (w = 0; w < 16; w = w + 1)
                if (ld_ok[w] && !rf_valid[ld_idx[32 * w + 5 +: RB]])
                    for (l = 0; l < 32; l = l + 1) rf[{{(27-RB){1'b0}}, ld_idx[32 * w + 5 +: RB], 5'd0} + l] <= 32'd0;
            for (w = 0; w < 16; w = w + 1)
                if (ld_ok[w]) begin
                    rf[ld_idx[32 * w +: 32]] <= ld_data[32 * w +: 32];
                    rf_valid[ld_idx[32 * w + 5 +: RB]] <= 1'b1;
                end
        end
    end
endmodule
