"""Conversions F2F, F2I, I2F, I2I, with PTX cvt's semantics.

Every conversion is exact and lane by lane: the source value is taken as a Fraction or a Python
integer and rounded or clamped once. Register conventions: an F16 value sits in the low 16 bits of
a 32-bit lane; an 8- or 16-bit integer result is sign- or zero-extended to 32 bits by its type (PTX
cvt writes a full register); 64-bit values travel in uint64 lanes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from golden.fermi.arith.formats import F32, FORMATS, Format, flush, is_nan, round_exact, rounding, value
from golden.fermi.arith.lanes import UDTYPE, Bits, bits, lanewise

INTS = {"U8": (8, False), "S8": (8, True), "U16": (16, False), "S16": (16, True), "U32": (32, False), "S32": (32, True), "U64": (64, False), "S64": (64, True)}
_INTEGRAL = ("ROUND", "FLOOR", "CEIL", "TRUNC")


def _fmt(name: str) -> Format:
    if name not in FORMATS:
        raise ValueError(f"float type {name!r} is not one of {', '.join(FORMATS)}")
    return FORMATS[name]


def _int(name: str) -> tuple[int, bool]:
    if name not in INTS:
        raise ValueError(f"integer type {name!r} is not one of {', '.join(INTS)}")
    return INTS[name]


def _to_integer(q: Fraction, rnd: str) -> int:
    """q rounded to an integer in an IEEE direction (RN is ties-to-even, as Python's round)."""
    return {"RN": round, "RM": math.floor, "RP": math.ceil, "RZ": math.trunc}[rnd](q)


def _register(v: int, width: int, signed: bool) -> int:
    """An integer result as the register holds it: 64-bit types in 64 bits, the rest in 32."""
    reg = 64 if width == 64 else 32
    v &= (1 << width) - 1
    if signed and v >> (width - 1):
        v -= 1 << width
    return v & ((1 << reg) - 1)


def _is_inf(x: int, fmt: Format) -> bool:
    return x & ~fmt.sign == fmt.inf


def _f2f_lane(x: int, src: Format, dst: Format, rnd: str, integral: bool, ftz: bool) -> int:
    if ftz and src is F32:
        x = flush(x, src)
    if is_nan(x, src):
        return dst.nan
    neg = bool(x & src.sign)
    if _is_inf(x, src):
        return dst.inf | (dst.sign if neg else 0)
    q = value(x, src)
    if integral:
        q = Fraction(_to_integer(q, rnd))
    return round_exact(q, dst, rnd, ftz and dst is F32, neg)


def _saturate_lane(r: int, fmt: Format) -> int:
    if is_nan(r, fmt) or r & fmt.sign:
        return 0
    return min(r, fmt.one)


def f2f(x: npt.ArrayLike, src: str, dst: str, rnd: str = "RN", ftz: bool = False, sat: bool = False) -> Bits:
    """Float to float. RN RM RP RZ round to `dst`'s precision; ROUND FLOOR CEIL TRUNC first round
    to an integral value (PTX cvt .rni .rmi .rpi .rzi), then to `dst` in the same direction.

    A NaN becomes `dst`'s canonical NaN; .FTZ acts on the FP32 side only (PTX: .ftz applies to
    .f32 operands); .SAT clamps to [+0, 1] with NaN -> +0.
    """
    s, d = _fmt(src), _fmt(dst)
    ieee = rounding(rnd)

    def lane(v: int) -> int:
        r = _f2f_lane(v, s, d, ieee, rnd in _INTEGRAL, ftz)
        return _saturate_lane(r, d) if sat else r

    return lanewise(lane, UDTYPE[d.width], bits(x, s.width))


def f2i(x: npt.ArrayLike, src: str, dst: str, rnd: str = "RN", ftz: bool = False) -> Bits:
    """Float to integer, rounded in `rnd` and saturated to `dst`'s range; NaN gives 0 (PTX cvt)."""
    s, (width, signed) = _fmt(src), _int(dst)
    ieee = rounding(rnd)
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)

    def lane(v: int) -> int:
        if ftz and s is F32:
            v = flush(v, s)
        if is_nan(v, s):
            return 0
        if _is_inf(v, s):
            n = lo if v & s.sign else hi
        else:
            n = min(max(_to_integer(value(v, s), ieee), lo), hi)
        return _register(n, width, signed)

    return lanewise(lane, np.uint64 if width == 64 else np.uint32, bits(x, s.width))


def _int_value(v: int, width: int, signed: bool) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if signed and v >> (width - 1) else v


def i2f(x: npt.ArrayLike, src: str, dst: str, rnd: str = "RN") -> Bits:
    """Integer (the low `src` bits of each lane) to float, rounded once; zero gives +0."""
    (width, signed), d = _int(src), _fmt(dst)
    ieee = rounding(rnd)

    def lane(v: int) -> int:
        return round_exact(Fraction(_int_value(v, width, signed)), d, ieee)

    return lanewise(lane, UDTYPE[d.width], bits(x, 64))


def i2i(x: npt.ArrayLike, src: str, dst: str, sat: bool = False) -> Bits:
    """Integer to integer: extend by `src`'s signedness, then clamp (.SAT) or wrap to `dst`."""
    (sw, ss), (dw, ds) = _int(src), _int(dst)
    lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if ds else (0, (1 << dw) - 1)

    def lane(v: int) -> int:
        n = _int_value(v, sw, ss)
        return _register(min(max(n, lo), hi) if sat else n, dw, ds)

    return lanewise(lane, np.uint64 if dw == 64 else np.uint32, bits(x, 64))
