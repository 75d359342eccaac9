"""golden/fermi/arith against independent references.

- Round-to-nearest add and multiply against numpy's float32/float64 arithmetic.
- Every rounding of add, multiply and fused multiply-add (FP32 and FP64) against the exact rational
  result rounded by `ref_round` below: a rounding routine written here from IEEE 754's definition
  (the representable neighbours of the exact value found by bisection over bit patterns, then the
  direction's choice between them), sharing no code with the model.
- .FTZ (subnormal inputs and results to signed zero, tininess after rounding), .SAT (clamp to
  [0, 1], NaN -> 0), .FMZ, the canonical NaN 0x7fffffff of the PTX ISA manual.
- Compares and min/max against Python's float comparisons and the PTX setp/min/max tables.
- Conversions against numpy casts, Fraction rounding and Python integers.
- MUFU against the documented error bounds of the .approx instructions (see BOUNDS).
- Integer helpers against the PTX ISA manual's pseudo-code, transcribed bit by bit.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from golden.fermi import arith

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MODES = ("RN", "RM", "RP", "RZ")
FMT = {"F16": (5, 10), "F32": (8, 23), "F64": (11, 52)}
CANON = {"F16": 0x7FFF, "F32": 0x7FFFFFFF, "F64": 0x7FFFFFFFFFFFFFFF}

# ---------------------------------------------------------------------------------------------
# The reference: IEEE 754 from its definitions


class Spec:
    """One binary format's constants, from its exponent and fraction widths."""

    def __init__(self, name: str, extra_exponent_bits: int = 0) -> None:
        self.name = name
        self.e, self.m = FMT[name]
        self.e += extra_exponent_bits
        self.width = 1 + self.e + self.m
        self.bias = 2 ** (self.e - 1) - 1
        self.inf = (2**self.e - 1) * 2**self.m
        self.signbit = 2 ** (self.width - 1)
        self.nan = CANON[name] if not extra_exponent_bits else -1
        self.min_normal = Fraction(2) ** (1 - self.bias)

    def mag_value(self, p: int) -> Fraction:
        """The value of a non-negative pattern; the infinity pattern counts as 2^(emax+1), the
        next binade, which is what IEEE's overflow threshold for round-to-nearest amounts to."""
        exp, frac = divmod(p, 2**self.m)
        if exp == 0:
            return Fraction(frac, 2**self.m) * self.min_normal
        return (1 + Fraction(frac, 2**self.m)) * Fraction(2) ** (exp - self.bias)

    def decode(self, bits: int) -> tuple[str, bool, Fraction]:
        neg = bits >= self.signbit
        mag = bits - self.signbit if neg else bits
        if mag > self.inf:
            return "nan", neg, Fraction(0)
        if mag == self.inf:
            return "inf", neg, Fraction(0)
        v = self.mag_value(mag)
        return "fin", neg, -v if neg else v

    def is_sub(self, bits: int) -> bool:
        return 0 < bits % self.signbit < 2**self.m


def ref_round(q: Fraction, s: Spec, rnd: str, neg_zero: bool = False) -> int:
    """q rounded to format `s` in direction `rnd`, found by bisection over the bit patterns."""
    if q == 0:
        return s.signbit if neg_zero else 0
    neg, a = q < 0, abs(q)
    lo, hi = 0, s.inf  # invariant: mag_value(lo) <= a
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if s.mag_value(mid) <= a:
            lo = mid
        else:
            hi = mid - 1
    if s.mag_value(lo) == a and lo < s.inf:
        p = lo
    else:
        below = min(lo, s.inf - 1)
        above = below + 1
        vb, va = s.mag_value(below), s.mag_value(above)
        if rnd == "RN":
            mid_v = (vb + va) / 2
            p = below if a < mid_v else above if a > mid_v else (below if below % 2 == 0 else above)
        elif rnd == "RZ" or (rnd == "RP" and neg) or (rnd == "RM" and not neg):
            p = below
        else:
            p = above
    return p + (s.signbit if neg else 0)


def ref_round_ftz(q: Fraction, s: Spec, rnd: str, neg_zero: bool) -> int:
    """Rounding under .FTZ: a result whose rounding with an unbounded exponent lies below the
    smallest normal becomes a signed zero. The unbounded rounding is done in the same precision
    with eight more exponent bits, where every such value is normal."""
    if q == 0 or abs(q) >= s.min_normal:
        return ref_round(q, s, rnd, neg_zero)
    wide = Spec(s.name, extra_exponent_bits=8)
    _, neg, v = wide.decode(ref_round(q, wide, rnd))
    if abs(v) < s.min_normal:
        return s.signbit if q < 0 else 0
    return 2**s.m + (s.signbit if neg else 0)


