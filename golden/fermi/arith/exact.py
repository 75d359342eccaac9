"""Exact, one-lane IEEE add, multiply and fused multiply-add over bit patterns.

Each result is the exact rational result rounded once (formats.round_exact), with IEEE 754's rules
for the special operands (section 6: NaN in, NaN out; inf - inf, 0 * inf are invalid) and for the
sign of an exact zero (section 6.3: x + (-x) is +0 except under round-down, where it is -0).
"""

from __future__ import annotations

from fractions import Fraction

from golden.fermi.arith.formats import Format, flush, is_nan, round_exact, value


def _zero_sign(neg_a: bool, neg_b: bool, rnd: str) -> bool:
    """The sign of an exact zero sum of two terms with these signs (IEEE 754 section 6.3)."""
    return neg_a if neg_a == neg_b else rnd == "RM"


def _is_inf(bits: int, fmt: Format) -> bool:
    return bits & ~fmt.sign == fmt.inf


def _neg(bits: int, fmt: Format) -> bool:
    return bool(bits & fmt.sign)


def add(a: int, b: int, fmt: Format, rnd: str, ftz: bool = False) -> int:
    if ftz:
        a, b = flush(a, fmt), flush(b, fmt)
    if is_nan(a, fmt) or is_nan(b, fmt):
        return fmt.nan
    if _is_inf(a, fmt) or _is_inf(b, fmt):
        if _is_inf(a, fmt) and _is_inf(b, fmt) and a != b:
            return fmt.nan
        return a if _is_inf(a, fmt) else b
    zneg = _zero_sign(_neg(a, fmt), _neg(b, fmt), rnd)
    return round_exact(value(a, fmt) + value(b, fmt), fmt, rnd, ftz, zneg)


def _product(a: int, b: int, fmt: Format, fmz: bool) -> tuple[str, bool, Fraction]:
    """The exact product as (kind, negative, value); kind is "nan", "inf" or "fin".

    Under .FMZ a zero factor makes the product zero whatever the other factor is, Inf and NaN
    included (the Direct3D 9 rule the modifier exists for); the zero keeps the XOR sign.
    """
    neg = _neg(a, fmt) != _neg(b, fmt)
    zero = not a & ~fmt.sign or not b & ~fmt.sign
    if fmz and zero:
        return "fin", neg, Fraction(0)
    if is_nan(a, fmt) or is_nan(b, fmt):
        return "nan", False, Fraction(0)
    if _is_inf(a, fmt) or _is_inf(b, fmt):
        return ("nan", False, Fraction(0)) if zero else ("inf", neg, Fraction(0))
    return "fin", neg, value(a, fmt) * value(b, fmt)


def mul(a: int, b: int, fmt: Format, rnd: str, ftz: bool = False, fmz: bool = False) -> int:
    if ftz:
        a, b = flush(a, fmt), flush(b, fmt)
    kind, neg, p = _product(a, b, fmt, fmz)
    if kind == "nan":
        return fmt.nan
    if kind == "inf":
        return fmt.inf | (fmt.sign if neg else 0)
    return round_exact(p, fmt, rnd, ftz, neg)


def fma(a: int, b: int, c: int, fmt: Format, rnd: str, ftz: bool = False, fmz: bool = False) -> int:
    """a * b + c with one rounding."""
    if ftz:
        a, b, c = flush(a, fmt), flush(b, fmt), flush(c, fmt)
    kind, neg, p = _product(a, b, fmt, fmz)
    if kind == "nan" or is_nan(c, fmt):
        return fmt.nan
    if kind == "inf":
        if _is_inf(c, fmt) and _neg(c, fmt) != neg:
            return fmt.nan
        return fmt.inf | (fmt.sign if neg else 0)
    if _is_inf(c, fmt):
        return c
    zneg = _zero_sign(neg, _neg(c, fmt), rnd)
    return round_exact(p + value(c, fmt), fmt, rnd, ftz, zneg)
