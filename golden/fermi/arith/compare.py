"""Comparisons (FSETP/DSETP/FSET/DSET/FCMP tests) and min/max (FMNMX/DMNMX).

The sixteen tests follow PTX setp's table: the ordered ones (LT EQ LE GT NE GE) are false when
either operand is NaN, the unordered ones (LTU ... GEU) true; NUM is "neither is NaN", NAN "either
is NaN", F and T constant. -0 equals +0, as IEEE 754 section 5.11 requires.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from golden.fermi.arith.formats import F32, F64, Format
from golden.fermi.arith.lanes import Bits, as_float, bits, flush

_RELATIONS = {"LT": np.less, "EQ": np.equal, "LE": np.less_equal, "GT": np.greater, "NE": np.not_equal, "GE": np.greater_equal}
TESTS = ("F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T")


def _compare(cmp: str, x: np.ndarray, y: np.ndarray) -> npt.NDArray[np.bool_]:
    unordered = np.isnan(x) | np.isnan(y)
    if cmp in ("F", "T"):
        return np.full(unordered.shape, cmp == "T")
    if cmp == "NUM":
        return ~unordered
    if cmp == "NAN":
        return unordered
    base = cmp[:-1] if cmp.endswith("U") else cmp
    if base not in _RELATIONS:
        raise ValueError(f"comparison {cmp!r} is not one of {' '.join(TESTS)}")
    with np.errstate(all="ignore"):
        rel = _RELATIONS[base](x, y) & ~unordered
    return rel | unordered if cmp.endswith("U") else rel


def fcmp(cmp: str, a: npt.ArrayLike, b: npt.ArrayLike, ftz: bool = False) -> npt.NDArray[np.bool_]:
    """The FP32 test `cmp` on each lane; .FTZ compares subnormals as zeros."""
    x, y = bits(a, 32), bits(b, 32)
    if ftz:
        x, y = flush(x, F32), flush(y, F32)
    return _compare(cmp, as_float(x, F32), as_float(y, F32))


def dcmp(cmp: str, a: npt.ArrayLike, b: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """The FP64 test `cmp` on each lane."""
    return _compare(cmp, as_float(bits(a, 64), F64), as_float(bits(b, 64), F64))


def _order_key(x: Bits, fmt: Format) -> npt.NDArray[np.int64]:
    """An integer that orders non-NaN patterns numerically and puts -0 just below +0."""
    mag = (x & x.dtype.type(fmt.sign - 1)).astype(np.int64)
    return np.where((x & x.dtype.type(fmt.sign)) != 0, -mag - 1, mag)


def _mnmx(x: Bits, y: Bits, take_min: npt.ArrayLike, fmt: Format) -> Bits:
    """PTX min/max: a NaN operand is ignored, two NaNs give the canonical NaN.

    PTX leaves the order of -0 and +0 open; the model takes -0 < +0 (so min(-0, +0) = -0, max = +0),
    the choice IEEE 754-2019's minimum/maximum make.
    """
    dt = x.dtype.type
    xnan = (x & dt(fmt.sign - 1)) > dt(fmt.inf)
    ynan = (y & dt(fmt.sign - 1)) > dt(fmt.inf)
    kx, ky = _order_key(x, fmt), _order_key(y, fmt)
    pick_x = np.where(np.asarray(take_min, dtype=bool), kx <= ky, kx >= ky)
    out = np.where(pick_x, x, y)
    out = np.where(xnan, y, np.where(ynan, x, out))
    return np.where(xnan & ynan, dt(fmt.nan), out).astype(dt)


def fmnmx(a: npt.ArrayLike, b: npt.ArrayLike, take_min: npt.ArrayLike, ftz: bool = False) -> Bits:
    """FP32 min (where take_min) or max of each lane pair."""
    x, y = bits(a, 32), bits(b, 32)
    if ftz:
        x, y = flush(x, F32), flush(y, F32)
    return _mnmx(x, y, take_min, F32)


def dmnmx(a: npt.ArrayLike, b: npt.ArrayLike, take_min: npt.ArrayLike) -> Bits:
    """FP64 min (where take_min) or max of each lane pair."""
    return _mnmx(bits(a, 64), bits(b, 64), take_min, F64)
