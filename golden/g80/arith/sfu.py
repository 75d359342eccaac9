"""Bit-exact G80 (sm_10) SFU: RRO pre-ops and the special functions, vectorised over lanes.

Implements FP_SFU.md sections 9-12 with the tables of golden/g80/arith/sfu_rom.py (generated from
../shared/reference/sfu_tables.json). Values are numpy uint32 arrays of bit patterns, one element
per lane; inputs broadcast; results are uint32 (the SFU has no `$c` output in this model).

* rcp, rsqrt, lg2, presin, preex2 take an f32 with abs/neg ALREADY APPLIED by the caller
  (FP_SFU.md 1.6: abs clears bit 31, then neg flips it, on the raw bits before FTZ).
* sin, cos, ex2 take the raw 32-bit RRO code (presin/preex2 output); they have no modifiers.

All arithmetic is integer (int64 lanes, every intermediate < 2^48); the polynomial is
V = (A[i] << a_sh) + B[i]*r + ((C[i]*SQ(q)) << c_sh) + bias (FP_SFU.md 9.3), NOT libm: the
results are deliberately not correctly rounded.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import sfu_rom
from .fp import CNAN, INF, ONE, RN, RZ, lead, pack, run_lanes, saturate, unpack

U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]
ArrayLike = npt.ArrayLike


def _table(values: tuple[int, ...]) -> I64:
    arr = np.array(values, dtype=np.int64)
    arr.setflags(write=False)
    return arr


RCP_A, RCP_B, RCP_C = _table(sfu_rom.RCP_A), _table(sfu_rom.RCP_B), _table(sfu_rom.RCP_C)
RSQRT_A, RSQRT_B, RSQRT_C = _table(sfu_rom.RSQRT_A), _table(sfu_rom.RSQRT_B), _table(sfu_rom.RSQRT_C)
SIN_A, SIN_B, SIN_C = _table(sfu_rom.SIN_A), _table(sfu_rom.SIN_B), _table(sfu_rom.SIN_C)
EX2_A, EX2_B, EX2_C = _table(sfu_rom.EX2_A), _table(sfu_rom.EX2_B), _table(sfu_rom.EX2_C)
LG2_A, LG2_B, LG2_C = _table(sfu_rom.LG2_A), _table(sfu_rom.LG2_B), _table(sfu_rom.LG2_C)

TWO_OVER_PI = 0xA2F983  # floor(2^24 * 2/pi), the 24-bit constant of presin (FP_SFU.md 10)
NAN_CODE = 0x40000000  # RRO code of a NaN (exponent field 0x80)
INF_CODE = 0x40800000  # RRO code of an infinity / preex2 |x| >= 128 (exponent field 0x81)


def sq(r: ArrayLike) -> I64:
    """FP_SFU.md 9.2 approximate square of a 17-bit r (~ r^2 / 2^19): the partial product of
    row i (r[i] set) is r >> (18 - i), truncated BEFORE the sum; the sum is halved.

    SQ(0x1ffff) = 32759, not floor(0x1ffff^2 / 2^19) = 32767."""
    r = np.asarray(r, dtype=np.int64)
    acc = np.zeros(r.shape, dtype=np.int64)
    for i in range(2, 17):  # rows 0 and 1 contribute r >> 18 = r >> 17 = 0 for r < 2^17
        acc += ((r >> i) & 1) * (r >> (18 - i))
    return acc >> 1


SQ_TABLE = sq(np.arange(1 << 17, dtype=np.int64))
"""SQ for every 17-bit r (the hardware's truncated multiplier, tabulated once: 1 MiB)."""
SQ_TABLE.setflags(write=False)


# ----------------------------------------------------------------------------------------------
# rcp, rsqrt, lg2 (section 11)


def _rcp_bits(x: I64) -> I64:
    """1/x (FP_SFU.md 11.1): 128-entry table on M[22:16], r = M[15:0], SQ(r << 1), bias 0x47e7.
    +-0 and denormals -> +-inf, +-inf -> +-0, NaN -> CNAN; |x| > 2^126 -> +-0."""
    s, e, m, nan, inf = unpack(x)
    i = (m >> 16) & 0x7F
    r = m & 0xFFFF
    w = ((RCP_A[i] << 13) + RCP_B[i] * r + RCP_C[i] * SQ_TABLE[r << 1] + 0x47E7) >> 15  # [2^23+1, 2^24]
    res = pack(s, 253 - e, w, RN)
    res = np.where(m == 0, (s << 31) | INF, res)
    res = np.where(inf, s << 31, res)
    return np.where(nan, CNAN, res)


def _rsqrt_bits(x: I64) -> I64:
    """1/sqrt(x) (FP_SFU.md 11.2): table index {exponent parity, M[22:17]}; exact only for powers
    of 4 (rsqrt(2) = 0x3f3504f2). +-0 -> +-inf, negative -> CNAN, +inf -> +0."""
    s, e, m, nan, inf = unpack(x)
    ee = e - 127
    p = ee & 1  # e mod 2 in {0, 1} (two's complement: also right for negative e)
    h = ee >> 1  # floor(e / 2) (arithmetic shift)
    g = (p << 23) | (m & 0x7FFFFF)
    er = 126 - h
    i = g >> 17
    r = g & 0x1FFFF
    w = ((RSQRT_A[i] << 14) + RSQRT_B[i] * r + ((RSQRT_C[i] * SQ_TABLE[r]) << 2) + 0x7FFF) >> 16
    # G == 0 (even exponent, zero fraction): the exact power of 4 bypasses the table
    res = np.where(g == 0, pack(np.zeros_like(s), er + 1, np.full_like(s, 1 << 23), RN), pack(np.zeros_like(s), er, w, RN))
    res = np.where(s == 1, CNAN, res)  # negative normal or -inf
    res = np.where(inf & (s == 0), 0, res)
    res = np.where(m == 0, (s << 31) | INF, res)  # +-0 -> +-inf, before the sign check
    return np.where(nan, CNAN, res)


def _lg2_bits(x: I64) -> I64:
    """log2(x) (FP_SFU.md 11.3): 36-bit fraction from the table, plus the exponent at bit 36,
    ONE's complement for negative sums, normalised and TRUNCATED to 24 bits.
    lg2(0.5) = 0xbf7ffffe; lg2(1.0) = +0 only via the explicit special case; lg2(+-0) = -inf."""
    s, e, m, nan, inf = unpack(x)
    i = (m >> 17) & 0x3F
    r = m & 0x1FFFF
    fr = ((LG2_A[i] << 12) + LG2_B[i] * r + ((LG2_C[i] * SQ_TABLE[r]) << 1) + 0x3345) >> 2
    fr = np.where((e == 127) & (m == 1 << 23), 0, fr)
    t = fr + ((e - 127) << 36)  # |T| < 2^43
    sgn = (t < 0).astype(np.int64)
    t = np.where(t < 0, -t - 1, t)  # bitwise NOT, not negation
    n = 42 - lead(t)
    w = (t << np.clip(n, 0, 42)) >> 19
    res = np.where(t == 0, sgn << 31, pack(sgn, 133 - n, w, RN))
    res = np.where(s == 1, CNAN, res)
    res = np.where(inf & (s == 0), INF, res)
    res = np.where(m == 0, 0xFF800000, res)  # +-0 and denormals -> -inf
    return np.where(nan, CNAN, res)


# ----------------------------------------------------------------------------------------------
# RRO (section 10)


def _pre_special(s: I64, m: I64, nan: npt.NDArray[np.bool_], inf: npt.NDArray[np.bool_], v: I64) -> I64:
    """Code = sign | V, with the NaN / infinity / zero codes of FP_SFU.md 10 (sign kept on all)."""
    sign = s << 31
    res = np.where(m == 0, sign, sign | v)
    res = np.where(inf, sign | INF_CODE, res)
    return np.where(nan, sign | NAN_CODE, res)


def _presin_bits(x: I64) -> I64:
    """RRO sin (FP_SFU.md 10): |x| * 2/pi with the 24-bit constant, as 2 quadrant bits + 23
    fraction bits (V mod 2^25), sign in bit 31. No wide argument reduction (large |x| lose bits
    exactly as the formula says; for exponent >= 33 the code is 0)."""
    s, e, m, nan, inf = unpack(x)
    q = (m * TWO_OVER_PI) >> 16  # 48-bit product, keep 32 bits
    k = e - 127 - 8
    left = q << np.clip(k, 0, 25)  # k >= 25 leaves nothing below bit 25
    right = q >> np.clip(-k, 0, 40)
    v = np.where(k >= 0, left, right) & 0x1FFFFFF
    return _pre_special(s, m, nan, inf, v)


def _preex2_bits(x: I64) -> I64:
    """RRO ex2 (FP_SFU.md 10): |x| as 7.23 fixed point truncated toward zero, sign in bit 31;
    |x| >= 128 gives the infinity code 0x40800000 (with the sign)."""
    s, e, m, nan, inf = unpack(x)
    ee = e - 127
    v = np.where(ee >= 0, m << np.clip(ee, 0, 6), m >> np.clip(-ee, 0, 40))
    return _pre_special(s, m, nan, inf | ((ee >= 7) & (m != 0)), v)


# ----------------------------------------------------------------------------------------------
# sin, cos, ex2 (section 12): the input is an RRO code, no FTZ, no modifiers


def _sincos(code: I64, is_cos: bool) -> I64:
    s = code >> 31
    k = (code >> 23) & 0xFF
    g0 = code & 0x7FFFFF
    special = (k >> 7) == 1  # the NaN and infinity codes
    if is_cos:  # cos(t) = sin(t + one quadrant); cos is even
        k = k + 1
        s = np.zeros_like(s)
    q = k & 3
    g = np.where((q & 1) == 1, ~g0 & 0x7FFFFF, g0)  # odd quadrant: mirror by ONE's complement
    s = s ^ (q >> 1)  # quadrants 2 and 3 are negative
    i = g >> 17
    r = g & 0x1FFFF
    v = (SIN_A[i] << 11) + SIN_B[i] * r + SIN_C[i] * SQ_TABLE[r]  # 0 <= V <= 0x2000000a01
    n = 37 - lead(v)
    w = (v << np.clip(n, 0, 37)) >> 14  # TRUNCATED to 24 bits
    res = np.where(v == 0, s << 31, pack(s, 127 - n, w, RZ))
    return np.where(special, CNAN, res)


def sin(a: ArrayLike) -> U32:
    """sin of an RRO code (FP_SFU.md 12.1); sin(-0 code) = -0; NaN/infinity codes -> CNAN."""
    return run_lanes(lambda code: _sincos(code, is_cos=False), a)


def cos(a: ArrayLike) -> U32:
    """cos of an RRO code (FP_SFU.md 12.1): sin one quadrant on with the code's sign dropped
    (cos is even); cos(+-0 code) = 1.0."""
    return run_lanes(lambda code: _sincos(code, is_cos=True), a)


def _ex2_bits(code: I64, sat: bool) -> I64:
    """2^x of an RRO code (FP_SFU.md 12.2); sat = the instruction's .sat, applied to EVERY output
    including the special codes (infinity code with sign 0 -> 1.0).
    Negative codes use exponent -I-1 and the ONE's complement of the fraction; e + 127 <= 0 -> +0."""
    s = code >> 31
    k = (code >> 23) & 0xFF
    g0 = code & 0x7FFFFF
    neg_frac = (s == 1) & (g0 != 0)
    e = np.where(s == 0, k, np.where(neg_frac, -k - 1, -k))
    g = np.where(neg_frac, ~g0 & 0x7FFFFF, np.where(s == 0, g0, 0))
    i = g >> 17
    r = g & 0x1FFFF
    w = ((EX2_A[i] << 13) + EX2_B[i] * r + EX2_C[i] * SQ_TABLE[r] + 0x77E2) >> 15  # [2^23, 2^24 - 1]
    res = pack(np.zeros_like(s), e + 127, w, RN)
    special = (k >> 7) == 1
    inf_code = special & ((k & 1) == 1)
    res = np.where(special, np.where(inf_code, np.where(s == 1, 0, INF), CNAN), res)
    return saturate(res) if sat else res


# ----------------------------------------------------------------------------------------------
# public functions: uint32 lanes in, uint32 lanes out (any shape, broadcast)


def rcp(a: ArrayLike) -> U32:
    """1/x (FP_SFU.md 11.1): 128-entry table on M[22:16], r = M[15:0], SQ(r << 1), bias 0x47e7.
    +-0 and denormals -> +-inf, +-inf -> +-0, NaN -> CNAN; |x| > 2^126 -> +-0."""
    return run_lanes(_rcp_bits, a)


def rsqrt(a: ArrayLike) -> U32:
    """1/sqrt(x) (FP_SFU.md 11.2): exact only for powers of 4 (rsqrt(2) = 0x3f3504f2);
    +-0 -> +-inf, negative -> CNAN, +inf -> +0."""
    return run_lanes(_rsqrt_bits, a)


def lg2(a: ArrayLike) -> U32:
    """log2(x) (FP_SFU.md 11.3): lg2(0.5) = 0xbf7ffffe, lg2(1) = +0, lg2(+-0) = -inf, negative -> CNAN."""
    return run_lanes(_lg2_bits, a)


def presin(a: ArrayLike) -> U32:
    """RRO sin (FP_SFU.md 10): f32 -> sign | 2 quadrant bits | 23 fraction bits of |x|*2/pi."""
    return run_lanes(_presin_bits, a)


def preex2(a: ArrayLike) -> U32:
    """RRO ex2 (FP_SFU.md 10): f32 -> sign | |x| as 7.23 fixed point (|x| >= 128: 0x40800000)."""
    return run_lanes(_preex2_bits, a)


def ex2(a: ArrayLike, sat: bool = False) -> U32:
    """2^x of an RRO code (FP_SFU.md 12.2); sat = the instruction's .sat, applied to EVERY output
    including the special codes (the +inf code gives 1.0)."""
    return run_lanes(lambda code: _ex2_bits(code, sat), a)


__all__ = [
    "INF_CODE", "NAN_CODE", "ONE", "SQ_TABLE", "TWO_OVER_PI",
    "cos", "ex2", "lg2", "preex2", "presin", "rcp", "rsqrt", "sin", "sq",
]  # fmt: skip
