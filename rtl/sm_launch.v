`timescale 1ns / 1ps
// Grid control: the launch registers, block dispatch in rounds, the launch sweep, done and error,
// and the SM clock.
//
// A round holds as many blocks as fit (blocks, warps, registers and shared memory: docs/design/rtl.md, "Modules").
// Before it runs, the launch state of DESIGN.md 3 is set up in time proportional to what the round
// uses. In its first cycle (init_clear) the register file and shared memory mark every row
// unwritten, and an unwritten row reads zero. Then a sweep takes one step a cycle: step w hands the
// register file R0 of warp w (the thread index of its 32 lanes) and the warp table, flag, address
// and SIMT units warp slot w (ready, with its block and lanes), for the round's warps; and shared
// memory one 16-byte row of a block's header and parameters, block after block. Slots past the
// round's warps are not touched: every warp of the previous round is done (or, after reset, free),
// so none of them is picked. The round runs from the cycle after the last step until none of its
// warps is left.
module sm_launch #(
    parameter integer NUM_WARPS = 24,
    parameter integer REG_WORDS = 8192,
    parameter integer MAX_BLOCKS = 8,
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer RB = $clog2(REG_WORDS / 32),           // register file rows
    localparam integer SR = $clog2(MAX_BLOCKS * 16384 / 16)   // shared memory rows
) (
    input  wire          clk,
    input  wire          rst_n,
    // configuration bus: the launch registers are cfg_sel 2
    input  wire          cfg_we,
    input  wire [1:0]    cfg_sel,
    input  wire [6:0]    cfg_addr,
    input  wire [31:0]   cfg_wdata,
    input  wire          start,
    output reg           done,
    output reg  [3:0]    error,
    output reg  [23:0]   error_pc,
    output reg  [4:0]    error_warp,
    output reg  [31:0]   cycle,          // the SM clock (SR1)
    // a fault of the instruction in execute
    input  wire          fault,
    input  wire [3:0]    fault_code,
    input  wire [23:0]   fault_pc,
    input  wire [4:0]    fault_warp,
    // the round is over when none of its warps is left and nothing is fetched or in execute
    input  wire          warps_live,
    input  wire          exec_idle,
    output wire          run,            // the round runs and no error stopped it: fetch may issue
    // launch geometry
    output wire [7:0]    nregs,
    output wire [31:0]   local_bytes,
    // the sweep
    output wire          init_clear,     // a round starts: register file and shared memory rows read zero until written
    output wire          rf_init_we,
    output wire [RB-1:0] rf_init_row,
    output reg  [1023:0] rf_init_data,
    output wire          warp_init_we,
    output wire [WB-1:0] warp_init_warp,
    output wire [3:0]    warp_init_cta,
    output reg  [31:0]   warp_init_active,
    output wire          sh_init_we,
    output wire [SR-1:0] sh_init_row,
    output reg  [127:0]  sh_init_data
);
`include "sm_defs.vh"

    localparam [2:0] T_IDLE = 3'd0, T_ROUND = 3'd1, T_INIT = 3'd2, T_RUN = 3'd3, T_DONE = 3'd4;

    // launch registers (LR_*, golden/g80/hw.py LaunchReg): grid x/y, block x/y/z, registers per thread,
    // user shared bytes, parameter bytes, local bytes per thread, then the parameter words
    reg [31:0] lreg [0:79];
    always @(posedge clk) if (cfg_we && cfg_sel == CFG_LAUNCH) lreg[cfg_addr] <= cfg_wdata;

    wire [15:0] bx = lreg[LR_BLOCK_X][15:0], by = lreg[LR_BLOCK_Y][15:0], bz = lreg[LR_BLOCK_Z][15:0];
    assign nregs = lreg[LR_REGISTERS][7:0];
    assign local_bytes = lreg[LR_LOCAL_BYTES];
    wire [31:0] threads = bx * by * bz;
    wire [31:0] wpb = (threads + 32'd31) >> 5;                       // warps per block
    wire [31:0] shared_per_block = 32'd16 + lreg[LR_PARAM_BYTES] + lreg[LR_SHARED];
    wire [31:0] nblocks = lreg[LR_GRID_X] * lreg[LR_GRID_Y];

    // blocks per round: limited by blocks, warps, registers and shared memory
    reg [31:0] fit;
    always @* begin
        fit = MAX_BLOCKS;
        if (NUM_WARPS / wpb < fit) fit = NUM_WARPS / wpb;
        if (REG_WORDS / (wpb * 32 * nregs) < fit) fit = REG_WORDS / (wpb * 32 * nregs);
        if (SHARED_BYTES / shared_per_block < fit) fit = SHARED_BYTES / shared_per_block;
    end

    reg [2:0]  t_state;
    reg [31:0] per_round, next_block, round_blocks;
    reg [31:0] init_i;         // sweep step
    reg [31:0] sh_slot, sh_k;  // the block slot and row of its window that the sweep writes
    // The sweep's other indices are counted, not divided out of init_i (a division or remainder of
    // the event-driven simulation would be redone every step): warp init_i is warp wib of block slot
    // blk, its R0 is register file row r0_row, lanes_left threads of its block are left from its lane 0
    // on, and (tx, ty, tz) is the thread index of its lane 0. (cx, cy) is the block index (ctaid) of
    // the grid's block next_block + sh_slot, advanced with sh_slot up to the end of the round, so
    // that it is the next round's first block in the next T_ROUND.
    reg [31:0] wib, blk, r0_row, lanes_left;
    reg [15:0] tx, ty;
    reg [31:0] tz;
    reg [31:0] cx, cy;
    wire       warp_wrap = wib + 32'd1 == wpb;  // the sweep's warp is the last of its block
    wire [15:0] tx_next, ty_next;               // the thread index of lane 32 (the next warp's lane 0)
    wire [31:0] tz_next;
    wire [31:0] round_warps = round_blocks * wpb;
    wire [31:0] sh_rows = 32'd1 + ((lreg[LR_PARAM_BYTES] + 32'd15) >> 4);         // header and parameter rows of a block
    wire [31:0] sweep_steps = (round_warps > round_blocks * sh_rows) ? round_warps : round_blocks * sh_rows;
    wire sweep_last = init_i + 32'd1 >= sweep_steps;

    assign run = t_state == T_RUN && error == ERR_NONE;

    always @(posedge clk) begin
        if (!rst_n) begin
            t_state <= T_IDLE;
            done <= 1'b0;
            error <= ERR_NONE;
            error_pc <= 24'd0;
            error_warp <= 5'd0;
            cycle <= 32'd0;
        end else begin
            cycle <= cycle + 32'd1;
            case (t_state)
                T_IDLE: if (start) begin
                    done <= 1'b0;
                    error <= ERR_NONE;
                    next_block <= 32'd0;
                    cx <= 32'd0;
                    cy <= 32'd0;
                    per_round <= fit;
                    if (fit == 0 || threads == 0 || threads > 512 || nregs == 0 || nregs > 128) begin
                        error <= ERR_LAUNCH;
                        t_state <= T_DONE;
                    end else t_state <= T_ROUND;
                end
                T_ROUND: begin
                    if (next_block >= nblocks) t_state <= T_DONE;
                    else begin
                        round_blocks <= (nblocks - next_block < per_round) ? nblocks - next_block : per_round;
                        init_i <= 32'd0;
                        sh_slot <= 32'd0;
                        sh_k <= 32'd0;
                        wib <= 32'd0;
                        blk <= 32'd0;
                        r0_row <= 32'd0;
                        lanes_left <= threads;
                        tx <= 16'd0;
                        ty <= 16'd0;
                        tz <= 32'd0;
                        t_state <= T_INIT;
                    end
                end
                T_INIT: begin
                    init_i <= init_i + 32'd1;
                    r0_row <= r0_row + {24'd0, nregs};
                    if (warp_wrap) begin
                        wib <= 32'd0;
                        blk <= blk + 32'd1;
                        lanes_left <= threads;
                        tx <= 16'd0;
                        ty <= 16'd0;
                        tz <= 32'd0;
                    end else begin
                        wib <= wib + 32'd1;
                        lanes_left <= lanes_left - 32'd32;
                        tx <= tx_next;
                        ty <= ty_next;
                        tz <= tz_next;
                    end
                    if (sh_k + 32'd1 == sh_rows) begin
                        sh_k <= 32'd0;
                        sh_slot <= sh_slot + 32'd1;
                        if (sh_slot < round_blocks) begin  // the next block of the grid
                            if (cx + 32'd1 == lreg[LR_GRID_X]) begin
                                cx <= 32'd0;
                                cy <= cy + 32'd1;
                            end else cx <= cx + 32'd1;
                        end
                    end else sh_k <= sh_k + 32'd1;
                    if (sweep_last) t_state <= T_RUN;
                end
                T_RUN: begin
                    if (!warps_live && exec_idle) begin
                        next_block <= next_block + round_blocks;
                        t_state <= T_ROUND;
                    end
                end
                T_DONE: begin
                    done <= 1'b1;
                    if (start) t_state <= T_IDLE;
                end
                default: t_state <= T_IDLE;
            endcase
            if (fault) begin
                error <= fault_code;
                error_pc <= fault_pc;
                error_warp <= fault_warp;
            end
        end
    end

    // ---- the sweep

    wire sweeping = t_state == T_INIT;
    assign init_clear = t_state == T_ROUND && next_block < nblocks;

    // register file: R0 = (tid.z << 26 | tid.y << 16 | tid.x) of the 32 lanes of warp init_i (row
    // warp * registers per thread); the other registers are rows that read zero
    assign rf_init_we = sweeping && init_i < round_warps;
    assign rf_init_row = r0_row[RB-1:0];  // warp init_i * registers per thread
    // thread index of lane l: lane 0's, counted up lane by lane (x up to block x, then y, then z)
    reg  [15:0] lx, ly;
    reg  [31:0] lz;
    integer l;
    always @* begin
        lx = tx; ly = ty; lz = tz;
        for (l = 0; l < 32; l = l + 1) begin
            rf_init_data[32 * l +: 32] = (lanes_left > l) ? {16'd0, lx} | ({16'd0, ly} << 16) | (lz << 26) : 32'd0;
            if (lx + 16'd1 == bx) begin
                lx = 16'd0;
                if (ly + 16'd1 == by) begin
                    ly = 16'd0;
                    lz = lz + 32'd1;
                end else ly = ly + 16'd1;
            end else lx = lx + 16'd1;
        end
    end
    assign tx_next = lx;
    assign ty_next = ly;
    assign tz_next = lz;

    // warp slots: the round's warps are ready, block after block
    assign warp_init_we = sweeping && init_i < round_warps;
    assign warp_init_warp = init_i[WB-1:0];
    assign warp_init_cta = blk[3:0];  // a block slot: 4 bits
    always @* warp_init_active = (lanes_left >= 32) ? 32'hffffffff : ((32'd1 << lanes_left) - 32'd1);

    // shared memory: row sh_k of block slot sh_slot's window, the header (row 0) or parameters
    // (rows 1-16); the rest of the window reads zero
    assign sh_init_we = sweeping && sh_slot < round_blocks;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] sh_row = sh_slot * (SHARED_BYTES / 16) + sh_k;  // a shared memory row: SR bits
    /* verilator lint_on UNUSEDSIGNAL */
    assign sh_init_row = sh_row[SR-1:0];
    integer j;
    always @* begin
        sh_init_data = 128'd0;
        if (sh_k == 32'd0)
            sh_init_data = {cy[15:0], cx[15:0], lreg[LR_GRID_Y][15:0], lreg[LR_GRID_X][15:0], bz, by, bx, 16'd0};
        else if (sh_k <= 32'd16)
            for (j = 0; j < 4; j = j + 1)
                if ((sh_k - 1) * 16 + j * 4 < lreg[LR_PARAM_BYTES]) sh_init_data[32 * j +: 32] = lreg[{25'd0, LR_PARAMS} + (sh_k - 1) * 4 + j];
    end
endmodule