def ref_arith(op: str, ops: list[int], s: Spec, rnd: str, ftz: bool = False) -> int:
    """IEEE add / mul / fma of patterns: specials per IEEE 754 section 6, else the exact value
    rounded once; the sign of an exact zero sum is + except in RM, unless both terms agree."""
    if ftz:
        ops = [(x & s.signbit) if s.is_sub(x) else x for x in ops]
    d = [s.decode(x) for x in ops]
    if any(k == "nan" for k, _, _ in d):
        return s.nan
    if op == "add":
        terms = [d[0], d[1]]
    else:
        (ka, na, va), (kb, nb, vb) = d[0], d[1]
        zero = (ka == "fin" and va == 0) or (kb == "fin" and vb == 0)
        if "inf" in (ka, kb):
            if zero:
                return s.nan
            terms = [("inf", na != nb, Fraction(0))]
        else:
            terms = [("fin", na != nb, va * vb)]
        if op == "fma":
            terms.append(d[2])
    infs = {n for k, n, _ in terms if k == "inf"}
    if len(infs) == 2:
        return s.nan
    if infs:
        return s.inf + (s.signbit if infs.pop() else 0)
    total = sum(v for _, _, v in terms)
    signs = {n for _, n, _ in terms}
    neg_zero = signs.pop() if len(signs) == 1 else rnd == "RM"
    return (ref_round_ftz if ftz else ref_round)(total, s, rnd, neg_zero)


# ---------------------------------------------------------------------------------------------
# Operands


def patterns(name: str) -> st.SearchStrategy[int]:
    """Bit patterns weighted towards the edges: zeros, subnormals, the normal/subnormal boundary,
    one, the largest finite, infinities, quiet and signalling NaNs."""
    s = Spec(name)
    top = 2**s.e - 1
    exps = st.one_of(st.sampled_from([0, 1, 2, s.bias - 1, s.bias, s.bias + 1, top - 1, top]), st.integers(0, top))
    fracs = st.one_of(st.sampled_from([0, 1, 2 ** (s.m - 1), 2**s.m - 1]), st.integers(0, 2**s.m - 1))
    built = st.builds(lambda sg, e, f: sg * s.signbit + e * 2**s.m + f, st.integers(0, 1), exps, fracs)
    return st.one_of(st.integers(0, 2**s.width - 1), built)


@st.composite
def near(draw: st.DrawFn, name: str, n: int) -> list[int]:
    """n operands whose exponents are often close, so that sums cancel, carry and tie. For three
    operands the third is steered near the product of the first two."""
    s = Spec(name)
    ops = [draw(patterns(name))]
    for i in range(1, n):
        if draw(st.booleans()):
            ops.append(draw(patterns(name)))
            continue
        ref = ops[0] // 2**s.m % 2**s.e
        if i == 2:
            ref = ops[0] // 2**s.m % 2**s.e + ops[1] // 2**s.m % 2**s.e - s.bias
        e = min(max(ref + draw(st.integers(-s.m - 3, s.m + 3)), 0), 2**s.e - 2)
        ops.append(draw(st.integers(0, 1)) * s.signbit + e * 2**s.m + draw(st.integers(0, 2**s.m - 1)))
    return ops


def lanes(name: str, n: int) -> st.SearchStrategy[list[list[int]]]:
    return st.lists(near(name, n), min_size=1, max_size=6)


def cols(rows: list[list[int]], dtype: type) -> list[np.ndarray]:
    return [np.array(c, dtype=dtype) for c in zip(*rows, strict=True)]


def hexes(a: np.ndarray) -> list[str]:
    return [hex(int(v)) for v in a]


# ---------------------------------------------------------------------------------------------
# FP32 / FP64 arithmetic

ONE, HALF_ULP = 0x3F800000, 0x33800000  # 1.0 and 2^-24: 1 + 2^-24 is exactly halfway


def _np_expected(f: np.ndarray, s: Spec) -> list[int]:
    u = f.view(np.uint32 if s.width == 32 else np.uint64)
    return [s.nan if math.isnan(x) else int(b) for x, b in zip(f.tolist(), u, strict=True)]


@SETTINGS
@given(lanes("F32", 2))
@example([[ONE, HALF_ULP], [ONE + 1, HALF_ULP], [0x7F7FFFFF, 0x7F7FFFFF], [0x7F800000, 0xFF800000], [0x7FA00000, ONE]])
def test_fadd_fmul_rn_match_numpy(rows: list[list[int]]) -> None:
    a, b = cols(rows, np.uint32)
    with np.errstate(all="ignore"):
        fa, fb = a.view(np.float32), b.view(np.float32)
        assert hexes(arith.fadd(a, b)) == [hex(v) for v in _np_expected(fa + fb, Spec("F32"))]
        assert hexes(arith.fmul(a, b)) == [hex(v) for v in _np_expected(fa * fb, Spec("F32"))]


