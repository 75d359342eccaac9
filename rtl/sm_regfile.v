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
    output reg  [NUM_SP*32-1:0] rd_a, rd_b, rd_c, rd_s,
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

    // One row a word: a register of a warp's 32 lanes, lane l at [32 * l +: 32] (row = word / 32).
    // A read of the pass's lanes is one row read and one part select: as NUM_SP word reads, each
    // with its own address adder, every change of the warp, pass or register cost an event-driven
    // simulator NUM_SP adds and reads per port (docs/design/rtl.md, "Simulators").
    reg [1023:0]           rf [0:REG_WORDS/32-1];
    reg [REG_WORDS/32-1:0] rf_valid;

    wire [31:0] warp_row = {{(32-WB){1'b0}}, warp} * {24'd0, nregs};   // the warp's first row
    // log2 NUM_SP: a pass's first lane as a concatenation, not a multiply (vvp evaluates a net's
    // multiply on every change of the pass, through its generic arithmetic; docs/design/rtl.md, "Simulators")
    localparam integer SPB = $clog2(NUM_SP);
    wire [31:0] pass_bit = {{(21 - SPB){1'b0}}, pass, {(SPB + 5){1'b0}}};   // the pass's lanes in a row

    // a read of one lane (word index i: row i / 32, lane i % 32); past the allocation, or in a row
    // not yet written, it reads 0
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] ln_base = {{(32-WB){1'b0}}, ln_warp} * 32 * {24'd0, nregs};
    wire [31:0] ln_i0 = ln_base + {25'd0, ln_reg_0} * 32 + {27'd0, ln_lane};
    wire [31:0] ln_i1 = ln_base + {25'd0, ln_reg_1} * 32 + {27'd0, ln_lane};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [1023:0] ln_row0 = rf[ln_i0[RB+4:5]];
    wire [1023:0] ln_row1 = rf[ln_i1[RB+4:5]];
    assign ln_0 = ({1'b0, ln_reg_0} >= nregs || !rf_valid[ln_i0[RB+4:5]]) ? 32'd0 : ln_row0[{27'd0, ln_i0[4:0]} * 32 +: 32];
    assign ln_1 = ({1'b0, ln_reg_1} >= nregs || !rf_valid[ln_i1[RB+4:5]]) ? 32'd0 : ln_row1[{27'd0, ln_i1[4:0]} * 32 +: 32];

    // the rows of the pass's four reads
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] row_a = warp_row + {25'd0, rd_reg_a};
    wire [31:0] row_b = warp_row + {25'd0, rd_reg_b};
    wire [31:0] row_c = warp_row + {25'd0, rd_reg_c};
    wire [31:0] row_s = warp_row + {25'd0, rd_reg_s};
    /* verilator lint_on UNUSEDSIGNAL */
    wire ok_a = {1'b0, rd_reg_a} < nregs && rf_valid[row_a[RB-1:0]];
    wire ok_b = {1'b0, rd_reg_b} < nregs && rf_valid[row_b[RB-1:0]];
    wire ok_c = {1'b0, rd_reg_c} < nregs && rf_valid[row_c[RB-1:0]];
    wire ok_s = {1'b0, rd_reg_s} < nregs && rf_valid[row_s[RB-1:0]];
    wire [1023:0] rrow_a = rf[row_a[RB-1:0]];
    wire [1023:0] rrow_b = rf[row_b[RB-1:0]];
    wire [1023:0] rrow_c = rf[row_c[RB-1:0]];
    wire [1023:0] rrow_s = rf[row_s[RB-1:0]];
    // The pass's lanes of each row selected in a process: as a continuous assign, Icarus builds the
    // variable part select bit by bit (a set_bit per bit, 256 at NUM_SP 8) each time the pass or
    // the row changes, several times a cycle; inside a process it is one word-wise part select.
    always @* rd_a = ok_a ? rrow_a[pass_bit +: NUM_SP*32] : {NUM_SP{32'd0}};
    always @* rd_b = ok_b ? rrow_b[pass_bit +: NUM_SP*32] : {NUM_SP{32'd0}};
    always @* rd_c = ok_c ? rrow_c[pass_bit +: NUM_SP*32] : {NUM_SP{32'd0}};
    always @* rd_s = ok_s ? rrow_s[pass_bit +: NUM_SP*32] : {NUM_SP{32'd0}};

    genvar g;
    generate
        for (g = 0; g < 16; g = g + 1) begin : qreads
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] ia = ln_base + {25'd0, qa_reg[7 * g +: 7]} * 32 + {27'd0, qa_lane[5 * g +: 5]};
            wire [31:0] id = ln_base + {25'd0, qd_reg[7 * g +: 7]} * 32 + {27'd0, qd_lane[5 * g +: 5]};
            /* verilator lint_on UNUSEDSIGNAL */
            wire [1023:0] ra = rf[ia[RB+4:5]];
            wire [1023:0] rd = rf[id[RB+4:5]];
            assign qa[32 * g +: 32] = ({1'b0, qa_reg[7 * g +: 7]} >= nregs || !rf_valid[ia[RB+4:5]]) ? 32'd0 : ra[{27'd0, ia[4:0]} * 32 +: 32];
            assign qd[32 * g +: 32] = ({1'b0, qd_reg[7 * g +: 7]} >= nregs || !rf_valid[id[RB+4:5]]) ? 32'd0 : rd[{27'd0, id[4:0]} * 32 +: 32];
        end
    endgenerate

    // the lanes of a pass are in one row
    wire [31:0]   wb_row32 = warp_row + {25'd0, wb_reg};
    wire          wb_ok = {1'b0, wb_reg} < nregs && wb_row32 < REG_WORDS / 32;
    wire [RB-1:0] wb_row = wb_row32[RB-1:0];
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
    integer w;
    always @(posedge clk) begin
        if (init_clear) rf_valid <= {(REG_WORDS/32){1'b0}};
        if (init_we) begin
            rf[init_row] <= init_data;
            rf_valid[init_row] <= 1'b1;
        end
        // the first write to a row zeroes it (its other lanes read 0, and so does the other half of
        // a half-register write); the lane loop runs only in a cycle that writes part of the pass's
        // lanes (an event-driven simulator runs this block every cycle, and the loop costs a few
        // variable loads a lane): all lanes with full registers, the common case, are one write
        if (wb_ok && wb_mask != {NUM_SP{1'b0}}) begin
            if (!wb_valid) rf[wb_row] <= 1024'd0;
            rf_valid[wb_row] <= 1'b1;
            if (wb_mask == {NUM_SP{1'b1}} && wb_half == 2'd0) rf[wb_row][pass_bit +: NUM_SP*32] <= wb_data;
            else for (w = 0; w < NUM_SP; w = w + 1)
                if (wb_mask[w]) begin
                    case (wb_half)
                        2'd1: rf[wb_row][pass_bit + w * 32 +: 16] <= wb_data[32 * w +: 16];
                        2'd2: rf[wb_row][pass_bit + w * 32 + 16 +: 16] <= wb_data[32 * w +: 16];
                        default: rf[wb_row][pass_bit + w * 32 +: 32] <= wb_data[32 * w +: 32];
                    endcase
                end
        end
        // the load words: rows not yet written are zeroed first, then every word is written
        if (ld_ok != 16'd0) begin
            for (w = 0; w < 16; w = w + 1)
                if (ld_ok[w] && !rf_valid[ld_idx[32 * w + 5 +: RB]]) rf[ld_idx[32 * w + 5 +: RB]] <= 1024'd0;
            for (w = 0; w < 16; w = w + 1)
                if (ld_ok[w]) begin
                    rf[ld_idx[32 * w + 5 +: RB]][{27'd0, ld_idx[32 * w +: 5]} * 32 +: 32] <= ld_data[32 * w +: 32];
                    rf_valid[ld_idx[32 * w + 5 +: RB]] <= 1'b1;
                end
        end
    end
endmodule
