"""FlexGripPlus 4.4's RRO (`Execution/RRO/rro.vhd` with upstream PR #3), bit-exact.

The `flexgrip` profile's range reduction, whose output feeds its SFU (flexgrip_sfu.py):
- RRO.SINCOS (`selec_phase` 0): x is reduced modulo pi/2 by RRO_trig, with its own float
  multiplier (multFP: no denormals, the product truncated) and adder/subtracter (add_sub: one
  rounding with its own rule, a carry out of the rounding lost), then written as a fixed-point word
  `sign | quadrant (2 bits) | 00000 | 24-bit fraction of the reduced angle`;
- RRO.EX2 (`selec_phase` 1): x as a two's complement fixed-point word with 23 fraction bits (the
  integer part in bits 30..23), with flag patterns for infinities, NaNs, zero and |x| >= 128.
The unit is combinational; `tests/test_flexgrip_fp.py` checks it against the VHDL under GHDL.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

U32 = npt.NDArray[np.uint32]

TWO_OVER_PI = 0x3F22F983
HALF_PI_HI = 0x3FC90000
HALF_PI_LO = 0x39FDAA22


def _mask(bits: int) -> int:
    return (1 << bits) - 1


def mult_fp(x: int, y: int) -> int:
    """multFP: both hidden bits taken as 1, the 48-bit product truncated to 23 fraction bits."""
    if x in (0, 0x80000000) or y in (0, 0x80000000):
        return 0
    product = ((1 << 23) | (x & 0x7FFFFF)) * ((1 << 23) | (y & 0x7FFFFF))
    exp = (((x >> 23) & 0xFF) + ((y >> 23) & 0xFF) - (126 if product >> 47 else 127)) & 0x3FF
    sign = ((x ^ y) >> 31) << 31
    if exp >= 0x100:  # > 255 (overflow) or negative (underflow), as a signed 10-bit value
        return sign
    top = product.bit_length() - 1
    mant = ((product << (47 - top)) >> 24) & 0x7FFFFF
    return sign | (exp << 23) | mant


def _right_shift_sticky(frac: int, diff: int) -> int:
    """right_shifter (28-bit fraction, 9-bit distance): a shifted-out 1 sets the last bit."""
    if diff >> 5:
        return 1
    kept, sticky = frac >> diff, int(frac & _mask(diff) != 0)
    return kept | sticky


def add_sub(a: int, b: int, add: bool) -> int:
    """add_sub (K=32, P=24, E=8): a + b, or a - b when `add` is False. Denormals are read with a
    hidden 1; the rounding carry out of the fraction is dropped."""
    ea, eb, ma, mb = (a >> 23) & 0xFF, (b >> 23) & 0xFF, a & 0x7FFFFF, b & 0x7FFFFF
    nan_a, nan_b = ea == 0xFF and ma != 0, eb == 0xFF and mb != 0
    inf_a, inf_b = ea == 0xFF, eb == 0xFF
    zero_a, zero_b = ea == 0 and ma == 0, eb == 0 and mb == 0
    sa = a >> 31
    sb = (b >> 31) if add else 1 - (b >> 31)
    is_sub = sa ^ sb
    is_nan = nan_a or nan_b or (inf_a and inf_b and is_sub)
    is_inf = (inf_a != inf_b) or (inf_a and inf_b and not is_sub)
    d_ab, d_ba = (ea - eb) & 0x1FF, (eb - ea) & 0x1FF
    b_larger = d_ab >> 8
    diff = d_ba if b_larger else d_ab
    fa = (1 << 26) | ((mb if b_larger else ma) << 3)
    fb = (1 << 26) | ((ma if b_larger else mb) << 3)
    exp = eb if b_larger else ea
    fb = _right_shift_sticky(fb, diff)
    add_sub_ab = ((fa - fb) if is_sub else (fa + fb)) & _mask(28)
    sub_ba_eq = ((((1 << 23) | mb) - ((1 << 23) | ma)) & _mask(25)) << 3
    if zero_a:
        frac = (1 << 26) | (mb << 3)
    elif zero_b:
        frac = (1 << 26) | (ma << 3)
    elif not (sub_ba_eq >> 27) and ea == eb and is_sub:
        frac = sub_ba_eq
    else:
        frac = add_sub_ab
    if sa == sb:
        sign = sa
    elif b_larger:
        sign = sb
    else:
        sign = sb if add_sub_ab >> 27 else sa
    if not is_sub:
        if frac >> 27:
            norm, did = (frac >> 2) | int(frac & 3 != 0), 1
        else:
            norm, did = frac, 0
        is_two = int((frac >> 2) & _mask(25) == _mask(25))
        exp_norm = (exp + (did | is_two)) & 0xFF
        underflow = False
    else:
        body = frac & _mask(27)
        lz = 27 - body.bit_length()  # leading zeros below bit 27, 27 for a zero fraction
        exp_norm = 0 if body == 0 else (exp - lz) & 0xFF
        underflow = not (body != 0 and exp > lz)
        norm = (frac << lz) & _mask(28)
    round_up = int(((norm >> 2) & 1 and norm & 3 != 0) or norm & 0xF == 0xC)
    frac2 = (((norm >> 3) & 0x7FFFFF) + round_up) & 0x7FFFFF
    overflow = exp_norm == 0xFF and not is_sub
    s = sign << 31
    if is_nan:
        return s | 0x7F800001
    if is_inf or overflow:
        return s | 0x7F800000
    if zero_a or zero_b:
        return s | (exp << 23) | ((frac >> 3) & 0x7FFFFF)
    if underflow:
        return s
    return s | (exp_norm << 23) | frac2


def rro_trig(x: int) -> tuple[int, int]:
    """RRO_trig: (|x| reduced modulo pi/2 with x's sign, the quadrant)."""
    pos = x & 0x7FFFFFFF
    m1 = mult_fp(pos, TWO_OVER_PI)
    shift = (254 - ((m1 >> 23) & 0xFF)) & 0xFF
    floor_tmp = (((1 << 23) | (m1 & 0x7FFFFF)) << 230) >> shift
    floor_tmp2 = floor_tmp & ~_mask(126)
    floor_tmp3 = (floor_tmp2 << shift) & _mask(254)
    floor_fp = ((((m1 >> 23) & 0xFF) if floor_tmp3 else 0) << 23) | ((floor_tmp3 >> 230) & 0x7FFFFF)
    sub1 = add_sub(pos, mult_fp(floor_fp, HALF_PI_HI), False)
    reduced = add_sub(sub1, mult_fp(floor_fp, HALF_PI_LO), False)
    return (x & 0x80000000) | (reduced & 0x7FFFFFFF), (floor_tmp2 >> 126) & 3


def rro_sincos_bits(x: int) -> int:
    if (x >> 23) & 0xFF == 0xFF:
        return x
    reduced, quadrant = rro_trig(x)
    shift = (127 - ((reduced >> 23) & 0xFF)) & 0xFF
    fixed = ((1 << 23) | (reduced & 0x7FFFFF)) >> shift
    return (x & 0x80000000) | (quadrant << 29) | fixed


def rro_ex2_bits(x: int) -> int:
    e, m, s = (x >> 23) & 0xFF, x & 0x7FFFFF, x >> 31
    if x == 0x7F800000:
        return 0x87800000
    if x == 0xFF800000:
        return 0xF8000000
    if e == 0xFF and m:
        return 0xFF800000 | m
    if e > 133:
        return 0xF8000000 if s else 0x87800000
    if x == 0 or e == 0:
        return 0x80000000
    fixed = ((1 << 29) | (m << 6)) >> ((133 - e) & 0xFF)
    if s:
        fixed = ((fixed ^ 0xFFFFFFFF) + 1) & 0xFFFFFFFF
    return fixed & 0x7FFFFFFF


def rro(ex2: bool, x: npt.ArrayLike) -> U32:
    """RRO over lanes: RRO.EX2 when `ex2`, else RRO.SINCOS (uint32 in and out)."""
    a = np.asarray(x, dtype=np.uint64) & 0xFFFFFFFF
    fn = rro_ex2_bits if ex2 else rro_sincos_bits
    return np.array([fn(v) for v in a.ravel().tolist()], dtype=np.uint32).reshape(a.shape)
