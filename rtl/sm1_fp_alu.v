`timescale 1ns / 1ps
// sm1_fp_alu: the floating-point datapath of one SM lane, bit-exact with G80 silicon including the
// $c flags (../shared/reference/FP_SFU.md sections 0-8 and appendix A, ISA.md section 4; the model
// of golden/g80/arith/fp.py with the source modifiers of golden/g80/execute.py). Purely combinational:
// the result and flags are valid in the cycle the inputs are, one operation per lane per cycle.
//
// Op codes (op[3:0]) and the decoded fields each one uses:
//   0 FADD   FADD/FADD32/FADD32I   a + b        rnd (3 = RZ, else RN), sat; neg_a, neg_b
//                                               (the long form's second source sits in the src3 slot: drive it on b)
//   1 FMUL   FMUL/FMUL32/FMUL32I   a * b        rnd (3 = RZ, else RN); neg_a, neg_b; sat is ignored (G80)
//   2 FMAD   FMAD/FMAD32/FMAD32I   a * b + c    always RN (rnd ignored), sat; neg_a = neg of the product, neg_c
//   3 FMIN   4 FMAX                             abs_a, neg_a, abs_b, neg_b
//   5 FSET   a <cond> b -> 0xffffffff / 0       cond = 4-bit mask {u, g, e, l}; abs/neg of a and b
//   6 FSLCT  c >= 0 ? a : b                     neg_c; a and b pass raw (their modifier inputs are ignored)
//   7 F2I    float -> integer                   rnd (RN RM RP RZ), sgn, wide (32-bit, else 16-bit result),
//                                               src32 (f32, else f16 in a[15:0]); abs_a, neg_a
//   8 I2F    integer -> float                   src_type (srct field: 0 u16, 1 u32, 2/3 u8, 4 s16, 5 s32,
//                                               6/7 s8; 8/16-bit sources use the low bits of a), rnd, sat,
//                                               wide (f32, else f16 in res[15:0]); abs_a / neg_a act on the
//                                               integer's sign (FP_SFU.md 7)
//   9 F2F    float -> float                     rnd, rint (round to integer), sat, src32, wide; abs_a, neg_a
//   10..15   never issued                       result 0, flags Z
// rnd: 0 RN, 1 RM, 2 RP, 3 RZ (the instruction's rounding field). Source modifiers act on the raw
// sign bit before anything else (abs clears it, then neg flips it; bit 15 for an f16 source).
// 16-bit results (F2I to 16 bits, f16 destinations) are in res[15:0] with res[31:16] = 0; the
// execute stage writes them to the half register named by the instruction.
//
// Flags are {O, C, S, Z} (ISA.md 2.1); C = O = 0 for every FP instruction. FP results (FP_SFU.md
// 1.4, taken on the half for f16 results): Z = +-0 or NaN, S = negative non-zero or NaN. F2I: Z =
// (R == 0), S = top bit of the destination width. FSET and FSLCT: from the raw result bits, Z =
// +-0 pattern, S = bit 31 of a non-zero pattern.
//
// Datapath (one of each, shared where the operations can share it):
//   - one 24x24 multiplier (FMUL, FMAD), 1-bit normalise;
//   - one aligner (exponent compare, swap, right shift with sticky into bit 0) and one 29-bit
//     add/subtract with a conditional negate: the 28-bit accumulator of FADD and FMAD (FP_SFU.md 2.2,
//     4.2; FMAD adds the product truncated to 24 bits);
//   - one 32-bit normaliser, a log shifter whose stage tests give the leading-zero count (FADD/FMAD
//     sums, I2F magnitudes, the integers of F2F round-to-integer), then FMAD's right denormaliser
//     for sums below 2^-126;
//   - one rounder (24-bit incrementer on guard/sticky, nearest-even or "magnitude up") and one PACK
//     (carry, FTZ, overflow) for FADD, FMUL, FMAD, I2F and F2F round-to-integer;
//   - one integer-rounding right shifter + 24-bit incrementer shared by F2I and F2F round-to-integer,
//     F2I's left shift (0..8) and clamp;
//   - one 31-bit magnitude comparator (FMIN, FMAX, FSET), FSLCT's sign test;
//   - f16 -> f32 on the source (F2I, F2F) and f32 -> f16 with its own small shifter/rounder on the
//     result (I2F, F2F); one SAT on the f32 result (FADD, FMAD, I2F, F2F).
// F2F applies SAT after round-to-integer, where FP_SFU.md 8 applies it before: the two commute
// (both are monotone, SAT's bounds 0 and 1.0 are integers, and SAT maps every negative, -0 included,
// to +0), so one SAT serves every operation.
//
// Coding style: the datapath is one combinational always block (blocking assignments in dataflow
// order, every variable assigned on every pass, so no latches). An event-driven simulator then
// evaluates it once per input change instead of once per glitch of a few hundred nets (Icarus ran
// the same logic written as continuous assignments five times slower).
module sm1_fp_alu (
    input  wire [3:0]  op,        // see the table above
    input  wire [1:0]  rnd,       // 0 RN, 1 RM, 2 RP, 3 RZ
    input  wire        sat,       // FADD, FMAD, I2F, F2F: clamp the f32 result to [0, 1.0]
    input  wire        rint,      // F2F: round to integer in mode rnd
    input  wire [3:0]  cond,      // FSET: bit0 l, bit1 e, bit2 g, bit3 u
    input  wire        wide,      // F2I: 32-bit integer (else 16); I2F/F2F: f32 result (else f16)
    input  wire        src32,     // F2I/F2F: f32 source (else f16 in a[15:0])
    input  wire        sgn,       // F2I: signed destination
    input  wire [2:0]  src_type,  // I2F: integer source type
    input  wire        abs_a,
    input  wire        neg_a,
    input  wire        abs_b,
    input  wire        neg_b,
    input  wire        neg_c,
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [31:0] c,
    output reg  [31:0] res,
    output reg  [3:0]  flags      // {O, C, S, Z}
);

`include "sm_hw.vh"  // FP_* (golden/g80/hw.py FpOp)

    localparam [1:0] RN = 2'd0;
    localparam [1:0] RM = 2'd1;
    localparam [1:0] RP = 2'd2;
    localparam [1:0] RZ = 2'd3;

    localparam [31:0] CNAN = 32'h7fffffff;  // the only NaN an FP instruction writes
    localparam [30:0] INF  = 31'h7f800000;
    localparam [30:0] MAXF = 31'h7f7fffff;
    localparam [31:0] ONE  = 32'h3f800000;

    // UNPACK with FTZ (FP_SFU.md 1.1): {sign, zero, NaN, infinity, exponent, mantissa with the
    // hidden bit}; zeros and denormals give E = 1, M = 0, sign kept.
    function automatic [35:0] unpack(input [31:0] f);
        reg z;
        begin
            z = (f[30:23] == 8'd0);
            unpack = {f[31], z, (f[30:23] == 8'hff) & (f[22:0] != 23'd0), (f[30:23] == 8'hff) & (f[22:0] == 23'd0),
                      z ? 8'd1 : f[30:23], z ? 24'd0 : {1'b1, f[22:0]}};
        end
    endfunction

    // Variables of the datapath, by section (prefixes as below).
    reg        is_fadd, is_fmul, is_fmad, is_i2f, is_f2f, do_rint;
    // operands after the source modifiers (am/bm/cm), f16 source (h_), the float source a (fa)
    reg        half_src, sa_mod;
    reg [31:0] am, bm, cm, h2f, fa;
    reg [3:0]  h_lz;
    reg [9:0]  h_fn;
    // UNPACK of a, b, c: sign, zero (incl. denormal), NaN, infinity, exponent, significand
    reg        a_s, a_z, a_nan, a_inf, b_s, b_z, b_nan, b_inf, c_s, c_z, c_nan, c_inf;
    reg [7:0]  a_e, b_e, c_e;
    reg [23:0] a_m, b_m, c_m;
    // multiplier (mul_), accumulator (ad_)
    reg [47:0] mul_p, mul_n;
    reg [11:0] mul_e;
    reg        mul_s;
    reg        ad_xs, ad_ys, ad_swap, ad_bs, ad_ss, ad_st, ad_sub, ad_neg, ad_zero, ad_s;
    reg [11:0] ad_xe, ad_ye, ad_diff, ad_d, ad_emax;
    reg [23:0] ad_xm, ad_ym;
    reg [26:0] ad_big, ad_sm, ad_small;
    reg [4:0]  ad_sh;
    reg [28:0] ad_t;
    reg [27:0] ad_r;
    reg [31:0] ad_zres;
    // integer rounding shifter (ir_), F2I (f2i_), I2F source and errata (i_, e_)
    reg        cv_near, ir_small, ir_up, ir_inc;
    reg [7:0]  ir_d;
    reg [4:0]  ir_sh;
    reg [49:0] ir_t;
    reg [23:0] ir_q;
    reg [31:0] f2i_n, f2i_val, f2i_lim;
    reg        i_32, i_8, i_sneg, i_s, i_up;
    reg [31:0] i_ext, i_mag, e_n1, e_n;
    reg [15:0] e_lo;
    reg [2:0]  e_cz;
    // normaliser (nm_), denormaliser (dn_), rounder (rd_), PACK (pk)
    reg [31:0] nm_in, nm_x, dn_x;
    reg [11:0] nm_e, dn_d, dn_e;
    reg [4:0]  nm_lz;
    reg        use_mul, rd_g, rd_st, rd_s, rd_near, rd_up, rd_inc;
    reg [23:0] rd_m, pk_m;
    reg [11:0] rd_e, pk_e;
    reg [24:0] rd_mr;
    reg [31:0] pk;
    // op results, comparator (cp_), saturated f32 result (y), f32 -> f16 (h_)
    reg [31:0] fadd_r, fmul_r, fmad_r, f2f_r, minmax_r, fr, y;
    reg [31:0] cp_a, cp_b;
    reg        cp_gt, cp_eq, cp_max;
    reg [1:0]  cp_rel;
    reg        y_s, y_z, h_den, h_g, h_st, h_inc, h_big;
    reg [7:0]  y_e, h_d, h_e16;
    reg [23:0] y_m;
    reg [4:0]  h_sh;
    reg [49:0] h_t;
    reg [11:0] h_q;
    reg [10:0] h_f16;
    reg [15:0] f16_r;
    // flags: of the low half (fl16), NaN-aware FP flags (fl_nan), integer flags (fl_int)
    reg        fl16, fl_nan, fl_int, fl_top, fl_mz, fl_isn;

    always @* begin
        is_fadd = (op == FP_FADD);
        is_fmul = (op == FP_FMUL);
        is_fmad = (op == FP_FMAD);
        is_i2f  = (op == FP_I2F);
        is_f2f  = (op == FP_F2F);
        do_rint = is_f2f & rint;

        // --------------------------------------------------------------------------------------
        // Source modifiers (FP_SFU.md 1.6) on the raw sign bit. I2F's abs/neg act on the integer
        // (below) and FSLCT's a/b pass raw, so neither touches a's bits there.
        half_src = ((op == FP_F2I) | is_f2f) & ~src32;
        sa_mod = half_src ? a[15] : a[31];
        if (!is_i2f && op != FP_FSLCT)
            sa_mod = (sa_mod & ~abs_a) ^ neg_a;
        am = half_src ? {16'd0, sa_mod, a[14:0]} : {sa_mod, a[30:0]};
        bm = (op == FP_FSLCT) ? b : {(b[31] & ~abs_b) ^ neg_b, b[30:0]};
        cm = {c[31] ^ neg_c, c[30:0]};

        // f16 source -> f32, exact (appendix A): NaN -> CNAN, f16 denormals become normal f32
        // values (h_lz: leading zeros of the 10-bit fraction).
        h_lz = am[9] ? 4'd0 : am[8] ? 4'd1 : am[7] ? 4'd2 : am[6] ? 4'd3 : am[5] ? 4'd4 :
               am[4] ? 4'd5 : am[3] ? 4'd6 : am[2] ? 4'd7 : am[1] ? 4'd8 : 4'd9;
        h_fn = am[9:0] << (h_lz + 4'd1);  // the fraction below the leading one
        if (am[14:10] == 5'h1f)
            h2f = (am[9:0] != 10'd0) ? CNAN : {am[15], INF};
        else if (am[14:10] == 5'd0)
            h2f = (am[9:0] == 10'd0) ? {am[15], 31'd0} : {am[15], 8'd112 - {4'd0, h_lz}, h_fn, 13'd0};
        else
            h2f = {am[15], {3'd0, am[14:10]} + 8'd112, am[9:0], 13'd0};
        fa = half_src ? h2f : am;  // the float source a of every op but I2F

        // --------------------------------------------------------------------------------------
        // UNPACK the three sources (the function above, with FTZ)
        {a_s, a_z, a_nan, a_inf, a_e, a_m} = unpack(fa);
        {b_s, b_z, b_nan, b_inf, b_e, b_m} = unpack(bm);
        {c_s, c_z, c_nan, c_inf, c_e, c_m} = unpack(cm);

        // --------------------------------------------------------------------------------------
        // Multiplier (FP_SFU.md 3, 4.2): exact 48-bit product normalised to bit 47. FMUL rounds it
        // (guard P[23], sticky P[22:0]); FMAD truncates it to the top 24 bits with an unbounded
        // exponent. Exponents are 12-bit two's complement (products reach -125..382).
        mul_p = a_m * b_m;
        mul_n = mul_p[47] ? mul_p : {mul_p[46:0], 1'b0};
        mul_e = {4'd0, a_e} + {4'd0, b_e} - 12'd126 - {11'd0, ~mul_p[47]};
        mul_s = a_s ^ b_s;

        // --------------------------------------------------------------------------------------
        // Accumulator (FP_SFU.md 2.2 fadd, 4.2 fmad): x = a (FADD) or the truncated product (FMAD),
        // y = b (FADD) or c (FMAD). The operand with the larger exponent is shifted left by 3, the
        // other aligned right with the dropped bits ORed into bit 0 (ALIGN); then a signed sum.
        ad_xs = is_fmad ? mul_s : a_s;
        ad_xe = is_fmad ? mul_e : {4'd0, a_e};
        ad_xm = is_fmad ? mul_n[47:24] : a_m;
        ad_ys = is_fmad ? c_s : b_s;
        ad_ye = {4'd0, is_fmad ? c_e : b_e};
        ad_ym = is_fmad ? c_m : b_m;
        ad_diff = ad_xe - ad_ye;                       // -379..381
        ad_swap = ad_diff[11];                         // y has the larger exponent
        ad_d    = ad_swap ? -ad_diff : ad_diff;
        ad_emax = ad_swap ? ad_ye : ad_xe;
        ad_bs   = ad_swap ? ad_ys : ad_xs;
        ad_big  = {ad_swap ? ad_ym : ad_xm, 3'd0};
        ad_ss   = ad_swap ? ad_xs : ad_ys;
        ad_sm   = {ad_swap ? ad_xm : ad_ym, 3'd0};
        ad_sh   = (ad_d > 12'd31) ? 5'd31 : ad_d[4:0];  // >= 27: only the sticky survives
        ad_st   = (ad_sm & ~({27{1'b1}} << ad_sh)) != 27'd0;
        ad_small = (ad_sm >> ad_sh) | {26'd0, ad_st};
        ad_sub  = ad_bs ^ ad_ss;
        ad_t    = {2'd0, ad_big} + (ad_sub ? ~{2'd0, ad_small} : {2'd0, ad_small}) + {28'd0, ad_sub};
        ad_neg  = ad_t[28];                            // only when subtracting equal exponents
        ad_r    = ad_neg ? -ad_t[27:0] : ad_t[27:0];
        ad_zero = (ad_t == 29'd0);
        ad_s    = ad_neg ? ad_ss : ad_bs;
        // An exact zero sum is -0 only for (-0) + (-0); FMAD's cancellation (signs differ) gives +0.
        ad_zres = {ad_xs & ad_ys, 31'd0};

        // --------------------------------------------------------------------------------------
        // Integer rounding shifter (FP_SFU.md 6 step 1, 8 ROUND_TO_INTEGER): M >> (150 - E) for
        // E < 150, rounded in the magnitude mode of the source sign; shifts >= 26 all give q = 0
        // with the whole M as sticky. Shared by F2I and F2F round-to-integer (q <= 2^23).
        cv_near  = (rnd == RN);
        ir_small = (a_e < 8'd150);
        ir_d     = 8'd150 - a_e;
        ir_sh    = (ir_d > 8'd26) ? 5'd26 : ir_d[4:0];
        ir_t     = {a_m, 26'd0} >> ir_sh;
        ir_up    = ((rnd == RP) & ~a_s) | ((rnd == RM) & a_s);
        ir_inc   = cv_near ? (ir_t[25] & ((ir_t[24:0] != 25'd0) | ir_t[26])) : (ir_up & (ir_t[25:0] != 26'd0));
        ir_q     = ir_t[49:26] + {23'd0, ir_inc};

        // F2I (FP_SFU.md 6): magnitude saturated to 32 bits, then clamped to the destination.
        if (a_nan)
            f2i_n = 32'd0;
        else if (ir_small)
            f2i_n = {8'd0, ir_q};
        else if (a_e > 8'd158)
            f2i_n = 32'hffffffff;                      // >= 2^32, incl. infinities
        else
            f2i_n = {8'd0, a_m} << (a_e - 8'd150);     // shift 0..8
        if (sgn) begin
            // positive: up to 2^(w-1) - 1; negative: down to -2^(w-1)
            f2i_lim = (wide ? 32'h7fffffff : 32'h00007fff) + {31'd0, a_s};
            f2i_val = (f2i_n > f2i_lim) ? f2i_lim : f2i_n;
            if (a_s)
                f2i_val = -f2i_val;
        end else begin
            f2i_lim = wide ? 32'hffffffff : 32'h0000ffff;
            f2i_val = a_s ? 32'd0 : ((f2i_n > f2i_lim) ? f2i_lim : f2i_n);  // any negative, -0 too
        end
        if (!wide)
            f2i_val = {16'd0, f2i_val[15:0]};

        // --------------------------------------------------------------------------------------
        // I2F source (FP_SFU.md 7): extend the 8/16/32-bit integer, split sign and magnitude;
        // abs/neg give the final sign, which also picks the magnitude rounding direction.
        i_8    = src_type[1];
        i_32   = ~src_type[1] & src_type[0];
        i_sneg = src_type[2] & (i_32 ? a[31] : (i_8 ? a[7] : a[15]));
        i_ext  = i_32 ? a : (i_8 ? {{24{i_sneg}}, a[7:0]} : {{16{i_sneg}}, a[15:0]});
        i_mag  = i_sneg ? -i_ext : i_ext;               // |s32 min| = 2^31 fits
        i_s    = (i_sneg & ~abs_a) ^ neg_a;
        i_up   = ((rnd == RP) & ~i_s) | ((rnd == RM) & i_s);
        // The I2F -> f16 hardware bug as envytools' hwtest simulates it (golden.g80.arith.fp.
        // _i2f16_errata; FP_SFU.md appendix A names it without specifying it): in RN or "up" a
        // magnitude with bits 29..5 all ones reads as 0; then the top 2 + min(clz16(low half of
        // the magnitude - the original sign), 5) bits of the magnitude are dropped.
        e_n1 = ((cv_near | i_up) & (&i_mag[29:5])) ? 32'd0 : i_mag;
        e_lo = e_n1[15:0] - {15'd0, i_sneg};
        e_cz = e_lo[15] ? 3'd0 : e_lo[14] ? 3'd1 : e_lo[13] ? 3'd2 : e_lo[12] ? 3'd3 : e_lo[11] ? 3'd4 : 3'd5;
        e_n  = e_n1 & (32'hffffffff >> (3'd2 + e_cz));

        // --------------------------------------------------------------------------------------
        // Normaliser: leading one to bit 31. Sums come in as {R, 4'b0} with exponent Er = Emax + 1
        // at bit 27 of R; integers (I2F, F2F round-to-integer) with exponent 158 (= 127 + 31).
        // Five halving steps, each shifting when the top half of what is left is zero; the step
        // bits are the leading-zero count (31 for a zero input, which stays zero).
        if (is_i2f)
            nm_in = wide ? i_mag : e_n;
        else if (is_f2f)
            nm_in = {8'd0, ir_q};
        else
            nm_in = {ad_r, 4'd0};
        nm_x = nm_in;
        nm_lz[4] = (nm_x[31:16] == 16'd0);
        if (nm_lz[4]) nm_x = {nm_x[15:0], 16'd0};
        nm_lz[3] = (nm_x[31:24] == 8'd0);
        if (nm_lz[3]) nm_x = {nm_x[23:0], 8'd0};
        nm_lz[2] = (nm_x[31:28] == 4'd0);
        if (nm_lz[2]) nm_x = {nm_x[27:0], 4'd0};
        nm_lz[1] = (nm_x[31:30] == 2'd0);
        if (nm_lz[1]) nm_x = {nm_x[29:0], 2'd0};
        nm_lz[0] = ~nm_x[31];
        if (nm_lz[0]) nm_x = {nm_x[30:0], 1'b0};
        nm_e = ((is_i2f | is_f2f) ? 12'd158 : ad_emax + 12'd1) - {7'd0, nm_lz};
        // FMAD rounds a sum below 2^-126 at denormal precision (FP_SFU.md 4.4): shift right by
        // 1 - E (<= 26; it only drops zeros the normaliser shifted in) and use E = 1.
        dn_d = 12'd1 - nm_e;
        if (is_fmad && $signed(nm_e) < 12'sd1) begin
            dn_x = nm_x >> ((dn_d > 12'd31) ? 5'd31 : dn_d[4:0]);
            dn_e = 12'd1;
        end else begin
            dn_x = nm_x;
            dn_e = nm_e;
        end

        // --------------------------------------------------------------------------------------
        // Rounder and PACK (FP_SFU.md 1.3). FMUL, and FMAD's "addend is zero" case (4.1 step 4: an
        // RN product), take the multiplier; everything else the normaliser.
        use_mul = is_fmul | (is_fmad & c_z);
        rd_m  = use_mul ? mul_n[47:24] : dn_x[31:8];
        rd_g  = use_mul ? mul_n[23] : dn_x[7];
        rd_st = use_mul ? (mul_n[22:0] != 23'd0) : (dn_x[6:0] != 7'd0);
        rd_e  = use_mul ? mul_e : dn_e;
        rd_s  = use_mul ? mul_s : (is_i2f ? i_s : (is_f2f ? a_s : ad_s));
        // FADD/FMUL: RZ or RN (RM/RP are unspecified on G80 and taken as RN, as the model does);
        // FMAD: RN; I2F: its mode in the direction of the final sign; F2F's integers are exact.
        rd_near = is_fmad | ((is_fadd | is_fmul) & (rnd != RZ)) | (is_i2f & cv_near);
        rd_up   = is_i2f & i_up;
        rd_inc  = rd_near ? (rd_g & (rd_st | rd_m[0])) : (rd_up & (rd_g | rd_st));
        rd_mr   = {1'b0, rd_m} + {24'd0, rd_inc};
        pk_m    = rd_mr[24] ? rd_mr[24:1] : rd_mr[23:0];  // carry out: M = 2^23, E + 1
        pk_e    = rd_e + {11'd0, rd_mr[24]};
        if ($signed(pk_e) >= 12'sd255)                 // overflow: RZ stops at the largest finite
            pk = {rd_s, ((is_fadd | is_fmul) & (rnd == RZ)) ? MAXF : INF};
        else if ($signed(pk_e) <= 12'sd0 || !pk_m[23])
            pk = {rd_s, 31'd0};                         // zero, or FTZ of a tiny result
        else
            pk = {rd_s, pk_e[7:0], pk_m[22:0]};

        // --------------------------------------------------------------------------------------
        // Special cases (FP_SFU.md 2.1, 3, 4.1, 8) around the packed results.
        if (a_nan | b_nan)
            fadd_r = CNAN;
        else if (a_inf)
            fadd_r = (b_inf & (a_s != b_s)) ? CNAN : fa;
        else if (b_inf)
            fadd_r = bm;
        else if (ad_zero)
            fadd_r = ad_zres;
        else
            fadd_r = pk;

        if (a_nan | b_nan)
            fmul_r = CNAN;
        else if (a_inf | b_inf)
            fmul_r = (a_z | b_z) ? CNAN : {mul_s, INF};
        else if (a_z | b_z)
            fmul_r = {mul_s, 31'd0};
        else
            fmul_r = pk;

        // FMAD with a zero operand is FADD_RN(FMUL_RN(a, b), c): c when a product factor is zero,
        // the RN product when c is (a zero one signed by the fadd rule in both cases).
        if (a_nan | b_nan | c_nan)
            fmad_r = CNAN;
        else if (a_inf | b_inf)
            fmad_r = (a_z | b_z | (c_inf & (c_s != mul_s))) ? CNAN : {mul_s, INF};
        else if (c_inf)
            fmad_r = cm;
        else if (a_z | b_z)
            fmad_r = c_z ? {mul_s & c_s, 31'd0} : cm;
        else if (c_z)
            fmad_r = (pk[30:0] == 31'd0) ? {mul_s & c_s, 31'd0} : pk;
        else if (ad_zero)
            fmad_r = ad_zres;
        else
            fmad_r = pk;

        // F2F is x + (-0) (NaN -> CNAN, denormal -> +-0), or the rounded integer (|x| >= 2^23 is one).
        if (a_nan)
            f2f_r = CNAN;
        else if (do_rint & ir_small)
            f2f_r = pk;
        else
            f2f_r = a_z ? {a_s, 31'd0} : fa;

        // --------------------------------------------------------------------------------------
        // Comparator (FP_SFU.md 5.1, 5.2): a NaN operand of FMIN/FMAX is replaced by the other one,
        // then both are flushed; FSET reads the same values (its NaN test comes first).
        cp_a = a_nan ? bm : fa;
        if (cp_a[30:23] == 8'd0) cp_a = {cp_a[31], 31'd0};
        cp_b = b_nan ? cp_a : bm;
        if (cp_b[30:23] == 8'd0) cp_b = {cp_b[31], 31'd0};
        cp_gt = cp_a[30:0] > cp_b[30:0];               // magnitudes as unsigned integers
        cp_eq = cp_a[30:0] == cp_b[30:0];
        // signs differ: FMAX takes the positive one, FMIN the negative one; same sign: FMAX takes
        // the larger magnitude of positives and the smaller of negatives, FMIN the reverse
        cp_max = (op == FP_FMAX) ^ cp_a[31];
        if (a_nan & b_nan)
            minmax_r = CNAN;
        else if (cp_a[31] != cp_b[31])
            minmax_r = cp_max ? cp_a : cp_b;
        else
            minmax_r = (cp_max == cp_gt) ? cp_a : cp_b;
        // relation of a to b: 0 less, 1 equal, 2 greater, 3 unordered (the bit of cond to read)
        if (a_nan | b_nan)
            cp_rel = 2'd3;
        else if ((cp_a[30:0] == 31'd0) & (cp_b[30:0] == 31'd0))
            cp_rel = 2'd1;                               // +0 == -0
        else if (cp_a[31] != cp_b[31])
            cp_rel = cp_a[31] ? 2'd0 : 2'd2;
        else if (cp_eq)
            cp_rel = 2'd1;
        else
            cp_rel = (cp_gt ^ cp_a[31]) ? 2'd2 : 2'd0;

        // --------------------------------------------------------------------------------------
        // The f32 result of FADD/FMAD/I2F/F2F, saturated (FP_SFU.md 1.5: NaN stays CNAN, negatives
        // incl. -0 and -inf -> +0, >= 1.0 incl. +inf -> 1.0).
        case (op)
            FP_FADD: fr = fadd_r;
            FP_FMAD: fr = fmad_r;
            FP_I2F:  fr = pk;
            default: fr = f2f_r;
        endcase
        if (!sat)
            y = fr;
        else if (fr[30:0] > INF)
            y = CNAN;
        else
            y = fr[31] ? 32'd0 : ((fr >= ONE) ? ONE : fr);

        // f32 -> f16 (appendix A) of y for I2F/F2F with an f16 destination: FTZ input; round the
        // significand to the f16 grid (2^-24 below 2^-14, so f16 denormals are produced) in the
        // magnitude mode, truncating after round-to-integer; E <= 93 -> +-0 in any mode; overflow
        // to +-inf (RN, RP for +, RM for -) or to the largest finite 0x7bff.
        y_s   = y[31];
        y_z   = (y[30:23] == 8'd0);
        y_e   = y_z ? 8'd1 : y[30:23];
        y_m   = y_z ? 24'd0 : {1'b1, y[22:0]};
        h_den = (y_e <= 8'd112);                        // f16 exponent <= 0
        h_d   = h_den ? 8'd126 - y_e : 8'd13;           // 13 .. 125
        h_sh  = (h_d > 8'd26) ? 5'd26 : h_d[4:0];
        h_t   = {y_m, 26'd0} >> h_sh;                   // q < 2^11 in h_t[36:26]
        h_g   = h_t[25];
        h_st  = (h_t[24:0] != 25'd0);
        if (do_rint)
            h_inc = 1'b0;
        else if (cv_near)
            h_inc = h_g & (h_st | h_t[26]);
        else
            h_inc = (((rnd == RP) & ~y_s) | ((rnd == RM) & y_s)) & (h_g | h_st);
        h_q   = {1'b0, h_t[36:26]} + {11'd0, h_inc};    // <= 2^11
        h_e16 = (h_den ? 8'd1 : y_e - 8'd112) + {7'd0, h_q[11]};  // a carry to 2^11 bumps it
        h_f16 = h_q[11] ? 11'h400 : h_q[10:0];
        h_big = (rnd == RZ) | ((rnd == RM) & ~y_s) | ((rnd == RP) & y_s);
        if (y[30:23] == 8'hff)
            f16_r = (y[22:0] != 23'd0) ? 16'h7fff : {y_s, 15'h7c00};
        else if (y_e <= 8'd93)
            f16_r = {y_s, 15'd0};
        else if (!h_f16[10])
            f16_r = {y_s, 5'd0, h_f16[9:0]};            // f16 denormal (or zero)
        else if (h_e16 >= 8'd31)
            f16_r = {y_s, h_big ? 15'h7bff : 15'h7c00};
        else
            f16_r = {y_s, h_e16[4:0], h_f16[9:0]};

        // --------------------------------------------------------------------------------------
        // Result select and flags.
        res = 32'd0;
        fl16 = 1'b0;
        fl_nan = 1'b1;
        fl_int = 1'b0;
        case (op)
            FP_FMUL: res = fmul_r;
            FP_FMIN, FP_FMAX: res = minmax_r;
            FP_FSET: begin
                res = {32{cond[cp_rel]}};
                fl_nan = 1'b0;
            end
            FP_FSLCT: begin
                // c >= 0 (+-0, denormals, positives) selects a; negatives and NaN select b (5.3)
                res = (~c_nan & (c_z | ~c_s)) ? a : b;
                fl_nan = 1'b0;
            end
            FP_F2I: begin
                res = f2i_val;
                fl16 = ~wide;
                fl_nan = 1'b0;
                fl_int = 1'b1;
            end
            FP_FADD, FP_FMAD, FP_I2F, FP_F2F: begin
                fl16 = (is_i2f | is_f2f) & ~wide;
                res = fl16 ? {16'd0, f16_r} : y;
            end
            default: ;  // 10..15 are never issued: result 0
        endcase
        fl_top = fl16 ? res[15] : res[31];
        fl_mz  = fl16 ? (res[14:0] == 15'd0) : (res[30:0] == 31'd0);
        fl_isn = fl_nan & (fl16 ? (res[14:0] > 15'h7c00) : (res[30:0] > INF));
        flags = {2'b00, (fl_top & (fl_int | ~fl_mz)) | fl_isn, (fl_mz & ~(fl_int & fl_top)) | fl_isn};
    end

    // Bits that are zero by construction (h_t[49:37]: q < 2^11 after a shift >= 13) or not needed
    // (only the top of the errata's low half counts).
    wire unused_ok = &{1'b0, h_t[49:37], e_lo[10:0]};

endmodule
