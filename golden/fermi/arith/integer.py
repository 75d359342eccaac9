"""Integer kernels several instructions share: IMUL, BFE, BFI, PRMT, POPC, FLO, ISAD, SHL, SHR.

Each follows the PTX ISA manual's definition of the matching instruction (mul.lo/.hi, bfe, bfi, prmt,
popc, bfind, sad, shl, shr). Operands are 32-bit lanes (uint32); flags may be Python bools or bool
arrays, one per lane.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from golden.fermi.arith.lanes import Bits, bits, lanewise

M32 = 0xFFFFFFFF


def _signed(v: int, is_signed: int) -> int:
    return v - (1 << 32) if is_signed and v >> 31 else v


def _flags(f: npt.ArrayLike) -> np.ndarray:
    return np.asarray(f, dtype=bool).astype(np.uint32)


def imul(a: npt.ArrayLike, b: npt.ArrayLike, signed_a: npt.ArrayLike, signed_b: npt.ArrayLike, hi: bool) -> Bits:
    """The low or high 32 bits of the 64-bit product; each factor signed or unsigned on its own."""

    def lane(x: int, y: int, sx: int, sy: int) -> int:
        p = _signed(x, sx) * _signed(y, sy)
        return (p >> 32 if hi else p) & M32

    return lanewise(lane, np.uint32, bits(a, 32), bits(b, 32), _flags(signed_a), _flags(signed_b))


def _reverse(x: int) -> int:
    return int(f"{x:032b}"[::-1], 2)


def bfe(x: npt.ArrayLike, pos_len: npt.ArrayLike, signed: bool, brev: bool = False) -> Bits:
    """Extract `len` bits at `pos` (pos in bits 0-7 of pos_len, len in bits 8-15), PTX bfe.

    Bits past bit 31 read as the sign bit (the top extracted bit when signed, else 0); a zero length
    gives 0. .BREV reverses the source's 32 bits before the extraction (the model's reading of
    envytools' `rev` flag on `ext`).
    """

    def lane(v: int, pl: int) -> int:
        v = _reverse(v) if brev else v
        pos, length = pl & 0xFF, (pl >> 8) & 0xFF
        real = min(length, max(0, 32 - pos))  # bits that come from the source
        field = (v >> pos) & ((1 << real) - 1) if real else 0
        if signed and length and (v >> min(pos + length - 1, 31)) & 1:
            field |= M32 ^ ((1 << real) - 1)
        return field

    return lanewise(lane, np.uint32, bits(x, 32), bits(pos_len, 32))


def bfi(x: npt.ArrayLike, pos_len: npt.ArrayLike, base: npt.ArrayLike) -> Bits:
    """Insert the low `len` bits of x into `base` at `pos` (PTX bfi); bits past 31 are dropped."""

    def lane(v: int, pl: int, b: int) -> int:
        pos, length = pl & 0xFF, (pl >> 8) & 0xFF
        real = min(length, max(0, 32 - pos))
        mask = ((1 << real) - 1) << pos if real else 0
        return (b & ~mask & M32) | ((v << pos) & mask)

    return lanewise(lane, np.uint32, bits(x, 32), bits(pos_len, 32), bits(base, 32))


# PTX prmt's byte-selection table for the modes that take only sel[1:0]: for each value of sel[1:0]
# the source byte of result bytes 0, 1, 2, 3 (bytes 0-3 are a's, 4-7 b's).
_PRMT_MODES = {
    "F4E": ((0, 1, 2, 3), (1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
    "B4E": ((0, 7, 6, 5), (1, 0, 7, 6), (2, 1, 0, 7), (3, 2, 1, 0)),
    "RC8": ((0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)),
    "ECL": ((0, 1, 2, 3), (1, 1, 2, 3), (2, 2, 2, 3), (3, 3, 3, 3)),
    "ECR": ((0, 0, 0, 0), (0, 1, 1, 1), (0, 1, 2, 2), (0, 1, 2, 3)),
    "RC16": ((0, 1, 0, 1), (2, 3, 2, 3), (0, 1, 0, 1), (2, 3, 2, 3)),
}


def prmt(a: npt.ArrayLike, b: npt.ArrayLike, sel: npt.ArrayLike, mode: str = "") -> Bits:
    """Byte permute of the eight bytes {b, a} (PTX prmt). In the default mode each selector nibble
    picks a byte with its low three bits and, with bit 3 set, replicates that byte's sign bit."""
    if mode and mode not in _PRMT_MODES:
        raise ValueError(f"PRMT mode {mode!r} is not one of default, {', '.join(_PRMT_MODES)}")

    def lane(x: int, y: int, s: int) -> int:
        pool = (y << 32) | x
        out = 0
        for i in range(4):
            if mode:
                byte = (pool >> (8 * _PRMT_MODES[mode][s & 3][i])) & 0xFF
            else:
                nib = (s >> (4 * i)) & 0xF
                byte = (pool >> (8 * (nib & 7))) & 0xFF
                if nib & 8:
                    byte = 0xFF if byte & 0x80 else 0
            out |= byte << (8 * i)
        return out

    return lanewise(lane, np.uint32, bits(a, 32), bits(b, 32), bits(sel, 32))


def popc(x: npt.ArrayLike) -> Bits:
    """The number of set bits."""
    return lanewise(lambda v: v.bit_count(), np.uint32, bits(x, 32))


def flo(x: npt.ArrayLike, signed: bool, shift_amount: bool = False) -> Bits:
    """PTX bfind: the position of the most significant bit that differs from the sign (the most
    significant 1 when unsigned), 0xffffffff when there is none; .SH (shift_amount) gives 31 - pos."""

    def lane(v: int) -> int:
        if signed and v >> 31:
            v ^= M32
        if not v:
            return M32
        pos = v.bit_length() - 1
        return 31 - pos if shift_amount else pos

    return lanewise(lane, np.uint32, bits(x, 32))


def isad(a: npt.ArrayLike, b: npt.ArrayLike, c: npt.ArrayLike, signed: bool) -> Bits:
    """abs(a - b) + c modulo 2^32 (PTX sad)."""

    def lane(x: int, y: int, z: int) -> int:
        return (abs(_signed(x, signed) - _signed(y, signed)) + z) & M32

    return lanewise(lane, np.uint32, bits(a, 32), bits(b, 32), bits(c, 32))


def shl(x: npt.ArrayLike, n: npt.ArrayLike, wrap: bool) -> Bits:
    """x << n. The amount (unsigned) clamps at 32, giving 0, as PTX shl says; .W takes it mod 32."""

    def lane(v: int, k: int) -> int:
        k = k & 31 if wrap else min(k, 32)
        return (v << k) & M32

    return lanewise(lane, np.uint32, bits(x, 32), bits(n, 32))


def shr(x: npt.ArrayLike, n: npt.ArrayLike, signed: bool, wrap: bool) -> Bits:
    """x >> n, arithmetic when signed. Amounts clamp at 32 (all sign bits, PTX shr) unless .W."""

    def lane(v: int, k: int) -> int:
        k = k & 31 if wrap else min(k, 32)
        return (_signed(v, signed) >> k) & M32

    return lanewise(lane, np.uint32, bits(x, 32), bits(n, 32))