@SETTINGS
@given(lanes("F64", 2))
@example([[0x3FF0000000000000, 0x3CA0000000000000], [0x7FEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF], [0x1, 0x3FE0000000000000]])
def test_dadd_dmul_rn_match_numpy(rows: list[list[int]]) -> None:
    a, b = cols(rows, np.uint64)
    with np.errstate(all="ignore"):
        fa, fb = a.view(np.float64), b.view(np.float64)
        assert hexes(arith.dadd(a, b)) == [hex(v) for v in _np_expected(fa + fb, Spec("F64"))]
        assert hexes(arith.dmul(a, b)) == [hex(v) for v in _np_expected(fa * fb, Spec("F64"))]


@pytest.mark.parametrize("rnd", MODES)
@SETTINGS
@given(rows=lanes("F32", 3), ftz=st.booleans())
@example(rows=[[ONE, ONE, 0xBF800000], [0x00800001, 0x3F7FFFFE, 0], [0x3F800001, 0x3F800001, 0xBF800002]], ftz=True)
# (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150: halfway on the subnormal grid (rounds up to 2^-126), but
# exact with an unbounded exponent and below 2^-126, so .FTZ flushes it.
@example(rows=[[0x3F7FFFFF, 0x00800000, 0], [0xBF7FFFFF, 0x00800000, 0x80000000]], ftz=True)
@example(rows=[[0x7F7FFFFF, 0x40000000, 0], [0x00000001, 0x3F000000, 0x80000000], [0x80000000, ONE, 0]], ftz=False)
def test_fp32_against_exact_rounding(rnd: str, rows: list[list[int]], ftz: bool) -> None:
    s = Spec("F32")
    a, b, c = cols(rows, np.uint32)
    cases = {
        "add": (arith.fadd(a, b, rnd, ftz), [[x, y] for x, y, _ in rows]),
        "mul": (arith.fmul(a, b, rnd, ftz), [[x, y] for x, y, _ in rows]),
        "fma": (arith.ffma(a, b, c, rnd, ftz), rows),
    }
    for op, (got, ops) in cases.items():
        assert hexes(got) == [hex(ref_arith(op, o, s, rnd, ftz)) for o in ops], op


@pytest.mark.parametrize("rnd", MODES)
@SETTINGS
@given(rows=lanes("F64", 3))
@example(rows=[[0x3FF0000000000001, 0x3FF0000000000001, 0xBFF0000000000002], [0x7FEFFFFFFFFFFFFF, 0x4000000000000000, 0]])
def test_fp64_against_exact_rounding(rnd: str, rows: list[list[int]]) -> None:
    s = Spec("F64")
    a, b, c = cols(rows, np.uint64)
    assert hexes(arith.dadd(a, b, rnd)) == [hex(ref_arith("add", [x, y], s, rnd)) for x, y, _ in rows]
    assert hexes(arith.dmul(a, b, rnd)) == [hex(ref_arith("mul", [x, y], s, rnd)) for x, y, _ in rows]
    assert hexes(arith.dfma(a, b, c, rnd)) == [hex(ref_arith("fma", r, s, rnd)) for r in rows]


def test_ffma_rounds_once_where_float64_would_round_twice() -> None:
    # (172961 * 2^-17) * (97 * 2^-7) = (2^24 + 1) * 2^-24 = 1 + 2^-24 exactly, the midpoint between
    # 1 and 1 + 2^-23. Adding +-2^-60 moves the exact sum just off the midpoint; a float64 sum
    # would land back on it and then tie to even, a fused multiply-add must not.
    a, b = (int(np.float32(v).view(np.uint32)) for v in (172961 * 2.0**-17, 97 * 2.0**-7))
    tiny = int(np.float32(2.0**-60).view(np.uint32))
    assert hexes(arith.ffma([a, a, a], [b, b, b], [tiny, tiny | 0x80000000, 0])) == ["0x3f800001", "0x3f800000", "0x3f800000"]


def test_exact_zero_sign_and_canonical_nan() -> None:
    # IEEE 754 section 6.3: x - x is +0, except -0 when rounding toward negative.
    assert hexes(arith.fadd([ONE], [0xBF800000], "RM")) == ["0x80000000"]
    assert hexes(arith.fadd([ONE], [0xBF800000], "RP")) == ["0x0"]
    # The PTX ISA manual: FP32 NaN results are the canonical NaN 0x7fffffff, payloads dropped.
    assert hexes(arith.fmul([0x7F800000], [0])) == ["0x7fffffff"]
    assert hexes(arith.fadd([0xFFC00001], [ONE], "RZ")) == ["0x7fffffff"]


