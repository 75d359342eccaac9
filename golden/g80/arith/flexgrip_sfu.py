"""FlexGripPlus 4.4's SFU (`Execution/SFU/sfu.vhd`), bit-exact: RCP, RSQ, LG2, EX2, SIN, COS.

The `flexgrip` profile's special functions. FlexGripPlus evaluates each by quadratic interpolation,
C0 + C1*X2 + C2*X2^2, with coefficients from its own ROM (generated into flexgrip_sfu_rom.py by
scripts/gen_flexgrip_sfu_rom.py) addressed by the top 7 mantissa bits, summed by a Booth / 4:2
carry-save tree whose truncations and sign-extension constants shape the last bits; then
normalises, rounds (its own rule) and fixes the exponent per function, and patches special inputs.
The unit is combinational, so every function here is a pure function of the 32-bit source;
`tests/test_flexgrip_sfu.py` checks them against the VHDL under GHDL.

SIN/COS and EX2 take the output of FlexGripPlus's RRO (flexgrip_rro.py), not a float.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .flexgrip_sfu_rom import ROM

U32 = npt.NDArray[np.uint32]

# sfu.vhd's selop (pipeline_execute: SIN 000, COS 001, RSQ 010, LG2 011, EX2 100, RCP 101)
SIN, COS, RSQ, LG2, EX2, RCP, SQRT = 0, 1, 2, 3, 4, 5, 6
HALF_PI = 0xC90FDB  # pi/2 in the SIN/COS input's fixed point


def _mask(bits: int) -> int:
    return (1 << bits) - 1


def _bit(x: int, n: int) -> int:
    return (x >> n) & 1


def _s9(x: int) -> int:
    x &= 0x1FF
    return x - 0x200 if x & 0x100 else x


# ---------------------------------------------------------------------------------------------
# the quadratic interpolator


def booth_pp(x0: int, x1: int, x2: int, data: int, width: int) -> tuple[int, int]:
    """Booth_PP: one radix-4 partial product of a sign-magnitude `data` (sign in bit width-1), with
    its top bit inverted (the tree adds the sign-extension constants); and the +1 it leaves to the
    carry-adjust row when the product is negative."""
    sign_booth = x2 & ((1 - x1) | (1 - x0))
    two_m = (x2 & (1 - x1) & (1 - x0)) | ((1 - x2) & x1 & x0)
    nonzero = (x2 | x1 | x0) & ((1 - x2) | (1 - x1) | (1 - x0))
    sign = sign_booth ^ _bit(data, width - 1)
    mag = data & _mask(width - 1)
    shifted = (mag << 1) & _mask(width) if two_m else mag
    comp = shifted ^ (_mask(width) if sign else 0)
    tmp = comp if nonzero else 0
    return tmp ^ (1 << (width - 1)), sign & nonzero


def csa_row(x1: int, x2: int, x3: int, x4: int, lo: int, hi: int) -> tuple[int, int]:
    """A chain of CSA_4_2 cells at bit positions lo..hi: (sum bits lo..hi, carry bits lo+1..hi+1).

    A cell's `co` depends only on X2..X4 (the majority), so the chain needs no rippling: the carry
    into cell p is the majority of cell p - 1 (0 into cell lo, and the last cell's is dropped)."""
    m = _mask(hi + 1) & ~_mask(lo)
    x1, x2, x3, x4 = x1 & m, x2 & m, x3 & m, x4 & m
    co = (x3 & x4) | (x2 & x4) | (x2 & x3)
    ci = (co << 1) & m
    sx3 = x1 ^ x2 ^ x3 ^ x4
    carry = ((sx3 & ci) | (~sx3 & x1)) & m
    return (sx3 ^ ci) & m, carry << 1


def fused_accum_tree(c0: int, c1: int, c2: int, x2x2: int, x2: int) -> int:
    """fused_accum_tree: C0 + C1*X2 + C2*X2X2 through its partial products and 4:2 compressors (43 bits)."""
    x2_adj = x2 << 1  # '0' & X2 & '0'
    c1_adj = (_bit(c1, 19) << 20) | (c1 & _mask(19))
    pp1, adj1 = [], 0
    for i in range(9):
        d, a = booth_pp(_bit(x2_adj, 2 * i), _bit(x2_adj, 2 * i + 1), _bit(x2_adj, 2 * i + 2), c1_adj, 21)
        pp1.append(d << (2 * i))
        adj1 |= a << (2 * i)
    for i, b in ((0, 22), (1, 24), (4, 30), (6, 33), (7, 35)):
        pp1[i] |= 1 << b
    pp1[8] |= (_mask(6) << 37) | _bit(c0, 28)
    xs_adj = (x2x2 << 1) & _mask(17)
    c2_adj = (_bit(c2, 13) << 15) | (c2 & _mask(13))
    pp2, adj2 = [], 0
    for i in range(8):
        d, a = booth_pp(_bit(xs_adj, 2 * i), _bit(xs_adj, 2 * i + 1), _bit(xs_adj, 2 * i + 2), c2_adj, 16)
        pp2.append(d << (2 * i))
        adj2 |= a << (2 * i)
    for i, b in ((0, 16), (1, 18), (1, 19), (4, 25), (5, 27)):
        pp2[i] |= 1 << b
    # C2 * X2X2
    s0, k0 = csa_row(pp2[0], pp2[1], pp2[2], pp2[3], 0, 21)
    s1, k1 = csa_row(pp2[4], pp2[5], pp2[6], pp2[7], 8, 29)
    s2, k2 = csa_row(s0, k0, s1, k1, 0, 29)
    # C1 * X2, C0 and the corrections
    t0, j0 = csa_row(pp1[0], pp1[1], pp1[2], pp1[3], 0, 26)
    t1, j1 = csa_row(pp1[4], pp1[5], pp1[6], pp1[7], 8, 35)
    t2, j2 = csa_row(t0, j0, t1, j1, 0, 36)
    carry_adjust = 0
    for i in range(9):
        carry_adjust |= (_bit(adj1, 2 * i) << (2 * i)) | (_bit(adj2, 2 * i) << (2 * i + 1))
    c0_adj = ((c0 & _mask(28)) << 14) ^ (_mask(44) if _bit(c0, 28) else 0)
    t3, j3 = csa_row(pp1[8], c0_adj, carry_adjust, 1 << 16, 0, 42)
    t4, j4 = csa_row(t2, j2, t3, j3, 0, 42)
    t5, j5 = csa_row(t4, j4, s2 << 1, k2 << 1, 0, 42)
    return (t5 + j5) & _mask(43)


_COEFF_SELECT = {(0, 0): 8, (0, 1): 9, (2, 0): 0, (4, 0): 5, (5, 0): 0}


def coeff_select(selop: int, exp_zero: int, exp_odd: int) -> int | None:
    """Quadratic_Interpolator's table choice (ROM selector), None for its "1111" (an undriven ROM output)."""
    if selop in (0, 1):
        return 8 if selop == 0 else 9
    if selop == 2:
        return 3 if exp_odd else 4
    if selop == 3:
        return 7 if exp_zero else 6
    if selop == 4:
        return 5
    if selop == 5:
        return 0
    if selop == 6:
        return 1 if exp_odd else 2
    return None


def quadratic_interpolator(x: int, selop: int) -> int | None:
    """Quadratic_Interpolator: its 43-bit result, None when its ROM output is undriven (U)."""
    exp, mant = (x >> 23) & 0xFF, x & 0x7FFFFF
    exp_zero = int(exp == 127)
    s2, s1, s0 = _bit(selop, 2), _bit(selop, 1), _bit(selop, 0)
    m6 = ((1 - s1) & (1 - s0)) | (1 - (s2 ^ s1)) | (exp_zero & (1 - s2) & s0)
    x2 = ((m6 & _bit(mant, 16)) << 16) | (mant & 0xFFFF)
    sel = coeff_select(selop, exp_zero, exp & 1)
    if sel is None:
        return None
    addr = mant >> 16
    c0, c1, c2 = ROM["C0"][sel][addr], ROM["C1"][sel][addr], ROM["C2"][sel][addr]
    x2x2 = ((x2 * x2) >> 19) & _mask(15)
    return fused_accum_tree(c0, c1, c2, x2x2, x2)


# ---------------------------------------------------------------------------------------------
# sfu.vhd


def clz64(x: int) -> tuple[int, int]:
    """CLZ (MODE 0): (leading zeros of the 64-bit word, 1 when the word is 0 (count then 0))."""
    if x == 0:
        return 0, 1
    return 64 - x.bit_length(), 0


def _exceptions(data: int, src: int, result: int, selop: int) -> int:
    """SFU_Exceptions: special inputs (`data` is what the interpolator read, `src` the register)."""
    e, m, s = (data >> 23) & 0xFF, data & 0x7FFFFF, data >> 31
    if selop in (SIN, COS):
        if (src >> 23) & 0xFF == 0xFF:
            return 0xFFFFFFFF
        if data & 0xFFFFFF == 0:
            return (result & 0x80000000) | (0 if selop == SIN else 0x3F800000)
        return result
    if selop == RSQ:
        if s:
            return 0xFF800000 if e == 0 else 0xFFFFFFFF
        if e == 0:
            return 0x7F800000
        if e == 0xFF:
            return 0 if m == 0 else 0xFFFFFFFF
        return result
    if selop == LG2:
        if e == 0:
            return 0xFF800000
        if e == 0xFF:
            return 0x7F800000 if s == 0 and m == 0 else 0xFFFFFFFF
        return 0xFFFFFFFF if s else result
    if selop == EX2:
        if s:
            if e == 0xF0 and m == 0:
                return 0
            if e == 0x0F and m == 0:
                return 0x7F800000
            if e == 0xFF and m != 0:
                return data
            if e == 0 and m == 0:
                return 0x3F800000
        return result
    if selop == RCP:
        if e == 0xFF:
            return data if m else (0x80000000 if s else 0)
        if e == 0:
            return 0xFF800000 if s else 0x7F800000
        return result
    if selop == SQRT:
        if s:
            return 0xFF800000 if e == 0 and e != 0xFF else 0xFFFFFFFF
        if e == 0xFF:
            return 0x7F800000 if m == 0 else 0xFFFFFFFF
        return 0 if e == 0 else result
    return data


def sfu_bits(x: int, selop: int) -> int | None:
    """sfu.vhd: the result for source register value x; None where the VHDL gives U (selop 111)."""
    sign, exp, mant = x >> 31, (x >> 23) & 0xFF, x & 0x7FFFFF
    quad = exp >> 6
    if selop >> 1 == 0:  # SIN / COS: the RRO output, folded about pi/2 by its bit 23
        data = ((HALF_PI - (x & 0xFFFFFF)) & 0xFFFFFF) if _bit(x, 23) else x
        oper = (quad & 1) ^ (selop & 1) ^ _bit(x, 23)
    else:
        data, oper = x, selop
    res = quadratic_interpolator(data, oper)
    if res is None:
        return None
    # LG2: the integer part from the exponent, the fraction from the interpolator
    lg_sign = int(exp < 127)
    if lg_sign:
        int_part = (exp & 0x7F) ^ 0x7F
        fix = (((int_part & 0x7F) << 41) + ((res & _mask(42)) ^ _mask(49))) & _mask(49)
        fix = (fix + 1) & _mask(49)
    else:
        int_part = ((exp & 0x7F) + 1) & 0xFF
        fix = (((int_part & 0x7F) << 41) + (res & _mask(42))) & _mask(49)
    if exp == 127:
        unorm = (((res & _mask(42)) * (mant << 18)) >> 41) & _mask(42)
    else:
        unorm = fix & _mask(48)
    norm_in = (unorm << 15) if selop == LG2 else ((res & _mask(42)) << 15)
    nz, all_zero = clz64(norm_in)
    norm = ((norm_in >> 15) << nz) & _mask(49)
    round_even = (_bit(norm, 24) & _bit(norm, 23)) | (_bit(norm, 25) & _bit(norm, 24))
    rmant = (norm >> 25) + round_even
    exp_norm = (7 - nz + (rmant >> 24)) & 0x1FF
    ex = _s9(exp - 127)
    ex_1 = _s9(ex - 1)
    if selop in (SIN, COS, LG2):
        final = exp_norm
    elif selop == EX2:
        final = exp - 256 if exp & 0x80 else exp  # the exponent field read as a signed integer
    elif selop == RCP:
        final = _s9(_s9(exp_norm) - ex)
    elif selop == SQRT:
        final = (ex_1 >> 1) if ex & 1 else (ex >> 1)
    elif selop == RSQ:
        final = _s9(_s9(exp_norm) - ((ex_1 >> 1) if ex & 1 else (ex >> 1)))
    else:
        final = ex
    final = _s9(final)
    underflow = final < -126 or all_zero
    result_exp = 0 if underflow else (final + 127) & 0xFF
    result_mant = 0 if underflow else rmant & 0x7FFFFF
    if selop == SIN:
        rsign = sign ^ (quad >> 1)
    elif selop == COS:
        rsign = (quad >> 1) ^ (quad & 1)
    elif selop == LG2:
        rsign = lg_sign
    elif selop == RCP:
        rsign = sign
    elif selop in (RSQ, EX2, SQRT):
        rsign = 0
    else:
        rsign = sign
    return _exceptions(data, x, (rsign << 31) | (result_exp << 23) | result_mant, oper)


def _map(fn: Callable[[int], int | None], x: npt.ArrayLike) -> U32:
    a = np.asarray(x, dtype=np.uint64) & 0xFFFFFFFF
    out = []
    for v in a.ravel().tolist():
        r = fn(v)
        if r is None:
            raise ValueError(f"FlexGripPlus's SFU gives an undefined (U) result for {v:#010x}")
        out.append(r)
    return np.array(out, dtype=np.uint32).reshape(a.shape)


def sfu(selop: int, x: npt.ArrayLike) -> U32:
    """The SFU over lanes (uint32 in and out)."""
    return _map(lambda v: sfu_bits(v, selop), x)
