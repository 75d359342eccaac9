`timescale 1ns / 1ps
// Execute sequencer: steps the instruction in execute through its states and merges the faults.
//
//   X_IDLE     take the fetched instruction (warp, PC, active lanes at issue)
//   X_PASS     32/NUM_SP passes of NUM_SP lanes: operands, ALUs, write-back (sm_operands,
//              sm_execute); the last pass also does the SIMT step of X_MARK; a control
//              instruction goes to X_CTRL after the checks of its first pass. A pass of an SFU
//              or RRO instruction takes NUM_SP/NUM_SFU cycles (sub-steps x_sub, NUM_SFU lanes
//              each through the shared SFUs)
//   X_MEM      global/local: the memory unit streams the requests of the executing lanes ...
//   X_MEMWAIT  ... until the last one is accepted; a global load that the memory unit takes into
//              the background (its streamer or its queue) does its SIMT step and parks in X_MEM
//   X_MARK     next PC, exit and join markers after a memory access (sm_simt)
//   X_CTRL     control instruction (sm_simt)
//   X_UNWIND   pop the SIMT stack, one entry a cycle, while no thread is active (sm_simt)
//   X_HALT     a fault stopped the SM (the `error` port)
//
// A load that executes in some lane does not wait for its data in execute: in its last step it
// parks (`park`): its load slot (sm_mem_unit, sm_commit) keeps its commit record, its warp waits
// (W_LOAD) until the last response is in and the record goes out, and the next instruction enters.
// A parked load's record goes out in a cycle where no instruction retires; while one is ready, a
// retiring instruction does not take the next one, so that the following cycle is free for it.
//
// An instruction retires (its commit record goes out, its warp becomes ready, waits at a barrier
// or is done) in the same cycle as its last step (the last pass, X_MARK, X_CTRL or X_UNWIND) once
// the SIMT state is settled, and the next fetched instruction enters X_PASS in that cycle: with
// two or more ready warps one warp-instruction issues every 32/NUM_SP cycles (SFU/RRO: every
// 32/NUM_SFU cycles), and records may go out in consecutive cycles.
module sm_exec_ctrl #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_SFU = NUM_SP / 4,
    parameter integer NUM_WARPS = 24,
    parameter integer IMEM_WORDS = 16384,
    localparam integer WB = $clog2(NUM_WARPS)
) (
    input  wire          clk,
    input  wire          rst_n,
    // the fetch buffer and its warp's table entries
    input  wire          f_valid,
    input  wire [WB-1:0] f_warp,
    input  wire [63:0]   f_insn,
    input  wire [23:0]   f_pc,
    input  wire [31:0]   f_active,
    output wire          take,
    output wire          idle,          // nothing in execute and nothing fetched
    // the instruction in execute
    output reg  [3:0]    x_state,
    output reg  [WB-1:0] x_warp,
    output reg  [63:0]   x_insn,
    output reg  [23:0]   x_pc,
    output reg  [31:0]   x_active,      // lanes active at issue
    output reg  [31:0]   x_exec,        // lanes that execute (guard true)
    output reg  [5:0]    x_pass,
    output reg  [5:0]    x_sub,         // sub-step of an SFU pass
    output wire          pass_exec,     // X_PASS of an instruction that executes its lanes
    output wire          mem_start,     // the last pass of a global/local access
    // from decode
    input  wire          illegal,
    input  wire          is_long,
    input  wire          is_ctrl,
    input  wire          unimpl,
    input  wire [1:0]    unit,          // U_SFU: an SFU or RRO instruction, NUM_SFU lanes a cycle
    input  wire [2:0]    wb_kind,
    input  wire          ls_store,
    input  wire [31:0]   guard,
    // from the units
    input  wire          lane_fault,    // a lane's operand or store address is out of range
    input  wire          mem_last,      // the memory unit issues its last request
    input  wire          mem_drained,   // the last request has been accepted (in X_MEM: the instruction left to the background)
    input  wire          simt_fault,
    input  wire [3:0]    simt_fault_code,
    input  wire          settled,       // after this cycle's SIMT step the warp has active threads, waits, or its stack is empty
    output wire          mark,          // SIMT step of a non-control instruction (next PC, markers)
    output wire          retire,
    output wire          park,          // a load leaves execute; its record waits in its load slot
    input  wire          cpl_wait,      // a parked load's record is ready to go out
    output wire [31:0]   exec_mask,     // the retiring instruction's executing lanes
    // to the error register
    output reg           fault,
    output reg  [3:0]    fault_code,
    output wire [4:0]    fault_warp
);
`include "sm_defs.vh"

    localparam integer PASSES = 32 / NUM_SP;
    localparam integer SFU_STEPS = NUM_SP / NUM_SFU;

    assign idle = x_state == X_IDLE && !f_valid;
    assign fault_warp = {{(5-WB){1'b0}}, x_warp};

    wire pc_outside = {10'd0, x_pc[23:2]} >= IMEM_WORDS - (is_long ? 1 : 0);  // the instruction memory
    wire pass_done = unit != U_SFU || {26'd0, x_sub} == SFU_STEPS - 1;  // the last sub-step of the pass
    wire first_step = x_pass == 6'd0 && x_sub == 6'd0;
    wire last_pass = {26'd0, x_pass} == PASSES - 1 && pass_done;
    assign pass_exec = x_state == X_PASS && !pc_outside && !illegal && !is_ctrl;
    assign mem_start = pass_exec && last_pass && wb_kind == WB_MEM && !unimpl;
    // a memory instruction left to the memory unit's background (mem_last with mem_drained: nothing
    // of it is left for execute to wait for) takes its SIMT step in X_MEM
    wire mem_gone = x_state == X_MEM && mem_last && mem_drained;
    assign mark = (pass_exec && last_pass && !mem_start) || x_state == X_MARK || mem_gone;

    // retire in the last step when the SIMT state is settled, else unwind
    wire last_step = mark || x_state == X_CTRL || x_state == X_UNWIND;
    wire finish = !fault && last_step && settled;
    wire parking = wb_kind == WB_MEM && !ls_store && !unimpl && x_exec != 32'd0;
    assign retire = finish && !parking;
    assign park = finish && parking;
    assign take = f_valid && (x_state == X_IDLE || park || (retire && !cpl_wait));
    wire [3:0] after_step = settled ? X_IDLE : X_UNWIND;
    // the guard is read in the first step (of a control instruction: in X_CTRL), later from x_exec
    assign exec_mask = (x_state == X_CTRL || (x_state == X_PASS && first_step)) ? x_active & guard : x_exec;

    always @* begin
        fault = 1'b0;
        fault_code = ERR_NONE;
        if (x_state == X_PASS && (pc_outside || illegal)) begin fault = 1'b1; fault_code = ERR_ILLEGAL; end
        else if (pass_exec && lane_fault) begin fault = 1'b1; fault_code = ERR_FAULT; end
        else if (simt_fault) begin fault = 1'b1; fault_code = simt_fault_code; end
    end

    // the sequencer (an error stops it)
    always @(posedge clk) begin
        if (!rst_n) x_state <= X_IDLE;
        else if (fault) x_state <= X_HALT;
        else begin
            case (x_state)
                X_PASS: begin
                    if (first_step) x_exec <= x_active & guard;
                    if (is_ctrl) x_state <= X_CTRL;
                    else if (!pass_done) x_sub <= x_sub + 6'd1;
                    else begin
                        if (last_pass) x_state <= mem_start ? X_MEM : after_step;
                        x_pass <= x_pass + 6'd1;
                        x_sub <= 6'd0;
                    end
                end
                X_MEM: if (mem_last) x_state <= mem_drained ? after_step : X_MEMWAIT;
                X_MEMWAIT: if (mem_drained) x_state <= X_MARK;
                X_CTRL: begin
                    x_exec <= x_active & guard;
                    x_state <= after_step;
                end
                X_MARK, X_UNWIND: x_state <= after_step;
                default: ;  // X_IDLE waits for an instruction, X_HALT for a reset
            endcase
            if (take) begin
                x_warp <= f_warp;
                x_insn <= f_insn[0] ? f_insn : {32'd0, f_insn[31:0]};
                x_pc <= f_pc;
                x_active <= f_active;
                x_pass <= 6'd0;
                x_sub <= 6'd0;
                x_state <= X_PASS;
            end
        end
    end
endmodule