def _sat_ref(bits: int) -> int:
    kind, neg, v = Spec("F32").decode(bits)
    if kind == "nan" or neg:
        return 0
    return ONE if kind == "inf" or v > 1 else bits


@SETTINGS
@given(rows=lanes("F32", 3), rnd=st.sampled_from(MODES))
def test_sat_clamps_to_unit_interval(rows: list[list[int]], rnd: str) -> None:
    a, b, c = cols(rows, np.uint32)
    for fn, args in ((arith.fadd, (a, b)), (arith.fmul, (a, b)), (arith.ffma, (a, b, c))):
        plain = fn(*args, rnd=rnd)
        assert hexes(fn(*args, rnd=rnd, sat=True)) == [hex(_sat_ref(int(v))) for v in plain]


@SETTINGS
@given(rows=lanes("F32", 3), ftz=st.booleans())
def test_fmz_zero_factor_gives_zero(rows: list[list[int]], ftz: bool) -> None:
    s = Spec("F32")
    a, b, _ = cols(rows, np.uint32)
    got = arith.fmul(a, b, fmz=True, ftz=ftz)
    plain = arith.fmul(a, b, ftz=ftz)
    for x, y, g, p in zip(a.tolist(), b.tolist(), got.tolist(), plain.tolist(), strict=True):
        fx, fy = ((v & s.signbit) if ftz and s.is_sub(v) else v for v in (x, y))
        if fx % s.signbit == 0 or fy % s.signbit == 0:
            assert g == (fx ^ fy) & s.signbit
        else:
            assert g == p
    assert hexes(arith.ffma([0], [0x7F800000], [ONE], fmz=True)) == ["0x3f800000"]


# ---------------------------------------------------------------------------------------------
# Compares and min/max

PY_TESTS = {
    "F": lambda x, y: False, "T": lambda x, y: True,
    "LT": lambda x, y: x < y, "EQ": lambda x, y: x == y, "LE": lambda x, y: x <= y,
    "GT": lambda x, y: x > y, "GE": lambda x, y: x >= y,
    "NE": lambda x, y: not (math.isnan(x) or math.isnan(y)) and x != y,
    "NUM": lambda x, y: not (math.isnan(x) or math.isnan(y)), "NAN": lambda x, y: math.isnan(x) or math.isnan(y),
}
for _t in ("LT", "EQ", "LE", "GT", "NE", "GE"):
    PY_TESTS[_t + "U"] = lambda x, y, t=_t: math.isnan(x) or math.isnan(y) or PY_TESTS[t](x, y)


@pytest.mark.parametrize("cmp", sorted(PY_TESTS))
@SETTINGS
@given(rows=lanes("F32", 2), ftz=st.booleans(), drows=lanes("F64", 2))
def test_compares(cmp: str, rows: list[list[int]], ftz: bool, drows: list[list[int]]) -> None:
    s = Spec("F32")
    a, b = cols(rows, np.uint32)
    flushed = [[(v & s.signbit) if ftz and s.is_sub(v) else v for v in r] for r in rows]
    floats = [[float(np.uint32(v).view(np.float32)) for v in r] for r in flushed]
    assert arith.fcmp(cmp, a, b, ftz).tolist() == [PY_TESTS[cmp](x, y) for x, y in floats]
    da, db = cols(drows, np.uint64)
    dfl = [[float(np.uint64(v).view(np.float64)) for v in r] for r in drows]
    assert arith.dcmp(cmp, da, db).tolist() == [PY_TESTS[cmp](x, y) for x, y in dfl]


