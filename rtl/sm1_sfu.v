`timescale 1ns / 1ps
// sm1_sfu: the special-function unit of one SM lane, bit-exact with G80 silicon (FP_SFU.md
// sections 9-12: the envytools model of the chip, with the interpolation tables read back from its
// ROM; ISA.md section 5). Purely combinational: one result per cycle, no state; the SM decides how
// many of these it instantiates and registers around them.
//
// op: the SFU forms' `sec` subop (opcode 9.sec, ISA.md 1.4), so an execute stage passes it through;
// the two codes 9.x leaves free carry RRO (opcode b.6), whose w1[14] picks presin / preex2:
//   0 RCP, RCP32  1/x                       4 SIN  sin of an RRO.SIN code
//   1 RRO .SIN    presin (range reduction)  5 COS  cos of an RRO.SIN code
//   2 RSQ         1/sqrt(x)                 6 EX2  2^x of an RRO.EX2 code (.SAT: sat)
//   3 LG2         log2(x)                   7 RRO .EX2  preex2 (range reduction)
// abs_ / neg: the float source modifiers of RCP, RSQ, LG2 and RRO (w1[20] / w1[26]; RCP32 w0[15] /
// w0[22]): abs clears bit 31, then neg flips it, on the raw bits before flush-to-zero (FP_SFU.md
// 1.6). SIN, COS and EX2 take the raw RRO code and ignore both, as the chip does. sat: EX2.SAT
// (w1[27]), ignored by the other ops. There is no $c output: no SFU or RRO form writes flags.
//
// RRO codes (FP_SFU.md 10): bit 31 the sign of x, bits 30:0 a fixed-point magnitude with 23
// fraction bits (presin: |x|*2/pi mod 4, quadrant in bits 24:23; preex2: |x| as 7.23), or the
// special codes 0x40000000 (NaN) and 0x40800000 (infinity; preex2 also for |x| >= 128).
//
// Datapath (FP_SFU.md 15), in the order a pipelined version would cut it:
//  1. modifiers, UNPACK (denormals are +-0), special-case decode; the fraction G the table
//     interpolates: the mantissa for RCP/RSQ/LG2, the code's fraction for SIN/COS/EX2, mirrored by
//     a one's complement in odd quadrants (SIN/COS) and for negative codes (EX2); table index and
//     r from G (RSQ prefixes the exponent parity to the index).
//  2. ROM (rtl/gen/sm1_sfu_rom.vh, generated from sfu_tables.json): the chip's 1024 x 26-bit
//     image, read twice per operation (word A, and word {B, C} at +0x200: a dual-ported ROM),
//     in parallel with the truncated squarer SQ(q) (120 partial-product bits, 9.2).
//  3. one sum V = (A << a_sh) + B*r + ((C*SQ) << c_sh) + bias with the per-function constants of
//     the include: two multipliers, B*r (17-bit signed x 17-bit unsigned) and C*SQ (12-bit signed x
//     15-bit unsigned). V is always in [0, 2^40) (9.3), so the sum is formed modulo 2^40 with the
//     negative coefficients sign-extended: no wider adder is needed.
//  4. result: RCP/RSQ/EX2 take a fixed slice of V; LG2 adds the exponent above its 36-bit
//     fraction and takes a one's complement when negative; LG2 and SIN/COS share one 43-bit
//     leading-one detector and left shifter (truncating to 24 bits); then PACK (1.3) with
//     flush-to-zero, the special results, and SAT for EX2.SAT.
//  RRO bypasses the ROM: a 24x24 multiplier by the constant 0xa2f983 (2/pi) and one right
//  shifter for presin, one right shifter for preex2.
module sm1_sfu (
    input  wire [2:0]  op,    // 0 RCP, 1 RRO.SIN, 2 RSQ, 3 LG2, 4 SIN, 5 COS, 6 EX2, 7 RRO.EX2
    input  wire        abs_,  // |x|: RCP, RSQ, LG2, RRO
    input  wire        neg,   // -x (after abs): RCP, RSQ, LG2, RRO
    input  wire        sat,   // EX2.SAT
    input  wire [31:0] a,     // an f32 (RCP, RSQ, LG2, RRO) or an RRO code (SIN, COS, EX2)
    output reg  [31:0] res
);

`include "sm1_sfu_rom.vh"

