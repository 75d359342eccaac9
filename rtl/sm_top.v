`timescale 1ns / 1ps
`include "sm_commit_port.vh"
// The SM: instances of its units and their wiring (docs/design/rtl.md has the ports, how an instruction
// flows and which module owns what). Semantics are the g80 profile of ../shared/reference/ISA.md. One
// instruction per warp is in flight; a warp's instructions commit in its program order, and a load
// waiting for its data (parked in a load slot) lets other warps' instructions commit before it.
module sm_top #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_SFU = NUM_SP / 4,  // SFU lanes, shared by the NUM_SP lanes (G80: 2 per 8 SPs); divides NUM_SP
    parameter integer NUM_WARPS = 24,
    parameter integer REG_WORDS = 8192,
    parameter integer MAX_BLOCKS = 8,
    parameter integer STACK_DEPTH = 32,
    parameter integer IMEM_WORDS = 16384,
    parameter integer CMEM_WORDS = 16384,  // 64 KiB per constant bank, as on G80
    parameter integer NUM_LSLOTS = 4       // loads whose data may be outstanding at once (each of its own warp)
) (
    input  wire          clk,
    input  wire          rst_n,
    // configuration bus
    input  wire          cfg_we,
    input  wire [1:0]    cfg_sel,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [19:0]   cfg_addr,     // bits above the instruction and constant memory sizes are ignored
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [31:0]   cfg_wdata,
    input  wire          start,
    output wire          done,
    output wire [3:0]    error,
    output wire [23:0]   error_pc,
    output wire [4:0]    error_warp,
    // memory port
    output wire          mem_req_valid,
    input  wire          mem_req_ready,
    output wire          mem_req_we,
    output wire          mem_req_local,
    output wire [31:0]   mem_req_addr,   // an aligned 64-byte line
    output wire [63:0]   mem_req_be,
    output wire [511:0]  mem_req_wdata,
    output wire [13 + (NUM_LSLOTS > 1 ? $clog2(NUM_LSLOTS) : 1):0] mem_req_tag,  // load slot, coalesced, line offset, part, lane
    input  wire          mem_rsp_valid,
    input  wire [13 + (NUM_LSLOTS > 1 ? $clog2(NUM_LSLOTS) : 1):0] mem_rsp_tag,
    input  wire [511:0]  mem_rsp_data,
    // commit port: its fields and widths are golden/g80/hw.py COMMIT_FIELDS (docs/design/rtl.md, "Ports")
    `SM_COMMIT_PORTS(output wire),
    `SM_COMMIT_PACKED_PORT(output wire)  // the testbench's copy of the narrow commit fields (docs/design/rtl.md, "Ports")
);

    localparam integer WB = $clog2(NUM_WARPS);
    localparam integer IW = $clog2(IMEM_WORDS);
    localparam integer CW = $clog2(CMEM_WORDS);
    localparam integer CA = CW + 4;                             // constant word address: bank and word
    localparam integer RB = $clog2(REG_WORDS / 32);             // register file rows
    localparam integer SR = $clog2(MAX_BLOCKS * 16384 / 16);    // shared memory rows
    localparam integer LSB = NUM_LSLOTS > 1 ? $clog2(NUM_LSLOTS) : 1;

    // launch
    wire [31:0]            cycle;  // the SM clock (SR1; the testbench reads it)
    wire [7:0]             nregs;
    wire [31:0]            local_bytes;
    wire                   run;
    wire                   init_clear, rf_init_we, warp_init_we, sh_init_we;
    wire [RB-1:0]          rf_init_row;
    wire [1023:0]          rf_init_data;
    wire [WB-1:0]          warp_init_warp;
    wire [3:0]             warp_init_cta;
    wire [31:0]            warp_init_active;
    wire [SR-1:0]          sh_init_row;
    wire [127:0]           sh_init_data;
    // warp table and fetch
    wire                   f_valid, warps_live;
    wire [WB-1:0]          f_warp;
    wire [63:0]            f_insn;
    wire [23:0]            f_pc, x_warp_pc;
    wire [31:0]            f_active, x_warp_active, x_warp_seq;
    wire [3:0]             x_warp_cta;
    wire [NUM_WARPS-1:0]   warp_live, warp_bar;
    wire [4*NUM_WARPS-1:0] warp_cta;
    wire                   probe_long;
    // execute sequencer
    wire                   take, exec_idle, pass_exec, mem_start, mark, retire, fault;
    wire [3:0]             x_state, fault_code;
    wire [WB-1:0]          x_warp;
    wire [63:0]            x_insn;
    wire [23:0]            x_pc;
    wire [31:0]            x_active, x_exec, exec_mask;
    wire [5:0]             x_pass, x_sub;
    wire [4:0]             fault_warp;
    // decode bundle
    /* verilator lint_off UNUSEDSIGNAL */
    wire [6:0]             d_form;    // not needed by the datapath: kept to show the form and family in waveforms
    wire [5:0]             d_family;
    /* verilator lint_on UNUSEDSIGNAL */
    wire                   d_illegal, d_long, d_unimpl;
    wire [4:0]             d_pcond;
    wire [1:0]             d_preg, d_marker, d_cdst, d_dst_kind;
    wire                   d_cwe;
    wire [6:0]             d_dst_idx;
    wire [3:0]             d_a_kind, d_b_kind, d_c_kind;
    wire [31:0]            d_a_val, d_b_val, d_c_val;
    wire [15:0]            d_a_off, d_b_off, d_c_off;
    wire [2:0]             d_a_size, d_b_size, d_c_size;
    wire                   d_a_sgn, d_b_sgn, d_c_sgn;
    wire [3:0]             d_a_bank, d_b_bank, d_c_bank;
    wire [2:0]             d_mem_areg;
    wire                   d_mem_postinc;
    wire [1:0]             d_mem_slot;
    wire [3:0]             d_alu_op, d_alu_kind;
    wire [1:0]             d_alu_addop, d_alu_lop, d_alu_dst_bits;
    wire                   d_alu_wide, d_alu_sgn, d_alu_sat, d_alu_s1, d_alu_s2, d_alu_not1, d_alu_not2;
    wire [2:0]             d_alu_cond, d_alu_src_type;
    wire                   d_alu_dst_full, d_alu_abs, d_alu_neg, d_carry_reg;
    wire [1:0]             d_unit, d_fp_rnd;
    wire [3:0]             d_fp_op, d_fp_cond;
    wire [2:0]             d_sfu_op, d_fp_src_type;
    wire                   d_fp_sat, d_fp_rint, d_fp_wide, d_fp_src32, d_fp_sgn;
    wire                   d_fp_abs_a, d_fp_neg_a, d_fp_abs_b, d_fp_neg_b, d_fp_neg_c;
    wire [2:0]             d_wb_kind, d_adst;
    wire [15:0]            d_anum;
    wire [4:0]             d_ls_bytes;
    wire                   d_ls_sgn, d_ls_store, d_ls_local, d_ls_half;
    wire [6:0]             d_ls_reg, d_ls_addr_reg;
    wire [15:0]            d_ls_off;
    wire                   d_is_ctrl;
    wire [3:0]             d_ctrl_op;
    wire [23:0]            d_target;
    // register files
    wire [511:0]           cc_regs;
    wire [4095:0]          a_regs;
    wire [6:0]             rf_reg_a, rf_reg_b, rf_reg_c, rf_reg_s, m_rf_reg_addr, m_rf_reg_data;
    wire [NUM_SP*32-1:0]   rf_a, rf_b, rf_c, rf_s;
    wire [4:0]             m_rf_lane;
    wire [31:0]            m_rf_addr, m_rf_data;
    // operands
    wire [NUM_SP*14-1:0]   sh_addr_a, sh_addr_b, sh_addr_c;
    wire [NUM_SP*32-1:0]   sh_a, sh_b, sh_c, cm_a, cm_b, cm_c;
    wire [NUM_SP*CA-1:0]   cm_addr_a, cm_addr_b, cm_addr_c;
    wire [NUM_SP*32-1:0]   opa, opb, opc;
    wire [NUM_SP-1:0]      cin, oob;
    wire [31:0]            guard;
    // write-back of a pass
    wire [NUM_SP-1:0]      gpr_mask, cc_mask, a_mask, inc_mask, rec_a_mask, st_mask, la_mask;
    wire [6:0]             gpr_reg;
    wire [1:0]             gpr_half;
    wire [NUM_SP*32-1:0]   gpr_data, st_addr, st_data, st_rec_data, la_addr;
    wire [NUM_SP*4-1:0]    cc_data;
    wire [NUM_SP*16-1:0]   a_data, inc_data, rec_a_data;
    wire [2:0]             rec_a_reg;
    wire                   lane_fault;
    // memory unit
    wire                   mem_last, mem_drained;
    wire [15:0]            ld_we, sr_we;
    wire [16*8-1:0]        ld_reg;
    wire [16*5-1:0]        ld_lane, sr_lane, qa_lane, qd_lane;
    wire [16*2-1:0]        ld_part, sr_part;
    wire [16*32-1:0]       ld_data, sr_addr, sr_data, qa, qd;
    wire [16*7-1:0]        qa_reg, qd_reg;
    wire                   park, alloc, cpl_wait, cpl_fire;
    wire [LSB-1:0]         alloc_slot, cur_slot, cpl_slot, ld_slot;
    wire [NUM_LSLOTS-1:0]  slot_drained;
    wire [WB-1:0]          ld_warp, cpl_warp, m_rf_warp;
    wire [2:0]             cpl_state;
    // SIMT unit
    wire                   pc_we, active_we, simt_fault, settled, bar_after;
    wire [23:0]            pc_next, pc_after, probe_pc;
    wire [31:0]            active_next, active_after;
    wire [3:0]             simt_fault_code;
    wire [NUM_WARPS-1:0]   release_bar;
    // commit unit
    wire [2:0]             retire_state;

    // ---- launch: rounds, sweep, done / error, the clock

    sm_launch #(.NUM_WARPS(NUM_WARPS), .REG_WORDS(REG_WORDS), .MAX_BLOCKS(MAX_BLOCKS)) u_launch (
        .clk(clk), .rst_n(rst_n),
        .cfg_we(cfg_we), .cfg_sel(cfg_sel), .cfg_addr(cfg_addr[6:0]), .cfg_wdata(cfg_wdata),
        .start(start), .done(done), .error(error), .error_pc(error_pc), .error_warp(error_warp), .cycle(cycle),
        .fault(fault), .fault_code(fault_code), .fault_pc(x_pc), .fault_warp(fault_warp),
        .warps_live(warps_live), .exec_idle(exec_idle), .run(run), .nregs(nregs), .local_bytes(local_bytes),
        .init_clear(init_clear), .rf_init_we(rf_init_we), .rf_init_row(rf_init_row), .rf_init_data(rf_init_data),
        .warp_init_we(warp_init_we), .warp_init_warp(warp_init_warp),
        .warp_init_cta(warp_init_cta), .warp_init_active(warp_init_active),
        .sh_init_we(sh_init_we), .sh_init_row(sh_init_row), .sh_init_data(sh_init_data)
    );

    // ---- warp table, scheduler, fetch

    sm_warp_sched #(.NUM_WARPS(NUM_WARPS), .IMEM_WORDS(IMEM_WORDS)) u_sched (
        .clk(clk), .rst_n(rst_n),
        .cfg_we(cfg_we), .cfg_sel(cfg_sel), .cfg_addr(cfg_addr[IW-1:0]), .cfg_wdata(cfg_wdata), .run(run),
        .init_we(warp_init_we), .init_warp(warp_init_warp), .init_cta(warp_init_cta),
        .init_active(warp_init_active),
        .f_valid(f_valid), .f_warp(f_warp), .f_insn(f_insn), .f_pc(f_pc), .f_active(f_active), .take(take),
        .x_warp(x_warp), .x_warp_pc(x_warp_pc), .x_warp_active(x_warp_active), .x_warp_cta(x_warp_cta),
        .x_warp_seq(x_warp_seq),
        .pc_we(pc_we), .pc_next(pc_next), .active_we(active_we), .active_next(active_next),
        .retire(retire), .retire_state(retire_state),
        .park(park), .cpl_we(cpl_fire), .cpl_warp(cpl_warp), .cpl_state(cpl_state),
        .warp_live(warp_live), .any_live(warps_live), .warp_bar(warp_bar), .warp_cta(warp_cta), .release_bar(release_bar),
        .probe_pc(probe_pc), .probe_long(probe_long)
    );

    // ---- execute sequencer

    sm_exec_ctrl #(.NUM_SP(NUM_SP), .NUM_SFU(NUM_SFU), .NUM_WARPS(NUM_WARPS), .IMEM_WORDS(IMEM_WORDS)) u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .f_valid(f_valid), .f_warp(f_warp), .f_insn(f_insn), .f_pc(f_pc), .f_active(f_active), .take(take), .idle(exec_idle),
        .x_state(x_state), .x_warp(x_warp), .x_insn(x_insn), .x_pc(x_pc), .x_active(x_active), .x_exec(x_exec),
        .x_pass(x_pass), .x_sub(x_sub), .pass_exec(pass_exec), .mem_start(mem_start),
        .illegal(d_illegal), .is_long(d_long), .is_ctrl(d_is_ctrl), .unimpl(d_unimpl), .unit(d_unit),
        .wb_kind(d_wb_kind), .ls_store(d_ls_store),
        .guard(guard),
        .lane_fault(lane_fault), .mem_last(mem_last), .mem_drained(mem_drained),
        .simt_fault(simt_fault), .simt_fault_code(simt_fault_code), .settled(settled),
        .mark(mark), .retire(retire), .park(park), .cpl_wait(cpl_wait), .exec_mask(exec_mask),
        .fault(fault), .fault_code(fault_code), .fault_warp(fault_warp)
    );

    // ---- decode of the instruction in execute

    sm_decode u_decode (
        .insn(x_insn), .form(d_form), .family(d_family), .illegal(d_illegal), .is_long(d_long), .unimpl(d_unimpl),
        .pcond(d_pcond), .preg(d_preg), .marker(d_marker), .cwe(d_cwe), .cdst(d_cdst),
        .dst_kind(d_dst_kind), .dst_idx(d_dst_idx),
        .a_kind(d_a_kind), .b_kind(d_b_kind), .c_kind(d_c_kind), .a_val(d_a_val), .b_val(d_b_val), .c_val(d_c_val),
        .a_off(d_a_off), .b_off(d_b_off), .c_off(d_c_off), .a_size(d_a_size), .b_size(d_b_size), .c_size(d_c_size),
        .a_sgn(d_a_sgn), .b_sgn(d_b_sgn), .c_sgn(d_c_sgn), .a_bank(d_a_bank), .b_bank(d_b_bank), .c_bank(d_c_bank),
        .mem_areg(d_mem_areg), .mem_postinc(d_mem_postinc), .mem_slot(d_mem_slot),
        .alu_op(d_alu_op), .alu_addop(d_alu_addop), .alu_wide(d_alu_wide), .alu_sgn(d_alu_sgn), .alu_sat(d_alu_sat),
        .alu_s1(d_alu_s1), .alu_s2(d_alu_s2), .alu_kind(d_alu_kind), .alu_cond(d_alu_cond), .alu_lop(d_alu_lop),
        .alu_not1(d_alu_not1), .alu_not2(d_alu_not2), .alu_src_type(d_alu_src_type), .alu_dst_bits(d_alu_dst_bits),
        .alu_dst_full(d_alu_dst_full), .alu_abs(d_alu_abs), .alu_neg(d_alu_neg), .carry_reg(d_carry_reg),
        .unit(d_unit), .fp_op(d_fp_op), .sfu_op(d_sfu_op), .fp_rnd(d_fp_rnd), .fp_sat(d_fp_sat), .fp_rint(d_fp_rint),
        .fp_wide(d_fp_wide), .fp_src32(d_fp_src32), .fp_sgn(d_fp_sgn), .fp_cond(d_fp_cond), .fp_src_type(d_fp_src_type),
        .fp_abs_a(d_fp_abs_a), .fp_neg_a(d_fp_neg_a), .fp_abs_b(d_fp_abs_b), .fp_neg_b(d_fp_neg_b), .fp_neg_c(d_fp_neg_c),
        .wb_kind(d_wb_kind), .adst(d_adst), .anum(d_anum),
        .ls_bytes(d_ls_bytes), .ls_sgn(d_ls_sgn), .ls_store(d_ls_store), .ls_local(d_ls_local), .ls_reg(d_ls_reg),
        .ls_half(d_ls_half), .ls_addr_reg(d_ls_addr_reg), .ls_off(d_ls_off),
        .is_ctrl(d_is_ctrl), .ctrl_op(d_ctrl_op), .target(d_target)
    );

    // ---- register files

    sm_regfile #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS), .REG_WORDS(REG_WORDS)) u_regfile (
        .clk(clk), .nregs(nregs),
        .init_clear(init_clear), .init_we(rf_init_we), .init_row(rf_init_row), .init_data(rf_init_data),
        .warp(x_warp), .pass(x_pass),
        .wb_mask(gpr_mask), .wb_reg(gpr_reg), .wb_half(gpr_half), .wb_data(gpr_data),
        .ld_we(ld_we), .ld_warp(ld_warp), .ld_reg(ld_reg), .ld_lane(ld_lane), .ld_data(ld_data),
        .rd_reg_a(rf_reg_a), .rd_reg_b(rf_reg_b), .rd_reg_c(rf_reg_c), .rd_reg_s(rf_reg_s),
        .rd_a(rf_a), .rd_b(rf_b), .rd_c(rf_c), .rd_s(rf_s),
        .ln_warp(m_rf_warp), .ln_lane(m_rf_lane), .ln_reg_0(m_rf_reg_addr), .ln_reg_1(m_rf_reg_data), .ln_0(m_rf_addr), .ln_1(m_rf_data),
        .qa_reg(qa_reg), .qa_lane(qa_lane), .qa(qa), .qd_reg(qd_reg), .qd_lane(qd_lane), .qd(qd)
    );

    sm_flagfile #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS)) u_flags (
        .clk(clk), .clr_we(warp_init_we), .clr_warp(warp_init_warp), .warp(x_warp), .pass(x_pass),
        .wr_mask(cc_mask), .wr_reg(d_cdst), .wr_data(cc_data), .rd_regs(cc_regs)
    );

    sm_addrfile #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS)) u_aregs (
        .clk(clk), .clr_we(warp_init_we), .clr_warp(warp_init_warp), .warp(x_warp), .pass(x_pass),
        .wr_mask(a_mask), .wr_reg(d_adst), .wr_data(a_data),
        .inc_mask(inc_mask), .inc_reg(d_mem_areg), .inc_data(inc_data), .rd_regs(a_regs)
    );

    // ---- operand read and guard

    sm_operands #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS), .CMEM_WORDS(CMEM_WORDS)) u_operands (
        .x_warp(x_warp), .x_pass(x_pass), .cycle(cycle), .pcond(d_pcond), .preg(d_preg), .carry_reg(d_carry_reg),
        .a_kind(d_a_kind), .b_kind(d_b_kind), .c_kind(d_c_kind), .a_val(d_a_val), .b_val(d_b_val), .c_val(d_c_val),
        .a_off(d_a_off), .b_off(d_b_off), .c_off(d_c_off), .a_size(d_a_size), .b_size(d_b_size), .c_size(d_c_size),
        .a_sgn(d_a_sgn), .b_sgn(d_b_sgn), .c_sgn(d_c_sgn), .a_bank(d_a_bank), .b_bank(d_b_bank), .c_bank(d_c_bank),
        .mem_areg(d_mem_areg), .mem_postinc(d_mem_postinc), .mem_slot(d_mem_slot),
        .cc_regs(cc_regs), .a_regs(a_regs),
        .rf_reg_a(rf_reg_a), .rf_reg_b(rf_reg_b), .rf_reg_c(rf_reg_c), .rf_a(rf_a), .rf_b(rf_b), .rf_c(rf_c),
        .sh_addr_a(sh_addr_a), .sh_addr_b(sh_addr_b), .sh_addr_c(sh_addr_c), .sh_a(sh_a), .sh_b(sh_b), .sh_c(sh_c),
        .cm_addr_a(cm_addr_a), .cm_addr_b(cm_addr_b), .cm_addr_c(cm_addr_c), .cm_a(cm_a), .cm_b(cm_b), .cm_c(cm_c),
        .opa(opa), .opb(opb), .opc(opc), .cin(cin), .oob(oob), .guard(guard)
    );

    // ---- ALUs, FP units, SFUs, address unit, write-back

    sm_execute #(.NUM_SP(NUM_SP), .NUM_SFU(NUM_SFU)) u_execute (
        .pass_exec(pass_exec), .x_pass(x_pass), .x_sub(x_sub), .x_active(x_active), .guard(guard), .unimpl(d_unimpl),
        .alu_op(d_alu_op), .alu_kind(d_alu_kind), .alu_addop(d_alu_addop), .alu_lop(d_alu_lop), .alu_dst_bits(d_alu_dst_bits),
        .alu_wide(d_alu_wide), .alu_sgn(d_alu_sgn), .alu_sat(d_alu_sat), .alu_s1(d_alu_s1), .alu_s2(d_alu_s2),
        .alu_not1(d_alu_not1), .alu_not2(d_alu_not2), .alu_cond(d_alu_cond), .alu_src_type(d_alu_src_type),
        .alu_dst_full(d_alu_dst_full), .alu_abs(d_alu_abs), .alu_neg(d_alu_neg),
        .unit(d_unit), .fp_op(d_fp_op), .sfu_op(d_sfu_op), .fp_rnd(d_fp_rnd), .fp_sat(d_fp_sat), .fp_rint(d_fp_rint),
        .fp_wide(d_fp_wide), .fp_src32(d_fp_src32), .fp_sgn(d_fp_sgn), .fp_cond(d_fp_cond), .fp_src_type(d_fp_src_type),
        .fp_abs_a(d_fp_abs_a), .fp_neg_a(d_fp_neg_a), .fp_abs_b(d_fp_abs_b), .fp_neg_b(d_fp_neg_b), .fp_neg_c(d_fp_neg_c),
        .wb_kind(d_wb_kind), .dst_kind(d_dst_kind), .dst_idx(d_dst_idx), .cwe(d_cwe), .adst(d_adst),
        .anum(d_anum), .ls_bytes(d_ls_bytes), .ls_half(d_ls_half), .ls_local(d_ls_local), .ls_reg(d_ls_reg),
        .ls_off(d_ls_off), .mem_areg(d_mem_areg), .mem_postinc(d_mem_postinc), .mem_slot(d_mem_slot),
        .a_off(d_a_off), .b_off(d_b_off), .c_off(d_c_off),
        .opa(opa), .opb(opb), .opc(opc), .cin(cin), .oob(oob), .a_regs(a_regs), .rf_reg_s(rf_reg_s), .rf_s(rf_s),
        .gpr_mask(gpr_mask), .gpr_reg(gpr_reg), .gpr_half(gpr_half), .gpr_data(gpr_data),
        .cc_mask(cc_mask), .cc_data(cc_data), .a_mask(a_mask), .a_data(a_data), .inc_mask(inc_mask), .inc_data(inc_data),
        .rec_a_mask(rec_a_mask), .rec_a_reg(rec_a_reg), .rec_a_data(rec_a_data),
        .st_mask(st_mask), .st_addr(st_addr), .st_data(st_data), .st_rec_data(st_rec_data),
        .la_mask(la_mask), .la_addr(la_addr), .lane_fault(lane_fault)
    );

    // ---- shared, constant, global and local memory

    sm_mem_unit #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS), .MAX_BLOCKS(MAX_BLOCKS), .CMEM_WORDS(CMEM_WORDS),
                  .NUM_LSLOTS(NUM_LSLOTS)) u_mem (
        .clk(clk), .rst_n(rst_n),
        .cfg_we(cfg_we), .cfg_sel(cfg_sel), .cfg_addr({cfg_addr[19:16], cfg_addr[CW-1:0]}), .cfg_wdata(cfg_wdata),
        .sh_init_clear(init_clear), .sh_init_we(sh_init_we), .sh_init_row(sh_init_row), .sh_init_data(sh_init_data),
        .cta(x_warp_cta), .st_mask(st_mask), .st_addr(st_addr), .st_data(st_data), .st_bytes(d_ls_bytes),
        .sh_addr_a(sh_addr_a), .sh_addr_b(sh_addr_b), .sh_addr_c(sh_addr_c), .sh_a(sh_a), .sh_b(sh_b), .sh_c(sh_c),
        .cm_addr_a(cm_addr_a), .cm_addr_b(cm_addr_b), .cm_addr_c(cm_addr_c), .cm_a(cm_a), .cm_b(cm_b), .cm_c(cm_c),
        .x_state(x_state), .mem_start(mem_start), .x_warp(x_warp), .x_pass(x_pass), .x_exec(x_exec),
        .ls_bytes(d_ls_bytes), .ls_sgn(d_ls_sgn), .ls_store(d_ls_store), .ls_local(d_ls_local), .ls_reg(d_ls_reg),
        .ls_addr_reg(d_ls_addr_reg), .local_bytes(local_bytes), .la_mask(la_mask), .la_addr(la_addr),
        .rf_warp(m_rf_warp), .rf_lane(m_rf_lane), .rf_reg_addr(m_rf_reg_addr), .rf_reg_data(m_rf_reg_data), .rf_addr(m_rf_addr), .rf_data(m_rf_data),
        .qa_reg(qa_reg), .qa_lane(qa_lane), .qa(qa), .qd_reg(qd_reg), .qd_lane(qd_lane), .qd(qd),
        .mem_req_valid(mem_req_valid), .mem_req_ready(mem_req_ready), .mem_req_we(mem_req_we), .mem_req_local(mem_req_local),
        .mem_req_addr(mem_req_addr), .mem_req_be(mem_req_be), .mem_req_wdata(mem_req_wdata), .mem_req_tag(mem_req_tag),
        .mem_rsp_valid(mem_rsp_valid), .mem_rsp_tag(mem_rsp_tag), .mem_rsp_data(mem_rsp_data),
        .mem_last(mem_last), .mem_drained(mem_drained),
        .alloc(alloc), .alloc_slot(alloc_slot), .cur_slot(cur_slot), .slot_drained(slot_drained),
        .cpl_fire(cpl_fire), .cpl_slot(cpl_slot),
        .ld_we(ld_we), .ld_slot(ld_slot), .ld_warp(ld_warp), .ld_reg(ld_reg), .ld_lane(ld_lane), .ld_part(ld_part), .ld_data(ld_data),
        .sr_we(sr_we), .sr_lane(sr_lane), .sr_part(sr_part), .sr_addr(sr_addr), .sr_data(sr_data)
    );

    // ---- SIMT stack and barrier

    sm_simt #(.NUM_WARPS(NUM_WARPS), .STACK_DEPTH(STACK_DEPTH), .MAX_BLOCKS(MAX_BLOCKS)) u_simt (
        .clk(clk), .init_we(warp_init_we), .init_warp(warp_init_warp),
        .x_state(x_state), .take(take), .x_warp(x_warp), .x_pc(x_pc), .x_active(x_active), .guard(guard),
        .is_long(d_long), .marker(d_marker), .ctrl_op(d_ctrl_op), .target(d_target), .mark(mark),
        .cur_pc(x_warp_pc), .cur_active(x_warp_active),
        .pc_we(pc_we), .pc_next(pc_next), .active_we(active_we), .active_next(active_next),
        .fault(simt_fault), .fault_code(simt_fault_code), .settled(settled),
        .pc_after(pc_after), .active_after(active_after), .bar_after(bar_after),
        .probe_pc(probe_pc), .probe_long(probe_long),
        .warp_live(warp_live), .warp_bar(warp_bar), .warp_cta(warp_cta), .release_bar(release_bar)
    );

    // ---- commit record and port
    sm_commit #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS), .NUM_LSLOTS(NUM_LSLOTS)) u_commit (
        .clk(clk), .rst_n(rst_n), .take(take), .retire(retire), .x_pass(x_pass),
        .gpr_mask(gpr_mask), .gpr_reg(gpr_reg), .gpr_half(gpr_half), .gpr_data(gpr_data),
        .cc_mask(cc_mask), .cc_reg(d_cdst), .cc_data(cc_data),
        .a_mask(rec_a_mask), .a_reg(rec_a_reg), .a_data(rec_a_data),
        .sh_mask(st_mask), .sh_addr(st_addr), .sh_data(st_rec_data),
        .sr_we(sr_we), .sr_lane(sr_lane), .sr_part(sr_part), .sr_addr(sr_addr), .sr_data(sr_data),
        .ld_we(ld_we), .ld_slot(ld_slot), .ld_lane(ld_lane), .ld_part(ld_part), .ld_data(ld_data),
        .x_warp(x_warp), .cta(x_warp_cta), .seq(x_warp_seq), .x_pc(x_pc), .x_insn(x_insn), .is_long(d_long),
        .unimpl(d_unimpl), .x_active(x_active), .exec_mask(exec_mask),
        .wb_kind(d_wb_kind), .ls_reg(d_ls_reg), .ls_bytes(d_ls_bytes), .ls_local(d_ls_local),
        .next_pc(pc_after), .next_mask(active_after), .bar_wait(bar_after), .retire_state(retire_state),
        .park(park), .cur_slot(cur_slot), .alloc(alloc), .alloc_slot(alloc_slot), .slot_drained(slot_drained),
        .cpl_wait(cpl_wait), .cpl_fire(cpl_fire), .cpl_slot(cpl_slot), .cpl_warp(cpl_warp), .cpl_state(cpl_state),
        `SM_COMMIT_CONNECT
    );
    `SM_COMMIT_PACKED_ASSIGN
endmodule