@SETTINGS
@given(rows=lanes("F32", 2), mins=st.lists(st.booleans(), min_size=6, max_size=6))
@example(rows=[[0x80000000, 0], [0, 0x80000000], [0x7FC00000, ONE], [0x7FC00000, 0xFFC00000]], mins=[True, False, True, True, False, False])
def test_fmnmx(rows: list[list[int]], mins: list[bool]) -> None:
    a, b = cols(rows, np.uint32)
    take = np.array(mins[: len(rows)])
    want = []
    for (x, y), lo in zip(rows, take.tolist(), strict=True):
        fx, fy = (float(np.uint32(v).view(np.float32)) for v in (x, y))
        if math.isnan(fx) and math.isnan(fy):
            want.append(0x7FFFFFFF)
        elif math.isnan(fx) or math.isnan(fy):
            want.append(y if math.isnan(fx) else x)
        else:
            # -0 orders below +0 (the model's documented choice); otherwise plain numeric order.
            kx, ky = (math.copysign(1, f) if f == 0 else 0 for f in (fx, fy))
            x_first = (fx, kx) <= (fy, ky) if lo else (fx, kx) >= (fy, ky)
            want.append(x if x_first else y)
    assert hexes(arith.fmnmx(a, b, take)) == [hex(v) for v in want]
    # The same pairs widened exactly to FP64 (order and NaN-ness kept) must pick the same operand.
    def wide(v: list[int]) -> np.ndarray:
        with np.errstate(invalid="ignore"):  # a signalling NaN raises the invalid flag when widened
            return np.array(v, dtype=np.uint32).view(np.float32).astype(np.float64).view(np.uint64)

    wide_want = [0x7FFFFFFFFFFFFFFF if w == 0x7FFFFFFF else int(wide([w])[0]) for w in want]
    assert hexes(arith.dmnmx(wide(a.tolist()), wide(b.tolist()), take)) == [hex(v) for v in wide_want]


# ---------------------------------------------------------------------------------------------
# Conversions

NP_FLOAT = {"F16": np.float16, "F32": np.float32, "F64": np.float64}
NP_UINT = {"F16": np.uint16, "F32": np.uint32, "F64": np.uint64}


@pytest.mark.parametrize(("src", "dst"), [(s, d) for s in FMT for d in FMT])
@SETTINGS
@given(data=st.data())
def test_f2f_rn_matches_numpy_cast(src: str, dst: str, data: st.DataObject) -> None:
    xs = data.draw(st.lists(patterns(src), min_size=1, max_size=6))
    with np.errstate(all="ignore"):  # signalling NaNs and overflow raise flags; the values are what counts
        f = np.array(xs, dtype=NP_UINT[src]).view(NP_FLOAT[src]).astype(NP_FLOAT[dst])
    want = [CANON[dst] if math.isnan(v) else int(u) for v, u in zip(f.tolist(), f.view(NP_UINT[dst]), strict=True)]
    assert hexes(arith.f2f(np.array(xs, dtype=np.uint64), src, dst)) == [hex(v) for v in want]


INTEGRAL = {"ROUND": ("RN", round), "FLOOR": ("RM", math.floor), "CEIL": ("RP", math.ceil), "TRUNC": ("RZ", math.trunc)}


@pytest.mark.parametrize(("src", "dst"), [("F32", "F16"), ("F64", "F32"), ("F64", "F16"), ("F32", "F32"), ("F64", "F64"), ("F16", "F32")])
@pytest.mark.parametrize("rnd", [*MODES, *INTEGRAL])
@SETTINGS
@given(data=st.data(), ftz=st.booleans())
def test_f2f_against_exact_rounding(src: str, dst: str, rnd: str, data: st.DataObject, ftz: bool) -> None:
    s, d = Spec(src), Spec(dst)
    xs = data.draw(st.lists(patterns(src), min_size=1, max_size=6))
    want = []
    for x in xs:
        if ftz and src == "F32" and s.is_sub(x):
            x &= s.signbit
        kind, neg, v = s.decode(x)
        if kind != "fin":
            want.append(d.nan if kind == "nan" else d.inf + (d.signbit if neg else 0))
            continue
        direction = rnd
        if rnd in INTEGRAL:
            direction, fn = INTEGRAL[rnd]
            v = Fraction(fn(v))
        rounder = ref_round_ftz if ftz and dst == "F32" else ref_round
        want.append(rounder(v, d, direction, neg))
    assert hexes(arith.f2f(np.array(xs, dtype=np.uint64), src, dst, rnd, ftz)) == [hex(v) for v in want]


INT_RANGE = {f"{k}{w}": (w, k == "S") for k in "US" for w in (8, 16, 32, 64)}
TO_INT = {"RN": round, "RM": math.floor, "RP": math.ceil, "RZ": math.trunc}


