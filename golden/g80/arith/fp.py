"""Bit-exact G80 (sm_10) FP32 ALU and conversions, vectorised over lanes.

Implements FP_SFU.md sections 1-8 and appendix A (../shared/reference/FP_SFU.md). Every value is
a numpy uint32 array of IEEE-754 bit patterns, one element per lane (f16 values live in the low
16 bits). All inputs are broadcast together (scalars allowed); the arithmetic is integer only
(int64 lanes), the one float64 use is `np.frexp` of an integer < 2^53, which is exact.

Return value of every function: `(result, flags)`, result uint32, flags uint8 = the `$c` nibble
(bit0 Z, bit1 S, bit2 C, bit3 O).

Source modifiers (FP_SFU.md 1.6). `abs` clears bit 31 and then `neg` flips it, on the *raw*
source bits, before the FTZ unpacking; NaNs and denormals are affected like any other pattern.
So for every f32 source the modifiers are exactly a sign-bit operation the caller does on the
input before the call, and they are left to the caller:
    fadd (neg a, neg b), fmul (neg a, neg b), fmad (neg on the product = flip a's sign bit,
    neg on the addend c), fmin/fmax/fset (abs, neg on a and b), fslct (neg on c),
    f2i/f2f (abs, neg on the source).
For an f16 source of f2i/f2f the hardware applies abs/neg after the exact f16 -> f32 conversion;
applying them to bit 15 of the half instead is equivalent (the conversion is sign-symmetric, and
a NaN's sign never matters: NaN -> 0 for f2i, CNAN for f2f), so the caller flips bit 15 there.
The one exception is i2f, whose abs/neg act on the sign of the *integer* (FP_SFU.md 7): it takes
`abs_`/`neg` keyword arguments.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

RN, RM, RP, RZ = 0, 1, 2, 3
"""Rounding modes, encoded as in the G80 ISA (nearest-even, toward -inf, toward +inf, toward 0)."""

CNAN = 0x7FFFFFFF  # the only NaN any FP instruction writes (FP_SFU.md 0)
MAXF = 0x7F7FFFFF  # largest finite magnitude
INF = 0x7F800000
SIGN = 0x80000000
ONE = 0x3F800000
F16_NAN = 0x7FFF  # appendix A: the f16 NaN written by f32 -> f16

U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]
Flags = npt.NDArray[np.uint8]
ArrayLike = npt.ArrayLike

_ROUND_NAMES = {RN: "RN", RM: "RM", RP: "RP", RZ: "RZ"}


# ----------------------------------------------------------------------------------------------
# lane plumbing


CHUNK = 1 << 14
"""Lanes per block: the datapaths are ~100 numpy operations each, so working on cache-sized blocks
(a loop over blocks, never over lanes) is about twice as fast as whole 1e6-lane arrays."""


def _lanes(*xs: ArrayLike) -> tuple[tuple[int, ...], list[U32]]:
    """Broadcast the operands and flatten them to uint32 bit patterns; returns the broadcast shape."""
    arrs = [np.asarray(x) for x in xs]
    for a in arrs:
        if a.dtype.kind not in "ui":
            raise TypeError(f"expected integer bit patterns, got dtype {a.dtype}")
    shape = np.broadcast_shapes(*(a.shape for a in arrs))
    return shape, [np.broadcast_to(a, shape).reshape(-1).astype(np.uint32, copy=False) for a in arrs]


def run_lanes(core: Callable[..., I64], *xs: ArrayLike) -> U32:
    """Apply `core` (int64 lanes in, packed int64 results in [0, 2^32) out) to the broadcast
    operands, block by block, and return the uint32 results in the broadcast shape.
    Operands are widened to int64 so that signed intermediates are exact."""
    shape, flat = _lanes(*xs)
    n = flat[0].size
    out = np.empty(n, dtype=np.uint32)
    for start in range(0, n, CHUNK):
        sl = slice(start, start + CHUNK)
        out[sl] = core(*(x[sl].astype(np.int64) for x in flat))
    return out.reshape(shape)


def _check_round(rnd: int, allowed: tuple[int, ...], what: str) -> None:
    if rnd not in allowed:
        names = "/".join(_ROUND_NAMES[m] for m in allowed)
        raise ValueError(f"{what}: rounding mode {rnd!r} is not specified for G80 (allowed: {names})")


def lead(x: I64) -> I64:
    """Index of the leading one of each lane (x >= 0, x < 2^53); -1 for 0.

    Exact: an integer below 2^53 converts to float64 without rounding, and frexp is exact."""
    return np.frexp(x.astype(np.float64))[1].astype(np.int64) - 1


def shr_round(m: I64, sh: I64 | int, up: npt.NDArray[np.bool_] | bool, near: bool) -> I64:
    """m >> sh (m >= 0, sh >= 0) rounded: `up` = round the magnitude up when any dropped bit is 1,
    `near` = nearest-even on the dropped bits; neither = truncate (FP_SFU.md 0, "magnitude mode").

    sh is clipped to 62: every caller has m < 2^62, where any larger shift gives q = 0 and the same
    rounding decision (the dropped part is then below half and non-zero iff m != 0)."""
    sh = np.minimum(np.asarray(sh, dtype=np.int64), 62)
    q = m >> sh
    rest = m - (q << sh)
    inc = np.asarray(up) & (rest != 0)
    if near:
        half = np.left_shift(np.int64(1), sh) >> 1  # 0 when sh == 0 (then rest == 0 too)
        inc = inc | (rest != 0) & ((rest > half) | ((rest == half) & ((q & 1) == 1)))
    return q + inc


def magnitude_mode(rnd: int, s: I64) -> tuple[npt.NDArray[np.bool_], bool]:
    """Convert a signed rounding mode to magnitude rounding for sign s (FP_SFU.md 0):
    returns (`up` per lane, `near`)."""
    if rnd == RN:
        return np.zeros(s.shape, dtype=bool), True
    if rnd == RZ:
        return np.zeros(s.shape, dtype=bool), False
    if rnd == RP:
        return s == 0, False
    if rnd == RM:
        return s == 1, False
    raise ValueError(f"bad rounding mode {rnd!r}")


def unpack(x: I64) -> tuple[I64, I64, I64, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """FP_SFU.md 1.1 UNPACK with FTZ: (s, E, M, is_nan, is_inf).

    Denormals and zeros give E = 1, M = 0 with the sign kept; infinities and NaNs E = 255."""
    s = x >> 31
    e = (x >> 23) & 0xFF
    f = x & 0x7FFFFF
    zero = e == 0
    m = np.where(zero, 0, f | 0x800000)
    e = np.where(zero, 1, e)
    special = e == 0xFF
    return s, e, m, special & (f != 0), special & (f == 0)


def is_nan(x: I64) -> npt.NDArray[np.bool_]:
    return (x & 0x7FFFFFFF) > INF


def flush(x: I64) -> I64:
    """Denormal -> zero of the same sign; every other pattern unchanged (FP_SFU.md 5.1 FLUSH)."""
    return np.where((x & 0x7F800000) == 0, x & SIGN, x)


def pack(s: I64, e: I64, m: I64, rnd: int) -> I64:
    """FP_SFU.md 1.3 PACK: sign, any biased exponent, significand 0 <= M <= 2^24.

    Carry-out of rounding, FTZ of tiny results (sign kept) and overflow (infinity, or MAXF when
    the mode rounds toward zero for that sign)."""
    carry = m == (1 << 24)
    m = np.where(carry, 1 << 23, m)
    e = e + carry
    sign = s << 31
    normal = (sign | (np.clip(e, 0, 255) << 23) | (m & 0x7FFFFF))
    res = np.where((e <= 0) | (m < (1 << 23)), sign, normal)
    ovf = e >= 255
    if ovf.any():
        if rnd == RZ:
            big = np.full(s.shape, MAXF, dtype=np.int64)
        elif rnd == RN:
            big = np.full(s.shape, INF, dtype=np.int64)
        else:  # RM: positive results stop at MAXF; RP: negative ones do
            big = np.where(s == (0 if rnd == RM else 1), MAXF, INF)
        res = np.where(ovf, sign | big, res)
    return res


def saturate(x: I64) -> I64:
    """FP_SFU.md 1.5 SAT on a packed f32: NaN -> CNAN (G80), negative (incl. -0, -inf) -> +0,
    >= 1.0 (incl. +inf, unsigned bit compare) -> 1.0."""
    return np.where(is_nan(x), CNAN, np.where(x >> 31 == 1, 0, np.minimum(x, ONE)))


def fp_flags(res: ArrayLike) -> Flags:
    """FP_SFU.md 1.4: Z = +-0 or NaN, S = negative non-zero or NaN, C = O = 0 (= compare with 0)."""
    r = np.asarray(res).astype(np.uint32, copy=False)
    mag = r & np.uint32(0x7FFFFFFF)
    nan = mag > np.uint32(INF)
    z = (mag == 0) | nan
    s = ((r >> np.uint32(31)) == 1) & ~z | nan
    return z.view(np.uint8) | (s.view(np.uint8) << np.uint8(1))


def f16_flags(h: ArrayLike) -> Flags:
    """Flags of an f16 result: those of its (exact) f32 value, i.e. FP_SFU.md 1.4 on the half."""
    x = np.asarray(h).astype(np.uint32, copy=False)
    mag = x & np.uint32(0x7FFF)
    nan = mag > np.uint32(0x7C00)
    z = (mag == 0) | nan
    s = (((x >> np.uint32(15)) & np.uint32(1)) == 1) & ~z | nan
    return z.view(np.uint8) | (s.view(np.uint8) << np.uint8(1))


def int_flags(res: ArrayLike, bits: int) -> Flags:
    """Flags of an integer result of width `bits` (f2i, FP_SFU.md 6): Z = (R == 0), S = R[bits-1]."""
    r = np.asarray(res).astype(np.uint32, copy=False)
    z = r == 0
    s = ((r >> np.uint32(bits - 1)) & np.uint32(1)) == 1
    return z.view(np.uint8) | (s.view(np.uint8) << np.uint8(1))


# ----------------------------------------------------------------------------------------------
# fadd / fmul / fmad cores (int64 in, int64 packed bits out)


def _align(m: I64, k: I64) -> I64:
    """FP_SFU.md 2.2 ALIGN(M, k), k >= -3: M << -k for k <= 0, else M >> k with the sticky (OR of
    the dropped bits) folded into bit 0.

    Computed as (M << 3) >> (k + 3), which is exact for k <= 0 and equal to M >> k otherwise; the
    sticky is "shifting back does not give M << 3". k + 3 is capped at 40 (M < 2^24: beyond that
    q = 0 and the sticky is M != 0, exactly as for the uncapped shift)."""
    ms = m << 3
    right = np.minimum(k + 3, 40)
    q = ms >> right
    return q | ((q << right) != ms)


def _add_datapath(sx: I64, ex: I64, mx: I64, sy: I64, ey: I64, my: I64) -> tuple[npt.NDArray[np.bool_], I64, I64, I64]:
    """The shared 28-bit accumulator of fadd (2.2) and fmad (4.2).

    Returns (sum_is_zero, sign, Er, R) with R normalised so that its leading one is bit 27
    (R and Er are meaningless where the sum is zero)."""
    er = np.maximum(ex, ey) + 1
    x = _align(mx, er - ex - 4)
    y = _align(my, er - ey - 4)
    total = np.where(sx == 1, -x, x) + np.where(sy == 1, -y, y)  # |total| < 2^28
    zero = total == 0
    s = (total < 0).astype(np.int64)
    r = np.abs(total)
    shift = np.where(zero, 0, 27 - lead(r))
    return zero, s, er - shift, r << shift


def _round4_rn(r: I64) -> I64:
    """Drop the 4-bit tail of the accumulator, nearest-even (FP_SFU.md 2.2)."""
    m = r >> 4
    rest = r & 15
    return m + ((rest > 8) | ((rest == 8) & ((m & 1) == 1)))


def _fadd_bits(a: I64, b: I64, rnd: int) -> I64:
    """FP_SFU.md 2.1 + 2.2 on int64 lanes, returns packed bits (before .sat)."""
    sa, ea, ma, nan_a, inf_a = unpack(a)
    sb, eb, mb, nan_b, inf_b = unpack(b)
    zero, s, er, r = _add_datapath(sa, ea, ma, sb, eb, mb)
    m = _round4_rn(r) if rnd == RN else r >> 4  # RZ: truncate the magnitude
    res = pack(s, er, m, rnd)
    # exact zero: +0 in every mode, -0 only for (-0) + (-0) (denormals count as zeros)
    res = np.where(zero, np.where((sa & sb) == 1, SIGN, 0), res)
    # special cases, in reverse priority order of 2.1 so the first rule wins
    res = np.where(inf_b, b, res)
    res = np.where(inf_a, np.where(inf_b & (sa != sb), CNAN, a), res)
    return np.where(nan_a | nan_b, CNAN, res)


def _fmul_bits(a: I64, b: I64, rnd: int) -> I64:
    """FP_SFU.md 3 on int64 lanes."""
    sa, ea, ma, nan_a, inf_a = unpack(a)
    sb, eb, mb, nan_b, inf_b = unpack(b)
    s = sa ^ sb
    p = ma * mb  # < 2^48
    e = ea + eb - 126
    low = (p >> 47) == 0
    p = np.where(low, p << 1, p)
    e = e - low
    m = p >> 24
    if rnd == RN:
        rest = p & 0xFFFFFF
        m = m + ((rest > 0x800000) | ((rest == 0x800000) & ((m & 1) == 1)))
    res = pack(s, e, m, rnd)
    zero = (ma == 0) | (mb == 0)  # a flushed zero factor (infinities have M != 0)
    res = np.where(zero, s << 31, res)
    res = np.where(inf_a | inf_b, np.where(zero, CNAN, (s << 31) | INF), res)
    return np.where(nan_a | nan_b, CNAN, res)


_TRUNC24 = np.int64(-1 << 29)  # a float64's sign, exponent and top 23 stored significand bits: a 24-bit significand
_NORMAL_MIN = 2.0**-125  # results from here up to _NORMAL_MAX are normal floats whose RN rounding cannot carry past 2^128
_NORMAL_MAX = 2.0**127


def _fmad_bits(a: I64, b: I64, c: I64) -> I64:
    """FP_SFU.md 4.1 + 4.2 on int64 lanes (always RN; the rounding field is ignored).

    Lanes whose three operands are normal numbers and whose result is a normal number (or an
    exact zero) take a shortcut in float64; the others the datapath of 4.2 step by step
    (`_fmad_datapath`). The shortcut computes what that datapath computes there: the product of
    two 24-bit significands is exact in a float64 (48 bits), truncating it to its top 24 bits is
    clearing the low 29 stored bits; the sum with c is exact in float64 while the exponents differ
    by at most 28 (at most 53 bits), and where they differ by more the smaller term lies below a
    32nd of the larger's ulp, so that rounding it to f32 gives the larger either way; the 28-bit
    accumulator with its sticky bit rounds that sum to nearest-even as the float64 -> float32
    conversion does. Exact cancellation is +0 in both. tests/test_fp.py checks the two against each
    other on random operands of every exponent distance; the FP vectors check the result."""
    bits = np.stack((a, b, c)).astype(np.uint32)
    with np.errstate(all="ignore"):  # NaN, infinity and overflow lanes are computed here too, then not taken
        total, in_range = _fmad_sum(bits)
        fast = _normal(bits) & in_range
        res = total.astype(np.float32).view(np.uint32).astype(np.int64)
    if not fast.all():
        slow = np.flatnonzero(~fast)
        res[slow] = _fmad_datapath(a[slow], b[slow], c[slow])
    return res


def _normal(bits: np.ndarray) -> np.ndarray:
    """Per lane of stacked (a, b, c) uint32 bits: all three are normal numbers (exponent 1..254; 0
    wraps around). On the bits, before any conversion (a signalling NaN converted would raise
    numpy's invalid-value warning)."""
    return ((((bits >> np.uint32(23)) & np.uint32(0xFF)) - np.uint32(1)) < np.uint32(254)).all(axis=0)


def _fmad_sum(bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The float64 shortcut of `_fmad_bits` on stacked (a, b, c) uint32 bits of normal numbers: the
    product truncated to 24 bits plus c, exact in float64, and per lane whether the shortcut holds
    there (a sum in the range whose f32 rounding stays normal, or an exact zero). Why it is exact:
    `_fmad_bits`."""
    f = bits.view(np.float32).astype(np.float64)
    total = ((f[0] * f[1]).view(np.int64) & _TRUNC24).view(np.float64) + f[2]
    mag = np.abs(total)
    return total, ((mag >= _NORMAL_MIN) & (mag < _NORMAL_MAX)) | (total == 0)


def _fmad_datapath(a: I64, b: I64, c: I64) -> I64:
    """FP_SFU.md 4.1 + 4.2 on int64 lanes, step by step: every operand and result class."""
    sa, ea, ma, nan_a, inf_a = unpack(a)
    sb, eb, mb, nan_b, inf_b = unpack(b)
    sc, ec, mc, nan_c, inf_c = unpack(c)
    sp = sa ^ sb
    # 4.2: exact product, normalised to bit 47, then TRUNCATED to 24 bits with no range check
    p = ma * mb
    ep = ea + eb - 126
    low = (p >> 47) == 0
    p = np.where(low, p << 1, p)
    ep = ep - low
    mp = p >> 24
    zero, s, er, r = _add_datapath(sp, ep, mp, sc, ec, mc)
    # below 2^-126: denormalise before rounding, so the sum is rounded at denormal precision
    # (4.4); the right shift (1 - Er <= 26) never drops a 1, the sticky is already in bit 0
    tiny = er < 1
    r = np.where(tiny, r >> np.clip(1 - er, 0, 40), r)
    er = np.where(tiny, 1, er)
    res = pack(s, er, _round4_rn(r), RN)
    res = np.where(zero, 0, res)  # exact cancellation is +0
    # 4.1 step 4: any (flushed) zero operand -> FADD_RN(FMUL_RN(a, b), c)
    any_zero = (ma == 0) | (mb == 0) | (mc == 0)
    idx = np.flatnonzero(any_zero)
    if idx.size:
        res[idx] = _fadd_bits(_fmul_bits(a[idx], b[idx], RN), c[idx], RN)
    # steps 3, 2, 1 (reverse priority)
    res = np.where(inf_c, c, res)
    ab_inf = inf_a | inf_b
    ab_zero = (ma == 0) | (mb == 0)
    res = np.where(ab_inf, np.where(ab_zero | (inf_c & (sc != sp)), CNAN, (sp << 31) | INF), res)
    return np.where(nan_a | nan_b | nan_c, CNAN, res)


# ----------------------------------------------------------------------------------------------
# public ALU operations


def fadd(a: ArrayLike, b: ArrayLike, rnd: int = RN, sat: bool = False) -> tuple[U32, Flags]:
    """a + b (FP_SFU.md 2). rnd is RN or RZ (RM/RP are unspecified on G80 and rejected)."""
    _check_round(rnd, (RN, RZ), "fadd")

    def core(x: I64, y: I64) -> I64:
        r = _fadd_bits(x, y, rnd)
        return saturate(r) if sat else r  # 2.3: SAT on the packed result

    res = run_lanes(core, a, b)
    return res, fp_flags(res)


def fmul(a: ArrayLike, b: ArrayLike, rnd: int = RN) -> tuple[U32, Flags]:
    """a * b (FP_SFU.md 3). rnd is RN or RZ; no .sat on G80."""
    _check_round(rnd, (RN, RZ), "fmul")
    res = run_lanes(lambda x, y: _fmul_bits(x, y, rnd), a, b)
    return res, fp_flags(res)


def _fmad_normal(a: U32, b: U32, c: U32) -> U32 | None:
    """`_fmad_bits`'s float64 shortcut for lane arrays (uint32, one shape) in which every lane
    takes it, without the int64 widening and chunking of `run_lanes` (a model step's fmad on 32
    lanes); None when any lane needs the datapath. The same shortcut as `_fmad_bits`
    (`_normal`, `_fmad_sum`; see there why it is exact)."""
    bits = np.stack((a, b, c))
    if not _normal(bits).all():
        return None
    total, in_range = _fmad_sum(bits)  # |product| <= 2^256: no overflow
    if not in_range.all():
        return None
    return total.astype(np.float32).view(np.uint32)


def fmad(a: ArrayLike, b: ArrayLike, c: ArrayLike, sat: bool = False, flags: bool = True) -> tuple[U32, Flags | None]:
    """a * b + c, the G80 unfused mad (FP_SFU.md 4): product truncated to 24 bits, one RN
    rounding at denormal precision, FTZ; RN-mul then RN-add when any operand is zero.
    There is no rounding argument: the instruction's rounding bits are ignored by the chip.
    neg on the product = flip a's sign bit before the call; neg on the addend = flip c's.
    `flags` False: the flags are not computed (None), for an instruction that does not write $c."""
    res = None
    if not sat and isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and isinstance(c, np.ndarray) and \
            a.dtype == b.dtype == c.dtype == np.uint32 and a.ndim == 1 and a.shape == b.shape == c.shape:  # fmt: skip
        res = _fmad_normal(a, b, c)
    if res is None:

        def core(x: I64, y: I64, z: I64) -> I64:
            r = _fmad_bits(x, y, z)
            return saturate(r) if sat else r

        res = run_lanes(core, a, b, c)
    return res, (fp_flags(res) if flags else None)


def _minmax_bits(a: I64, b: I64, want_max: bool) -> I64:
    """FP_SFU.md 5.1."""
    na, nb = is_nan(a), is_nan(b)
    a2 = flush(np.where(na, b, a))  # the non-NaN operand wins
    b2 = flush(np.where(nb, a2, b))
    sa, sb = a2 >> 31, b2 >> 31
    a_bigger_mag = (a2 & 0x7FFFFFFF) > (b2 & 0x7FFFFFFF)  # 31-bit magnitudes as unsigned integers
    big = np.where(a_bigger_mag, a2, b2)
    small = np.where(a_bigger_mag, b2, a2)
    if want_max:
        same = np.where(sa == 0, big, small)
        diff = np.where(sa == 0, a2, b2)  # the one with sign 0
    else:
        same = np.where(sa == 0, small, big)
        diff = np.where(sa == 1, a2, b2)  # the one with sign 1
    res = np.where(sa != sb, diff, same)
    return np.where(na & nb, CNAN, res)


def fmin(a: ArrayLike, b: ArrayLike) -> tuple[U32, Flags]:
    """min(a, b) (FP_SFU.md 5.1): one NaN -> the other operand (flushed); -0 < +0."""
    res = run_lanes(lambda x, y: _minmax_bits(x, y, want_max=False), a, b)
    return res, fp_flags(res)


def fmax(a: ArrayLike, b: ArrayLike) -> tuple[U32, Flags]:
    """max(a, b) (FP_SFU.md 5.1)."""
    res = run_lanes(lambda x, y: _minmax_bits(x, y, want_max=True), a, b)
    return res, fp_flags(res)


_REL_L, _REL_E, _REL_G, _REL_U = 0, 1, 2, 3  # bit numbers in the fset condition mask


def _order_key(x: I64) -> I64:
    """Map a flushed, non-NaN f32 to an integer with the same real-number order (+0 == -0)."""
    mag = x & 0x7FFFFFFF
    return np.where(x >> 31 == 1, -mag, mag)


def _compare(a: I64, b: I64) -> I64:
    """FP_SFU.md 5.2 relation of a to b: 0 L, 1 E, 2 G, 3 U (FTZ, +-0 equal, NaN unordered)."""
    ka, kb = _order_key(flush(a)), _order_key(flush(b))
    rel = np.where(ka < kb, _REL_L, np.where(ka > kb, _REL_G, _REL_E))
    return np.where(is_nan(a) | is_nan(b), _REL_U, rel)


def fset(cond: int, a: ArrayLike, b: ArrayLike) -> tuple[U32, Flags]:
    """a <cond> b -> 0xffffffff (flags S) or 0 (flags Z) (FP_SFU.md 5.2).
    cond is the 4-bit mask {bit0 l, bit1 e, bit2 g, bit3 u}."""
    if not 0 <= cond <= 15:
        raise ValueError(f"fset condition {cond!r} is not a 4-bit mask")
    res = run_lanes(lambda x, y: np.where(((cond >> _compare(x, y)) & 1) == 1, 0xFFFFFFFF, 0), a, b)
    return res, np.where(res != 0, 2, 1).astype(np.uint8)


def fslct(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> tuple[U32, Flags]:
    """c >= 0 ? a : b (FP_SFU.md 5.3): +-0 and denormals select a, NaN and negatives select b.
    a and b pass through raw; the flags come from the raw result bits (0x7fffffff -> 0)."""

    def core(x: I64, y: I64, z: I64) -> I64:
        rel = _compare(z, np.zeros_like(z))
        return np.where((rel == _REL_G) | (rel == _REL_E), x, y)

    res = run_lanes(core, a, b, c)
    z = (res & np.uint32(0x7FFFFFFF)) == 0
    return res, np.where(z, 1, np.where((res >> np.uint32(31)) == 1, 2, 0)).astype(np.uint8)


# ----------------------------------------------------------------------------------------------
# f16 helpers (appendix A)


def f16_to_f32_bits(h: I64) -> I64:
    """Exact f16 -> f32 (appendix A): NaN -> CNAN, +-inf, +-0 kept, f16 denormals become normal f32."""
    h = h & 0xFFFF
    s = (h >> 15) << 31
    e = (h >> 10) & 0x1F
    f = h & 0x3FF
    normal = s | ((e + 112) << 23) | (f << 13)
    p = lead(f)  # denormal f * 2^-24 with leading one at bit p -> exponent 103 + p
    denorm = s | ((103 + p) << 23) | ((f << np.clip(23 - p, 0, 23)) & 0x7FFFFF)
    res = np.where(e == 0, np.where(f == 0, s, denorm), normal)
    return np.where(e == 0x1F, np.where(f == 0, s | INF, CNAN), res)


def f32_to_f16_bits(x: I64, rnd: int, rint: bool = False) -> I64:
    """f32 -> f16 (appendix A): FTZ input; NaN -> 0x7fff; +-inf -> +-inf; E <= 93 -> +-0 in any mode;
    else the 24-bit significand rounded to the f16 grid in the magnitude mode (denormal results
    are produced), overflow to +-inf or +-0x7bff per mode.

    rint=True is the f2f round-to-integer case (appendix A, third bullet): the significand is
    truncated (RZ); the overflow choice still follows `rnd`, as the reference model does."""
    s, e, m, nan, inf = unpack(x)
    e16 = e - 112
    shift = np.where(e16 <= 0, 14 - e16, 13)  # denormal grid 2^-24 below 2^-14
    e16 = np.maximum(e16, 1)
    if rint:
        up, near = np.zeros(s.shape, dtype=bool), False
    else:
        up, near = magnitude_mode(rnd, s)
    f = shr_round(m, shift, up, near)  # <= 2^11
    carry = f == 0x800
    f = np.where(carry, 0x400, f)
    e16 = e16 + carry
    sign = s << 15
    res = np.where(f < 0x400, sign | f, sign | (np.minimum(e16, 31) << 10) | (f & 0x3FF))
    if rnd == RZ:
        big = np.full(s.shape, 0x7BFF, dtype=np.int64)
    elif rnd == RN:
        big = np.full(s.shape, 0x7C00, dtype=np.int64)
    else:  # RM: positive results stop at 0x7bff; RP: negative ones do
        big = np.where(s == (0 if rnd == RM else 1), 0x7BFF, 0x7C00)
    res = np.where((f >= 0x400) & (e16 >= 31), sign | big, res)
    res = np.where(e <= 93, sign, res)  # |x| < 2^-33: +-0 whatever the mode
    res = np.where(inf, sign | 0x7C00, res)
    return np.where(nan, F16_NAN, res)


def f16_to_f32(h: ArrayLike) -> tuple[U32, Flags]:
    """Exact conversion of the half in the low 16 bits to f32 (appendix A)."""
    res = run_lanes(f16_to_f32_bits, h)
    return res, fp_flags(res)


def f32_to_f16(x: ArrayLike, rnd: int = RN) -> tuple[U32, Flags]:
    """f32 -> f16 in the low 16 bits (appendix A), flags of the half's value."""
    _check_round(rnd, (RN, RM, RP, RZ), "f32_to_f16")
    res = run_lanes(lambda v: f32_to_f16_bits(v, rnd), x)
    return res, f16_flags(res)


# ----------------------------------------------------------------------------------------------
# conversions


def _f2i_bits(x: I64, dst_signed: bool, dst_bits: int, rnd: int, src_f16: bool) -> I64:
    """FP_SFU.md 6 steps 1-3 (abs/neg already applied to x)."""
    if src_f16:
        x = f16_to_f32_bits(x)
    s, e, m, nan, inf = unpack(x)
    k = e - 150  # value = M * 2^k
    up, near = magnitude_mode(rnd, s)
    small = shr_round(m, np.maximum(-k, 0), up, near)
    big = m << np.clip(k, 0, 8)  # k <= 8 keeps M << k < 2^32; k >= 9 always saturates
    n = np.where(k >= 0, np.where(k > 8, 0xFFFFFFFF, big), small)
    n = np.minimum(n, 0xFFFFFFFF)
    n = np.where(inf, 0xFFFFFFFF, np.where(nan, 0, n))
    if dst_signed:
        lim = 1 << (dst_bits - 1)
        r = np.where(s == 0, np.minimum(n, lim - 1), -np.minimum(n, lim))  # two's complement
    else:
        r = np.where(s == 1, 0, n if dst_bits == 32 else np.minimum(n, 0xFFFF))  # any negative -> 0
    return r & ((1 << dst_bits) - 1)


def f2i(a: ArrayLike, dst_signed: bool, dst_bits: int, rnd: int, src_f16: bool = False) -> tuple[U32, Flags]:
    """cvt float -> integer (FP_SFU.md 6). rnd = RN/RM/RP/RZ (rni/rmi/rpi/rzi); dst_bits 16 or 32.

    abs/neg are applied by the caller to the source bits (bit 31, or bit 15 of an f16 source).
    NaN -> 0; clamps to the destination range; any negative input -> 0 for unsigned.
    A 16-bit result is zero-extended in the returned uint32; flags Z = (R == 0), S from bit 15."""
    if dst_bits not in (16, 32):
        raise ValueError(f"f2i: dst_bits must be 16 or 32, not {dst_bits!r}")
    _check_round(rnd, (RN, RM, RP, RZ), "f2i")
    res = run_lanes(lambda x: _f2i_bits(x, dst_signed, dst_bits, rnd, src_f16), a)
    return res, int_flags(res, dst_bits)


def _i2f16_errata(n: I64, up: npt.NDArray[np.bool_], near: bool, orig_neg: I64) -> I64:
    """The i2f -> f16 hardware bug as simulated by envytools' hwtest g80_fp.cc (FP_SFU.md appendix A
    names it but does not specify it; not cross-checked by the document).

    With the magnitude mode RN or "up": a magnitude whose bits 29..5 are all ones reads as 0.
    Then the top 2 + z bits of the 32-bit magnitude are dropped, z = the number of leading zeros of
    the low 16 bits of (magnitude - orig_neg) capped at 5 (so 2..7 bits are dropped)."""
    rn_or_up = up | near
    n = np.where(rn_or_up & (((n >> 5) & 0x1FFFFFF) == 0x1FFFFFF), 0, n)
    lo = (n - orig_neg) & 0xFFFF
    clz16 = 15 - lead(lo)  # 16 for lo == 0
    drop = 2 + np.minimum(clz16, 5)
    return n & ((np.int64(1) << (32 - drop)) - 1)


def _i2f_bits(v: I64, src_signed: bool, w: int, rnd: int, dst_f16: bool, sat: bool, abs_: bool, neg: bool) -> I64:
    """FP_SFU.md 7 (plus the f16 destination of appendix A)."""
    v = v & ((1 << w) - 1)
    if src_signed:
        t = np.where(v >> (w - 1) == 1, v - (1 << w), v)
        n = np.abs(t)  # s32 -2^31 gives 2^31
        s = (t < 0).astype(np.int64)
    else:
        n = v
        s = np.zeros_like(v)
    orig_neg = s
    if abs_:
        s = np.zeros_like(s)
    if neg:
        s = 1 - s
    up, near = magnitude_mode(rnd, s)  # rounding in the direction of the FINAL sign
    if dst_f16:
        n = _i2f16_errata(n, up, near, orig_neg)
    p = lead(n)
    sh = p - 23
    m = np.where(sh <= 0, n << np.clip(-sh, 0, 23), shr_round(n, np.maximum(sh, 0), up, near))
    r = np.where(n == 0, 0, pack(np.zeros_like(s), 127 + p, m, RN)) | (s << 31)  # sign applied last: 0 -> -0
    if sat:
        r = saturate(r)
    return f32_to_f16_bits(r, rnd) if dst_f16 else r


def i2f(
    a: ArrayLike, src_signed: bool, src_bits: int, rnd: int, dst_f16: bool = False, sat: bool = False,
    *, abs_: bool = False, neg: bool = False,
) -> tuple[U32, Flags]:  # fmt: skip
    """cvt integer -> float (FP_SFU.md 7). src_bits 8, 16 or 32 (the low bits of `a`, sign- or
    zero-extended); rnd = RN/RM/RP/RZ, applied in the direction of the final sign.

    abs_/neg act on the integer's sign (abs first, then neg): i2f(0, neg=True) = -0.
    dst_f16: the result is an f16 in the low 16 bits, computed with the hardware errata of
    `_i2f16_errata`, then rounded to f32 and converted to f16 in mode rnd (flags of the half)."""
    if src_bits not in (8, 16, 32):
        raise ValueError(f"i2f: src_bits must be 8, 16 or 32, not {src_bits!r}")
    _check_round(rnd, (RN, RM, RP, RZ), "i2f")
    res = run_lanes(lambda v: _i2f_bits(v, src_signed, src_bits, rnd, dst_f16, sat, abs_, neg), a)
    return res, (f16_flags(res) if dst_f16 else fp_flags(res))


def round_to_integer_bits(x: I64, rnd: int) -> I64:
    """FP_SFU.md 8 ROUND_TO_INTEGER on packed f32 bits (already canonical: no denormals/NaN payloads)."""
    s, e, m, nan, _ = unpack(x)
    up, near = magnitude_mode(rnd, s)
    q = shr_round(m, np.maximum(150 - e, 0), up, near)  # <= 2^23
    p = lead(q)
    enc = (s << 31) | ((127 + p) << 23) | ((q << np.clip(23 - p, 0, 23)) & 0x7FFFFF)
    res = np.where(q == 0, s << 31, enc)  # the sign of zero is kept: rni(-0.4) = -0
    res = np.where(e >= 150, x, res)  # already integral (incl. +-inf)
    return np.where(nan, CNAN, res)


def _f2f_bits(x: I64, rnd: int, rint: bool, sat: bool, src_f16: bool, dst_f16: bool) -> I64:
    if src_f16:
        x = f16_to_f32_bits(x)
    r = _fadd_bits(x, np.full_like(x, SIGN), RN)  # x + (-0): NaN -> CNAN, denormal -> +-0
    if sat:
        r = saturate(r)
    if rint:
        r = round_to_integer_bits(r, rnd)  # after sat
    return f32_to_f16_bits(r, rnd, rint) if dst_f16 else r


def f2f(
    a: ArrayLike, rnd: int = RN, rint: bool = False, sat: bool = False, src_f16: bool = False, dst_f16: bool = False,
) -> tuple[U32, Flags]:  # fmt: skip
    """cvt float -> float (FP_SFU.md 8): x + (-0) canonicalisation (NaN -> CNAN, denormal -> +-0),
    then .sat, then (rint) round to integer in mode rnd. abs/neg are the caller's (see module doc).

    The vectors' modes: mov = (RN, rint=False), sat = (sat=True), rni/rmi/rpi/rzi = (rnd, rint=True).
    rnd only matters with rint or an f16 destination. dst_f16: the f32 result is converted to f16
    (appendix A; with rint the conversion truncates), flags from the half."""
    _check_round(rnd, (RN, RM, RP, RZ), "f2f")
    res = run_lanes(lambda x: _f2f_bits(x, rnd, rint, sat, src_f16, dst_f16), a)
    return res, (f16_flags(res) if dst_f16 else fp_flags(res))
