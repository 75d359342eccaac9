"""Bit fields of a G80 instruction word.

An instruction is handled as one integer: bits 0-31 are word0 (first in memory), bits 32-63
word1. A field is one or more contiguous pieces of that integer; its value is the pieces
concatenated, the first piece giving the low bits (the branch target, for example, is
w0[26:11] low and w1[19:14] high).
"""

from __future__ import annotations

from dataclasses import dataclass


def w1(bit: int) -> int:
    """Position in the 64-bit instruction of bit `bit` of word1."""
    return 32 + bit


@dataclass(frozen=True)
class BitField:
    name: str
    pieces: tuple[tuple[int, int], ...]  # (lsb, width), low-order piece first
    signed: bool = False

    @property
    def width(self) -> int:
        return sum(w for _, w in self.pieces)

    @property
    def mask(self) -> int:
        m = 0
        for lsb, width in self.pieces:
            m |= ((1 << width) - 1) << lsb
        return m

    @property
    def max_value(self) -> int:
        return (1 << self.width) - 1

    def extract(self, word: int) -> int:
        value = 0
        shift = 0
        for lsb, width in self.pieces:
            value |= ((word >> lsb) & ((1 << width) - 1)) << shift
            shift += width
        if self.signed and value >> (self.width - 1):
            value -= 1 << self.width
        return value

    def insert(self, word: int, value: int) -> int:
        if self.signed:
            lo, hi = -(1 << (self.width - 1)), (1 << (self.width - 1)) - 1
            if not lo <= value <= hi:
                raise ValueError(f"{self.name}: {value} does not fit in {self.width} signed bits")
            value &= self.max_value
        elif not 0 <= value <= self.max_value:
            raise ValueError(f"{self.name}: {value:#x} does not fit in {self.width} bits")
        for lsb, width in self.pieces:
            word = (word & ~(((1 << width) - 1) << lsb)) | ((value & ((1 << width) - 1)) << lsb)
            value >>= width
        return word

    def bit_ranges(self) -> str:
        """Human-readable positions, in the w0/w1 notation of ../shared/reference/ISA.md."""
        parts = []
        for lsb, width in self.pieces:
            word, base = ("w1", lsb - 32) if lsb >= 32 else ("w0", lsb)
            hi = base + width - 1
            parts.append(f"{word}[{hi}:{base}]" if width > 1 else f"{word}[{base}]")
        return " | ".join(parts)


def field(name: str, *pieces: tuple[int, int], signed: bool = False) -> BitField:
    return BitField(name, tuple(pieces), signed)


def bits_to_str(mask: int) -> str:
    """List the set bits of a 64-bit mask as w0[..]/w1[..] positions."""
    out = []
    bit = 0
    while mask >> bit:
        if (mask >> bit) & 1:
            start = bit
            while (mask >> (bit + 1)) & 1 and (bit + 1) != 32:
                bit += 1
            word, base = ("w1", 32) if start >= 32 else ("w0", 0)
            lo, hi = start - base, bit - base
            out.append(f"{word}[{hi}:{lo}]" if hi != lo else f"{word}[{lo}]")
        bit += 1
    return ", ".join(out)