@pytest.mark.parametrize("dst", sorted(INT_RANGE))
@pytest.mark.parametrize("src", sorted(FMT))
@SETTINGS
@given(data=st.data(), rnd=st.sampled_from([*MODES, *INTEGRAL]))
def test_f2i_saturates_and_rounds(dst: str, src: str, data: st.DataObject, rnd: str) -> None:
    s = Spec(src)
    width, signed = INT_RANGE[dst]
    lo, hi = (-(2 ** (width - 1)), 2 ** (width - 1) - 1) if signed else (0, 2**width - 1)
    xs = data.draw(st.lists(patterns(src), min_size=1, max_size=6))
    direction = INTEGRAL[rnd][0] if rnd in INTEGRAL else rnd
    reg = 2**64 if width == 64 else 2**32
    want = []
    for x in xs:
        kind, neg, v = s.decode(x)
        n = 0 if kind == "nan" else (lo if neg else hi) if kind == "inf" else min(max(TO_INT[direction](v), lo), hi)
        want.append(n % reg)
        if kind == "fin" and direction == "RZ" and lo <= v <= hi and width < 64:
            assert int(np.float64(v).astype(np.int64)) == n  # numpy's truncating cast agrees
    assert hexes(arith.f2i(np.array(xs, dtype=np.uint64), src, dst, rnd)) == [hex(v) for v in want]


def test_f2i_ftz_flushes_before_rounding() -> None:
    tiny_neg = 0x80000001  # the smallest negative subnormal: FLOOR gives -1, but 0 once flushed
    assert hexes(arith.f2i([tiny_neg], "F32", "S32", "FLOOR")) == ["0xffffffff"]
    assert hexes(arith.f2i([tiny_neg], "F32", "S32", "FLOOR", ftz=True)) == ["0x0"]


@pytest.mark.parametrize("src", sorted(INT_RANGE))
@pytest.mark.parametrize("dst", sorted(FMT))
@SETTINGS
@given(xs=st.lists(st.one_of(st.integers(0, 2**64 - 1), st.sampled_from([0, 1, 2**63, 2**64 - 1, 2**24 + 1, 2**53 + 1])), min_size=1, max_size=6), rnd=st.sampled_from(MODES))
def test_i2f(src: str, dst: str, xs: list[int], rnd: str) -> None:
    width, signed = INT_RANGE[src]
    vals = [(x % 2**width) - (2**width if signed and x % 2**width >= 2 ** (width - 1) else 0) for x in xs]
    got = arith.i2f(np.array(xs, dtype=np.uint64), src, dst, rnd)
    assert hexes(got) == [hex(ref_round(Fraction(v), Spec(dst), rnd)) for v in vals]
    if rnd == "RN":
        with np.errstate(over="ignore"):  # a 16-bit float overflows to inf, as the model must too
            f = np.array(vals, dtype=np.int64 if signed else np.uint64).astype(NP_FLOAT[dst])
        assert got.tolist() == f.view(NP_UINT[dst]).astype(np.uint64).tolist()


NP_INT = {"U8": np.uint8, "S8": np.int8, "U16": np.uint16, "S16": np.int16, "U32": np.uint32, "S32": np.int32, "U64": np.uint64, "S64": np.int64}


@pytest.mark.parametrize("src", sorted(NP_INT))
@pytest.mark.parametrize("dst", sorted(NP_INT))
@SETTINGS
@given(xs=st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=6), sat=st.booleans())
def test_i2i(src: str, dst: str, xs: list[int], sat: bool) -> None:
    info = np.iinfo(NP_INT[dst])
    v = np.array(xs, dtype=np.uint64).astype(NP_INT[src])  # numpy's casts wrap: the low bits
    wide = [int(x) for x in v]
    n = [min(max(x, int(info.min)), int(info.max)) for x in wide] if sat else wide
    out = np.array(n, dtype=object)
    dt = NP_INT[dst]
    reg = np.uint64 if np.dtype(dt).itemsize == 8 else np.uint32
    want = [int(np.array(int(x) % 2**64, dtype=np.uint64).astype(dt).astype(np.int64 if np.dtype(dt).kind == "i" else np.uint64).astype(reg)) for x in out]
    assert arith.i2i(np.array(xs, dtype=np.uint64), src, dst, sat).tolist() == want


# ---------------------------------------------------------------------------------------------
# MUFU: approximations, held to the documented bounds

# PTX ISA 9.1 (9.7.3.13-21): sin.approx.f32 / cos.approx.f32, maximum absolute error 2^-20.5 over
# [-2pi, 2pi]; lg2.approx.f32, maximum absolute error 2^-22 for inputs in (0.5, 2); rcp.approx.f32,
# 1 ulp over the full range; rsqrt.approx.f32, relative error 2^-22.9 over the positive finite range;
# ex2.approx.f32, 2 ulp from the correctly rounded result over the full range.
PI32 = float(np.nextafter(np.float32(math.pi), np.float32(0)))  # the largest FP32 below pi
BOUNDS = {"SIN": 2**-20.5, "COS": 2**-20.5, "LG2": 2**-22, "RCP": 1.0, "RSQ": 2**-22.9, "EX2": 2.0}


