`timescale 1ns / 1ps
// Decode stage: instruction word -> control bundle for the execute stage.
//
// The form, its family and unit come from the generated table (sm1_isa.vh), and every field is
// read through the table's slice functions there (sm1_<format>_<field>), never by bit position. Source operands are described per slot (A, B, C) with a kind and its addressing,
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
    output wire [1:0]  unit,
    // FP unit and SFU controls (the header comments of sm1_fp_alu and sm1_sfu); the SFU uses
    // fp_abs_a, fp_neg_a and fp_sat
    output reg  [3:0]  fp_op,
    output reg  [2:0]  sfu_op,
    output reg  [1:0]  fp_rnd,
    output reg         fp_sat, fp_rint, fp_wide, fp_src32, fp_sgn,
    output reg  [3:0]  fp_cond,
    output reg  [2:0]  fp_src_type,
    output reg         fp_abs_a, fp_neg_a, fp_abs_b, fp_neg_b, fp_neg_c,
    // write-back kind (WB_*, golden/g80/hw.py WbKind)
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
    output reg  [3:0]  ctrl_op,        // the op field: SM1_CTRL_BRA, SM1_CTRL_CAL, ... (sm1_isa.vh)
    output reg  [23:0] target
);
`include "sm_defs.vh"
`include "sm1_isa.vh"

    assign form = sm1_form_of(insn);
    assign family = sm1_family_of(form);
    assign unit = sm1_unit_of(form);
    assign illegal = (form == 7'd0);
    assign is_long = (sm1_fmt_of(insn) != SM1_FMT_SHORT) && (sm1_fmt_of(insn) != SM1_FMT_SCTRL);

    // Fields as variables of the decode process, computed first in it: the tasks below read them,
    // and a process is not woken by signals read only inside tasks (they would be stale).
    reg         shortf, immf, longf, ctrlf, s1_shared, s2_const, s3_const, postinc_f, wide_f;
    reg [6:0]   dst_f, s1_f, s2_f, s3_f;  // 7-bit in the 64-bit layout, 6-bit in the 32-bit one
    reg [2:0]   areg_f;
    reg [31:0]  imm32;

    // A shared source in slot A: mode and offset, the src1 field read as ISA.md 7.2 describes it
    // (mode in its top two bits, the offset below); offsets count in access units, signed with
    // post-increment.
    task shared_src;
        output [3:0] kind; output [31:0] val; output [15:0] off; output [2:0] size; output sgn;
        reg [1:0] mode;
        reg [4:0] raw;
        reg [15:0] units;
        begin
            mode = shortf || immf ? s1_f[5:4] : s1_f[6:5];
            raw = shortf || immf ? {1'b0, s1_f[3:0]} : s1_f[4:0];
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

    // A constant source from a src2/src3 field: the 32-bit layout has the bank in the field's bit 5.
    // The offset is unsigned here; only the slot that owns the post-increment (known once every slot
    // is decoded, see mem_slot below) reads it as a signed increment.
    task const_src;
        input [6:0] field;
        output [3:0] kind; output [15:0] off; output [3:0] bank;
        reg [15:0] units;
        begin
            kind = K_CONST;
            if (shortf) begin
                bank = {3'd0, field[5]};
                units = {11'd0, field[4:0]};
            end else begin
                bank = sm1_l_cbank(insn);
                units = {9'd0, field};
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
            if (longf && sm1_l_dst_o(insn)) dst_kind = 2'd3;
            else dst_kind = half ? 2'd2 : 2'd1;
            dst_idx = dst_f;
        end
    endtask

    // A store/load offset in bytes from a 16-bit offset field counted in units of `bytes` (1, 2, 4)
    function [15:0] scaled;
        input [15:0] units; input [4:0] bytes;
        scaled = (bytes == 5'd4) ? {units[13:0], 2'b00} : (bytes == 5'd2) ? {units[14:0], 1'b0} : units;
    endfunction

    always @* begin
        shortf = (sm1_fmt_of(insn) == SM1_FMT_SHORT);
        immf = (sm1_fmt_of(insn) == SM1_FMT_IMM);
        longf = (sm1_fmt_of(insn) == SM1_FMT_LONG);
        ctrlf = (sm1_fmt_of(insn) == SM1_FMT_CTRL);
        // the 32-bit and immediate layouts share their low fields (src2 only the 32-bit one)
        dst_f = (shortf || immf) ? {1'b0, sm1_s_dst(insn)} : sm1_l_dst(insn);
        s1_f = (shortf || immf) ? {1'b0, sm1_s_src1(insn)} : sm1_l_src1(insn);
        s2_f = shortf ? {1'b0, sm1_s_src2(insn)} : sm1_l_src2(insn);
        s3_f = sm1_l_src3(insn);
        s1_shared = (shortf || immf) ? sm1_s_src1_s(insn) : sm1_l_src1_s(insn);
        s2_const = shortf ? sm1_s_src2_c(insn) : sm1_l_src2_c(insn);
        s3_const = sm1_l_src3_c(insn);
        areg_f = longf ? sm1_l_areg(insn) : {1'b0, sm1_s_areg(insn)};
        postinc_f = longf ? sm1_l_postinc(insn) : sm1_s_postinc(insn);
        imm32 = sm1_i_imm(insn);
        wide_f = longf ? sm1_l_width(insn) : sm1_s_m15(insn);  // 32-bit operation (else half registers)
        // defaults
        unimpl = 1'b0;
        // the guard: 64-bit normal and 64-bit control forms (ISA.md 1.3); 32-bit and immediate forms always execute
        pcond = longf ? sm1_l_pcond(insn) : ctrlf ? sm1_c_pcond(insn) : SM1_COND_ALWAYS;
        preg = longf ? sm1_l_preg(insn) : ctrlf ? sm1_c_preg(insn) : 2'd0;
        marker = longf ? sm1_l_marker(insn) : 2'd0;
        cwe = longf ? sm1_l_cwe(insn) : 1'b0;
        cdst = longf ? sm1_l_cdst(insn) : 2'd0;
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
        fp_op = FP_FADD; sfu_op = SFU_RCP; fp_rnd = 2'd0; fp_sat = 1'b0; fp_rint = 1'b0; fp_wide = 1'b1; fp_src32 = 1'b1;
        fp_sgn = 1'b0; fp_cond = 4'd0; fp_src_type = 3'd0;
        fp_abs_a = 1'b0; fp_neg_a = 1'b0; fp_abs_b = 1'b0; fp_neg_b = 1'b0; fp_neg_c = 1'b0;
        wb_kind = WB_ALU; adst = sm1_l_adst(insn); anum = 16'd0;
        ls_bytes = 5'd4; ls_sgn = 1'b0; ls_store = 1'b0; ls_local = 1'b0; ls_reg = sm1_l_dst(insn); ls_half = 1'b0;
        ls_addr_reg = sm1_l_src1(insn); ls_off = 16'd0;
        is_ctrl = ctrlf || (sm1_fmt_of(insn) == SM1_FMT_SCTRL);
        ctrl_op = sm1_c_op(insn);
        target = {sm1_c_target(insn), 2'b00};  // a word address
        if (is_ctrl) begin
            wb_kind = WB_NONE;
            // control forms without a guard spell "never" as their default (not predicable)
        end else case (family)
            SM1_FAM_MOV: begin
                if (immf) begin
                    dst_kind = wide_f ? 2'd1 : 2'd2; dst_idx = sm1_i_dst7(insn);
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
                dst_reg(!sm1_l_width(insn));
                b_kind = K_CONST; b_bank = sm1_l_cbank(insn);
                b_size = (sm1_l_csize(insn) == 2'd3) ? 3'd4 : (sm1_l_csize(insn) == 2'd0) ? 3'd1 : 3'd2;
                b_sgn = (sm1_l_csize(insn) == 2'd2);
                b_off = scaled(sm1_l_coff(insn), {2'd0, b_size});
                alu_op = OP_PASS;
            end
            SM1_FAM_C2R: begin dst_reg(1'b0); b_kind = K_CREG; b_val = {30'd0, sm1_l_preg(insn)}; end
            SM1_FAM_A2R: begin dst_reg(1'b0); b_kind = K_AREG; b_val = {29'd0, areg_f}; end
            SM1_FAM_S2R: begin dst_reg(1'b0); b_kind = K_SREG; b_val = {28'd0, sm1_l_sreg(insn)}; end
            SM1_FAM_R2C: begin
                wb_kind = WB_R2C; a_kind = K_REG; a_val = {25'd0, s1_f};
                cwe = 1'b1;  // mov $c, $r always writes (ISA.md 2.1)
            end
            SM1_FAM_R2A: begin wb_kind = WB_R2A; slot_a(1'b0); anum = {12'd0, sm1_l_shcnt4(insn)}; end
            SM1_FAM_ADA: begin wb_kind = WB_ADA; a_kind = K_AREG; a_val = {29'd0, areg_f}; anum = sm1_l_aoff(insn); end
            SM1_FAM_R2G: begin
                wb_kind = WB_R2G;
                ls_store = 1'b1;
                case (sm1_l_stsize(insn))  // 0 b16, 2 b32, else b8
                    2'd0: ls_bytes = 5'd2;
                    2'd2: ls_bytes = 5'd4;
                    default: ls_bytes = 5'd1;
                endcase
                ls_reg = sm1_l_src3(insn);
                ls_half = !sm1_l_stfull(insn);
                ls_off = scaled(sm1_l_soff(insn), ls_bytes);
            end
            SM1_FAM_GLD, SM1_FAM_GST, SM1_FAM_LLD, SM1_FAM_LST: begin
                wb_kind = WB_MEM;
                ls_store = (family == SM1_FAM_GST) || (family == SM1_FAM_LST);
                ls_local = (family == SM1_FAM_LLD) || (family == SM1_FAM_LST);
                case (sm1_l_msize(insn))  // ISA.md 7.3: u8 s8 u16 s16 64 128 32
                    3'd0: begin ls_bytes = 5'd1; ls_sgn = 1'b0; end
                    3'd1: begin ls_bytes = 5'd1; ls_sgn = 1'b1; end
                    3'd2: begin ls_bytes = 5'd2; ls_sgn = 1'b0; end
                    3'd3: begin ls_bytes = 5'd2; ls_sgn = 1'b1; end
                    3'd4: ls_bytes = 5'd8;
                    3'd5: ls_bytes = 5'd16;
                    default: ls_bytes = 5'd4;
                endcase
                ls_reg = sm1_l_dst(insn);
                ls_off = sm1_l_loff(insn);
            end
            SM1_FAM_IADD: begin
                alu_op = OP_ADD;
                alu_addop = longf ? sm1_l_addop(insn) : sm1_s_addop(insn);
                alu_wide = wide_f;
                alu_sat = longf ? sm1_l_sat(insn) : sm1_s_m8(insn);
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
                alu_sgn = sm1_l_signed(insn);
                dst_reg(!wide_f);
                slot_a(!wide_f);
                if (family == SM1_FAM_SHIFT && sm1_l_shimm(insn)) begin b_kind = K_IMM; b_val = {25'd0, sm1_l_src2(insn)}; end
                else slot_b(!wide_f);
                if (family == SM1_FAM_ISET) begin alu_op = OP_SET; alu_cond = sm1_l_setcond(insn); end
                else if (family == SM1_FAM_IMINMAX) alu_op = (form == SM1_FORM_IMIN) ? OP_MIN : OP_MAX;
                else alu_op = (form == SM1_FORM_SHR) ? OP_SHR : OP_SHL;
            end
            SM1_FAM_IMUL: begin
                dst_reg(1'b0);
                if (longf) begin
                    alu_op = sm1_l_m16(insn) ? OP_MUL24 : OP_MUL16;
                    alu_sgn = sm1_l_m15(insn); alu_s1 = sm1_l_m15(insn); alu_s2 = sm1_l_m14(insn);
                    slot_a(!sm1_l_m16(insn)); slot_b(!sm1_l_m16(insn));
                end else begin
                    alu_op = sm1_s_m22(insn) ? OP_MUL24 : OP_MUL16;
                    alu_sgn = sm1_s_m15(insn); alu_s1 = sm1_s_m15(insn); alu_s2 = sm1_s_m8(insn);
                    slot_a(!sm1_s_m22(insn));
                    if (immf) begin b_kind = K_IMM; b_val = imm32; end else slot_b(!sm1_s_m22(insn));
                end
            end
            SM1_FAM_ISAD: begin
                alu_op = OP_SAD;
                dst_reg(1'b0);
                if (longf) begin
                    alu_wide = sm1_l_width(insn); alu_sgn = sm1_l_signed(insn);
                    slot_a(!sm1_l_width(insn)); slot_b(!sm1_l_width(insn)); slot_c(1'b0);
                end else begin
                    alu_wide = sm1_s_m15(insn); alu_sgn = sm1_s_m8(insn);
                    a_kind = sm1_s_m15(insn) ? K_REG : K_HALF; a_val = {25'd0, s1_f};
                    b_kind = sm1_s_m15(insn) ? K_REG : K_HALF; b_val = {25'd0, s2_f};
                    c_kind = K_REG; c_val = {25'd0, dst_f};
                end
            end
            SM1_FAM_IMAD: begin
                alu_op = OP_MAD;
                dst_reg(1'b0);
                if (longf) begin
                    alu_kind = sm1_l_kind(insn);
                    alu_addop = sm1_l_madop(insn);
                end else begin
                    alu_kind = {2'd0, sm1_s_kind(insn)};
                    alu_addop = sm1_s_addop(insn);
                end
                slot_a(alu_kind < 4'd3);
                if (immf) begin b_kind = K_IMM; b_val = imm32; end else slot_b(alu_kind < 4'd3);
                if (longf) slot_c(1'b0);
                else begin c_kind = K_REG; c_val = {25'd0, dst_f}; end
            end
            SM1_FAM_LOP: begin
                alu_op = OP_LOP;
                dst_reg(longf ? !sm1_l_width(insn) : 1'b0);
                if (longf) begin
                    alu_wide = sm1_l_width(insn); alu_lop = sm1_l_lop(insn); alu_not1 = sm1_l_m16(insn); alu_not2 = sm1_l_m17(insn);
                    slot_a(!sm1_l_width(insn)); slot_b(!sm1_l_width(insn));
                end else begin
                    alu_lop = sm1_i_lop(insn); alu_not1 = sm1_i_m22(insn);
                    slot_a(1'b0);
                    b_kind = K_IMM; b_val = imm32;
                end
            end
            SM1_FAM_I2I: begin
                alu_op = OP_I2I;
                alu_sgn = sm1_l_signed(insn);
                alu_dst_bits = sm1_l_m19(insn) ? 2'd0 : sm1_l_width(insn) ? 2'd2 : 2'd1;  // 8, 32 or 16 bits
                alu_dst_full = sm1_l_width(insn);
                alu_src_type = sm1_l_srct(insn);
                alu_abs = sm1_l_m20(insn); alu_neg = sm1_l_m29(insn);
                dst_reg(!sm1_l_width(insn));
                slot_a(!alu_src_type[0]);  // source types 0, 2, 4, 6 read a half register
            end
            // Floating point (ISA.md 4, FP_SFU.md; golden/g80/execute.py for which field drives which modifier).
            // Short and immediate forms: .SAT m8, -src1 m15, -src2 (or -src3 of FMAD) m22.
            SM1_FAM_FADD, SM1_FAM_FMUL, SM1_FAM_FMAD: begin
                fp_op = (family == SM1_FAM_FADD) ? FP_FADD : (family == SM1_FAM_FMUL) ? FP_FMUL : FP_FMAD;
                dst_reg(1'b0);
                slot_a(1'b0);
                if (longf) begin
                    fp_neg_a = sm1_l_m26(insn);
                    if (family == SM1_FAM_FMAD) fp_neg_c = sm1_l_m27(insn); else fp_neg_b = sm1_l_m27(insn);
                    fp_sat = sm1_l_m29(insn);
                    if (family == SM1_FAM_FADD) begin
                        fp_rnd = sm1_l_arnd(insn);  // in the unused src2 field
                        // FADD's second source is the src3 slot (ISA.md 4.1)
                        slot_c(1'b0);
                        b_kind = c_kind; b_val = c_val; b_off = c_off; b_bank = c_bank; b_size = c_size;
                        c_kind = K_NONE;
                    end else begin
                        if (family == SM1_FAM_FMUL) fp_rnd = sm1_l_frnd(insn);
                        slot_b(1'b0);
                        if (family == SM1_FAM_FMAD) slot_c(1'b0);
                    end
                end else begin
                    fp_neg_a = sm1_s_m15(insn);
                    if (family == SM1_FAM_FMAD) fp_neg_c = sm1_s_m22(insn); else fp_neg_b = sm1_s_m22(insn);
                    fp_sat = sm1_s_m8(insn);
                    if (immf) begin b_kind = K_IMM; b_val = imm32; end else slot_b(1'b0);
                    // the 32-bit FMAD adds its destination register
                    if (family == SM1_FAM_FMAD) begin c_kind = K_REG; c_val = {25'd0, dst_f}; end
                end
            end
            SM1_FAM_FMINMAX, SM1_FAM_FSET: begin
                fp_op = (family == SM1_FAM_FSET) ? FP_FSET : (form == SM1_FORM_FMIN) ? FP_FMIN : FP_FMAX;
                fp_cond = sm1_l_fcond(insn);
                fp_abs_a = sm1_l_m20(insn); fp_neg_a = sm1_l_m26(insn); fp_abs_b = sm1_l_m19(insn); fp_neg_b = sm1_l_m27(insn);
                dst_reg(1'b0);
                slot_a(1'b0); slot_b(1'b0);
            end
            SM1_FAM_FSLCT: begin
                fp_op = FP_FSLCT;
                fp_neg_c = sm1_l_m29(insn);
                dst_reg(1'b0);
                slot_a(1'b0); slot_b(1'b0); slot_c(1'b0);
            end
            // conversions (ISA.md 4.3): width a 32-bit destination (else the half register), m14 an
            // f32 source (F2I, F2F; else the half register); I2F reads a half for source types 0, 2, 4, 6
            SM1_FAM_I2F, SM1_FAM_F2I, SM1_FAM_F2F: begin
                fp_op = (family == SM1_FAM_I2F) ? FP_I2F : (family == SM1_FAM_F2I) ? FP_F2I : FP_F2F;
                fp_wide = sm1_l_width(insn);
                fp_src32 = sm1_l_m14(insn);
                fp_src_type = sm1_l_srct(insn);
                fp_rnd = sm1_l_rnd(insn);
                fp_sgn = sm1_l_signed(insn) && family == SM1_FAM_F2I;  // the same bit: F2I signed, F2F round to integer
                fp_rint = sm1_l_m27(insn) && family == SM1_FAM_F2F;
                fp_sat = sm1_l_m19(insn) && family != SM1_FAM_F2I;
                fp_abs_a = sm1_l_m20(insn); fp_neg_a = sm1_l_m29(insn);
                dst_reg(!sm1_l_width(insn));
                slot_a(!sm1_l_m14(insn));
            end
            // the SFU: op = sec (RCP32: SFU_RCP); RRO's m14 picks presin / preex2; no SFU or RRO form writes $c
            SM1_FAM_SFU, SM1_FAM_RRO: begin
                cwe = 1'b0;
                dst_reg(1'b0);
                if (shortf) begin
                    sfu_op = SFU_RCP;
                    fp_abs_a = sm1_s_m15(insn); fp_neg_a = sm1_s_m22(insn);
                    a_kind = K_REG; a_val = {25'd0, s1_f};
                end else begin
                    sfu_op = (family == SM1_FAM_RRO) ? (sm1_l_m14(insn) ? SFU_PREEX2 : SFU_PRESIN) : sm1_l_sec(insn);
                    fp_abs_a = sm1_l_m20(insn); fp_neg_a = sm1_l_m26(insn); fp_sat = sm1_l_sat(insn);
                    slot_a(1'b0);
                end
            end
            SM1_FAM_NOP: wb_kind = WB_NONE;
            default: begin
                // no form of the table is left here; the mechanism stays for additions
                unimpl = 1'b1;
                wb_kind = WB_NONE;
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
        // The post-increment bit belongs to the first memory operand only: a constant operand's offset
        // is a signed increment when that constant owns the post-increment, and stays unsigned when a
        // shared operand in slot A owns it (ISA.md 7.2; the model's first_memory_slot). Sign-extending
        // every constant offset whenever the bit was set made `op g [A2++ +1], c[0][0x65]` read
        // c0[0xfe54] instead of c0[0x194] (0 for a word never written). Offsets are in words, so the
        // sign is field bit 4 (short) / 6 (long), i.e. bit 6 / 8 of the byte offset.
        if (mem_postinc && mem_slot == 2'd2 && b_kind == K_CONST && family != SM1_FAM_MVC)
            b_off = shortf ? {{9{b_off[6]}}, b_off[6:0]} : {{7{b_off[8]}}, b_off[8:0]};
        if (mem_postinc && mem_slot == 2'd3)
            c_off = {{7{c_off[8]}}, c_off[8:0]};
    end
endmodule
