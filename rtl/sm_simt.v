`timescale 1ns / 1ps
// SIMT control: the per-warp reconvergence stack and thread masks, and the barrier unit.
//
// For the warp in execute it computes the next PC and active lanes (written into the warp table)
// in three kinds of step of the execute sequencer (ISA.md 6):
//   X_CTRL    a control instruction: BRA (divergence pushes the fall-through side and runs the
//             taken side first), CAL / PBK / SSY push, RET, BRK, BAR, TRAP;
//   mark      any other instruction, in its last pass or X_MARK: next PC, the exit marker (the
//             active threads finish) and the join marker (pop the top entry: the other side of a
//             branch, or the SSY reconvergence point);
//   X_UNWIND  while no thread is active, pop one entry a cycle and resume its threads.
// After each step it tells the sequencer whether the warp is settled (threads active, waiting at a
// barrier, or nothing left on the stack), and gives the commit unit the PC and lanes after it.
// Threads that left through RET, BRK or the exit marker are kept in per-warp masks so that a pop
// does not revive them. The barrier unit releases a block's waiting warps once every warp of the
// block that has not finished waits.
module sm_simt #(
    parameter integer NUM_WARPS = 24,
    parameter integer STACK_DEPTH = 32,
    parameter integer MAX_BLOCKS = 8,
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer SB = $clog2(STACK_DEPTH)
) (
    input  wire                   clk,
    // launch sweep: one warp slot a cycle
    input  wire                   init_we,
    input  wire [WB-1:0]          init_warp,
    // the instruction in execute
    input  wire [3:0]             x_state,
    input  wire                   take,           // a new instruction enters execute
    input  wire [WB-1:0]          x_warp,
    input  wire [23:0]            x_pc,
    input  wire [31:0]            x_active,       // lanes active at issue
    input  wire [31:0]            guard,
    input  wire                   is_long,
    input  wire [1:0]             marker,
    input  wire [3:0]             ctrl_op,
    input  wire [23:0]            target,
    input  wire                   mark,           // the step of a non-control instruction
    input  wire [23:0]            cur_pc,         // the warp table's PC and active lanes of the warp now
    input  wire [31:0]            cur_active,
    // next PC and active lanes of the warp in execute
    output reg                    pc_we,
    output reg  [23:0]            pc_next,
    output reg                    active_we,
    output reg  [31:0]            active_next,
    output reg                    fault,
    output reg  [3:0]             fault_code,
    output wire                   settled,        // after this step: threads active, barrier, or empty stack
    output wire [23:0]            pc_after,       // PC, active lanes and barrier wait after this step
    output wire [31:0]            active_after,
    output wire                   bar_after,
    // whether the instruction at an SSY target is 64-bit (resume after the join)
    output wire [23:0]            probe_pc,
    input  wire                   probe_long,
    // barrier unit
    input  wire [NUM_WARPS-1:0]   warp_live,
    input  wire [NUM_WARPS-1:0]   warp_bar,
    input  wire [4*NUM_WARPS-1:0] warp_cta,
    output reg  [NUM_WARPS-1:0]   release_bar
);
`include "sm_defs.vh"
`include "sm1_isa.vh"

    reg [31:0] w_exited [0:NUM_WARPS-1];
    reg [31:0] w_broke [0:NUM_WARPS-1];
    reg [31:0] w_ret [0:NUM_WARPS-1];
    reg [SB:0] w_sp [0:NUM_WARPS-1];
    // an entry's kind (E_*) is bit l of the warp's k_hi and k_lo words (l: its stack level), so
    // that "is there a CALL / BREAK entry below the top" is a mask test, not a loop over the stack
    reg [STACK_DEPTH-1:0] k_hi [0:NUM_WARPS-1];
    reg [STACK_DEPTH-1:0] k_lo [0:NUM_WARPS-1];
    reg [23:0] s_pc [0:NUM_WARPS*STACK_DEPTH-1];
    reg [31:0] s_mask [0:NUM_WARPS*STACK_DEPTH-1];

    wire [31:0] xw = {{(32-WB){1'b0}}, x_warp};
    wire [SB:0] sp = w_sp[x_warp];
    wire [31:0] sp32 = {{(31-SB){1'b0}}, sp};
    wire [31:0] exited = w_exited[x_warp], broke = w_broke[x_warp], ret = w_ret[x_warp];
    // the top entry
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] top = xw * STACK_DEPTH + sp32 - 1;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [STACK_DEPTH-1:0] kh = k_hi[x_warp], kl = k_lo[x_warp];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [SB:0] top_level = sp - 1'b1;  // below STACK_DEPTH where read (sp > 0)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [1:0]  top_kind = {kh[top_level[SB-1:0]], kl[top_level[SB-1:0]]};
    wire [23:0] top_pc = s_pc[top];
    wire [31:0] top_mask = s_mask[top];
    assign probe_pc = top_pc;
    reg  bar_wait;  // the instruction in execute is a barrier
    wire unwind_done = cur_active != 32'd0 || bar_wait || sp == 0;  // X_UNWIND: nothing to pop

    // is there a CALL / BREAK entry on the stack (RET returns or exits, BRK needs a PBK): the
    // levels below sp, their kind bits 01 (E_CALL) or 10 (E_BREAK)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [STACK_DEPTH:0]   below_all = ({{STACK_DEPTH{1'b0}}, 1'b1} << sp) - 1'b1;  // bit STACK_DEPTH is never set
    /* verilator lint_on UNUSEDSIGNAL */
    wire [STACK_DEPTH-1:0] below = below_all[STACK_DEPTH-1:0];
    wire has_call = (below & kl & ~kh) != {STACK_DEPTH{1'b0}};
    wire has_break = (below & kh & ~kl) != {STACK_DEPTH{1'b0}};

    // next state of the warp in execute
    wire [31:0] taken = x_active & guard;
    reg         push, pop, bar_set;
    reg  [1:0]  push_kind;
    reg  [23:0] push_pc;
    reg  [31:0] push_mask, exited_next, broke_next, ret_next;
    always @* begin
        pc_we = 1'b0; pc_next = x_pc + 24'd8;
        active_we = 1'b0; active_next = cur_active;
        fault = 1'b0; fault_code = ERR_NONE;
        push = 1'b0; push_kind = E_BRANCH; push_pc = 24'd0; push_mask = 32'd0;
        pop = 1'b0; bar_set = 1'b0;
        exited_next = exited; broke_next = broke; ret_next = ret;
        if (x_state == X_CTRL) begin
            case (ctrl_op)
                SM1_CTRL_BRA: begin
                    pc_we = 1'b1;
                    if (taken == x_active) pc_next = target;
                    else if (taken != 32'd0) begin
                        // divergence: the taken side first, the fall-through waits on the stack
                        if (sp32 == STACK_DEPTH) begin
                            pc_we = 1'b0;
                            fault = 1'b1; fault_code = ERR_OVERFLOW;
                        end else begin
                            push = 1'b1; push_kind = E_BRANCH; push_pc = x_pc + 24'd8; push_mask = x_active & ~taken;
                            active_we = 1'b1; active_next = taken;
                            pc_next = target;
                        end
                    end
                end
                SM1_CTRL_CAL, SM1_CTRL_PBK, SM1_CTRL_SSY: begin
                    if (sp32 == STACK_DEPTH) begin
                        fault = 1'b1; fault_code = ERR_OVERFLOW;
                    end else begin
                        push = 1'b1;
                        push_kind = (ctrl_op == SM1_CTRL_CAL) ? E_CALL : (ctrl_op == SM1_CTRL_PBK) ? E_BREAK : E_JOINAT;
                        push_pc = (ctrl_op == SM1_CTRL_CAL) ? x_pc + 24'd8 : target;
                        push_mask = x_active;
                        pc_we = 1'b1; pc_next = (ctrl_op == SM1_CTRL_CAL) ? target : x_pc + 24'd8;
                    end
                end
                SM1_CTRL_RET: begin  // with a CALL entry the threads return, without one they exit
                    if (has_call) ret_next = ret | taken;
                    else exited_next = exited | taken;
                    active_we = 1'b1; active_next = x_active & ~taken;
                    pc_we = 1'b1;
                end
                SM1_CTRL_BRK: begin
                    if (!has_break) begin fault = 1'b1; fault_code = ERR_STACK; end
                    broke_next = broke | taken;
                    active_we = 1'b1; active_next = x_active & ~taken;
                    pc_we = 1'b1;
                end
                SM1_CTRL_BAR: begin  // arrive and wait
                    bar_set = 1'b1;
                    pc_we = 1'b1;
                end
                SM1_CTRL_TRAP: begin fault = 1'b1; fault_code = ERR_TRAP; end
                default: begin fault = 1'b1; fault_code = ERR_ILLEGAL; end
            endcase
        end else if (mark) begin
            pc_we = 1'b1; pc_next = x_pc + (is_long ? 24'd8 : 24'd4);
            if (is_long && marker == 2'd1) begin  // exit: the active threads finish
                exited_next = exited | x_active;
                active_we = 1'b1; active_next = 32'd0;
            end else if (is_long && marker == 2'd2) begin  // join: pop the top entry
                if (sp == 0) begin fault = 1'b1; fault_code = ERR_STACK; end
                else begin
                    pop = 1'b1;
                    if (top_kind == E_BRANCH) begin
                        pc_next = top_pc;
                        active_we = 1'b1; active_next = top_mask & ~exited;
                    end else if (top_kind == E_JOINAT) begin
                        active_we = 1'b1; active_next = top_mask & ~(exited | broke | ret);
                    end else begin fault = 1'b1; fault_code = ERR_STACK; end
                end
            end
        end else if (x_state == X_UNWIND && !unwind_done) begin
            // no thread active: resume pending work from the stack, one entry a cycle
            pop = 1'b1;
            pc_we = 1'b1; pc_next = top_pc;
            active_we = 1'b1;
            case (top_kind)
                E_BRANCH: active_next = top_mask & ~exited;
                E_JOINAT: begin
                    active_next = top_mask & ~(exited | broke | ret);
                    // resume after the join instruction at the SSY target
                    pc_next = top_pc + (probe_long ? 24'd8 : 24'd4);
                end
                E_BREAK: begin
                    broke_next = broke & ~top_mask;
                    active_next = top_mask & ~(exited | ret);
                end
                default: begin  // E_CALL
                    ret_next = ret & ~top_mask;
                    active_next = top_mask & ~exited;
                end
            endcase
        end
    end

    wire [SB:0] sp_after = push ? sp + 1 : pop ? sp - 1 : sp;
    assign pc_after = pc_we ? pc_next : cur_pc;
    assign active_after = active_we ? active_next : cur_active;
    assign bar_after = bar_wait || bar_set;
    assign settled = active_after != 32'd0 || bar_after || sp_after == 0;

    // Whether the block below changes anything: in a cycle with none of these (most cycles) it
    // leaves every register as it is. The block tests this once, not each of its conditions every
    // cycle (about 9 variable loads a cycle under Icarus). bar_wait, which has no reset, is written
    // every cycle.
    always @(posedge clk) bar_wait <= !take && bar_after;
    wire busy_now = init_we || push || pop || exited_next != exited || broke_next != broke || ret_next != ret;
    always @(posedge clk) if (busy_now) begin
        if (init_we) begin
            w_exited[init_warp] <= 32'd0;
            w_broke[init_warp] <= 32'd0;
            w_ret[init_warp] <= 32'd0;
            w_sp[init_warp] <= {(SB+1){1'b0}};
        end
        // the finished-thread masks are written only when they change (a RET, BRK, exit or pop; the
        // next-state process leaves them as they are otherwise): an array write wakes every read
        // port of the array in an event-driven simulator, even with the same value
        if (exited_next != exited) w_exited[x_warp] <= exited_next;
        if (broke_next != broke) w_broke[x_warp] <= broke_next;
        if (ret_next != ret) w_ret[x_warp] <= ret_next;
        if (push) begin
            k_hi[x_warp][sp[SB-1:0]] <= push_kind[1];
            k_lo[x_warp][sp[SB-1:0]] <= push_kind[0];
            s_pc[xw * STACK_DEPTH + sp32] <= push_pc;
            s_mask[xw * STACK_DEPTH + sp32] <= push_mask;
            w_sp[x_warp] <= sp + 1;
        end
        if (pop) w_sp[x_warp] <= sp - 1;
    end

    // barrier: a block's warps go on when every warp of it that has not finished waits
    reg [NUM_WARPS-1:0] in_block;
    integer b, w;
    always @* begin
        release_bar = {NUM_WARPS{1'b0}};
        in_block = {NUM_WARPS{1'b0}};
        if (warp_bar != {NUM_WARPS{1'b0}})  // none waits: nothing to release, no loop
        for (b = 0; b < MAX_BLOCKS; b = b + 1) begin
            for (w = 0; w < NUM_WARPS; w = w + 1) in_block[w] = warp_cta[4 * w +: 4] == b[3:0];
            if ((warp_live & in_block) != 0 && (warp_live & in_block & ~warp_bar) == 0)
                release_bar = release_bar | (warp_bar & in_block);
        end
    end
endmodule
