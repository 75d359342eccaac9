`timescale 1ns / 1ps
// Decode stage: instruction word -> control bundle for the execute stage.
//
// The form and its family come from the generated table (sm1_isa.vh); field positions are the
// table's too. Source operands are described per slot (A, B, C) with a kind and its addressing,
// so the execute stage reads them without knowing the form. Semantics follow ../shared/reference/
// ISA.md (sections 1.3, 3, 6, 7).
module sm_decode (
    input  wire [63:0] insn,
    output wire [6:0]  form,
    output wire [5:0]  family,
    output wire        illegal,
    output wire        is_long,       // 64-bit instruction
    output reg         unimpl,        // decoded, but not implemented by this RTL (no SM_1.0 form is left)
    // guard predicate and markers
    output reg  [4:0]  pcond,
    output reg  [1:0]  preg,
    output reg  [1:0]  marker,        // 0 none, 1 exit, 2 join
    // $c write
    output reg         cwe,
    output reg  [1:0]  cdst,
    // destination: 0 none, 1 register, 2 half register, 3 discard (o[0x7f])
    output reg  [1:0]  dst_kind,
    output reg  [6:0]  dst_idx,       // register number, or half index 2n+h
    // source slots A, B, C: kind 0 none, 1 reg, 2 half, 3 shared, 4 const, 5 imm, 6 $c, 7 $a, 8 SR
    output reg  [3:0]  a_kind, b_kind, c_kind,
    output reg  [31:0] a_val, b_val, c_val,     // register/half index, $c/$a/SR number, or immediate
    output reg  [15:0] a_off, b_off, c_off,     // memory operands: byte offset (signed for post-increment)
    output reg  [2:0]  a_size, b_size, c_size,  // memory operands: bytes 1, 2, 4
    output reg         a_sgn, b_sgn, c_sgn,     // memory operands: sign-extend
    output reg  [3:0]  a_bank, b_bank, c_bank,  // const operands: bank
    output reg  [2:0]  mem_areg,                // address register of the first memory operand
    output reg         mem_postinc,
    output reg  [1:0]  mem_slot,                // which slot owns mem_areg (1 A, 2 B, 3 C, 0 none)
    // integer ALU controls (sm1_int_alu)
    output reg  [3:0]  alu_op,
    output reg  [1:0]  alu_addop,
    output reg         alu_wide, alu_sgn, alu_sat, alu_s1, alu_s2,
    output reg  [3:0]  alu_kind,
    output reg  [2:0]  alu_cond,
    output reg  [1:0]  alu_lop,
    output reg         alu_not1, alu_not2,
    output reg  [2:0]  alu_src_type,
    output reg  [1:0]  alu_dst_bits,
    output reg         alu_dst_full, alu_abs, alu_neg,
    output reg         carry_reg,      // addc reads the carry from $c[preg] (1) or $c0 (0)
    // the unit whose result and flags are written back: U_INT sm1_int_alu, U_FP sm1_fp_alu, U_SFU sm1_sfu
    output reg  [1:0]  unit,
    // FP unit and SFU controls (the header comments of sm1_fp_alu and sm1_sfu); the SFU uses
    // fp_abs_a, fp_neg_a and fp_sat
    output reg  [3:0]  fp_op,
    output reg  [2:0]  sfu_op,
    output reg  [1:0]  fp_rnd,
    output reg         fp_sat, fp_rint, fp_wide, fp_src32, fp_sgn,
    output reg  [3:0]  fp_cond,
    output reg  [2:0]  fp_src_type,
    output reg         fp_abs_a, fp_neg_a, fp_abs_b, fp_neg_b, fp_neg_c,
    // special writes: 0 ALU result to dst, 1 $c <- src A (R2C), 2 $a <- src A << n (R2A),
    // 3 $a <- $a + n (ADA), 4 shared store (R2G), 5 memory (GLD/GST/LLD/LST), 6 none (NOP, control)
    output reg  [2:0]  wb_kind,
    output reg  [2:0]  adst,
    output reg  [15:0] anum,           // R2A shift count / ADA offset
    // R2G / GLD / GST / LLD / LST
    output reg  [4:0]  ls_bytes,       // 1, 2, 4, 8, 16
    output reg         ls_sgn,
    output reg         ls_store,
    output reg         ls_local,
    output reg  [6:0]  ls_reg,         // data register (R2G: its index, half when ls_half)
    output reg         ls_half,
    output reg  [6:0]  ls_addr_reg,    // GLD/GST: register holding the byte address
    output reg  [15:0] ls_off,         // R2G: byte offset; LLD/LST: byte offset
    // control flow
    output reg         is_ctrl,
    output reg  [3:0]  ctrl_op,        // 1 BRA, 2 CAL, 3 RET, 4 PBK, 5 BRK, 8 BAR, 9 TRAP, 10 SSY
    output reg  [23:0] target
);
`include "sm1_isa.vh"
`include "sm_defs.vh"

    localparam [3:0] OP_ADD = 4'd0, OP_MUL16 = 4'd1, OP_MUL24 = 4'd2, OP_MAD = 4'd3, OP_SAD = 4'd4, OP_SET = 4'd5,
                     OP_MIN = 4'd6, OP_MAX = 4'd7, OP_SHL = 4'd8, OP_SHR = 4'd9, OP_LOP = 4'd10, OP_I2I = 4'd11,
                     OP_PASS = 4'd12;
    // sm1_fp_alu op codes
    localparam [3:0] FP_FADD = 4'd0, FP_FMUL = 4'd1, FP_FMAD = 4'd2, FP_FMIN = 4'd3, FP_FMAX = 4'd4, FP_FSET = 4'd5,
                     FP_FSLCT = 4'd6, FP_F2I = 4'd7, FP_I2F = 4'd8, FP_F2F = 4'd9;
    // sm1_sfu's codes of RRO (the other SFU ops are the forms' sec field)
    localparam [2:0] SFU_PRESIN = 3'd1, SFU_PREEX2 = 3'd7;

    assign form = sm1_form_of(insn);
    assign family = sm1_family_of(form);
    assign illegal = (form == 7'd0);
    assign is_long = insn[0];

    wire [31:0] w0 = insn[31:0];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] w1 = insn[63:32];  // w1[28] belongs to no field of any form (ISA.md 1.3)
    /* verilator lint_on UNUSEDSIGNAL */
    // Fields as variables of the decode process, computed first in it: the tasks below read them,
    // and a process is not woken by signals read only inside tasks (they would be stale).
    reg         shortf, immf, longf, s1_shared, s2_const, s3_const, postinc_f, wide_f;
    reg [6:0]   dst_f, s1_f, s2_f, s3_f;  // 7-bit in the 64-bit layout, 6-bit in the 32-bit one
    reg [2:0]   areg_f;
    reg [31:0]  imm32;

    // A shared source in slot A: mode and offset (ISA.md 7.2); offsets count in access units,
    // signed with post-increment.
    task shared_src;
        output [3:0] kind; output [31:0] val; output [15:0] off; output [2:0] size; output sgn;
        reg [1:0] mode;
        reg [4:0] raw;
        reg [15:0] units;
        begin
            mode = shortf || immf ? w0[14:13] : w0[15:14];
            raw = shortf || immf ? {1'b0, w0[12:9]} : w0[13:9];
            if (postinc_f)
                units = shortf || immf ? {{12{raw[3]}}, raw[3:0]} : {{11{raw[4]}}, raw};
            else
                units = {11'd0, raw};
            kind = K_SHARED;
            val = 32'd0;
            size = (mode == 2'd3) ? 3'd4 : (mode == 2'd0) ? 3'd1 : 3'd2;
            sgn = (mode == 2'd2);
            off = (mode == 2'd3) ? (units << 2) : (mode == 2'd0) ? units : (units << 1);
        end
    endtask

    task const_src;
        input [6:0] field;
        output [3:0] kind; output [15:0] off; output [3:0] bank;
        reg [15:0] units;
        begin
            kind = K_CONST;
            if (shortf) begin
                bank = {3'd0, field[5]};
                units = postinc_f ? {{11{field[4]}}, field[4:0]} : {11'd0, field[4:0]};
            end else begin
                bank = w1[25:22];
                units = postinc_f ? {{9{field[6]}}, field} : {9'd0, field};
            end
            off = units << 2;
        end
    endtask

    // Slot A from the src1 field (register, half register or shared memory)
    task slot_a;
        input half;
        begin
            if (s1_shared) shared_src(a_kind, a_val, a_off, a_size, a_sgn);
            else begin a_kind = half ? K_HALF : K_REG; a_val = {25'd0, s1_f}; end
        end
    endtask

    // Slot B from the src2 field (register, half register or constant memory)
    task slot_b;
        input half;
        begin
            if (s2_const) begin const_src(s2_f, b_kind, b_off, b_bank); b_size = 3'd4; end
            else begin b_kind = half ? K_HALF : K_REG; b_val = {25'd0, s2_f}; end
        end
    endtask

    // Slot C from the src3 field (register, half register or constant memory)
    task slot_c;
        input half;
        begin
            if (s3_const && longf) begin const_src(s3_f, c_kind, c_off, c_bank); c_size = 3'd4; end
            else begin c_kind = half ? K_HALF : K_REG; c_val = {25'd0, s3_f}; end
        end
    endtask

    task dst_reg;
        input half;
        begin
            if (longf && w1[3]) dst_kind = 2'd3;
            else dst_kind = half ? 2'd2 : 2'd1;
            dst_idx = dst_f;
        end
    endtask

    always @* begin
        shortf = (w0[1:0] == 2'd0);
        immf = (w0[1:0] == 2'd1) && (w1[1:0] == 2'd3);
        longf = (w0[1:0] == 2'd1) && (w1[1:0] != 2'd3);
        dst_f = (shortf || immf) ? {1'b0, w0[7:2]} : w0[8:2];
        s1_f = (shortf || immf) ? {1'b0, w0[14:9]} : w0[15:9];
        s2_f = shortf ? {1'b0, w0[21:16]} : w0[22:16];
        s3_f = w1[20:14];
        s1_shared = (shortf || immf) ? w0[24] : w1[21];
        s2_const = w0[23];
        s3_const = w0[24];
        areg_f = longf ? {w1[2], w0[27:26]} : {1'b0, w0[27:26]};
        postinc_f = w0[25];
        imm32 = {w1[27:2], w0[21:16]};
        wide_f = longf ? w1[26] : w0[15];  // the width bit: w1[26] long, w0[15] short and immediate
        // defaults
        unimpl = 1'b0;
        // the guard: 64-bit normal and 64-bit control forms (ISA.md 1.3); 32-bit and immediate forms always execute
        pcond = (longf || w0[1:0] == 2'd3) ? w1[11:7] : 5'h0f;
        preg = (longf || w0[1:0] == 2'd3) ? w1[13:12] : 2'd0;
        marker = longf ? w1[1:0] : 2'd0;
        cwe = longf ? w1[6] : 1'b0;
        cdst = longf ? w1[5:4] : 2'd0;
        dst_kind = 2'd0; dst_idx = 7'd0;
        a_kind = K_NONE; b_kind = K_NONE; c_kind = K_NONE;
        a_val = 32'd0; b_val = 32'd0; c_val = 32'd0;
        a_off = 16'd0; b_off = 16'd0; c_off = 16'd0;
        a_size = 3'd4; b_size = 3'd4; c_size = 3'd4;
        a_sgn = 1'b0; b_sgn = 1'b0; c_sgn = 1'b0;
        a_bank = 4'd0; b_bank = 4'd0; c_bank = 4'd0;
        mem_areg = 3'd0; mem_postinc = 1'b0; mem_slot = 2'd0;
        alu_op = OP_PASS; alu_addop = 2'd0; alu_wide = 1'b1; alu_sgn = 1'b0; alu_sat = 1'b0;
        alu_s1 = 1'b0; alu_s2 = 1'b0; alu_kind = 4'd0; alu_cond = 3'd0; alu_lop = 2'd0;
        alu_not1 = 1'b0; alu_not2 = 1'b0; alu_src_type = 3'd0; alu_dst_bits = 2'd2;
        alu_dst_full = 1'b1; alu_abs = 1'b0; alu_neg = 1'b0;
        carry_reg = longf;
        unit = U_INT;
        fp_op = FP_FADD; sfu_op = 3'd0; fp_rnd = 2'd0; fp_sat = 1'b0; fp_rint = 1'b0; fp_wide = 1'b1; fp_src32 = 1'b1;
        fp_sgn = 1'b0; fp_cond = 4'd0; fp_src_type = 3'd0;
        fp_abs_a = 1'b0; fp_neg_a = 1'b0; fp_abs_b = 1'b0; fp_neg_b = 1'b0; fp_neg_c = 1'b0;
        wb_kind = 3'd0; adst = w0[4:2]; anum = 16'd0;
        ls_bytes = 5'd4; ls_sgn = 1'b0; ls_store = 1'b0; ls_local = 1'b0; ls_reg = w0[8:2]; ls_half = 1'b0;
        ls_addr_reg = w0[15:9]; ls_off = 16'd0;
        is_ctrl = (w0[1:0] == 2'd3) || (w0[1:0] == 2'd2);
        ctrl_op = w0[31:28];
        target = {w1[19:14], w0[26:11], 2'b00};
        if (is_ctrl) begin
            wb_kind = 3'd6;
            // control forms without a guard spell "never" as their default (not predicable)
        end else case (family)
            SM1_FAM_MOV: begin
                if (immf) begin
                    dst_kind = wide_f ? 2'd1 : 2'd2; dst_idx = w0[8:2];
                    b_kind = K_IMM; b_val = imm32;
                end else begin
                    dst_reg(!wide_f);
                    slot_a(!wide_f);
                    b_kind = a_kind; b_val = a_val; b_off = a_off; b_size = a_size; b_sgn = a_sgn;
                    a_kind = K_NONE;
                end
                alu_op = OP_PASS;
            end
            SM1_FAM_MVC: begin
                dst_reg(!w1[26]);
                b_kind = K_CONST; b_bank = w1[25:22];
                b_size = (w1[15:14] == 2'd3) ? 3'd4 : (w1[15:14] == 2'd0) ? 3'd1 : 3'd2;
                b_sgn = (w1[15:14] == 2'd2);
                b_off = (w1[15:14] == 2'd3) ? {w0[22:9], 2'b00} : (w1[15:14] == 2'd0) ? w0[24:9] : {w0[23:9], 1'b0};
                alu_op = OP_PASS;
            end
            SM1_FAM_C2R: begin dst_reg(1'b0); b_kind = K_CREG; b_val = {30'd0, w1[13:12]}; end
            SM1_FAM_A2R: begin dst_reg(1'b0); b_kind = K_AREG; b_val = {29'd0, areg_f}; end
            SM1_FAM_S2R: begin dst_reg(1'b0); b_kind = K_SREG; b_val = {28'd0, w1[17:14]}; end
            SM1_FAM_R2C: begin
                wb_kind = 3'd1; a_kind = K_REG; a_val = {25'd0, s1_f};
                cwe = 1'b1;  // mov $c, $r always writes (ISA.md 2.1)
            end
            SM1_FAM_R2A: begin wb_kind = 3'd2; slot_a(1'b0); anum = {12'd0, w0[19:16]}; end
            SM1_FAM_ADA: begin wb_kind = 3'd3; a_kind = K_AREG; a_val = {29'd0, areg_f}; anum = w0[24:9]; end
            SM1_FAM_R2G: begin
                wb_kind = 3'd4;
                ls_store = 1'b1;
                ls_bytes = w1[22] ? 5'd1 : w1[26] ? 5'd4 : 5'd2;
                ls_reg = w1[20:14];
                ls_half = !w1[21];
                ls_off = w1[22] ? w0[24:9] : w1[26] ? {w0[22:9], 2'b00} : {w0[23:9], 1'b0};
            end
            SM1_FAM_GLD, SM1_FAM_GST, SM1_FAM_LLD, SM1_FAM_LST: begin
                wb_kind = 3'd5;
                ls_store = (family == SM1_FAM_GST) || (family == SM1_FAM_LST);
                ls_local = (family == SM1_FAM_LLD) || (family == SM1_FAM_LST);
                case (w1[23:21])
                    3'd0: begin ls_bytes = 5'd1; ls_sgn = 1'b0; end
                    3'd1: begin ls_bytes = 5'd1; ls_sgn = 1'b1; end
                    3'd2: begin ls_bytes = 5'd2; ls_sgn = 1'b0; end
                    3'd3: begin ls_bytes = 5'd2; ls_sgn = 1'b1; end
                    3'd4: ls_bytes = 5'd8;
                    3'd5: ls_bytes = 5'd16;
                    default: ls_bytes = 5'd4;
                endcase
                ls_reg = w0[8:2];
                ls_off = w0[24:9];
            end
            SM1_FAM_IADD: begin
                alu_op = OP_ADD;
                alu_addop = {w0[28], w0[22]};
                alu_wide = wide_f;
                alu_sat = longf ? w1[27] : w0[8];
                dst_reg(!wide_f);
                slot_a(!wide_f);
                if (longf) begin
                    slot_c(!wide_f);
                    b_kind = c_kind; b_val = c_val; b_off = c_off; b_bank = c_bank; b_size = c_size;
                    c_kind = K_NONE;
                end else if (immf) begin
                    b_kind = K_IMM; b_val = imm32;
                end else slot_b(!wide_f);
            end
            SM1_FAM_ISET, SM1_FAM_IMINMAX, SM1_FAM_SHIFT: begin
                alu_wide = wide_f;
                alu_sgn = w1[27];
                dst_reg(!wide_f);
                slot_a(!wide_f);
                if (family == SM1_FAM_SHIFT && w1[20]) begin b_kind = K_IMM; b_val = {25'd0, w0[22:16]}; end
                else slot_b(!wide_f);
                if (family == SM1_FAM_ISET) begin alu_op = OP_SET; alu_cond = w1[16:14]; end
                else if (family == SM1_FAM_IMINMAX) alu_op = (w1[31:29] == 3'd5) ? OP_MIN : OP_MAX;
                else alu_op = w1[29] ? OP_SHR : OP_SHL;
            end
            SM1_FAM_IMUL: begin
                dst_reg(1'b0);
                if (longf) begin
                    alu_op = w1[16] ? OP_MUL24 : OP_MUL16;
                    alu_sgn = w1[15]; alu_s1 = w1[15]; alu_s2 = w1[14];
                    slot_a(!w1[16]); slot_b(!w1[16]);
                end else begin
                    alu_op = w0[22] ? OP_MUL24 : OP_MUL16;
                    alu_sgn = w0[15]; alu_s1 = w0[15]; alu_s2 = w0[8];
                    slot_a(!w0[22]);
                    if (immf) begin b_kind = K_IMM; b_val = imm32; end else slot_b(!w0[22]);
                end
            end
            SM1_FAM_ISAD: begin
                alu_op = OP_SAD;
                dst_reg(1'b0);
                if (longf) begin
                    alu_wide = w1[26]; alu_sgn = w1[27];
                    slot_a(!w1[26]); slot_b(!w1[26]); slot_c(1'b0);
                end else begin
                    alu_wide = w0[15]; alu_sgn = w0[8];
                    a_kind = w0[15] ? K_REG : K_HALF; a_val = {25'd0, s1_f};
                    b_kind = w0[15] ? K_REG : K_HALF; b_val = {25'd0, s2_f};
                    c_kind = K_REG; c_val = {25'd0, dst_f};
                end
            end
            SM1_FAM_IMAD: begin
                alu_op = OP_MAD;
                dst_reg(1'b0);
                if (longf) begin
                    alu_kind = {w0[28], w1[31:29]};
                    alu_addop = w1[27:26];
                end else begin
                    alu_kind = {2'd0, w0[15], w0[8]};
                    alu_addop = {w0[28], w0[22]};
                end
                slot_a(alu_kind < 4'd3);
                if (immf) begin b_kind = K_IMM; b_val = imm32; end else slot_b(alu_kind < 4'd3);
                if (longf) slot_c(1'b0);
                else begin c_kind = K_REG; c_val = {25'd0, dst_f}; end
            end
            SM1_FAM_LOP: begin
                alu_op = OP_LOP;
                dst_reg(longf ? !w1[26] : 1'b0);
                if (longf) begin
                    alu_wide = w1[26]; alu_lop = w1[15:14]; alu_not1 = w1[16]; alu_not2 = w1[17];
                    slot_a(!w1[26]); slot_b(!w1[26]);
                end else begin
                    alu_lop = {w0[15], w0[8]}; alu_not1 = w0[22];
                    slot_a(1'b0);
                    b_kind = K_IMM; b_val = imm32;
                end
            end
            SM1_FAM_I2I: begin
                alu_op = OP_I2I;
                alu_sgn = w1[27];
                alu_dst_bits = w1[19] ? 2'd0 : w1[26] ? 2'd2 : 2'd1;
                alu_dst_full = w1[26];
                alu_src_type = w1[16:14];
                alu_abs = w1[20]; alu_neg = w1[29];
                dst_reg(!w1[26]);
                slot_a(!w1[14]);  // source types 0, 2, 4, 6 read a half register
            end
            // Floating point (ISA.md 4, FP_SFU.md; golden/execute.py for which field drives which modifier).
            // Short and immediate forms: .SAT w0[8], -src1 w0[15], -src2 (or -src3 of FMAD) w0[22].
            SM1_FAM_FADD, SM1_FAM_FMUL, SM1_FAM_FMAD: begin
                unit = U_FP;
                fp_op = (family == SM1_FAM_FADD) ? FP_FADD : (family == SM1_FAM_FMUL) ? FP_FMUL : FP_FMAD;
                dst_reg(1'b0);
                slot_a(1'b0);
                if (longf) begin
                    fp_neg_a = w1[26];
                    if (family == SM1_FAM_FMAD) fp_neg_c = w1[27]; else fp_neg_b = w1[27];
                    fp_sat = w1[29];
                    if (family == SM1_FAM_FADD) begin
                        fp_rnd = w0[17:16];  // in the unused src2 field
                        // FADD's second source is the src3 slot (ISA.md 4.1)
                        slot_c(1'b0);
                        b_kind = c_kind; b_val = c_val; b_off = c_off; b_bank = c_bank; b_size = c_size;
                        c_kind = K_NONE;
                    end else begin
                        if (family == SM1_FAM_FMUL) fp_rnd = w1[15:14];
                        slot_b(1'b0);
                        if (family == SM1_FAM_FMAD) slot_c(1'b0);
                    end
                end else begin
                    fp_neg_a = w0[15];
                    if (family == SM1_FAM_FMAD) fp_neg_c = w0[22]; else fp_neg_b = w0[22];
                    fp_sat = w0[8];
                    if (immf) begin b_kind = K_IMM; b_val = imm32; end else slot_b(1'b0);
                    // the 32-bit FMAD adds its destination register
                    if (family == SM1_FAM_FMAD) begin c_kind = K_REG; c_val = {25'd0, dst_f}; end
                end
            end
            SM1_FAM_FMINMAX, SM1_FAM_FSET: begin
                unit = U_FP;
                fp_op = (family == SM1_FAM_FSET) ? FP_FSET : (w1[31:29] == 3'd5) ? FP_FMIN : FP_FMAX;
                fp_cond = w1[17:14];
                fp_abs_a = w1[20]; fp_neg_a = w1[26]; fp_abs_b = w1[19]; fp_neg_b = w1[27];
                dst_reg(1'b0);
                slot_a(1'b0); slot_b(1'b0);
            end
            SM1_FAM_FSLCT: begin
                unit = U_FP;
                fp_op = FP_FSLCT;
                fp_neg_c = w1[29];
                dst_reg(1'b0);
                slot_a(1'b0); slot_b(1'b0); slot_c(1'b0);
            end
            // conversions (ISA.md 4.3): w1[26] a 32-bit destination (else the half register), w1[14]
            // an f32 source (F2I, F2F; else the half register); I2F reads a half for source types 0, 2, 4, 6
            SM1_FAM_I2F, SM1_FAM_F2I, SM1_FAM_F2F: begin
                unit = U_FP;
                fp_op = (family == SM1_FAM_I2F) ? FP_I2F : (family == SM1_FAM_F2I) ? FP_F2I : FP_F2F;
                fp_wide = w1[26];
                fp_src32 = w1[14];
                fp_src_type = w1[16:14];
                fp_rnd = w1[18:17];
                fp_sgn = w1[27] && family == SM1_FAM_F2I;    // w1[27]: F2I signed, F2F round to integer
                fp_rint = w1[27] && family == SM1_FAM_F2F;
                fp_sat = w1[19] && family != SM1_FAM_F2I;
                fp_abs_a = w1[20]; fp_neg_a = w1[29];
                dst_reg(!w1[26]);
                slot_a(!w1[14]);
            end
            // the SFU: op = sec (RCP32: 0); RRO's w1[14] picks presin / preex2; no SFU or RRO form writes $c
            SM1_FAM_SFU, SM1_FAM_RRO: begin
                unit = U_SFU;
                cwe = 1'b0;
                dst_reg(1'b0);
                if (shortf) begin
                    sfu_op = 3'd0;
                    fp_abs_a = w0[15]; fp_neg_a = w0[22];
                    a_kind = K_REG; a_val = {25'd0, s1_f};
                end else begin
                    sfu_op = (family == SM1_FAM_RRO) ? (w1[14] ? SFU_PREEX2 : SFU_PRESIN) : w1[31:29];
                    fp_abs_a = w1[20]; fp_neg_a = w1[26]; fp_sat = w1[27];
                    slot_a(1'b0);
                end
            end
            SM1_FAM_NOP: wb_kind = 3'd6;
            default: begin
                // no form of the table is left here; the mechanism stays for additions
                unimpl = 1'b1;
                wb_kind = 3'd6;
            end
        endcase
        // the first memory operand owns the address register and the post-increment (ENV-DIS)
        if (a_kind == K_SHARED) begin mem_slot = 2'd1; mem_areg = areg_f; mem_postinc = postinc_f; end
        else if (b_kind == K_SHARED) begin mem_slot = 2'd2; mem_areg = areg_f; mem_postinc = postinc_f; end  // MOV's source
        else if (b_kind == K_CONST && family != SM1_FAM_MVC) begin mem_slot = 2'd2; mem_areg = areg_f; mem_postinc = postinc_f; end
        else if (c_kind == K_CONST) begin mem_slot = 2'd3; mem_areg = areg_f; mem_postinc = postinc_f; end
        else if (family == SM1_FAM_MVC || family == SM1_FAM_R2G || family == SM1_FAM_LLD || family == SM1_FAM_LST) begin
            mem_slot = (family == SM1_FAM_MVC) ? 2'd2 : 2'd0; mem_areg = areg_f; mem_postinc = postinc_f;
        end
    end
endmodule
