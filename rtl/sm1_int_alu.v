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
    output wire [31:0] res,
    output wire [3:0]  flags     // {O, C, S, Z}
);

`include "sm_hw.vh"  // OP_* (golden/g80/hw.py AluOp)

    localparam [1:0] ADD_SUB  = 2'd1;
    localparam [1:0] ADD_SUBR = 2'd2;
    localparam [1:0] ADD_ADDC = 2'd3;

    // One process computes the lane: the datapath of the operation in `op` only, every
    // intermediate a variable of it (`res` and `flags` are nets of its `r`, `fo`, `fc`, `fw`, below).
    // As a net of continuous assigns and small always blocks (one per unit) an event-driven
    // simulator re-ran the result select for every intermediate that settled, about 60 times a cycle
    // under Icarus. The lane runs about once a cycle (every pass brings new operands), and
    // under Icarus each variable read or written by a statement costs the same whatever its width,
    // so the process is shaped for few of them: one `case` prepares what several operations share
    // (multiplier, comparator), a second computes the operation's result with its flags, each branch
    // reading the inputs directly and writing `r`, `fo`, `fc`, `fw` without further copies.
    // Variables of a unit the operation does not use keep stale values, which nothing then reads.
    reg [31:0] key_a, key_b, absdiff;           // comparator
    reg        cmp_lt, cmp_eq;
    reg        m24, msa, msb, mhi, msat;        // multiplier kind
    reg [23:0] mul_a24, mul_b24;
    reg [47:0] prod;
    reg [31:0] mul_res;
    reg [31:0] add_ax, add_ay, add_cv;          // adder: aligned operands and carry in
    reg        add_sat;
    reg [32:0] add_sum;
    reg        sh_over, sh_sign;                // shifter
    reg [4:0]  sh_n;
    reg [31:0] sh_in;
    reg [32:0] sh_full;
    reg        i2i_s32, i2i_s16, i2i_top, i2i_sneg, i2i_neg, i2i_d8, i2i_d16, i2i_w32;  // I2I
    reg [31:0] i2i_ext, i2i_mag, i2i_pmax, i2i_nmax, i2i_val;
    reg [31:0] r;
    reg        fo, fc, fw;                      // fw: the flags are taken on 32 bits (else on the low 16)
    always @* begin
        // ------------------------------------------------------------------------------------------
        // Shared units.
        case (op)
            OP_MUL16, OP_MUL24, OP_MAD: begin
                // Multiplier (ISA.md 3.2, 3.3). 16x16 and 24x24 products both fit a 24x24 multiplier
                // whose operands are sign- or zero-extended; only bits 0..47 are ever needed, so the
                // product is formed modulo 2^48 from operands extended to 48 bits (exact for signed
                // and unsigned).
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
                prod = {{24{msa & mul_a24[23]}}, mul_a24} * {{24{msb & mul_b24[23]}}, mul_b24};
                mul_res = mhi ? prod[47:16] : prod[31:0];
            end
            OP_SAD, OP_SET, OP_MIN, OP_MAX: begin
                // Comparator (ISA.md 3.4 ISAD, 3.5 ISET, 3.6 IMIN/IMAX): operands reduced to the
                // width, sign bit flipped when signed, so an unsigned compare of the keys orders the
                // typed values and the key difference is the exact |a - b| (up to 2^32 - 1, so 32
                // bits suffice).
                key_a = wide ? a ^ {sgn, 31'd0} : {16'd0, a[15:0] ^ {sgn, 15'd0}};
                key_b = wide ? b ^ {sgn, 31'd0} : {16'd0, b[15:0] ^ {sgn, 15'd0}};
                cmp_lt = key_a < key_b;
                cmp_eq = key_a == key_b;
                if (op == OP_SAD) absdiff = cmp_lt ? key_b - key_a : key_a - key_b;
            end
            default: ;
        endcase

        // ------------------------------------------------------------------------------------------
        // Result and flags.
        // (each branch writes fo and fc itself: a default written first was two stores more in the
        // adds and shifts, which write both anyway)
        fw = wide;
        case (op)
            OP_ADD, OP_MAD, OP_SAD: begin
                // Adder (ISA.md 3.1; IMAD 3.3 and ISAD 3.4 use it as a 32-bit add). sub is a + ~b + 1,
                // subr ~a + b + 1, addc a + b + cin; C is the carry out of the top bit (for
                // subtraction the inverted borrow), O the signed overflow of the operands as fed to
                // the adder. 16-bit: 3.1 truncates the operands to 16 bits; left-aligned (operand in
                // bits 31:16, zeros below) the carry in enters at bit 16 and the carry out / overflow
                // come from bits 32 / 31 as for 32 bits.
                if (op == OP_ADD) begin
                    add_ax = ((addop == ADD_SUBR) ? ~a : a) << (wide ? 5'd0 : 5'd16);  // one's complement (3.1)
                    add_ay = ((addop == ADD_SUB) ? ~b : b) << (wide ? 5'd0 : 5'd16);
                    add_cv = {31'd0, (addop == ADD_ADDC) ? cin : (addop != 2'd0)} << (wide ? 5'd0 : 5'd16);
                    add_sat = sat;
                end else if (op == OP_MAD) begin
                    add_ax = (addop == ADD_SUBR) ? ~mul_res : mul_res;
                    add_ay = (addop == ADD_SUB) ? ~c : c;
                    add_cv = {31'd0, (addop == ADD_ADDC) ? cin : (addop != 2'd0)};
                    add_sat = msat;
                    fw = 1'b1;
                end else begin
                    // 3.4: |a - b| plus src3, a plain 32-bit add whatever the operand width
                    add_ax = absdiff;
                    add_ay = c;
                    add_cv = 32'd0;
                    add_sat = 1'b0;
                    fw = 1'b1;
                end
                add_sum = {1'b0, add_ax} + {1'b0, add_ay} + {1'b0, add_cv};
                fc = add_sum[32];
                fo = (add_ax[31] == add_ay[31]) & (add_sum[31] != add_ax[31]);
                // 3.1 saturation: on O, 0x7fffffff if S(s1) = 0 else 0x80000000 (left-aligned 0x7fff /
                // 0x8000); O and C are still reported.
                r = (add_sat & fo) ? (add_ax[31] ? 32'h80000000 : 32'h7fffffff) : add_sum[31:0];
                if (!fw) r = {16'b0, r[31:16]};
            end
            OP_MUL16, OP_MUL24: begin
                r = mul_res;  // 3.2: S = bit 31, C = O = 0
                fo = 1'b0; fc = 1'b0;
                fw = 1'b1;
            end
            OP_SET: begin
                // 3.5: all ones of the width when true (S only), 0 when false (Z only)
                if ((cond[0] & cmp_lt) | (cond[1] & cmp_eq) | (cond[2] & ~cmp_lt & ~cmp_eq))
                    r = wide ? 32'hffffffff : 32'h0000ffff;
                else
                    r = 32'd0;
                fo = 1'b0; fc = 1'b0;
            end
            OP_MIN: begin r = (cmp_lt ? a : b) & (wide ? 32'hffffffff : 32'h0000ffff); fo = 1'b0; fc = 1'b0; end
            OP_MAX: begin r = (cmp_lt ? b : a) & (wide ? 32'hffffffff : 32'h0000ffff); fo = 1'b0; fc = 1'b0; end
            OP_SHL, OP_SHR: begin
                // Shifts (ISA.md 3.7). The count is unsigned and does not wrap (all 32 bits of b for
                // 32-bit, the low 16 for 16-bit): count >= width gives 0 or all sign bits and C = 0.
                // C = last bit shifted out when 0 < count < width; O = count == 1 and the sign bit
                // changed. 16-bit operands are shifted left-aligned.
                sh_over = wide ? (b[31:5] != 27'd0) : (b[15:4] != 12'd0);
                sh_n = b[4:0];                               // < width when ~sh_over
                sh_in = wide ? a : {a[15:0], 16'b0};
                if (op == OP_SHL) begin
                    // bit 32 of the 33-bit shift is the last bit out (0 for a count of 0)
                    sh_full = {1'b0, sh_in} << sh_n;
                    r = sh_over ? 32'd0 : sh_full[31:0];
                    fc = ~sh_over & sh_full[32];
                end else begin
                    // one guard bit below the operand catches the last bit out; 16-bit aligned
                    // operands have zeros below bit 16, so their last bit out lands in bit 16
                    sh_sign = sgn & sh_in[31];               // arithmetic fill bit
                    sh_full = ({sh_in, 1'b0} >> sh_n) | ({33{sh_sign}} & ~({33{1'b1}} >> sh_n));
                    if (sh_over) begin
                        r = {32{sh_sign}};
                        fc = 1'b0;
                    end else begin
                        r = sh_full[32:1];
                        fc = wide ? sh_full[0] : sh_full[16];
                    end
                end
                fo = ~sh_over & (sh_n == 5'd1) & (r[31] != sh_in[31]);
                if (!wide) r = {16'b0, r[31:16]};
            end
            OP_LOP: begin
                // Logic (ISA.md 3.8): optional inversion of either source, then and / or / xor / pass src2.
                fo = 1'b0; fc = 1'b0;
                case (lop)
                    2'd0:    r = (not1 ? ~a : a) & (not2 ? ~b : b) & (wide ? 32'hffffffff : 32'h0000ffff);
                    2'd1:    r = ((not1 ? ~a : a) | (not2 ? ~b : b)) & (wide ? 32'hffffffff : 32'h0000ffff);
                    2'd2:    r = ((not1 ? ~a : a) ^ (not2 ? ~b : b)) & (wide ? 32'hffffffff : 32'h0000ffff);
                    default: r = (not2 ? ~b : b) & (wide ? 32'hffffffff : 32'h0000ffff);
                endcase
            end
            OP_I2I: begin
                // I2I (ISA.md 3.9): extend the source, split into sign and magnitude; abs clears the
                // sign, neg toggles it; then clamp to the destination range (unsigned: negative -> 0).
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
                // 8/16-bit results are extended to 16 bits (the half register); an 8-bit result
                // written to a full register is extended to 32 bits. The clamped value is already
                // extended to 32 bits.
                i2i_w32 = ~(i2i_d8 | i2i_d16) | (i2i_d8 & dst_full);
                r = i2i_w32 ? i2i_val : {16'b0, i2i_val[15:0]};
                fo = 1'b0; fc = 1'b0;
                fw = i2i_w32;
            end
            OP_PASS: begin
                r = b;
                fo = 1'b0; fc = 1'b0;
                fw = 1'b1;
            end
            default: begin  // 13..15 are never issued: result 0
                r = 32'd0;
                fo = 1'b0; fc = 1'b0;
                fw = 1'b1;
            end
        endcase
    end
    // The result and the flags are nets of the process's variables: in the process, the copy of
    // `r` and the flags' reads of `r`, `fo`, `fc` and `fw` were 7 of a lane's 32 loads and stores
    // a run under Icarus; as nets they cost no variable access (a value a branch stores twice, the
    // 16-bit forms and saturation, passes through them twice in the same instant).
    assign res = r;
    assign flags = {fo, fc, fw ? r[31] : r[15], r == 32'd0};

endmodule
