"""Lane plumbing shared by the kernels: bit-pattern arrays in and out, per-lane exact fallback."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from golden.fermi.arith.formats import F32, Format

Bits = npt.NDArray[np.unsignedinteger]
UDTYPE = {16: np.uint32, 32: np.uint32, 64: np.uint64}  # an F16 value travels in a 32-bit register
FDTYPE = {16: np.float16, 32: np.float32, 64: np.float64}
VIEW = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def bits(x: npt.ArrayLike, width: int) -> Bits:
    """Lanes as unsigned patterns of `width` bits, in the register-sized dtype (uint32 or uint64)."""
    arr = np.asarray(x)
    if arr.dtype.kind == "i":
        arr = arr.astype(np.int64).view(np.uint64)
    arr = arr.astype(np.uint64) & np.uint64((1 << width) - 1)
    return arr.astype(UDTYPE[width])


def as_float(x: Bits, fmt: Format) -> np.ndarray:
    """The lanes reinterpreted as numpy floats of `fmt` (for the vectorised RN paths)."""
    return x.astype(VIEW[fmt.width]).view(FDTYPE[fmt.width])


def from_float(f: np.ndarray, fmt: Format) -> Bits:
    """numpy floats back to patterns, every NaN replaced by the format's canonical NaN."""
    out = f.view(VIEW[fmt.width]).astype(UDTYPE[fmt.width])
    return np.where(np.isnan(f), UDTYPE[fmt.width](fmt.nan), out)


def lanewise(fn: Callable[..., int], dtype: type, *arrays: np.ndarray) -> Bits:
    """Apply a one-lane Python function to each lane (the exact, slow paths)."""
    shaped = np.broadcast_arrays(*arrays)
    out = [fn(*(int(v) for v in vals)) for vals in zip(*(a.ravel() for a in shaped), strict=True)]
    return np.array(out, dtype=dtype).reshape(shaped[0].shape)


def flush(x: Bits, fmt: Format) -> Bits:
    """.FTZ: subnormal lanes become the zero of their sign."""
    dt = x.dtype.type
    mag = x & dt(fmt.sign - 1)
    sub = (mag != 0) & (mag < dt(1 << fmt.mbits))
    return np.where(sub, x & dt(fmt.sign), x)


def saturate(x: Bits, fmt: Format) -> Bits:
    """.SAT: clamp to [+0, 1]; NaN and every negative value (-0 too) give +0.

    The PTX ISA manual (cvt, add, mul, fma ".sat") clamps to [0.0, 1.0] and maps NaN to 0; the
    positive zero for -0.0 follows from clamping to a range whose lower end is +0.0.
    """
    dt = x.dtype.type
    mag = x & dt(fmt.sign - 1)
    nan = mag > dt(fmt.inf)
    neg = (x & dt(fmt.sign)) != 0
    out = np.where(mag > dt(fmt.one), dt(fmt.one), x)
    return np.where(nan | neg, dt(0), out).astype(dt)


def rn_vector(result: np.ndarray, fmt: Format, ftz: bool, exact: Callable[..., int], *operands: Bits) -> Bits:
    """Finish a numpy round-to-nearest result: canonical NaN, and .FTZ on the way out.

    numpy rounds on the subnormal grid; .FTZ rounds with an unbounded exponent (formats.round_exact).
    The two can disagree only where numpy gave exactly the smallest normal, so those lanes are redone
    exactly; every subnormal result is below the smallest normal either way and flushes.
    """
    out = from_float(result, fmt)
    if not ftz:
        return out
    dt = out.dtype.type
    edge = (out & dt(fmt.sign - 1)) == dt(1 << fmt.mbits)
    out = flush(out, fmt)
    if edge.any():
        idx = np.nonzero(edge)
        redo = lanewise(exact, out.dtype.type, *(np.broadcast_to(o, out.shape)[idx] for o in operands))
        out[idx] = redo
    return out


def is_f32(fmt: Format) -> bool:
    return fmt is F32
