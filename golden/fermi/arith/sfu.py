"""The special-function unit: MUFU and RRO. APPROXIMATIONS OF SILICON, NOT BIT-EXACT.

What Fermi's SFU returns bit for bit is not public. The model returns, for each FP32 input, the
function's value computed in float64 (numpy, i.e. the C library) and rounded once to FP32: the
correctly rounded result except in the rare case where the double-precision value sits within a
float64 ulp of an FP32 rounding boundary. Silicon is only promised to be within the PTX ISA
manual's bounds for the matching .approx instructions, which tests/test_fermi_arith.py checks the
model against (docs/design/fermi-arith.md lists them). A lock-step comparison of MUFU results
against hardware or RTL must therefore allow that tolerance, not demand equality.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from golden.fermi.arith.formats import F32, F64
from golden.fermi.arith.lanes import Bits, as_float, bits, flush, from_float

_FP32 = {
    "COS": np.cos,
    "SIN": np.sin,
    "EX2": np.exp2,
    "LG2": np.log2,
    "RCP": lambda v: 1.0 / v,
    "RSQ": lambda v: 1.0 / np.sqrt(v),
}
_FP64_HIGH = {"RCP64H": lambda v: 1.0 / v, "RSQ64H": lambda v: 1.0 / np.sqrt(v)}


def mufu(func: str, x: npt.ArrayLike, ftz: bool = False) -> Bits:
    """MUFU.`func` of each lane (an approximation of silicon, see the module docstring).

    COS SIN EX2 LG2 RCP RSQ take and return FP32; SIN and COS take the angle in radians (the value
    before RRO, which the model passes through unchanged). RCP64H and RSQ64H take the high word of
    an FP64 (low word zero) and return the high word of its reciprocal or reciprocal square root,
    truncated: the seed a Newton-Raphson sequence refines, as the CUDA compiler uses them.
    """
    if func in _FP64_HIGH:
        hi = bits(x, 32).astype(np.uint64) << np.uint64(32)
        with np.errstate(all="ignore"):
            r = from_float(_FP64_HIGH[func](as_float(hi, F64)), F64)
        return (r >> np.uint64(32)).astype(np.uint32)
    if func not in _FP32:
        raise ValueError(f"MUFU function {func!r} is not one of {' '.join([*_FP32, *_FP64_HIGH])}")
    v = bits(x, 32)
    if ftz:
        v = flush(v, F32)
    with np.errstate(all="ignore"):
        r = from_float(_FP32[func](as_float(v, F32).astype(np.float64)).astype(np.float32), F32)
    return flush(r, F32) if ftz else r


def rro(func: str, x: npt.ArrayLike) -> Bits:
    """RRO.SINCOS / RRO.EX2: the range reduction before MUFU, modelled as the identity.

    On silicon RRO rewrites its operand into a form only MUFU reads; the model's MUFU takes the
    plain argument instead, so the pair RRO + MUFU yields the function of the original value. A
    program that inspects RRO's result directly will see the difference.
    """
    if func not in ("SINCOS", "EX2"):
        raise ValueError(f"RRO function {func!r} is not SINCOS or EX2")
    return bits(x, 32)