def _ulp32(v: float) -> float:
    f = np.float32(abs(v))
    return float(np.nextafter(f, np.float32(np.inf)) - f)


@SETTINGS
@given(
    sc=st.lists(st.floats(-PI32, PI32, width=32), min_size=1, max_size=8),
    lg=st.lists(st.floats(0.5, 2.0, width=32, exclude_max=True), min_size=1, max_size=8),
    pos=st.lists(st.floats(2**-120, 2**120, width=32), min_size=1, max_size=8),
    ex=st.lists(st.floats(-120, 120, width=32), min_size=1, max_size=8),
)
def test_mufu_within_documented_bounds(sc: list[float], lg: list[float], pos: list[float], ex: list[float]) -> None:
    def run(func: str, xs: list[float]) -> list[float]:
        return [float(v) for v in arith.mufu(func, np.array(xs, dtype=np.float32).view(np.uint32)).view(np.float32)]

    for got, x in zip(run("SIN", sc), sc, strict=True):
        assert abs(got - math.sin(x)) <= BOUNDS["SIN"]
    for got, x in zip(run("COS", sc), sc, strict=True):
        assert abs(got - math.cos(x)) <= BOUNDS["COS"]
    for got, x in zip(run("LG2", lg), lg, strict=True):
        assert abs(got - math.log2(x)) <= BOUNDS["LG2"]
    for got, x in zip(run("RCP", pos), pos, strict=True):
        assert abs(got - 1 / x) <= BOUNDS["RCP"] * _ulp32(1 / x)
    for got, x in zip(run("RSQ", pos), pos, strict=True):
        assert abs(got - 1 / math.sqrt(x)) <= BOUNDS["RSQ"] / math.sqrt(x)
    for got, x in zip(run("EX2", ex), ex, strict=True):
        assert abs(got - 2.0**x) <= BOUNDS["EX2"] * _ulp32(2.0**x)


def test_mufu_special_values_and_rro() -> None:
    inf, ninf, nz = 0x7F800000, 0xFF800000, 0x80000000
    assert hexes(arith.mufu("RCP", [0, nz, inf])) == ["0x7f800000", "0xff800000", "0x0"]
    assert hexes(arith.mufu("RSQ", [0, nz, 0xBF800000])) == ["0x7f800000", "0xff800000", "0x7fffffff"]
    assert hexes(arith.mufu("LG2", [0, 0xBF800000, inf])) == ["0xff800000", "0x7fffffff", "0x7f800000"]
    assert hexes(arith.mufu("EX2", [ninf, inf, 0])) == ["0x0", "0x7f800000", "0x3f800000"]
    assert hexes(arith.mufu("SIN", [inf])) == ["0x7fffffff"]
    # 1/2.0 is 0.5 = 0x3fe0000000000000: the high word of the FP64 result.
    assert hexes(arith.mufu("RCP64H", [0x40000000])) == ["0x3fe00000"]
    assert hexes(arith.mufu("RSQ64H", [0x40100000])) == ["0x3fe00000"]  # 1/sqrt(4) = 0.5
    assert hexes(arith.rro("SINCOS", [0x40490FDB])) == ["0x40490fdb"]


# ---------------------------------------------------------------------------------------------
# Integer helpers against the PTX ISA manual's pseudo-code

u32s = st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]))
ints = st.lists(u32s, min_size=1, max_size=6)


def _bit(v: int, i: int) -> int:
    return (v >> i) & 1


def _s32(v: int) -> int:
    return int(np.uint32(v).view(np.int32))


@SETTINGS
@given(a=u32s, b=u32s, sa=st.booleans(), sb=st.booleans(), hi=st.booleans())
def test_imul(a: int, b: int, sa: bool, sb: bool, hi: bool) -> None:
    p = (_s32(a) if sa else a) * (_s32(b) if sb else b)
    want = (p >> 32) % 2**32 if hi else p % 2**32
    assert arith.imul([a], [b], sa, sb, hi).tolist() == [want]


def _ptx_bfe(a: int, pos: int, length: int, signed: bool) -> int:
    msb = 31
    sbit = 0 if not signed or length == 0 else _bit(a, min(pos + length - 1, msb))
    return sum((_bit(a, pos + i) if i < length and pos + i <= msb else sbit) << i for i in range(msb + 1))


@SETTINGS
@given(a=u32s, pos=st.integers(0, 40), length=st.integers(0, 40), junk=st.integers(0, 0xFFFF), signed=st.booleans(), brev=st.booleans())
def test_bfe(a: int, pos: int, length: int, junk: int, signed: bool, brev: bool) -> None:
    src = int(bin(a)[2:].zfill(32)[::-1], 2) if brev else a
    assert arith.bfe([a], [pos | length << 8 | junk << 16], signed, brev).tolist() == [_ptx_bfe(src, pos, length, signed)]


