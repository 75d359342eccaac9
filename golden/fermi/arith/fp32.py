"""FP32 add, multiply and fused multiply-add (FADD, FMUL, FFMA), PTX add/mul/fma .f32 semantics.

Round-to-nearest add and multiply run vectorised in numpy float32, which is IEEE binary32 with
round-to-nearest-even; the directed roundings and every fused multiply-add go lane by lane through
the exact rational path (exact.py), since numpy has neither directed rounding nor a fused FMA.
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


def ffma(a: npt.ArrayLike, b: npt.ArrayLike, c: npt.ArrayLike, rnd: str = "RN", ftz: bool = False, sat: bool = False, fmz: bool = False) -> Bits:
    """a * b + c with a single rounding (Fermi's FFMA is fused: PTX fma.f32, and mad.f32 on sm_20)."""
    op = partial(exact.fma, fmt=F32, rnd=rounding(rnd), ftz=ftz, fmz=fmz)
    return _finish(lanewise(op, np.uint32, bits(a, 32), bits(b, 32), bits(c, 32)), sat)
