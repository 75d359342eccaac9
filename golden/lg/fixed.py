"""Number formats of the LG model: Q8.7 registers, the float immediate formats, Q15.16 graphics.

Q8.7 (the seed's "1.8.7"): a 16-bit two's-complement integer read as value / 128, so 1.0 = 0x0080,
-1.5 = 0xFF40 and 255.0 = 0x7F80 (LG.md, "Semantics of the TA simulator"; the TA's
FIXED_TO_FLOAT187 reads the same bits). The graphics keep Q15.16 (int32 with 16 fraction bits):
a Q8.7 value becomes Q15.16 by `<< 9`.
"""

from __future__ import annotations

import math
import struct

MASK16 = 0xFFFF
MASK32 = 0xFFFFFFFF
ONE_Q87 = 1 << 7
ONE_Q16 = 1 << 16


def s16(v: int) -> int:
    """The low 16 bits of v as a signed value."""
    v &= MASK16
    return v - 0x10000 if v & 0x8000 else v


def s32(v: int) -> int:
    """The low 32 bits of v as a signed value (the graphics' int32 wrap)."""
    v &= MASK32
    return v - 0x100000000 if v & 0x80000000 else v


def to_q87(x: float) -> int:
    """A real value as Q8.7 bits: trunc(x * 128), saturated to the int16 range (NaN: 0).

    Truncation is what the course assembler does (LG.md: trunc(x*128) & 0xFFFF); saturation only
    matters for a value no Q8.7 register can hold, which the assembler would have wrapped."""
    if math.isnan(x):
        return 0
    y = x * ONE_Q87
    if y >= 0x7FFF:
        return 0x7FFF
    if y <= -0x8000:
        return 0x8000
    return int(y) & MASK16


def q87_value(bits: int) -> float:
    """Q8.7 bits as a float (exact: every Q8.7 value is a binary fraction)."""
    return s16(bits) / ONE_Q87


def imm_value(bits: int, fmt: str) -> float:
    """The real value of a 16-bit float immediate in format `fmt` (the profile's float_imm)."""
    if fmt == "q8_7":
        return s16(bits) / ONE_Q87
    if fmt == "q11_4":
        return s16(bits) / 16
    return float(struct.unpack("<e", (bits & MASK16).to_bytes(2, "little"))[0])


def imm_q87(bits: int, fmt: str) -> int:
    """A float immediate as Q8.7 bits for fixed arithmetic (unchanged when it already is Q8.7)."""
    if fmt == "q8_7":
        return bits & MASK16
    return to_q87(imm_value(bits, fmt))