@SETTINGS
@given(a=u32s, b=u32s, pos=st.integers(0, 40), length=st.integers(0, 40))
def test_bfi(a: int, b: int, pos: int, length: int) -> None:
    f = [_bit(b, i) for i in range(32)]
    for i in range(length):
        if pos + i <= 31:
            f[pos + i] = _bit(a, i)
    assert arith.bfi([a], [pos | length << 8], [b]).tolist() == [sum(v << i for i, v in enumerate(f))]


# PTX prmt, as the manual prints it: for each sel[1:0] the source bytes of d.b3 d.b2 d.b1 d.b0.
PTX_PRMT = {
    "F4E": ["3210", "4321", "5432", "6543"],
    "B4E": ["5670", "6701", "7012", "0123"],
    "RC8": ["0000", "1111", "2222", "3333"],
    "ECL": ["3210", "3211", "3222", "3333"],
    "ECR": ["0000", "1110", "2210", "3210"],
    "RC16": ["1010", "3232", "1010", "3232"],
}


@pytest.mark.parametrize("mode", ["", *PTX_PRMT])
@SETTINGS
@given(a=u32s, b=u32s, sel=u32s)
def test_prmt(mode: str, a: int, b: int, sel: int) -> None:
    pool = list(a.to_bytes(4, "little") + b.to_bytes(4, "little"))
    if mode:
        picks = [pool[int(ch)] for ch in reversed(PTX_PRMT[mode][sel & 3])]
    else:
        picks = []
        for i in range(4):
            nib = (sel >> (4 * i)) & 0xF
            byte = pool[nib & 7]
            picks.append((0xFF if byte >= 0x80 else 0) if nib >= 8 else byte)
    assert arith.prmt([a], [b], [sel], mode).tolist() == [int.from_bytes(bytes(picks), "little")]


@SETTINGS
@given(xs=ints, signed=st.booleans(), sh=st.booleans())
def test_popc_and_flo(xs: list[int], signed: bool, sh: bool) -> None:
    assert arith.popc(xs).tolist() == [bin(x).count("1") for x in xs]
    want = []
    for x in xs:
        v = ~x % 2**32 if signed and _bit(x, 31) else x
        pos = next((i for i in range(31, -1, -1) if _bit(v, i)), None)
        want.append(0xFFFFFFFF if pos is None else (31 - pos if sh else pos))
    assert arith.flo(xs, signed, sh).tolist() == want


@SETTINGS
@given(a=ints, b=ints, c=ints, signed=st.booleans())
def test_isad(a: list[int], b: list[int], c: list[int], signed: bool) -> None:
    n = min(len(a), len(b), len(c))
    a, b, c = a[:n], b[:n], c[:n]
    cast = np.int32 if signed else np.uint32
    d = np.abs(np.array(a, dtype=np.uint32).view(cast).astype(np.int64) - np.array(b, dtype=np.uint32).view(cast).astype(np.int64))
    assert arith.isad(a, b, c, signed).tolist() == ((d + np.array(c, dtype=np.int64)) % 2**32).tolist()


@SETTINGS
@given(x=u32s, n=st.one_of(st.integers(0, 40), u32s), signed=st.booleans(), wrap=st.booleans())
def test_shifts(x: int, n: int, signed: bool, wrap: bool) -> None:
    k = n % 32 if wrap else min(n, 32)
    left, right = x, x
    for _ in range(k):  # one place at a time, as the PTX text describes the clamped shift
        left = (left << 1) % 2**32
        right = (right >> 1) | (0x80000000 if signed and _bit(x, 31) else 0)
    assert arith.shl([x], [n], wrap).tolist() == [left]
    assert arith.shr([x], [n], signed, wrap).tolist() == [right]


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: arith.fadd([0], [0], "RNE"), "'RNE'"),
        (lambda: arith.fcmp("LTE", [0], [0]), "'LTE'"),
        (lambda: arith.f2i([0], "F32", "S24"), "'S24'"),
        (lambda: arith.f2f([0], "F8", "F32"), "'F8'"),
        (lambda: arith.mufu("TANH", [0]), "'TANH'"),
        (lambda: arith.rro("LG2", [0]), "'LG2'"),
        (lambda: arith.prmt([0], [0], [0], "XYZ"), "'XYZ'"),
    ],
)
def test_unknown_names_are_one_clear_error(call: object, named: str) -> None:
    with pytest.raises(ValueError, match=named) as err:
        call()  # type: ignore[operator]
    assert "\n" not in str(err.value)
