`timescale 1ns / 1ps
// The SM: block dispatch, warp scheduler, fetch, decode, multi-pass execute, memory port, SIMT
// control and the commit port. See rtl/README.md for the ports and the block diagram; semantics
// are the g80 profile of ../shared/reference/ISA.md. One instruction per warp is in flight and
// instructions commit in execute order.
module sm_top #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    parameter integer REG_WORDS = 8192,
    parameter integer MAX_BLOCKS = 8,
    parameter integer STACK_DEPTH = 32,
    parameter integer IMEM_WORDS = 16384,
    parameter integer CMEM_WORDS = 16384  // 64 KiB per constant bank, as on G80
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
    output reg           done,
    output reg  [3:0]    error,
    output reg  [23:0]   error_pc,
    output reg  [4:0]    error_warp,
    // memory port
    output reg           mem_req_valid,
    input  wire          mem_req_ready,
    output reg           mem_req_we,
    output reg           mem_req_local,
    output reg  [31:0]   mem_req_addr,
    output reg  [3:0]    mem_req_be,
    output reg  [31:0]   mem_req_wdata,
    output reg  [6:0]    mem_req_tag,
    input  wire          mem_rsp_valid,
    input  wire [6:0]    mem_rsp_tag,
    input  wire [31:0]   mem_rsp_data,
    // commit port
    output reg           commit_valid,
    output reg  [3:0]    commit_cta,
    output reg  [4:0]    commit_warp,
    output reg  [31:0]   commit_seq,
    output reg  [23:0]   commit_pc,
    output reg  [63:0]   commit_insn,
    output reg           commit_long,
    output reg  [31:0]   commit_active,
    output reg  [31:0]   commit_exec,
    output reg           commit_gpr_we,
    output reg  [6:0]    commit_gpr_reg,
    output reg  [1:0]    commit_gpr_half,
    output reg  [2:0]    commit_gpr_count,
    output reg  [4095:0] commit_gpr_data,
    output reg           commit_cc_we,
    output reg  [1:0]    commit_cc_reg,
    output reg  [127:0]  commit_cc_data,
    output reg           commit_a_we,
    output reg  [2:0]    commit_a_reg,
    output reg  [511:0]  commit_a_data,
    output reg           commit_mem_we,
    output reg  [1:0]    commit_mem_space,
    output reg  [4:0]    commit_mem_size,
    output reg  [31:0]   commit_mem_lanes,
    output reg  [1023:0] commit_mem_addr,
    output reg  [4095:0] commit_mem_data,
    output reg  [23:0]   commit_next_pc,
    output reg  [31:0]   commit_next_mask,
    output reg           commit_done,
    output reg           commit_barrier,
    output reg           commit_unimpl
);
`include "sm1_isa.vh"

    localparam integer PASSES = 32 / NUM_SP;
    localparam integer SHARED_BYTES = 16384;
    localparam integer WB = $clog2(NUM_WARPS);
    localparam integer IW = $clog2(IMEM_WORDS);
    localparam integer SB = $clog2(STACK_DEPTH);

    // operand kinds (sm_decode)
    localparam [3:0] K_REG = 4'd1, K_HALF = 4'd2, K_SHARED = 4'd3, K_CONST = 4'd4, K_IMM = 4'd5,
                     K_CREG = 4'd6, K_AREG = 4'd7, K_SREG = 4'd8;
    // warp states
    localparam [2:0] W_FREE = 3'd0, W_READY = 3'd1, W_BUSY = 3'd2, W_BAR = 3'd3, W_DONE = 3'd4;
    // SIMT stack entry kinds (ISA.md 6.2)
    localparam [1:0] E_BRANCH = 2'd0, E_CALL = 2'd1, E_BREAK = 2'd2, E_JOINAT = 2'd3;
    // errors
    localparam [3:0] ERR_ILLEGAL = 4'd1, ERR_FAULT = 4'd2, ERR_TRAP = 4'd3, ERR_OVERFLOW = 4'd4, ERR_STACK = 4'd5, ERR_LAUNCH = 4'd6;

    // ---------------------------------------------------------------------------------------------
    // memories and launch registers

    reg [31:0] imem [0:IMEM_WORDS-1];
    reg [31:0] cmem [0:16*CMEM_WORDS-1];
    reg [31:0] lreg [0:79];
    reg [7:0]  smem [0:MAX_BLOCKS*SHARED_BYTES-1];
    reg [31:0] rf   [0:REG_WORDS-1];
    reg [3:0]  cc   [0:NUM_WARPS*128-1];   // [warp][$c][lane]
    reg [15:0] ar   [0:NUM_WARPS*256-1];   // [warp][$a][lane], $a0 stays 0

    // warps
    reg [2:0]  w_state [0:NUM_WARPS-1];
    reg [23:0] w_pc [0:NUM_WARPS-1];
    reg [31:0] w_active [0:NUM_WARPS-1];
    reg [31:0] w_exited [0:NUM_WARPS-1];
    reg [31:0] w_broke [0:NUM_WARPS-1];
    reg [31:0] w_ret [0:NUM_WARPS-1];
    reg [3:0]  w_cta [0:NUM_WARPS-1];
    reg [31:0] w_seq [0:NUM_WARPS-1];
    reg [SB:0] w_sp [0:NUM_WARPS-1];
    reg [1:0]  s_kind [0:NUM_WARPS*STACK_DEPTH-1];
    reg [23:0] s_pc [0:NUM_WARPS*STACK_DEPTH-1];
    reg [31:0] s_mask [0:NUM_WARPS*STACK_DEPTH-1];

    // launch geometry
    wire [15:0] bx = lreg[2][15:0], by = lreg[3][15:0], bz = lreg[4][15:0];
    wire [7:0]  nregs = lreg[5][7:0];
    wire [31:0] threads = bx * by * bz;
    wire [31:0] wpb = (threads + 32'd31) >> 5;                       // warps per block
    wire [31:0] shared_per_block = 32'd16 + lreg[7] + lreg[6];
    wire [31:0] nblocks = lreg[0] * lreg[1];
    reg  [31:0] per_round, next_block, round_blocks;
    reg  [31:0] cycle;

    // configuration writes
    always @(posedge clk) begin
        if (cfg_we) begin
            case (cfg_sel)
                2'd0: imem[cfg_addr[$clog2(IMEM_WORDS)-1:0]] <= cfg_wdata;
                2'd1: cmem[{cfg_addr[19:16], cfg_addr[$clog2(CMEM_WORDS)-1:0]}] <= cfg_wdata;
                2'd2: lreg[cfg_addr[6:0]] <= cfg_wdata;
                default: ;
            endcase
        end
    end

    // ---------------------------------------------------------------------------------------------
    // helpers

    function integer sp_of(input [SB:0] sp);
        sp_of = {{(31-SB){1'b0}}, sp};
    endfunction

    function [31:0] rf_read(input integer warp, input [6:0] reg_no, input integer lane);
        begin
            if ({1'b0, reg_no} >= nregs) rf_read = 32'd0;  // past the allocation: 0 (ISA.md 7.1)
            else rf_read = rf[warp * 32 * nregs + reg_no * 32 + lane];
        end
    endfunction

    function [31:0] half_read(input integer warp, input [6:0] idx, input integer lane);
        reg [31:0] v;
        begin
            v = rf_read(warp, {1'b0, idx[6:1]}, lane);
            half_read = idx[0] ? {16'd0, v[31:16]} : {16'd0, v[15:0]};
        end
    endfunction

    function [31:0] smem_read(input integer blk, input [13:0] addr, input [2:0] size, input sgn);  // range checked by out_of_range
        reg [31:0] v;
        integer base;
        begin
            base = blk * SHARED_BYTES + {18'd0, addr};
            v = {smem[base + 3], smem[base + 2], smem[base + 1], smem[base]};
            if (size == 3'd1) v = sgn ? {{24{v[7]}}, v[7:0]} : {24'd0, v[7:0]};
            else if (size == 3'd2) v = sgn ? {{16{v[15]}}, v[15:0]} : {16'd0, v[15:0]};
            smem_read = v;
        end
    endfunction

    function [31:0] cmem_read(input [3:0] bank, input [$clog2(CMEM_WORDS)+1:0] addr, input [2:0] size, input sgn);  // range checked by out_of_range
        reg [31:0] word;
        reg [31:0] v;
        begin
            word = cmem[{bank, addr[$clog2(CMEM_WORDS)+1:2]}];
            v = word >> (8 * addr[1:0]);
            if (size == 3'd1) v = sgn ? {{24{v[7]}}, v[7:0]} : {24'd0, v[7:0]};
            else if (size == 3'd2) v = sgn ? {{16{v[15]}}, v[15:0]} : {16'd0, v[15:0]};
            cmem_read = v;
        end
    endfunction

    // ---------------------------------------------------------------------------------------------
    // decode of the instruction in execute

    reg  [63:0] x_insn;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [6:0]  d_form;    // not needed by the datapath: kept to show the form and family in waveforms
    wire [5:0]  d_family;
    /* verilator lint_on UNUSEDSIGNAL */
    wire        d_illegal, d_long, d_unimpl;
    wire [4:0]  d_pcond;
    wire [1:0]  d_preg, d_marker, d_cdst, d_dst_kind;
    wire        d_cwe;
    wire [6:0]  d_dst_idx;
    wire [3:0]  d_a_kind, d_b_kind, d_c_kind;
    wire [31:0] d_a_val, d_b_val, d_c_val;
    wire [15:0] d_a_off, d_b_off, d_c_off;
    wire [2:0]  d_a_size, d_b_size, d_c_size;
    wire        d_a_sgn, d_b_sgn, d_c_sgn;
    wire [3:0]  d_a_bank, d_b_bank, d_c_bank;
    wire [2:0]  d_mem_areg;
    wire        d_mem_postinc;
    wire [1:0]  d_mem_slot;
    wire [3:0]  d_alu_op, d_alu_kind;
    wire [1:0]  d_alu_addop, d_alu_lop, d_alu_dst_bits;
    wire        d_alu_wide, d_alu_sgn, d_alu_sat, d_alu_s1, d_alu_s2, d_alu_not1, d_alu_not2;
    wire [2:0]  d_alu_cond, d_alu_src_type;
    wire        d_alu_dst_full, d_alu_abs, d_alu_neg, d_carry_reg;
    wire [2:0]  d_wb_kind, d_adst;
    wire [15:0] d_anum;
    wire [4:0]  d_ls_bytes;
    wire        d_ls_sgn, d_ls_store, d_ls_local, d_ls_half;
    wire [6:0]  d_ls_reg, d_ls_addr_reg;
    wire [15:0] d_ls_off;
    wire        d_is_ctrl;
    wire [3:0]  d_ctrl_op;
    wire [23:0] d_target;

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
        .wb_kind(d_wb_kind), .adst(d_adst), .anum(d_anum),
        .ls_bytes(d_ls_bytes), .ls_sgn(d_ls_sgn), .ls_store(d_ls_store), .ls_local(d_ls_local), .ls_reg(d_ls_reg),
        .ls_half(d_ls_half), .ls_addr_reg(d_ls_addr_reg), .ls_off(d_ls_off),
        .is_ctrl(d_is_ctrl), .ctrl_op(d_ctrl_op), .target(d_target)
    );

    // ---------------------------------------------------------------------------------------------
    // execute: operands and ALUs of the NUM_SP lanes of the current pass

    reg [3:0]  x_state;
    reg [WB-1:0] x_warp;
    wire [31:0] xw = {{(32-WB){1'b0}}, x_warp};  // the warp slot as a 32-bit index
    reg [23:0] x_pc;
    reg [31:0] x_active;
    reg [31:0] x_exec;
    reg [5:0]  x_pass;

    localparam [3:0] X_IDLE = 4'd0, X_PASS = 4'd1, X_MEM = 4'd2, X_MEMWAIT = 4'd3, X_CTRL = 4'd4, X_MARK = 4'd5,
                     X_UNWIND = 4'd6, X_COMMIT = 4'd7, X_HALT = 4'd8;

    // the guard of every lane, from the flags of $c[preg] (ISA.md 2.2)
    reg [31:0] guard;
    integer gl;
    always @* begin
        for (gl = 0; gl < 32; gl = gl + 1)
            guard[gl] = SM1_COND_TABLE[{d_pcond, cc[x_warp * 128 + d_preg * 32 + gl]}];
    end

    // `now` (the cycle counter) is an argument so that the operand process re-evaluates after every
    // clock edge: the memories it reads inside the function do not wake it by themselves.
    // the byte address of a memory operand: offset, $a + offset, or $a with post-increment (ISA.md 7.2)
    function [31:0] mem_addr(input [15:0] off, input [1:0] slot, input integer lane);
        begin
            // offsets are unsigned, except the (signed) increment of a post-incremented operand
            mem_addr = {16'd0, off};
            if (d_mem_slot == slot && d_mem_areg != 3'd0) begin
                if (d_mem_postinc) mem_addr = {16'd0, ar[xw * 256 + d_mem_areg * 32 + lane]};
                else mem_addr = {16'd0, ar[xw * 256 + d_mem_areg * 32 + lane]} + {16'd0, off};
            end else if (d_mem_slot == slot && d_mem_postinc) mem_addr = 32'd0;
        end
    endfunction

    // a shared or constant operand outside its memory is a fault (as in the golden model)
    /* verilator lint_off UNUSEDSIGNAL */
    function out_of_range(input [3:0] kind, input [15:0] off, input [2:0] size, input [1:0] slot, input integer lane,
                          input [31:0] now);  // `now` only wakes the calling process after each clock edge
        reg [31:0] addr;
        begin
            addr = mem_addr(off, slot, lane);
            out_of_range = (kind == K_SHARED && (addr + {29'd0, size} > SHARED_BYTES || addr[31])) ||
                           (kind == K_CONST && (addr + {29'd0, size} > 4 * CMEM_WORDS || addr[31]));
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    function [31:0] operand(input [3:0] kind, input [31:0] val, input [15:0] off, input [2:0] size, input sgn,
                            input [3:0] bank, input [1:0] slot, input integer lane, input [31:0] now);
        /* verilator lint_off UNUSEDSIGNAL */
        reg [31:0] addr;  // the high bits are range-checked by out_of_range, not used here
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            addr = mem_addr(off, slot, lane);
            case (kind)
                K_REG: operand = rf_read(xw, val[6:0], lane);
                K_HALF: operand = half_read(xw, val[6:0], lane);
                K_SHARED: operand = smem_read({28'd0, w_cta[x_warp]}, addr[13:0], size, sgn);
                K_CONST: operand = cmem_read(bank, addr[$clog2(CMEM_WORDS)+1:0], size, sgn);
                K_IMM: operand = val;
                K_CREG: operand = {28'd0, cc[x_warp * 128 + val[1:0] * 32 + lane]};
                K_AREG: operand = (val[2:0] == 3'd0) ? 32'd0 : {16'd0, ar[x_warp * 256 + val[2:0] * 32 + lane]};
                // SR0 physid = warp << 8 | lane (MP 0); SR1 the clock (the testbench syncs it into the model)
                K_SREG: operand = (val[3:0] == 4'd0) ? x_warp * 256 + lane : (val[3:0] == 4'd1) ? now : 32'd0;
                default: operand = 32'd0;
            endcase
        end
    endfunction

    reg  [31:0] opa [0:NUM_SP-1];
    reg  [31:0] opb [0:NUM_SP-1];
    reg  [31:0] opc [0:NUM_SP-1];
    reg  [NUM_SP-1:0] cin_l;
    reg  [NUM_SP-1:0] oob;  // a lane's memory operand is out of range
    wire [31:0] alu_res [0:NUM_SP-1];
    wire [3:0]  alu_flags [0:NUM_SP-1];
    integer ol;
    always @* begin
        for (ol = 0; ol < NUM_SP; ol = ol + 1) begin
            opa[ol] = operand(d_a_kind, d_a_val, d_a_off, d_a_size, d_a_sgn, d_a_bank, 2'd1, x_pass * NUM_SP + ol, cycle);
            opb[ol] = operand(d_b_kind, d_b_val, d_b_off, d_b_size, d_b_sgn, d_b_bank, 2'd2, x_pass * NUM_SP + ol, cycle);
            opc[ol] = operand(d_c_kind, d_c_val, d_c_off, d_c_size, d_c_sgn, d_c_bank, 2'd3, x_pass * NUM_SP + ol, cycle);
            oob[ol] = out_of_range(d_a_kind, d_a_off, d_a_size, 2'd1, x_pass * NUM_SP + ol, cycle) ||
                      out_of_range(d_b_kind, d_b_off, d_b_size, 2'd2, x_pass * NUM_SP + ol, cycle) ||
                      out_of_range(d_c_kind, d_c_off, d_c_size, 2'd3, x_pass * NUM_SP + ol, cycle);
            cin_l[ol] = cc[x_warp * 128 + (d_carry_reg ? {30'd0, d_preg} : 32'd0) * 32 + x_pass * NUM_SP + ol][2];
        end
    end

    genvar g;
    generate
        for (g = 0; g < NUM_SP; g = g + 1) begin : lanes
            sm1_int_alu u_alu (
                .op(d_alu_op), .addop(d_alu_addop), .wide(d_alu_wide), .sgn(d_alu_sgn), .sat(d_alu_sat),
                .s1(d_alu_s1), .s2(d_alu_s2), .kind(d_alu_kind), .cond(d_alu_cond), .lop(d_alu_lop),
                .not1(d_alu_not1), .not2(d_alu_not2), .src_type(d_alu_src_type), .dst_bits(d_alu_dst_bits),
                .dst_full(d_alu_dst_full), .abs_(d_alu_abs), .neg(d_alu_neg),
                .a(opa[g]), .b(opb[g]), .c(opc[g]), .cin(cin_l[g]), .res(alu_res[g]), .flags(alu_flags[g])
            );
        end
    endgenerate

    // ---------------------------------------------------------------------------------------------
    // fetch: the next ready warp, round-robin, one instruction in flight per warp

    reg          f_valid;
    reg [WB-1:0] f_warp;
    reg [63:0]   f_insn;
    reg [WB-1:0] rr;
    reg          pick_ok;
    reg [WB-1:0] pick;
    integer      pk;
    always @* begin
        pick_ok = 1'b0;
        pick = rr;
        for (pk = NUM_WARPS - 1; pk >= 0; pk = pk - 1)
            if (w_state[({{(32-WB){1'b0}}, rr} + pk) % NUM_WARPS] == W_READY) begin
                pick_ok = 1'b1;
                pick = WB'(({{(32-WB){1'b0}}, rr} + pk) % NUM_WARPS);
            end
    end

    // ---------------------------------------------------------------------------------------------
    // the main state machine: launch rounds, then execute

    localparam [2:0] T_IDLE = 3'd0, T_ROUND = 3'd1, T_INIT = 3'd2, T_RUN = 3'd3, T_DONE = 3'd4;
    reg [2:0]  t_state;
    reg [31:0] init_i;              // init sweep counter
    reg [4:0]  m_lane;              // memory streaming
    reg [2:0]  m_part;
    reg [7:0]  m_out;               // outstanding loads
    reg [1:0]  m_lo [0:31];         // byte offset of each lane's access (sub-word loads)
    reg [31:0] m_addr [0:31];

    // commit record being assembled
    reg          c_gpr_we, c_cc_we, c_a_we, c_mem_we;
    reg [6:0]    c_gpr_reg;
    reg [1:0]    c_gpr_half, c_cc_reg, c_mem_space;
    reg [2:0]    c_a_reg;
    reg [4095:0] c_gpr_data, c_mem_data;
    reg [127:0]  c_cc_data;
    reg [511:0]  c_a_data;
    reg [4:0]    c_mem_size;
    reg [31:0]   c_mem_lanes;
    reg [1023:0] c_mem_addr;
    reg          c_barrier;

    integer i, l, lane, part, base, wi, blk;
    reg [31:0] v, old, addr32, regbase;
    reg [31:0] taken;

    task fault(input [3:0] code);
        begin
            error <= code;
            error_pc <= x_pc;
            error_warp <= {{(5-WB){1'b0}}, x_warp};
            x_state <= X_HALT;
        end
    endtask

    // the address-register update of a post-incremented memory operand
    task post_increment(input integer ln);
        reg [15:0] a_now, off;
        begin
            a_now = ar[x_warp * 256 + d_mem_areg * 32 + ln];
            off = (d_mem_slot == 2'd1) ? d_a_off : (d_mem_slot == 2'd2) ? d_b_off : d_c_off;
            if (d_mem_areg != 3'd0) ar[x_warp * 256 + d_mem_areg * 32 + ln] <= a_now + off;
            c_a_data[ln * 16 +: 16] <= a_now + off;
        end
    endtask

    // The sequential process computes per-lane temporaries (v, addr32, base, ...) with blocking
    // assignments and consumes them within the same clock edge; they are never read elsewhere.
    /* verilator lint_off BLKSEQ */
    always @(posedge clk) begin
        commit_valid <= 1'b0;
        if (!rst_n) begin
            t_state <= T_IDLE;
            x_state <= X_IDLE;
            f_valid <= 1'b0;
            done <= 1'b0;
            error <= 4'd0;
            error_pc <= 24'd0;
            error_warp <= 5'd0;
            mem_req_valid <= 1'b0;
            rr <= {WB{1'b0}};
            cycle <= 32'd0;
            for (i = 0; i < NUM_WARPS; i = i + 1) w_state[i] <= W_FREE;
        end else begin
            cycle <= cycle + 32'd1;
            case (t_state)
                T_IDLE: if (start) begin
                    done <= 1'b0;
                    error <= 4'd0;
                    next_block <= 32'd0;
                    // blocks per round: limited by blocks, warps, registers and shared memory (README)
                    per_round = MAX_BLOCKS;
                    if (NUM_WARPS / wpb < per_round) per_round = NUM_WARPS / wpb;
                    if (REG_WORDS / (wpb * 32 * nregs) < per_round) per_round = REG_WORDS / (wpb * 32 * nregs);
                    if (SHARED_BYTES / shared_per_block < per_round) per_round = SHARED_BYTES / shared_per_block;
                    if (per_round == 0 || threads == 0 || threads > 512 || nregs == 0 || nregs > 128) begin
                        error <= ERR_LAUNCH;
                        t_state <= T_DONE;
                    end else t_state <= T_ROUND;
                end
                T_ROUND: begin
                    if (next_block >= nblocks) begin
                        t_state <= T_DONE;
                    end else begin
                        round_blocks <= (nblocks - next_block < per_round) ? nblocks - next_block : per_round;
                        init_i <= 32'd0;
                        t_state <= T_INIT;
                    end
                end
                T_INIT: begin
                    // one sweep step a cycle: clear registers (32 words), flags, $a, shared memory
                    // (16 bytes), write the header and R0, set up the warps
                    if (init_i < REG_WORDS / 32) begin
                        for (l = 0; l < 32; l = l + 1) rf[init_i * 32 + l] <= 32'd0;
                    end
                    if (init_i < NUM_WARPS) begin
                        for (l = 0; l < 128; l = l + 1) cc[init_i * 128 + l] <= 4'd0;
                        for (l = 0; l < 256; l = l + 1) ar[init_i * 256 + l] <= 16'd0;
                        w_state[init_i] <= W_FREE;
                    end
                    if (init_i < round_blocks * (SHARED_BYTES / 16)) begin
                        for (l = 0; l < 16; l = l + 1) smem[init_i * 16 + l] <= 8'd0;
                    end
                    init_i <= init_i + 32'd1;
                    // the sweep covers the register file, the warps and the round's shared windows
                    if (init_i > round_blocks * (SHARED_BYTES / 16) && init_i > REG_WORDS / 32 && init_i > NUM_WARPS) begin
                        // header, parameters, warps and R0 of every block of the round (DESIGN.md 3)
                        for (blk = 0; blk < MAX_BLOCKS; blk = blk + 1) if (blk < round_blocks) begin
                            base = blk * SHARED_BYTES;
                            v = (next_block + blk) % lreg[0];
                            addr32 = (next_block + blk) / lreg[0];
                            {smem[base + 1], smem[base + 0]} <= 16'd0;
                            {smem[base + 3], smem[base + 2]} <= bx;
                            {smem[base + 5], smem[base + 4]} <= by;
                            {smem[base + 7], smem[base + 6]} <= bz;
                            {smem[base + 9], smem[base + 8]} <= lreg[0][15:0];
                            {smem[base + 11], smem[base + 10]} <= lreg[1][15:0];
                            {smem[base + 13], smem[base + 12]} <= v[15:0];
                            {smem[base + 15], smem[base + 14]} <= addr32[15:0];
                            for (i = 0; i < 64; i = i + 1)
                                if (i * 4 < lreg[7]) {smem[base + 19 + 4 * i], smem[base + 18 + 4 * i], smem[base + 17 + 4 * i], smem[base + 16 + 4 * i]} <= lreg[16 + i];
                            for (i = 0; i < NUM_WARPS; i = i + 1) if (i < wpb) begin
                                wi = blk * wpb + i;
                                w_state[wi] <= W_READY;
                                w_pc[wi] <= 24'd0;
                                w_exited[wi] <= 32'd0;
                                w_broke[wi] <= 32'd0;
                                w_ret[wi] <= 32'd0;
                                w_cta[wi] <= blk[3:0];
                                w_seq[wi] <= 32'd0;
                                w_sp[wi] <= {(SB+1){1'b0}};
                                w_active[wi] <= (threads - i * 32 >= 32) ? 32'hffffffff : ((32'd1 << (threads - i * 32)) - 32'd1);
                                for (l = 0; l < 32; l = l + 1) begin
                                    lane = i * 32 + l;
                                    v = (lane % {16'd0, bx}) | (((lane / {16'd0, bx}) % {16'd0, by}) << 16) | ((lane / ({16'd0, bx} * {16'd0, by})) << 26);
                                    rf[wi * 32 * nregs + l] <= (lane < threads) ? v : 32'd0;
                                end
                            end
                        end
                        rr <= {WB{1'b0}};
                        t_state <= T_RUN;
                    end
                end
                T_RUN: begin
                    // the round is over when no warp of it is left
                    wi = 0;
                    for (i = 0; i < NUM_WARPS; i = i + 1)
                        if (w_state[i] != W_FREE && w_state[i] != W_DONE) wi = wi + 1;
                    if (wi == 0 && x_state == X_IDLE && !f_valid) begin
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

            // ---- fetch: buffer the next warp's instruction while the current one executes
            if (t_state == T_RUN && error == 4'd0 && !f_valid && pick_ok) begin
                f_valid <= 1'b1;
                f_warp <= pick;
                f_insn <= {imem[IW'((w_pc[pick] >> 2) + 24'd1)], imem[IW'(w_pc[pick] >> 2)]};
                w_state[pick] <= W_BUSY;
                rr <= WB'(({{(32-WB){1'b0}}, pick} + 1) % NUM_WARPS);
            end

            // ---- execute
            case (x_state)
                X_IDLE: if (f_valid && !(t_state == T_RUN && error == 4'd0 && !f_valid && pick_ok)) begin
                    f_valid <= 1'b0;
                    x_warp <= f_warp;
                    x_insn <= f_insn[0] ? f_insn : {32'd0, f_insn[31:0]};
                    x_pc <= w_pc[f_warp];
                    x_active <= w_active[f_warp];
                    x_pass <= 6'd0;
                    c_gpr_we <= 1'b0; c_cc_we <= 1'b0; c_a_we <= 1'b0; c_mem_we <= 1'b0; c_barrier <= 1'b0;
                    c_gpr_data <= 4096'd0; c_cc_data <= 128'd0; c_a_data <= 512'd0; c_mem_data <= 4096'd0;
                    c_mem_addr <= 1024'd0; c_mem_lanes <= 32'd0; c_gpr_half <= 2'd0;
                    x_state <= X_PASS;
                end
                X_PASS: begin
                    if (x_pass == 6'd0) x_exec <= x_active & guard;
                    if ({10'd0, x_pc[23:2]} >= IMEM_WORDS - (d_long ? 1 : 0)) fault(ERR_ILLEGAL);  // PC outside the instruction memory
                    else if (d_illegal) fault(ERR_ILLEGAL);
                    else if (d_is_ctrl) x_state <= X_CTRL;
                    else begin
                        for (i = 0; i < NUM_SP; i = i + 1) begin
                            lane = x_pass * NUM_SP + i;
                            if (x_active[lane] && guard[lane] && !d_unimpl && oob[i]) fault(ERR_FAULT);
                            if (x_active[lane] && guard[lane] && !d_unimpl) begin
                                // destination register
                                if (d_wb_kind == 3'd0 && (d_dst_kind == 2'd1 || d_dst_kind == 2'd2)) begin
                                    regbase = xw * 32 * {24'd0, nregs} + ((d_dst_kind == 2'd2) ? {26'd0, d_dst_idx[6:1]} : {25'd0, d_dst_idx}) * 32 + lane;
                                    v = alu_res[i];
                                    if (d_dst_kind == 2'd2) begin
                                        if ({2'b0, d_dst_idx[6:1]} < nregs && regbase < REG_WORDS) begin
                                            old = rf[regbase];
                                            rf[regbase] <= d_dst_idx[0] ? {v[15:0], old[15:0]} : {old[31:16], v[15:0]};
                                        end
                                        c_gpr_data[lane * 32 +: 32] <= {16'd0, v[15:0]};
                                    end else begin
                                        if ({1'b0, d_dst_idx} < nregs && regbase < REG_WORDS) rf[regbase] <= v;
                                        c_gpr_data[lane * 32 +: 32] <= v;
                                    end
                                    c_gpr_we <= 1'b1;
                                    c_gpr_reg <= (d_dst_kind == 2'd2) ? {1'b0, d_dst_idx[6:1]} : d_dst_idx;
                                    c_gpr_half <= (d_dst_kind == 2'd2) ? (d_dst_idx[0] ? 2'd2 : 2'd1) : 2'd0;
                                end
                                // flags
                                if (d_wb_kind == 3'd0 && d_cwe) begin
                                    cc[x_warp * 128 + d_cdst * 32 + lane] <= alu_flags[i];
                                    c_cc_data[lane * 4 +: 4] <= alu_flags[i];
                                    c_cc_we <= 1'b1;
                                    c_cc_reg <= d_cdst;
                                end
                                if (d_wb_kind == 3'd1) begin  // R2C
                                    cc[x_warp * 128 + d_cdst * 32 + lane] <= opa[i][3:0];
                                    c_cc_data[lane * 4 +: 4] <= opa[i][3:0];
                                    c_cc_we <= 1'b1;
                                    c_cc_reg <= d_cdst;
                                end
                                if (d_wb_kind == 3'd2 || d_wb_kind == 3'd3) begin  // R2A, ADA
                                    v = (d_wb_kind == 3'd2) ? (opa[i] << d_anum[3:0]) : (opa[i] + {16'd0, d_anum});
                                    if (d_adst != 3'd0) ar[x_warp * 256 + d_adst * 32 + lane] <= v[15:0];
                                    c_a_data[lane * 16 +: 16] <= v[15:0];
                                    c_a_we <= 1'b1;
                                    c_a_reg <= d_adst;
                                end
                                if (d_wb_kind == 3'd4) begin  // R2G: store to shared memory
                                    addr32 = {16'd0, ar[x_warp * 256 + d_mem_areg * 32 + lane]} * ((d_mem_areg != 3'd0) ? 32'd1 : 32'd0);
                                    if (!d_mem_postinc) addr32 = addr32 + {16'd0, d_ls_off};
                                    v = d_ls_half ? half_read(xw, d_ls_reg, lane) : rf_read(xw, d_ls_reg, lane);
                                    if (addr32 + {27'd0, d_ls_bytes} > SHARED_BYTES) fault(ERR_FAULT);
                                    base = {28'd0, w_cta[x_warp]} * SHARED_BYTES + {18'd0, addr32[13:0]};
                                    smem[base] <= v[7:0];
                                    if (d_ls_bytes > 5'd1) smem[base + 1] <= v[15:8];
                                    if (d_ls_bytes > 5'd2) begin smem[base + 2] <= v[23:16]; smem[base + 3] <= v[31:24]; end
                                    c_mem_we <= 1'b1;
                                    c_mem_space <= 2'd0;
                                    c_mem_size <= d_ls_bytes;
                                    c_mem_lanes[lane] <= 1'b1;
                                    c_mem_addr[lane * 32 +: 32] <= addr32;
                                    c_mem_data[lane * 32 +: 32] <= (d_ls_bytes == 5'd1) ? {24'd0, v[7:0]} : (d_ls_bytes == 5'd2) ? {16'd0, v[15:0]} : v;
                                    if (d_mem_postinc) begin
                                        if (d_mem_areg != 3'd0) ar[x_warp * 256 + d_mem_areg * 32 + lane] <= addr32[15:0] + d_ls_off;
                                        c_a_data[lane * 16 +: 16] <= addr32[15:0] + d_ls_off;
                                        c_a_we <= 1'b1;
                                        c_a_reg <= d_mem_areg;
                                    end
                                end
                                if (d_wb_kind == 3'd5 && d_ls_local) begin
                                    // local address: $a + offset, or $a with post-increment (ISA.md 7.2)
                                    addr32 = (d_mem_areg != 3'd0) ? {16'd0, ar[x_warp * 256 + d_mem_areg * 32 + lane]} : 32'd0;
                                    m_addr[lane] <= d_mem_postinc ? addr32 : addr32 + {16'd0, d_ls_off};
                                    if (d_mem_postinc) begin
                                        if (d_mem_areg != 3'd0) ar[x_warp * 256 + d_mem_areg * 32 + lane] <= addr32[15:0] + d_ls_off;
                                        c_a_data[lane * 16 +: 16] <= addr32[15:0] + d_ls_off;
                                        c_a_we <= 1'b1;
                                        c_a_reg <= d_mem_areg;
                                    end
                                end
                                if (d_mem_postinc && d_mem_slot != 2'd0 && d_wb_kind != 3'd4) begin
                                    post_increment(lane);
                                    c_a_we <= 1'b1;
                                    c_a_reg <= d_mem_areg;
                                end
                            end
                        end
                        if ({26'd0, x_pass} == PASSES - 1) begin
                            if (d_wb_kind == 3'd5 && !d_unimpl) begin
                                m_lane <= 5'd0;
                                m_part <= 3'd0;
                                m_out <= 8'd0;
                                x_state <= X_MEM;
                            end else x_state <= X_MARK;
                        end
                        x_pass <= x_pass + 6'd1;
                    end
                end
                X_MEM: begin
                    // one request per cycle for the executing lanes (and each 32-bit part)
                    if (mem_req_valid && !mem_req_ready) begin
                        // held until accepted
                    end else begin
                        mem_req_valid <= 1'b0;
                        if (!x_exec[m_lane] && m_lane != 5'd31) begin
                            m_lane <= m_lane + 5'd1;
                        end else if (!x_exec[m_lane]) begin
                            x_state <= X_MEMWAIT;
                        end else begin
                            if (d_ls_local) addr32 = (xw * 32 + {27'd0, m_lane}) * lreg[8] + m_addr[m_lane];
                            else addr32 = rf_read(xw, d_ls_addr_reg, {27'd0, m_lane});
                            addr32 = addr32 + {27'd0, m_part, 2'b00};
                            m_lo[m_lane] <= addr32[1:0];
                            v = rf_read(xw, d_ls_reg + {4'd0, m_part}, {27'd0, m_lane});
                            mem_req_valid <= 1'b1;
                            mem_req_we <= d_ls_store;
                            mem_req_local <= d_ls_local;
                            mem_req_addr <= {addr32[31:2], 2'b00};
                            mem_req_be <= (d_ls_bytes == 5'd1) ? (4'b0001 << addr32[1:0]) : (d_ls_bytes == 5'd2) ? (4'b0011 << addr32[1:0]) : 4'b1111;
                            mem_req_wdata <= v << (8 * addr32[1:0]);
                            mem_req_tag <= {m_part[1:0], m_lane};
                            if (!d_ls_store) m_out <= m_out + 8'd1;
                            else begin
                                c_mem_we <= 1'b1;
                                c_mem_space <= d_ls_local ? 2'd2 : 2'd1;
                                c_mem_size <= d_ls_bytes;
                                c_mem_lanes[m_lane] <= 1'b1;
                                if (m_part == 3'd0) c_mem_addr[m_lane * 32 +: 32] <= d_ls_local ? m_addr[m_lane] : addr32;
                                c_mem_data[m_part * 1024 + m_lane * 32 +: 32] <= (d_ls_bytes == 5'd1) ? {24'd0, v[7:0]} : (d_ls_bytes == 5'd2) ? {16'd0, v[15:0]} : v;
                            end
                            if ({2'd0, m_part} + 5'd1 < ((d_ls_bytes > 5'd4) ? d_ls_bytes >> 2 : 5'd1)) m_part <= m_part + 3'd1;
                            else begin
                                m_part <= 3'd0;
                                if (m_lane == 5'd31) x_state <= X_MEMWAIT;
                                else m_lane <= m_lane + 5'd1;
                            end
                        end
                    end
                end
                X_MEMWAIT: begin
                    if (mem_req_valid && mem_req_ready) mem_req_valid <= 1'b0;
                    if (!mem_req_valid && m_out == 8'd0) x_state <= X_MARK;
                end
                X_CTRL: begin
                    taken = x_active & guard;
                    x_exec <= taken;
                    case (d_ctrl_op)
                        4'h1: begin  // BRA
                            if (taken == x_active) w_pc[x_warp] <= d_target;
                            else if (taken != 32'd0) begin
                                // divergence: the taken side first, the fall-through waits on the stack
                                if (sp_of(w_sp[x_warp]) == STACK_DEPTH) fault(ERR_OVERFLOW);
                                else begin
                                    s_kind[xw * STACK_DEPTH + sp_of(w_sp[x_warp])] <= E_BRANCH;
                                    s_pc[xw * STACK_DEPTH + sp_of(w_sp[x_warp])] <= x_pc + 24'd8;
                                    s_mask[xw * STACK_DEPTH + sp_of(w_sp[x_warp])] <= x_active & ~taken;
                                    w_sp[x_warp] <= w_sp[x_warp] + 1;
                                    w_active[x_warp] <= taken;
                                    w_pc[x_warp] <= d_target;
                                end
                            end else w_pc[x_warp] <= x_pc + 24'd8;
                        end
                        4'h2, 4'h4, 4'hA: begin  // CAL, PBK, SSY push
                            if (sp_of(w_sp[x_warp]) == STACK_DEPTH) fault(ERR_OVERFLOW);
                            else begin
                                s_kind[xw * STACK_DEPTH + sp_of(w_sp[x_warp])] <= (d_ctrl_op == 4'h2) ? E_CALL : (d_ctrl_op == 4'h4) ? E_BREAK : E_JOINAT;
                                s_pc[xw * STACK_DEPTH + sp_of(w_sp[x_warp])] <= (d_ctrl_op == 4'h2) ? x_pc + 24'd8 : d_target;
                                s_mask[xw * STACK_DEPTH + sp_of(w_sp[x_warp])] <= x_active;
                                w_sp[x_warp] <= w_sp[x_warp] + 1;
                                w_pc[x_warp] <= (d_ctrl_op == 4'h2) ? d_target : x_pc + 24'd8;
                            end
                        end
                        4'h3: begin  // RET: with a CALL entry the threads return, without one they exit
                            wi = 0;
                            for (i = 0; i < STACK_DEPTH; i = i + 1)
                                if (i < sp_of(w_sp[x_warp]) && s_kind[xw * STACK_DEPTH + i] == E_CALL) wi = 1;
                            if (wi != 0) w_ret[x_warp] <= w_ret[x_warp] | taken;
                            else w_exited[x_warp] <= w_exited[x_warp] | taken;
                            w_active[x_warp] <= x_active & ~taken;
                            w_pc[x_warp] <= x_pc + 24'd8;
                        end
                        4'h5: begin  // BRK
                            wi = 0;
                            for (i = 0; i < STACK_DEPTH; i = i + 1)
                                if (i < sp_of(w_sp[x_warp]) && s_kind[xw * STACK_DEPTH + i] == E_BREAK) wi = 1;
                            if (wi == 0) fault(ERR_STACK);
                            w_broke[x_warp] <= w_broke[x_warp] | taken;
                            w_active[x_warp] <= x_active & ~taken;
                            w_pc[x_warp] <= x_pc + 24'd8;
                        end
                        4'h8: begin  // BAR: arrive and wait
                            c_barrier <= 1'b1;
                            w_pc[x_warp] <= x_pc + 24'd8;
                        end
                        4'h9: fault(ERR_TRAP);
                        default: fault(ERR_ILLEGAL);
                    endcase
                    if (d_ctrl_op != 4'h9) x_state <= X_UNWIND;
                end
                X_MARK: begin
                    w_pc[x_warp] <= x_pc + (d_long ? 24'd8 : 24'd4);
                    if (d_long && d_marker == 2'd1) begin  // exit: the active threads finish
                        w_exited[x_warp] <= w_exited[x_warp] | x_active;
                        w_active[x_warp] <= 32'd0;
                    end else if (d_long && d_marker == 2'd2) begin  // join: pop the top entry
                        if (w_sp[x_warp] == 0) fault(ERR_STACK);
                        else begin
                            i = xw * STACK_DEPTH + sp_of(w_sp[x_warp]) - 1;
                            w_sp[x_warp] <= w_sp[x_warp] - 1;
                            if (s_kind[i] == E_BRANCH) begin
                                w_pc[x_warp] <= s_pc[i];
                                w_active[x_warp] <= s_mask[i] & ~w_exited[x_warp];
                            end else if (s_kind[i] == E_JOINAT)
                                w_active[x_warp] <= s_mask[i] & ~(w_exited[x_warp] | w_broke[x_warp] | w_ret[x_warp]);
                            else fault(ERR_STACK);
                        end
                    end
                    if (error == 4'd0) x_state <= X_UNWIND;
                end
                X_UNWIND: begin
                    // no thread active: resume pending work from the stack, one entry a cycle
                    if (w_active[x_warp] != 32'd0 || c_barrier) x_state <= X_COMMIT;
                    else if (w_sp[x_warp] == 0) x_state <= X_COMMIT;
                    else begin
                        i = xw * STACK_DEPTH + sp_of(w_sp[x_warp]) - 1;
                        w_sp[x_warp] <= w_sp[x_warp] - 1;
                        case (s_kind[i])
                            E_BRANCH: begin w_pc[x_warp] <= s_pc[i]; w_active[x_warp] <= s_mask[i] & ~w_exited[x_warp]; end
                            E_JOINAT: begin
                                w_active[x_warp] <= s_mask[i] & ~(w_exited[x_warp] | w_broke[x_warp] | w_ret[x_warp]);
                                // resume after the join instruction at the SSY target
                                w_pc[x_warp] <= s_pc[i] + (imem[IW'(s_pc[i] >> 2)][0] ? 24'd8 : 24'd4);
                            end
                            E_BREAK: begin
                                w_broke[x_warp] <= w_broke[x_warp] & ~s_mask[i];
                                w_pc[x_warp] <= s_pc[i];
                                w_active[x_warp] <= s_mask[i] & ~(w_exited[x_warp] | w_ret[x_warp]);
                            end
                            default: begin  // E_CALL
                                w_ret[x_warp] <= w_ret[x_warp] & ~s_mask[i];
                                w_pc[x_warp] <= s_pc[i];
                                w_active[x_warp] <= s_mask[i] & ~w_exited[x_warp];
                            end
                        endcase
                    end
                end
                X_COMMIT: begin
                    commit_valid <= 1'b1;
                    commit_cta <= w_cta[x_warp];
                    commit_warp <= {{(5-WB){1'b0}}, x_warp};
                    commit_seq <= w_seq[x_warp];
                    commit_pc <= x_pc;
                    commit_insn <= x_insn;
                    commit_long <= d_long;
                    commit_active <= x_active;
                    commit_exec <= d_is_ctrl ? x_exec : (x_active & guard);
                    commit_gpr_we <= c_gpr_we;
                    commit_gpr_reg <= (d_wb_kind == 3'd5) ? d_ls_reg : c_gpr_reg;
                    commit_gpr_half <= c_gpr_half;
                    commit_gpr_count <= (d_wb_kind == 3'd5 && d_ls_bytes > 5'd4) ? d_ls_bytes[4:2] : 3'd1;
                    commit_gpr_data <= c_gpr_data;
                    commit_cc_we <= c_cc_we;
                    commit_cc_reg <= c_cc_reg;
                    commit_cc_data <= c_cc_data;
                    commit_a_we <= c_a_we;
                    commit_a_reg <= c_a_reg;
                    commit_a_data <= c_a_data;
                    commit_mem_we <= c_mem_we;
                    commit_mem_space <= c_mem_space;
                    commit_mem_size <= c_mem_size;
                    commit_mem_lanes <= c_mem_lanes;
                    commit_mem_addr <= c_mem_addr;
                    commit_mem_data <= c_mem_data;
                    commit_next_pc <= w_pc[x_warp];
                    commit_next_mask <= w_active[x_warp];
                    commit_unimpl <= d_unimpl;
                    w_seq[x_warp] <= w_seq[x_warp] + 32'd1;
                    if (w_active[x_warp] == 32'd0 && !c_barrier) begin
                        w_state[x_warp] <= W_DONE;
                        commit_done <= 1'b1;
                        commit_barrier <= 1'b0;
                    end else if (c_barrier) begin
                        w_state[x_warp] <= W_BAR;
                        commit_done <= 1'b0;
                        commit_barrier <= 1'b1;
                    end else begin
                        w_state[x_warp] <= W_READY;
                        commit_done <= 1'b0;
                        commit_barrier <= 1'b0;
                    end
                    x_state <= X_IDLE;
                end
                default: ;  // X_HALT: an error stops execution
            endcase

            // ---- load responses (any time): write the register part of the lane
            if (mem_rsp_valid) begin
                lane = {27'd0, mem_rsp_tag[4:0]};
                part = {30'd0, mem_rsp_tag[6:5]};
                v = mem_rsp_data >> (8 * m_lo[lane]);
                if (d_ls_bytes == 5'd1) v = d_ls_sgn ? {{24{v[7]}}, v[7:0]} : {24'd0, v[7:0]};
                else if (d_ls_bytes == 5'd2) v = d_ls_sgn ? {{16{v[15]}}, v[15:0]} : {16'd0, v[15:0]};
                if ({25'd0, d_ls_reg} + part < {24'd0, nregs}) rf[xw * 32 * {24'd0, nregs} + ({25'd0, d_ls_reg} + part) * 32 + lane] <= v;
                c_gpr_data[part * 1024 + lane * 32 +: 32] <= v;
                c_gpr_we <= 1'b1;
                m_out <= m_out - 8'd1 + ((x_state == X_MEM && !(mem_req_valid && !mem_req_ready) && x_exec[m_lane] && !d_ls_store) ? 8'd1 : 8'd0);
            end

            // ---- barrier: release a block when every warp that has not finished waits
            for (blk = 0; blk < MAX_BLOCKS; blk = blk + 1) begin
                wi = 0;
                base = 0;
                for (i = 0; i < NUM_WARPS; i = i + 1)
                    if (w_cta[i] == blk[3:0] && w_state[i] != W_FREE && w_state[i] != W_DONE) begin
                        base = base + 1;
                        if (w_state[i] == W_BAR) wi = wi + 1;
                    end
                if (base != 0 && wi == base)
                    for (i = 0; i < NUM_WARPS; i = i + 1)
                        if (w_cta[i] == blk[3:0] && w_state[i] == W_BAR) w_state[i] <= W_READY;
            end
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
