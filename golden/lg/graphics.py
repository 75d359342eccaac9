"""The LG graphics pipeline's arithmetic: the current matrix, its transforms and vertex transform.

Fixed arithmetic (`seed`, exact, shared bit for bit with the RTL): matrix elements are int32
Q15.16; a transform post-multiplies M <- M x T with element (i, j) = (sum_k M[i][k] T[k][j]) >> 16,
the four exact products summed first, one floor shift, then an int32 wrap. Float arithmetic
(`ta2013`): the same products in floats, as the TA's Rotate/Translate/Scale/ProcessVertex compute
them (every transform post-multiplies there too).
"""

from __future__ import annotations

import math

from golden.lg.fixed import ONE_Q16, s16, s32
from golden.lg.profile import LgProfile
from golden.lg.trig import COS, SIN

Matrix = list[int | float]  # 16 elements, row-major m00..m33


def mat_mul(m: Matrix, t: Matrix, fixed: bool) -> Matrix:
    """M x T, in Q15.16 (floor shift, int32 wrap) or in floats."""
    out: Matrix = [0] * 16
    for i in range(4):
        row = m[4 * i:4 * i + 4]
        for j in range(4):
            acc = row[0] * t[j] + row[1] * t[4 + j] + row[2] * t[8 + j] + row[3] * t[12 + j]
            out[4 * i + j] = s32(int(acc) >> 16) if fixed else acc
    return out


def identity(fixed: bool) -> Matrix:
    one: int | float = ONE_Q16 if fixed else 1.0
    zero: int | float = 0 if fixed else 0.0
    return [one if i % 5 == 0 else zero for i in range(16)]


def _q16(bits: int | float) -> int:
    """A Q8.7 vector element as Q15.16 (docs/design/lg.md: value << 9)."""
    return s16(int(bits)) << 9


def translate_t(vr: list[int | float], fixed: bool) -> Matrix:
    """T = I with T[0][3] = vr[1], T[1][3] = vr[2] (TA Translate)."""
    t = identity(fixed)
    t[3], t[7] = (_q16(vr[1]), _q16(vr[2])) if fixed else (vr[1], vr[2])
    return t


def scale_t(vr: list[int | float], fixed: bool) -> Matrix:
    """T = I with T[0][0] = vr[1], T[1][1] = vr[2] (TA Scale)."""
    t = identity(fixed)
    t[0], t[5] = (_q16(vr[1]), _q16(vr[2])) if fixed else (vr[1], vr[2])
    return t


def rotate_t(vr: list[int | float], p: LgProfile, fixed: bool) -> Matrix:
    """T = I with the 2x2 rotation by angle vr[0] (rotate_unit degrees a unit) about z, the angle
    negated when vr[3] < 0 (TA Rotate: `if (z_value < 0) angle = -angle`)."""
    t = identity(fixed)
    if fixed:
        # whole degrees, floor of the Q8.7 angle times the unit, as the 360-entry table has them
        a = (s16(int(vr[0])) * p.rotate_unit) >> 7
        if s16(int(vr[3])) < 0:
            a = -a
        c, s = COS[a % 360], SIN[a % 360]
    else:
        ang = float(vr[0]) * p.rotate_unit
        if vr[3] < 0:
            ang = -ang
        c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    if p.rotate_ccw:
        t[0], t[1], t[4], t[5] = c, -s, s, c
    else:
        t[0], t[1], t[4], t[5] = c, s, -s, c
    return t


def transform_vertex(m: Matrix, vr: list[int | float], fixed: bool) -> tuple[int | float, int | float, int | float]:
    """setvertex: (x', y', z) from vr[1..3] through the current matrix (z and w are not
    transformed: TA ProcessVertex uses only rows 0 and 1 and columns 0, 1, 3)."""
    if fixed:
        x, y = _q16(vr[1]), _q16(vr[2])
        xs = s32(((int(m[0]) * x + int(m[1]) * y) >> 16) + int(m[3]))
        ys = s32(((int(m[4]) * x + int(m[5]) * y) >> 16) + int(m[7]))
        return xs, ys, int(vr[3]) & 0xFFFF
    x, y = vr[1], vr[2]
    return m[0] * x + m[1] * y + m[3], m[4] * x + m[5] * y + m[7], vr[3]


def colour_of(vr: list[int | float], fixed: bool) -> int:
    """setcolor: 0xRRGGBB from vr[0..2]: the integer part of each Q8.7 value (floor), or the TA's
    (int) truncation of the float, kept to 8 bits (TA SetColor takes unsigned char)."""
    if fixed:
        ch = [(s16(int(e)) >> 7) & 0xFF for e in vr[:3]]
    else:
        ch = [int(e) & 0xFF for e in vr[:3]]
    return ch[0] << 16 | ch[1] << 8 | ch[2]