`include "sm_hw.vh"  // SFU_* (golden/g80/hw.py SfuOp)

    localparam [31:0] CNAN     = 32'h7fffffff;  // the only NaN the SFU writes (1.2)
    localparam [30:0] INF      = 31'h7f800000;
    localparam [31:0] ONE      = 32'h3f800000;
    localparam [30:0] NAN_CODE = 31'h40000000;  // RRO code of a NaN
    localparam [30:0] INF_CODE = 31'h40800000;  // RRO code of an infinity (preex2: |x| >= 128)

    // ------------------------------------------------------------------------------------------
    // 1. Operand. For SIN/COS/EX2, xe is the code's integer field K and xf its fraction G0.
    wire        is_code = (op == SFU_SIN) | (op == SFU_COS) | (op == SFU_EX2);
    wire        xs = is_code ? a[31] : (a[31] & ~abs_) ^ neg;
    wire [7:0]  xe = a[30:23];
    wire [22:0] xf = a[22:0];
    wire        x_zero = (xe == 8'd0);  // +-0 and every denormal: an exact zero, sign kept
    wire        x_nan = (xe == 8'hff) & (xf != 23'd0);
    wire        x_inf = (xe == 8'hff) & (xf == 23'd0);
    wire [23:0] xm = {1'b1, xf};        // significand of a normal input

    // 12.1: cos(t) = sin(t + one quadrant) and is even; only K[1:0] matter; an odd quadrant
    // mirrors the fraction, quadrants 2 and 3 are negative.
    wire        is_cos = (op == SFU_COS);
    wire [1:0]  quad = xe[1:0] + {1'b0, is_cos};
    wire        sin_s = (xs & ~is_cos) ^ quad[1];
    // 12.2: a negative code with a fraction is 2^(-I-1) * 2^(1-f), 1-f by a one's complement.
    wire        ex2_neg = xs & (xf != 23'd0);
    wire        mirror = ((op == SFU_SIN) | (op == SFU_COS)) ? quad[0] : ((op == SFU_EX2) & ex2_neg);
    wire [22:0] g = mirror ? ~xf : xf;

    // Table index (ROM address), r, and the squarer input q (9.3).
    reg  [9:0]  rom_addr;
    reg  [16:0] poly_r;
    reg  [16:0] poly_q;
    always @* begin
        poly_r = g[16:0];
        poly_q = g[16:0];
        case (op)
            SFU_RCP: begin
                rom_addr = SM1_SFU_ROM_RCP + {3'd0, g[22:16]};
                poly_r = {1'b0, g[15:0]};
                poly_q = {g[15:0], 1'b0};
            end
            // entries 64-127 for an odd unbiased exponent E - 127, i.e. an even E
            SFU_RSQ:  rom_addr = SM1_SFU_ROM_RSQRT + {3'd0, ~xe[0], g[22:17]};
            SFU_LG2:  rom_addr = SM1_SFU_ROM_LG2 + {4'd0, g[22:17]};
            SFU_EX2:  rom_addr = SM1_SFU_ROM_EX2 + {4'd0, g[22:17]};
            default: rom_addr = SM1_SFU_ROM_SIN + {4'd0, g[22:17]};  // SIN, COS (RRO does not use it)
        endcase
    end

    // ------------------------------------------------------------------------------------------
    // 2. ROM and squarer. SQ (9.2): row i (q[i] set) adds q >> (18 - i), each row truncated before
    // the sum, the sum halved; rows 0 and 1 are always 0. SQ(0x1ffff) = 32759, not 32767.
    wire [25:0] rom_a = sm1_sfu_rom(rom_addr);
    wire [25:0] rom_bc = sm1_sfu_rom(rom_addr | SM1_SFU_ROM_BC);

    reg  [16:0] sq_sum;
    integer     row;
    always @* begin
        sq_sum = 17'd0;
        for (row = 2; row < 17; row = row + 1)
            if (poly_q[row])
                sq_sum = sq_sum + (poly_q >> (18 - row));
    end
    wire [16:0] sq = sq_sum >> 1;  // < 2^15

    // ------------------------------------------------------------------------------------------
    // 3. Coefficients as 40-bit two's complement values (9.1: a negative column stores value + 2^n,
    // the implied sign bit is 1), the shifts and the bias of the function, and the sum V.
    reg  [39:0] coef_b;
    reg  [39:0] coef_c;
    reg  [39:0] term_a;
    reg  [39:0] bias;
    integer     c_sh;
    always @* begin
        case (op)
            SFU_RCP: begin
                term_a = {14'd0, rom_a} << SM1_SFU_RCP_A_SH;
                coef_b = {24'hffffff, rom_bc[25:10]};
                coef_c = {30'd0, rom_bc[9:0]};
                c_sh = SM1_SFU_RCP_C_SH;
                bias = {24'd0, SM1_SFU_RCP_BIAS};
            end
            SFU_RSQ: begin
                term_a = {14'd0, rom_a} << SM1_SFU_RSQRT_A_SH;
                coef_b = {24'hffffff, rom_bc[25:10]};
                coef_c = {30'd0, rom_bc[9:0]};
                c_sh = SM1_SFU_RSQRT_C_SH;
                bias = {24'd0, SM1_SFU_RSQRT_BIAS};
            end
            SFU_LG2: begin
                term_a = {14'd0, rom_a} << SM1_SFU_LG2_A_SH;
                coef_b = {24'd0, rom_bc[25:10]};
                coef_c = {30'h3fffffff, rom_bc[9:0]};
                c_sh = SM1_SFU_LG2_C_SH;
                bias = {24'd0, SM1_SFU_LG2_BIAS};
            end
            SFU_EX2: begin
                term_a = {14'd0, rom_a} << SM1_SFU_EX2_A_SH;
                coef_b = {24'd0, rom_bc[25:10]};
                coef_c = {30'd0, rom_bc[9:0]};
                c_sh = SM1_SFU_EX2_C_SH;
                bias = {24'd0, SM1_SFU_EX2_BIAS};
            end
            default: begin  // SIN, COS: 15-bit B, 11-bit C field
                term_a = {14'd0, rom_a} << SM1_SFU_SIN_A_SH;
                coef_b = {25'd0, rom_bc[25:11]};
                coef_c = {29'h1fffffff, rom_bc[10:0]};
                c_sh = SM1_SFU_SIN_C_SH;
                bias = {24'd0, SM1_SFU_SIN_BIAS};
            end
        endcase
    end
    wire [39:0] prod_b = coef_b * {23'd0, poly_r};
    wire [39:0] prod_c = coef_c * {23'd0, sq};
    wire [39:0] poly_v = term_a + prod_b + (prod_c << c_sh) + bias;

    // ------------------------------------------------------------------------------------------
    // 4. Results.
    // RSQ (11.2): exponent 126 - floor((E - 127) / 2) = (380 - E) >> 1; an exact power of 4
    // (even E - 127, zero fraction) bypasses the table: 2^23 with the exponent one up.
    wire [8:0]  rsq_sum = 9'd380 - {1'b0, xe};
    wire        rsq_exact = xe[0] & (xf == 23'd0);
    wire [9:0]  rsq_e = {2'd0, rsq_sum[8:1]} + {9'd0, rsq_exact};
    wire        unused_rsq = rsq_sum[0];

    // LG2 (11.3): T = fraction + (E - 127) * 2^36 is {E - 127, fraction} as 44-bit two's
    // complement; a negative T becomes its ONE's complement (bit 43 then 0). lg2(1.0) = +0.
    wire [35:0] lg2_frac = ((xe == 8'd127) & (xf == 23'd0)) ? 36'd0 : poly_v[37:2];
    wire [7:0]  lg2_e = xe - 8'd127;
    wire        lg2_neg = lg2_e[7];
    wire [42:0] lg2_t = lg2_neg ? ~{lg2_e[6:0], lg2_frac} : {lg2_e[6:0], lg2_frac};

    // Normaliser shared by LG2 (43-bit T) and SIN/COS (38-bit V, left-aligned): leading one to
    // bit 42, the top 24 bits kept (truncated); n = 42 - index of the leading one (0 for 0).
    // Leading-zero count and shift in one logarithmic shifter: stage k shifts by 2^k when the
    // top 2^k bits are zero.
    wire [42:0] nrm_in = (op == SFU_LG2) ? lg2_t : {poly_v[37:0], 5'd0};
    reg  [42:0] nrm_out;
    reg  [5:0]  nrm_n;
    always @* begin
        nrm_out = nrm_in;
        nrm_n[5] = (nrm_out[42:11] == 32'd0);
        if (nrm_n[5]) nrm_out = nrm_out << 32;
        nrm_n[4] = (nrm_out[42:27] == 16'd0);
        if (nrm_n[4]) nrm_out = nrm_out << 16;
        nrm_n[3] = (nrm_out[42:35] == 8'd0);
        if (nrm_n[3]) nrm_out = nrm_out << 8;
        nrm_n[2] = (nrm_out[42:39] == 4'd0);
        if (nrm_n[2]) nrm_out = nrm_out << 4;
        nrm_n[1] = (nrm_out[42:41] == 2'd0);
        if (nrm_n[1]) nrm_out = nrm_out << 2;
        nrm_n[0] = ~nrm_out[42];
        if (nrm_n[0]) nrm_out = nrm_out << 1;
    end
    wire        unused_nrm = &{1'b0, nrm_out[18:0]};

    // EX2 (12.2): biased exponent I + 127, or 127 - I - 1 / 127 - I for a negative code (I < 128
    // here; -1 and 0 flush to +0).
    wire [9:0]  ex2_e = ~xs ? {2'd0, xe} + 10'd127 : (ex2_neg ? 10'd126 : 10'd127) - {2'd0, xe};

    // PACK (1.3) of sign, biased exponent (10-bit signed) and a significand up to 2^24: a carry
    // out bumps the exponent, E <= 0 or no leading one gives a signed zero (FTZ). No SFU result
    // reaches E >= 255 (9.3), so overflow is only guarded (RN: infinity).
    reg         pk_s;
    reg  [9:0]  pk_e;
    reg  [24:0] pk_m;
    always @* begin
        case (op)
            SFU_RCP: begin  // 11.1: exponent 253 - E, W = V >> 15 in [2^23 + 1, 2^24]
                pk_s = xs;
                pk_e = 10'd253 - {2'd0, xe};
                pk_m = poly_v[39:15];
            end
            SFU_RSQ: begin  // W = V >> 16
                pk_s = 1'b0;
                pk_e = rsq_e;
                pk_m = rsq_exact ? 25'h0800000 : {1'b0, poly_v[39:16]};
            end
            SFU_LG2: begin
                pk_s = lg2_neg;
                pk_e = 10'd133 - {4'd0, nrm_n};
                pk_m = {1'b0, nrm_out[42:19]};
            end
            SFU_EX2: begin  // W = V >> 15 in [2^23, 2^24 - 1]
                pk_s = 1'b0;
                pk_e = ex2_e;
                pk_m = {1'b0, poly_v[38:15]};
            end
            default: begin  // SIN, COS (RRO does not use PACK); V = 0 gives a signed zero
                pk_s = sin_s;
                pk_e = 10'd127 - {4'd0, nrm_n};
                pk_m = {1'b0, nrm_out[42:19]};
            end
        endcase
    end
    wire [9:0]  pk_eb = pk_e + {9'd0, pk_m[24]};
    wire        pk_zero = pk_eb[9] | (pk_eb == 10'd0) | ~(pk_m[24] | pk_m[23]);
    wire        pk_ovf = ~pk_eb[9] & (pk_eb[8:0] >= 9'd255);
    wire [31:0] pk_res = pk_zero ? {pk_s, 31'd0} : (pk_ovf ? {pk_s, INF} : {pk_s, pk_eb[7:0], pk_m[22:0]});

    // EX2 before SAT: the NaN code gives CNAN, the infinity code 2^+inf = +inf, 2^-inf = +0.
    wire [31:0] ex2_res = xe[7] ? (xe[0] ? (xs ? 32'd0 : {1'b0, INF}) : CNAN) : pk_res;
    // SAT (1.5) on every EX2 output: NaN stays CNAN, negative -> +0, >= 1.0 (incl. +inf) -> 1.0
    reg  [31:0] ex2_sat;
    always @* begin
        if (ex2_res[30:0] > INF)
            ex2_sat = CNAN;
        else if (ex2_res[31])
            ex2_sat = 32'd0;
        else if (ex2_res >= ONE)
            ex2_sat = ONE;
        else
            ex2_sat = ex2_res;
    end

    // RRO (10). presin: Q = (M * 0xa2f983) >> 16, V = (Q << k or Q >> -k) mod 2^25 with
    // k = E - 135: one right shift of Q * 2^32 by 32 - k = 167 - E; k >= 25 (E >= 160) leaves 0.
    wire [47:0] presin_p = {24'd0, xm} * 48'h000000a2f983;
    wire [63:0] presin_sh = {presin_p[47:16], 32'd0} >> (8'd167 - xe);
    wire [24:0] presin_v = (xe >= 8'd160) ? 25'd0 : presin_sh[24:0];
    // preex2: |x| as 7.23 fixed point, (M << e or M >> -e) = (M * 2^6) >> (6 - e), e = E - 127;
    // e >= 7 (E >= 134) is the infinity code.
    wire [29:0] preex2_v = {xm, 6'd0} >> (8'd133 - xe);
    wire        unused_rro = &{1'b0, presin_p[15:0], presin_sh[63:25]};

    reg  [30:0] rro_mag;
    always @* begin
        if (x_nan)
            rro_mag = NAN_CODE;
        else if (x_inf | ((op == SFU_PREEX2) & ~x_zero & (xe >= 8'd134)))
            rro_mag = INF_CODE;
        else if (x_zero)
            rro_mag = 31'd0;
        else if (op == SFU_PREEX2)
            rro_mag = {1'b0, preex2_v};
        else
            rro_mag = {6'd0, presin_v};
    end

    // ------------------------------------------------------------------------------------------
    // Result select with the special inputs (11.1-11.3, 12.1).
    always @* begin
        case (op)
            SFU_RCP: begin
                if (x_nan)       res = CNAN;
                else if (x_inf)  res = {xs, 31'd0};      // 1/+-inf = +-0
                else if (x_zero) res = {xs, INF};        // 1/+-0 = +-inf (denormals too)
                else             res = pk_res;
            end
            SFU_RSQ: begin
                if (x_nan)       res = CNAN;
                else if (x_zero) res = {xs, INF};        // rsqrt(-0) = -inf
                else if (xs)     res = CNAN;             // negative normal or -inf
                else if (x_inf)  res = 32'd0;
                else             res = pk_res;
            end
            SFU_LG2: begin
                if (x_nan)       res = CNAN;
                else if (x_zero) res = {1'b1, INF};      // lg2(+-0) = -inf
                else if (xs)     res = CNAN;
                else if (x_inf)  res = {1'b0, INF};
                else             res = pk_res;
            end
            SFU_SIN, SFU_COS:       res = xe[7] ? CNAN : pk_res;  // NaN and infinity codes
            SFU_EX2:               res = sat ? ex2_sat : ex2_res;
            SFU_PRESIN, SFU_PREEX2: res = {xs, rro_mag};
        endcase
    end

endmodule
