"""IEEE-754 binary formats and the one exact rounding routine every directed or fused path uses.

A value is handled as a Python integer bit pattern; its real value as a `fractions.Fraction`. The
vectorised round-to-nearest paths use numpy's float32/float64 instead, so this module is only the
slow, exact half of the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

# cuobjdump prints the integral-rounding modes of F2F/F2I as ROUND FLOOR CEIL TRUNC; PTX spells the
# same IEEE directions .rni/.rmi/.rpi/.rzi (and .rn/.rm/.rp/.rz for a precision change).
RND_ALIASES = {"RN": "RN", "RM": "RM", "RP": "RP", "RZ": "RZ", "ROUND": "RN", "FLOOR": "RM", "CEIL": "RP", "TRUNC": "RZ"}


def rounding(rnd: str) -> str:
    """The IEEE direction (RN RM RP RZ) a mode name stands for."""
    try:
        return RND_ALIASES[rnd]
    except KeyError:
        raise ValueError(f"rounding mode {rnd!r} is not one of {', '.join(RND_ALIASES)}") from None


@dataclass(frozen=True)
class Format:
    """A binary interchange format: `ebits` exponent bits, `mbits` stored fraction bits.

    `nan` is the NaN the unit writes for an invalid operation or a NaN operand. The PTX ISA manual
    (section "Floating-Point Instructions") says FP32 NaN results are the canonical NaN 0x7fffffff.
    It states no FP64 or FP16 pattern; the model uses the same all-ones-below-the-sign pattern, a
    choice to revisit if a listing or a measurement ever shows otherwise.
    """

    name: str
    ebits: int
    mbits: int
    nan: int
    dtype: type

    @property
    def width(self) -> int:
        return 1 + self.ebits + self.mbits

    @property
    def sign(self) -> int:
        return 1 << (self.width - 1)

    @property
    def inf(self) -> int:
        return ((1 << self.ebits) - 1) << self.mbits

    @property
    def emin(self) -> int:
        """The exponent of the smallest normal number."""
        return 2 - (1 << (self.ebits - 1))

    @property
    def emax(self) -> int:
        return (1 << (self.ebits - 1)) - 1

    @property
    def one(self) -> int:
        return ((1 << (self.ebits - 1)) - 1) << self.mbits


F16 = Format("F16", 5, 10, 0x7FFF, np.float16)
F32 = Format("F32", 8, 23, 0x7FFFFFFF, np.float32)
F64 = Format("F64", 11, 52, 0x7FFFFFFFFFFFFFFF, np.float64)
FORMATS = {f.name: f for f in (F16, F32, F64)}


def is_nan(bits: int, fmt: Format) -> bool:
    return bits & ~fmt.sign > fmt.inf


def is_subnormal(bits: int, fmt: Format) -> bool:
    return 0 < bits & ~fmt.sign < 1 << fmt.mbits


def flush(bits: int, fmt: Format) -> int:
    """.FTZ on one operand: a subnormal becomes the zero of its sign."""
    return bits & fmt.sign if is_subnormal(bits, fmt) else bits


def value(bits: int, fmt: Format) -> Fraction:
    """The exact value of a finite pattern (a zero of either sign is 0)."""
    mag = bits & ~fmt.sign
    exp, frac = mag >> fmt.mbits, mag & ((1 << fmt.mbits) - 1)
    sig = frac | (1 << fmt.mbits) if exp else frac
    scaled = Fraction(sig) * Fraction(2) ** (max(exp, 1) - fmt.emax - fmt.mbits)
    return -scaled if bits & fmt.sign else scaled


def _floor_log2(q: Fraction) -> int:
    e = q.numerator.bit_length() - q.denominator.bit_length()
    return e if Fraction(2) ** e <= q else e - 1


def _overflow(negative: bool, fmt: Format, rnd: str) -> int:
    # IEEE 754 section 7.4: the directions that move away from this sign stop at the largest finite.
    toward_zero = rnd == "RZ" or (rnd == "RM" and not negative) or (rnd == "RP" and negative)
    mag = fmt.inf - 1 if toward_zero else fmt.inf
    return mag | (fmt.sign if negative else 0)


def round_exact(q: Fraction, fmt: Format, rnd: str, ftz: bool = False, zero_negative: bool = False) -> int:
    """`q` rounded to `fmt` in direction `rnd` (RN RM RP RZ), as a bit pattern.

    A zero `q` gives the zero whose sign is `zero_negative` (the caller knows IEEE's sign rule for
    its operation). Under `ftz` the significand is rounded with an unbounded exponent and a result
    below the smallest normal becomes a signed zero: that is IEEE's "tininess after rounding",
    the rule measured on the G80 (reference FP_SFU.md) and kept for Fermi's .FTZ.
    """
    negative = q < 0 if q else zero_negative
    sign = fmt.sign if negative else 0
    if not q:
        return sign
    mag = abs(q)
    e = _floor_log2(mag)
    step = e - fmt.mbits if ftz else max(e, fmt.emin) - fmt.mbits
    num, den = mag.numerator, mag.denominator
    if step >= 0:
        den <<= step
    else:
        num <<= -step
    m, r = divmod(num, den)
    if r:
        tie_up = 2 * r > den or (2 * r == den and m & 1)
        away = {"RN": tie_up, "RZ": False, "RM": negative, "RP": not negative}[rnd]
        m += bool(away)
    if m >> (fmt.mbits + 1):  # the carry of a round-up: one more bit, exactly a power of two
        m >>= 1
        step += 1
    if m >> fmt.mbits == 0:  # subnormal (only reached without ftz) or zero
        return sign | m
    exp = step + fmt.mbits
    if exp < fmt.emin:
        return sign
    if exp > fmt.emax:
        return _overflow(negative, fmt, rnd)
    return sign | ((exp - fmt.emin + 1) << fmt.mbits) | (m - (1 << fmt.mbits))
