"""Checking a program's `.expect` lines after a run, the same way for every ISA.

An expression is evaluated with numpy, the buffers' initial contents, grid, block and nthreads;
its result is converted to the buffer's type and compared element by element: integers exactly,
floats bit for bit or within the stated ulp/atol (docs/reference/program-format.md, "Expectations").
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .program import DTYPES, FLOATS, ProgramSpec


def _numpy_import(name: str, *args: object, **kwargs: object) -> object:
    """numpy's C code imports some of its own modules on first use (``a.sum()`` the first time in a
    process loads numpy.core._methods) through the ``__import__`` of the calling frame, which is the
    expression's: let those through and nothing else."""
    if name.split(".")[0] != "numpy":
        raise ImportError(f"an .expect expression may not import {name}")
    return builtins.__import__(name, *args, **kwargs)  # type: ignore[arg-type]


# What an .expect expression may use besides numpy (np) and the buffers.
SAFE_BUILTINS = {"range": range, "len": len, "min": min, "max": max, "sum": sum, "abs": abs, "int": int, "float": float,
                 "reduce": functools.reduce, "__import__": _numpy_import}  # fmt: skip


@dataclass
class CheckResult:
    buffer: str
    line: int
    passed: bool
    detail: str = ""


def ulps(a: np.ndarray, b: np.ndarray, width: int = 32) -> np.ndarray:
    """Distance in representable floats between float bit patterns of `width` bits (sign-magnitude
    ordered, so -0 and +0 are 0 apart and the distance crosses zero)."""
    sign = 1 << (width - 1)

    def ordered(x: np.ndarray) -> list[int]:
        # Python ints: a 64-bit distance overflows int64 when the two straddle zero
        return [sign - (v & (sign - 1)) if v & sign else v + sign for v in (int(u) for u in x)]

    if width == 32:  # the common case, vectorised
        def ordered32(x: np.ndarray) -> np.ndarray:
            x = x.astype(np.int64)
            return np.where(x & 0x80000000, 0x80000000 - (x & 0x7FFFFFFF), x + 0x80000000)
        return np.abs(ordered32(a) - ordered32(b))
    return np.array([abs(p - q) for p, q in zip(ordered(a), ordered(b), strict=True)], dtype=object)


def check(spec: ProgramSpec, read: Callable[[int, int], bytes]) -> list[CheckResult]:
    """Each expectation of `spec` against global memory as `read(addr, nbytes)` returns it."""
    out = []
    initial = {name: buf.init.copy() for name, buf in spec.buffers.items()}
    env = {"np": np, "grid": spec.grid, "block": spec.block, "nthreads": spec.nthreads, **initial}
    for exp in spec.expects:
        buf = spec.buffers[exp.buffer]
        np_type = DTYPES[buf.dtype]
        final = np.frombuffer(bytes(read(buf.addr, buf.nbytes)), np_type)
        try:
            if exp.expr is not None:
                with np.errstate(all="ignore"):
                    want = np.broadcast_to(np.asarray(eval(exp.expr, {"__builtins__": SAFE_BUILTINS, **env})).astype(np_type), final.shape)
            else:
                assert exp.values is not None
                want = exp.values.astype(np_type)
                final = final[: want.size]
        except Exception as e:  # the expression is the program author's: report, do not crash
            out.append(CheckResult(exp.buffer, exp.line.number, False, f"expectation could not be evaluated: {e}"))
            continue
        size = np.dtype(np_type).itemsize
        bits = {4: np.uint32, 8: np.uint64}.get(size, np_type)
        got, exp_bits = final.view(bits), want.view(bits)
        is_float = buf.dtype in FLOATS
        if is_float and (exp.ulp or exp.atol):
            near = np.asarray(ulps(got, exp_bits, 8 * size) <= exp.ulp, dtype=bool)
            if exp.atol:
                near |= np.abs(final.astype(np.float64) - want.astype(np.float64)) <= exp.atol
            bad = np.flatnonzero(~near)
        else:
            bad = np.flatnonzero(got != exp_bits)
        if bad.size:
            rows = ", ".join(f"[{i}] expected {show(want[i], buf.dtype)} got {show(final[i], buf.dtype)}" for i in bad[:8])
            more = f" (+{bad.size - 8} more)" if bad.size > 8 else ""
            out.append(CheckResult(exp.buffer, exp.line.number, False, f"{bad.size} of {final.size} elements differ: {rows}{more}"))
        else:
            tol = f" within {exp.ulp} ulp" if exp.ulp and is_float else ""
            tol += f" or {exp.atol:g}" if exp.atol and is_float else ""
            out.append(CheckResult(exp.buffer, exp.line.number, True, f"{final.size} elements match{tol}"))
    return out


def show(v: object, dtype: str) -> str:
    """An element for a message: its value and its bit pattern."""
    if dtype == "f32":
        return f"{float(v)!r} ({np.float32(v).view(np.uint32):#010x})"  # type: ignore[arg-type]
    if dtype == "f64":
        return f"{float(v)!r} ({np.float64(v).view(np.uint64):#018x})"  # type: ignore[arg-type]
    return f"{int(v)} ({int(v) & (2 ** (8 * np.dtype(DTYPES[dtype]).itemsize) - 1):#x})"  # type: ignore[call-overload]
