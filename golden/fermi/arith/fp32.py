"""FP32 add, multiply and fused multiply-add (FADD, FMUL, FFMA), PTX add/mul/fma .f32 semantics.

Round-to-nearest add and multiply run vectorised in numpy float32, which is IEEE binary32 with
round-to-nearest-even; round-to-nearest FMA runs in float64 with a proof of single rounding per lane
(`_fma_rn`). The directed roundings, and the FMA lanes that proof does not cover, go lane by lane
through the exact rational path (exact.py), since numpy has neither directed rounding nor an FMA.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import numpy.typing as npt

from golden.fermi.arith import exact
from golden.fermi.arith.formats import F32, rounding
from golden.fermi.arith.lanes import Bits, as_float, bits, flush, lanewise, rn_vector, saturate


def _finish(r: Bits, sat: bool) -> Bits:
    return saturate(r, F32) if sat else r


def fadd(a: npt.ArrayLike, b: npt.ArrayLike, rnd: str = "RN", ftz: bool = False, sat: bool = False) -> Bits:
    """a + b rounded once in `rnd`; .FTZ flushes subnormal inputs and results, .SAT clamps to [0, 1]."""
    rnd = rounding(rnd)
    x, y = bits(a, 32), bits(b, 32)
    op = partial(exact.add, fmt=F32, rnd=rnd, ftz=ftz)
    if rnd != "RN":
        return _finish(lanewise(op, np.uint32, x, y), sat)
    if ftz:
        x, y = flush(x, F32), flush(y, F32)
    with np.errstate(all="ignore"):
        r = as_float(x, F32) + as_float(y, F32)
    return _finish(rn_vector(r, F32, ftz, op, x, y), sat)


def fmul(a: npt.ArrayLike, b: npt.ArrayLike, rnd: str = "RN", ftz: bool = False, sat: bool = False, fmz: bool = False) -> Bits:
    """a * b rounded once; .FMZ makes a zero factor give zero even against Inf or NaN (exact.py)."""
    rnd = rounding(rnd)
    x, y = bits(a, 32), bits(b, 32)
    op = partial(exact.mul, fmt=F32, rnd=rnd, ftz=ftz, fmz=fmz)
    if rnd != "RN" or fmz:
        return _finish(lanewise(op, np.uint32, x, y), sat)
    if ftz:
        x, y = flush(x, F32), flush(y, F32)
    with np.errstate(all="ignore"):
        r = as_float(x, F32) * as_float(y, F32)
    return _finish(rn_vector(r, F32, ftz, op, x, y), sat)


def _fma_rn(x: Bits, y: Bits, z: Bits) -> tuple[np.ndarray, np.ndarray]:
    """a * b + c in float64, rounded to float32, and the lanes where that is not one rounding.

    The FP32 product is exact in float64 (48 significant bits, no overflow or underflow). The sum
    is rounded to 53 bits; TwoSum (Knuth) gives its error. With no error the float32 cast is the
    only rounding. With one, the cast is still right unless the float64 sum landed exactly on an
    FP32 rounding midpoint (it cannot cross one: midpoints are float64 numbers), which needs the
    low 28 fraction bits zero, or the result is in FP32's subnormal range, whose midpoints sit
    elsewhere: those lanes, and any with an Inf or NaN operand, go the exact way.
    """
    with np.errstate(all="ignore"):  # a signalling NaN raises the invalid flag when widened
        fx, fy, fz = (as_float(v, F32).astype(np.float64) for v in (x, y, z))
        p = fx * fy
        s = p + fz
        fz_part = s - p
        err = (p - (s - fz_part)) + (fz - fz_part)
        low = (s.view(np.uint64) & np.uint64(0x0FFFFFFF)) == 0
        tiny = np.abs(s) < 2.0**-126
        redo = ~(np.isfinite(fx) & np.isfinite(fy) & np.isfinite(fz)) | ((err != 0) & (low | tiny))
        return s.astype(np.float32), redo


def ffma(a: npt.ArrayLike, b: npt.ArrayLike, c: npt.ArrayLike, rnd: str = "RN", ftz: bool = False, sat: bool = False, fmz: bool = False) -> Bits:
    """a * b + c with a single rounding (Fermi's FFMA is fused: PTX fma.f32, and mad.f32 on sm_20)."""
    rnd = rounding(rnd)
    x, y, z = bits(a, 32), bits(b, 32), bits(c, 32)
    op = partial(exact.fma, fmt=F32, rnd=rnd, ftz=ftz, fmz=fmz)
    if rnd != "RN" or fmz:
        return _finish(lanewise(op, np.uint32, x, y, z), sat)
    if ftz:
        x, y, z = flush(x, F32), flush(y, F32), flush(z, F32)
    x, y, z = np.broadcast_arrays(x, y, z)
    r, redo = _fma_rn(x, y, z)
    out = rn_vector(r, F32, ftz, op, x, y, z)
    if redo.any():
        out[redo] = lanewise(op, np.uint32, x[redo], y[redo], z[redo])
    return _finish(out, sat)
