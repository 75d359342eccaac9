`timescale 1ns / 1ps
// sm1_int_alu: the integer ALU of one SM lane, bit-exact with G80 silicon including the $c flags
// (ISA.md section 3, "Integer instructions"; the ENV-HW checking model, not the FlexGripPlus
// deviations of ISA.md section 9). Purely combinational.
//
// Flags are {O, C, S, Z} (ISA.md 2.1: bit0 Z, bit1 S, bit2 C, bit3 O). Every result is reduced to
// its width with the unused upper bits zero, so Z is always (res == 0) and S is the top bit of the
// width the flags are taken on (bit 31, or bit 15 for 16-bit results: "S(x)" of ISA.md 3).
//
// Datapath sharing: one adder (IADD, IMAD's add, ISAD's add), one 24x24 multiplier (IMUL16/24,
// IMAD), one magnitude comparator (ISET, IMIN/IMAX, ISAD's |a-b|), one left and one right shifter.
// 16-bit adds and shifts are done left-aligned in the 32-bit datapath (operand in bits 31:16, zeros
// below) so the carry out, the overflow bit and the last bit shifted out sit in the same place for
// both widths.
module sm1_int_alu (
    input  wire [3:0]  op,       // 0 ADD, 1 MUL16, 2 MUL24, 3 MAD, 4 SAD, 5 SET, 6 MIN, 7 MAX, 8 SHL, 9 SHR, 10 LOP, 11 I2I, 12 PASS
    input  wire [1:0]  addop,    // ADD / MAD: 0 add, 1 sub (a - b), 2 subr (b - a), 3 addc (a + b + cin)
    input  wire        wide,     // 1: 32-bit, 0: 16-bit (ADD, SAD, SET, MIN, MAX, SHL, SHR, LOP)
    input  wire        sgn,      // signed (SET, MIN, MAX, SHR, SAD, MUL24; I2I destination)
    input  wire        sat,      // ADD: saturate on signed overflow (ISA.md 3.1)
    input  wire        s1,       // MUL16: src1 signed
    input  wire        s2,       // MUL16: src2 signed; MUL24: high half (product bits 16..47)
    input  wire [3:0]  kind,     // MAD multiply kind (ISA.md 3.3)
    input  wire [2:0]  cond,     // SET: l=1, e=2, g=4
    input  wire [1:0]  lop,      // LOP: 0 and, 1 or, 2 xor, 3 pass_b
    input  wire        not1,
    input  wire        not2,
    input  wire [2:0]  src_type, // I2I source type (ISA.md 3.9)
    input  wire [1:0]  dst_bits, // I2I destination: 0 8-bit, 1 16-bit, 2 (or 3) 32-bit
    input  wire        dst_full, // I2I: an 8-bit result goes to a full 32-bit register
    input  wire        abs_,
    input  wire        neg,
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [31:0] c,
    input  wire        cin,
    output reg  [31:0] res,
    output reg  [3:0]  flags     // {O, C, S, Z}
);

`include "sm_hw.vh"  // OP_* (golden/hw.py AluOp)

    localparam [1:0] ADD_SUB  = 2'd1;
    localparam [1:0] ADD_SUBR = 2'd2;
    localparam [1:0] ADD_ADDC = 2'd3;

    // One process computes the lane: the datapath of the operation in `op` only, every
    // intermediate a variable of it, `res` and `flags` written once. As a net of continuous assigns
    // and small always blocks (one per unit) an event-driven simulator re-ran the result select for
    // every intermediate that settled, about 60 times a cycle under Icarus (issue 19). Each unit
    // runs only for the operations that use it (its variables keep stale values otherwise, which
    // nothing then reads): under Icarus every variable a statement reads costs a load, and the
    // lane runs on every operand change.
    reg [31:0] wmask;                           // the all-ones value of the operation width
    reg [31:0] key_a, key_b, absdiff;           // comparator
    reg        cmp_lt, cmp_eq, cmp_gt;
    reg        m24, msa, msb, mhi, msat;        // multiplier kind
    reg [23:0] mul_a24, mul_b24;
    reg [47:0] prod;
    reg [31:0] mul_res;
    reg [31:0] add_x, add_y, add_xi, add_yi, add_ax, add_ay, add_al, add_res;  // adder
    reg [1:0]  add_op;
    reg        add_sat, add_w, add_ci, add_c, add_o;
    reg [32:0] add_sum;
    reg        sh_over, sh_sign, sh_c, sh_o;   // shifter
    reg [4:0]  sh_n;
    reg [31:0] sh_in, sh_al, sh_res;
    reg [32:0] shl_full, shr_full;
    reg [31:0] lop_x, lop_y, lop_res;           // logic
    reg        i2i_s32, i2i_s16, i2i_top, i2i_sneg, i2i_neg, i2i_d8, i2i_d16, i2i_w32;  // I2I
    reg [31:0] i2i_ext, i2i_mag, i2i_pmax, i2i_nmax, i2i_val;
    reg [31:0] r;
    reg        fo, fc, fw;                      // fw: the flags are taken on 32 bits (else on the low 16)
    reg        u_cmp, u_mul, u_add, u_sh;       // the units the operation uses (decoded once)
    always @* begin
        u_cmp = 1'b0; u_mul = 1'b0; u_add = 1'b0; u_sh = 1'b0;
        case (op)
            OP_ADD: u_add = 1'b1;
            OP_MAD: begin u_mul = 1'b1; u_add = 1'b1; end
            OP_SAD: begin u_cmp = 1'b1; u_add = 1'b1; end
            OP_MUL16, OP_MUL24: u_mul = 1'b1;
            OP_SET, OP_MIN, OP_MAX: u_cmp = 1'b1;
            OP_SHL, OP_SHR: u_sh = 1'b1;
            default: ;
        endcase
        wmask = wide ? 32'hffffffff : 32'h0000ffff;
        r = 32'd0; fo = 1'b0; fc = 1'b0; fw = 1'b1;
        // ------------------------------------------------------------------------------------------
        if (u_cmp) begin
            // Comparator (ISA.md 3.4 ISAD, 3.5 ISET, 3.6 IMIN/IMAX): operands reduced to the width, sign
            // bit flipped when signed, so an unsigned compare of the keys orders the typed values and
            // the key difference is the exact |a - b| (up to 2^32 - 1, so 32 bits suffice).
            key_a = wide ? {a[31] ^ sgn, a[30:0]} : {16'b0, a[15] ^ sgn, a[14:0]};
            key_b = wide ? {b[31] ^ sgn, b[30:0]} : {16'b0, b[15] ^ sgn, b[14:0]};
            cmp_lt = key_a < key_b;
            cmp_eq = key_a == key_b;
            cmp_gt = ~cmp_lt & ~cmp_eq;
            absdiff = 32'd0;
            if (op == OP_SAD) absdiff = cmp_lt ? key_b - key_a : key_a - key_b;
        end

        // ------------------------------------------------------------------------------------------
        if (u_mul) begin
            // Multiplier (ISA.md 3.2, 3.3). 16x16 and 24x24 products both fit a 24x24 multiplier whose
            // operands are sign- or zero-extended; only bits 0..47 are ever needed, so the product is
            // formed modulo 2^48 from operands extended to 48 bits (exact for signed and unsigned).
            m24 = 1'b0; msa = 1'b0; msb = 1'b0; mhi = 1'b0; msat = 1'b0;
            if (op == OP_MUL16) begin
                // 3.2: each 16-bit operand signed or unsigned on its own
                msa = s1;
                msb = s2;
            end else if (op == OP_MUL24) begin
                // 3.2: both 24-bit operands share one signedness; s2 selects the high half
                m24 = 1'b1;
                msa = sgn;
                msb = sgn;
                mhi = s2;
            end else begin
                // 3.3: MAD kinds 0 u16, 1 s16, 2 sat s16, 3 u24, 4 s24, 5 sat s24, 6 hi u24,
                // 7 hi s24, 8 sat hi s24; 9..15 behave like u24 on silicon (ENV-HW).
                case (kind)
                    4'd0: ;
                    4'd1: begin msa = 1'b1; msb = 1'b1; end
                    4'd2: begin msa = 1'b1; msb = 1'b1; msat = 1'b1; end
                    4'd4: begin m24 = 1'b1; msa = 1'b1; msb = 1'b1; end
                    4'd5: begin m24 = 1'b1; msa = 1'b1; msb = 1'b1; msat = 1'b1; end
                    4'd6: begin m24 = 1'b1; mhi = 1'b1; end
                    4'd7: begin m24 = 1'b1; msa = 1'b1; msb = 1'b1; mhi = 1'b1; end
                    4'd8: begin m24 = 1'b1; msa = 1'b1; msb = 1'b1; mhi = 1'b1; msat = 1'b1; end
                    default: m24 = 1'b1;  // 3 and 9..15: u24
                endcase
            end
            mul_a24 = m24 ? a[23:0] : {{8{msa & a[15]}}, a[15:0]};
            mul_b24 = m24 ? b[23:0] : {{8{msb & b[15]}}, b[15:0]};
            prod = 48'd0;
            if (op == OP_MUL16 || op == OP_MUL24 || op == OP_MAD)
                prod = {{24{msa & mul_a24[23]}}, mul_a24} * {{24{msb & mul_b24[23]}}, mul_b24};
            mul_res = mhi ? prod[47:16] : prod[31:0];
        end

        // ------------------------------------------------------------------------------------------
        if (u_add) begin
            // Adder (ISA.md 3.1; IMAD 3.3 and ISAD 3.4 use it as a 32-bit add). sub is a + ~b + 1, subr
            // ~a + b + 1, addc a + b + cin; C is the carry out of the top bit (for subtraction the
            // inverted borrow), O the signed overflow of the operands as fed to the adder.
            if (op == OP_MAD) begin
                add_x = mul_res;  add_y = c;  add_op = addop;  add_sat = msat;  add_w = 1'b1;
            end else if (op == OP_SAD) begin
                // 3.4: |a - b| plus src3, a plain 32-bit add whatever the operand width
                add_x = absdiff;  add_y = c;  add_op = 2'd0;   add_sat = 1'b0;  add_w = 1'b1;
            end else begin
                add_x = a;        add_y = b;  add_op = addop;  add_sat = sat;   add_w = wide;
            end
            add_xi = (add_op == ADD_SUBR) ? ~add_x : add_x;  // one's complement (3.1)
            add_yi = (add_op == ADD_SUB)  ? ~add_y : add_y;
            add_ci = (add_op == ADD_SUB) | (add_op == ADD_SUBR) | ((add_op == ADD_ADDC) & cin);
            // 16-bit: 3.1 truncates the operands to 16 bits; left-aligned, the carry in enters at bit 16
            // and the carry out / overflow come from bits 32 / 31 as for 32 bits.
            add_ax = add_w ? add_xi : {add_xi[15:0], 16'b0};
            add_ay = add_w ? add_yi : {add_yi[15:0], 16'b0};
            add_sum = {1'b0, add_ax} + {1'b0, add_ay} + {16'b0, add_ci & ~add_w, 15'b0, add_ci & add_w};
            add_c = add_sum[32];
            add_o = (add_ax[31] == add_ay[31]) & (add_sum[31] != add_ax[31]);
            // 3.1 saturation: on O, 0x7fffffff if S(s1) = 0 else 0x80000000 (left-aligned 0x7fff /
            // 0x8000); O and C are still reported.
            add_al = (add_sat & add_o) ? (add_ax[31] ? 32'h80000000 : 32'h7fffffff) : add_sum[31:0];
            add_res = add_w ? add_al : {16'b0, add_al[31:16]};
        end

        // ------------------------------------------------------------------------------------------
        if (u_sh) begin
            // Shifts (ISA.md 3.7). The count is unsigned and does not wrap (all 32 bits of b for 32-bit,
            // the low 16 for 16-bit): count >= width gives 0 or all sign bits and C = 0. C = last bit
            // shifted out when 0 < count < width; O = count == 1 and the sign bit changed.
            sh_over = wide ? (b[31:5] != 27'd0) : (b[15:4] != 12'd0);
            sh_n = b[4:0];                              // < width when ~sh_over
            sh_in = wide ? a : {a[15:0], 16'b0};         // left-aligned 16-bit operand
            sh_sign = (op == OP_SHR) & sgn & sh_in[31];  // arithmetic fill bit
            // SHL: bit 32 of the 33-bit shift is the last bit out (0 for a count of 0). SHR: one guard
            // bit below the operand catches the last bit out; 16-bit aligned operands have zeros below
            // bit 16, so their last bit out lands in bit 16.
            shl_full = {1'b0, sh_in} << sh_n;
            shr_full = ({sh_in, 1'b0} >> sh_n) | ({33{sh_sign}} & ~({33{1'b1}} >> sh_n));
            if (sh_over) begin
                sh_al = {32{sh_sign}};
                sh_c = 1'b0;
            end else if (op == OP_SHL) begin
                sh_al = shl_full[31:0];
                sh_c = shl_full[32];
            end else begin
                sh_al = shr_full[32:1];
                sh_c = wide ? shr_full[0] : shr_full[16];
            end
            sh_o = ~sh_over & (sh_n == 5'd1) & (sh_al[31] != sh_in[31]);
            sh_res = wide ? sh_al : {16'b0, sh_al[31:16]};
        end

        // ------------------------------------------------------------------------------------------
        if (op == OP_LOP) begin
            // Logic (ISA.md 3.8): optional inversion of either source, then and / or / xor / pass src2.
            lop_x = not1 ? ~a : a;
            lop_y = not2 ? ~b : b;
            case (lop)
                2'd0:    lop_res = lop_x & lop_y;
                2'd1:    lop_res = lop_x | lop_y;
                2'd2:    lop_res = lop_x ^ lop_y;
                default: lop_res = lop_y;
            endcase
        end

        // ------------------------------------------------------------------------------------------
        if (op == OP_I2I) begin
            // I2I (ISA.md 3.9): extend the source, split into sign and magnitude; abs clears the sign,
            // neg toggles it; then clamp to the destination range (unsigned: negative -> 0).
            // Source type: 0 u16, 1 u32, 2/3 u8, 4 s16, 5 s32, 6/7 s8 (bit 2 = signed).
            i2i_s32 = (src_type[1:0] == 2'd1);
            i2i_s16 = (src_type[1:0] == 2'd0);
            i2i_top = i2i_s32 ? a[31] : (i2i_s16 ? a[15] : a[7]);
            i2i_sneg = src_type[2] & i2i_top;              // the source is negative
            i2i_ext = i2i_s32 ? a : (i2i_s16 ? {{16{i2i_sneg}}, a[15:0]} : {{24{i2i_sneg}}, a[7:0]});
            i2i_mag = i2i_sneg ? -i2i_ext : i2i_ext;       // |s32 min| = 0x80000000 fits
            i2i_neg = (i2i_sneg & ~abs_) ^ neg;
            i2i_d8  = (dst_bits == 2'd0);
            i2i_d16 = (dst_bits == 2'd1);
            // largest magnitude of a positive / negative result in the destination type
            if (i2i_d8) begin
                i2i_pmax = sgn ? 32'h0000007f : 32'h000000ff;
                i2i_nmax = 32'h00000080;
            end else if (i2i_d16) begin
                i2i_pmax = sgn ? 32'h00007fff : 32'h0000ffff;
                i2i_nmax = 32'h00008000;
            end else begin
                i2i_pmax = sgn ? 32'h7fffffff : 32'hffffffff;
                i2i_nmax = 32'h80000000;
            end
            // the clamped value, two's complement in 32 bits
            if (!i2i_neg)
                i2i_val = (i2i_mag > i2i_pmax) ? i2i_pmax : i2i_mag;
            else if (sgn)
                i2i_val = (i2i_mag > i2i_nmax) ? -i2i_nmax : -i2i_mag;
            else
                i2i_val = 32'd0;  // unsigned destination: negative -> 0
            // 8/16-bit results are extended to 16 bits (the half register); an 8-bit result written to
            // a full register is extended to 32 bits. The clamped value is already extended to 32 bits.
            i2i_w32 = ~(i2i_d8 | i2i_d16) | (i2i_d8 & dst_full);
        end

        // ------------------------------------------------------------------------------------------
        // Result select and flags.
        case (op)
            OP_ADD, OP_MAD, OP_SAD: begin
                r = add_res;
                fo = add_o;
                fc = add_c;
                fw = add_w;
            end
            OP_MUL16, OP_MUL24: r = mul_res;  // 3.2: S = bit 31, C = O = 0
            OP_SET: begin
                // 3.5: all ones of the width when true (S only), 0 when false (Z only)
                if ((cond[0] & cmp_lt) | (cond[1] & cmp_eq) | (cond[2] & cmp_gt))
                    r = wmask;
                fw = wide;
            end
            OP_MIN: begin
                r = (cmp_lt ? a : b) & wmask;
                fw = wide;
            end
            OP_MAX: begin
                r = (cmp_lt ? b : a) & wmask;
                fw = wide;
            end
            OP_SHL, OP_SHR: begin
                r = sh_res;
                fo = sh_o;
                fc = sh_c;
                fw = wide;
            end
            OP_LOP: begin
                r = lop_res & wmask;
                fw = wide;
            end
            OP_I2I: begin
                r = i2i_w32 ? i2i_val : {16'b0, i2i_val[15:0]};
                fw = i2i_w32;
            end
            OP_PASS: r = b;
            default: ;  // 13..15 are never issued: result 0
        endcase
        res = r;
        flags = {fo, fc, fw ? r[31] : r[15], r == 32'd0};
    end

endmodule
