"""FP64 add, multiply and fused multiply-add (DADD, DMUL, DFMA), PTX add/mul/fma .f64 semantics.

Fermi's double unit keeps subnormals (no .FTZ on .f64 in PTX). Round-to-nearest add and multiply run
in numpy float64; the directed roundings and the fused multiply-add are exact, lane by lane.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import numpy.typing as npt

from golden.fermi.arith import exact
from golden.fermi.arith.formats import F64, rounding
from golden.fermi.arith.lanes import Bits, as_float, bits, lanewise, rn_vector


def _binary(a: npt.ArrayLike, b: npt.ArrayLike, rnd: str, name: str) -> Bits:
    rnd = rounding(rnd)
    x, y = bits(a, 64), bits(b, 64)
    op = partial(getattr(exact, name), fmt=F64, rnd=rnd)
    if rnd != "RN":
        return lanewise(op, np.uint64, x, y)
    fx, fy = as_float(x, F64), as_float(y, F64)
    with np.errstate(all="ignore"):
        r = fx + fy if name == "add" else fx * fy
    return rn_vector(r, F64, False, op, x, y)


def dadd(a: npt.ArrayLike, b: npt.ArrayLike, rnd: str = "RN") -> Bits:
    """a + b rounded once in `rnd`."""
    return _binary(a, b, rnd, "add")


def dmul(a: npt.ArrayLike, b: npt.ArrayLike, rnd: str = "RN") -> Bits:
    """a * b rounded once in `rnd`."""
    return _binary(a, b, rnd, "mul")


def dfma(a: npt.ArrayLike, b: npt.ArrayLike, c: npt.ArrayLike, rnd: str = "RN") -> Bits:
    """a * b + c with a single rounding."""
    op = partial(exact.fma, fmt=F64, rnd=rounding(rnd))
    return lanewise(op, np.uint64, bits(a, 64), bits(b, 64), bits(c, 64))
