"""Run a program of programs/ on the golden model and check its expectations."""

from __future__ import annotations

import builtins
import functools
import time
from dataclasses import dataclass, field

import numpy as np

from .commit import Commit
from .disassembler import render_program
from .memory import Memory
from .profile import Profile
from .program import DTYPES, KernelSpec
from .sm import SM
from .state import FLEXGRIP_SM, Launch, SMConfig


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


@dataclass
class RunResult:
    spec: KernelSpec
    sm: SM
    gmem: Memory
    warp_instructions: int
    thread_instructions: int
    seconds: float
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def failed(self) -> list[CheckResult]:
        return [c for c in self.checks if not c.passed]


RET = (0x30000003, 0x00000780)  # RET: the kernel exit FlexGripPlus implements


def code_words(spec: KernelSpec, profile: Profile) -> list[int]:
    """The program's words as the profile runs them. A profile that ignores the exit marker
    (FlexGripPlus) ends kernels only with RET, which every shipped FlexGripPlus kernel has appended
    by hand: RET is appended after the last instruction (a program already ending with RET is
    left alone)."""
    words = list(spec.program.words)
    if not profile.exit_marker_ignored or words[-2:] == list(RET):
        return words
    if len(words) % 2:
        raise ValueError(f"{spec.path}: the code ends with a 32-bit instruction at an odd word; RET (64-bit) cannot follow it aligned")
    return [*words, *RET]


def build(spec: KernelSpec, profile: Profile, config: SMConfig | None = None) -> tuple[SM, Memory]:
    # a machine whose global addresses wrap (flexgrip: 18 bits) has all of that memory, whatever the program declares
    bits = profile.global_addr_bits
    gmem = Memory("global", max(spec.global_size, 1 << bits) if bits else spec.global_size)
    for buf in spec.buffers.values():
        gmem.write_bytes(buf.addr, buf.init.tobytes())
    banks: dict[int, Memory] = {}
    for bank, offset, data in spec.consts:
        key = 0 if profile.const_bank_ignored else bank
        mem = banks.setdefault(key, Memory(f"constant bank c[{key:#x}]", 64 * 1024))
        mem.write_bytes(offset, data)
    launch = Launch(spec.grid, spec.block, spec.registers, spec.shared, spec.param_bytes(profile.param_slot_bytes_pointer))
    if config is None:
        config = FLEXGRIP_SM if profile.name == "flexgrip" else SMConfig()
    sm = SM(code_words(spec, profile), launch, gmem, banks, profile, config, max_steps=spec.max_steps)
    return sm, gmem


def run_program(spec: KernelSpec, profile: Profile, trace=None, batch: bool = True) -> RunResult:
    """Run the kernel; `trace(commit)` sees every commit record (then warps run one at a time)."""
    sm, gmem = build(spec, profile)
    t0 = time.perf_counter()
    steps = sm.run(batch=batch and trace is None, record=trace is not None, on_commit=trace)
    seconds = time.perf_counter() - t0
    result = RunResult(spec, sm, gmem, steps, sm.thread_steps, seconds)
    result.checks = check(spec, gmem)
    return result


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in representable floats between float32 bit patterns (sign-magnitude ordered)."""
    def ordered(x: np.ndarray) -> np.ndarray:
        x = x.astype(np.int64)
        return np.where(x & 0x80000000, 0x80000000 - (x & 0x7FFFFFFF), x + 0x80000000)
    return np.abs(ordered(a) - ordered(b))


def check(spec: KernelSpec, gmem: Memory) -> list[CheckResult]:
    out = []
    initial = {name: buf.init.copy() for name, buf in spec.buffers.items()}
    env = {"np": np, "grid": spec.grid, "block": spec.block, "nthreads": spec.grid[0] * spec.grid[1] * spec.block[0] * spec.block[1] * spec.block[2],
           **initial}  # fmt: skip
    for exp in spec.expects:
        buf = spec.buffers[exp.buffer]
        np_type = DTYPES[buf.dtype]
        final = np.frombuffer(gmem.data[buf.addr : buf.addr + buf.nbytes].tobytes(), np_type)
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
        bits = np.uint32 if np.dtype(np_type).itemsize == 4 else np_type
        got, exp_bits = final.view(bits), want.view(bits)
        if buf.dtype == "f32" and (exp.ulp or exp.atol):
            near = _ulps(got, exp_bits) <= exp.ulp
            if exp.atol:
                near |= np.abs(final.astype(np.float64) - want.astype(np.float64)) <= exp.atol
            bad = np.flatnonzero(~near)
        else:
            bad = np.flatnonzero(got != exp_bits)
        if bad.size:
            rows = ", ".join(f"[{i}] expected {_show(want[i], buf.dtype)} got {_show(final[i], buf.dtype)}" for i in bad[:8])
            more = f" (+{bad.size - 8} more)" if bad.size > 8 else ""
            out.append(CheckResult(exp.buffer, exp.line.number, False, f"{bad.size} of {final.size} elements differ: {rows}{more}"))
        else:
            tol = f" within {exp.ulp} ulp" if exp.ulp and buf.dtype == "f32" else ""
            tol += f" or {exp.atol:g}" if exp.atol and buf.dtype == "f32" else ""
            out.append(CheckResult(exp.buffer, exp.line.number, True, f"{final.size} elements match{tol}"))
    return out


def _show(v: object, dtype: str) -> str:
    if dtype == "f32":
        return f"{float(v)!r} ({np.float32(v).view(np.uint32):#010x})"
    return f"{int(v)} ({int(v) & (2 ** (8 * np.dtype(DTYPES[dtype]).itemsize) - 1):#x})"


def format_commit(c: Commit) -> str:
    """One trace line per commit record: block, warp, PC, disassembly, masks and writes."""
    parts = [f"cta {c.cta} warp {c.warp:2d} #{c.seq:<5d} {c.pc:04x}  {c.text:<44} act {c.active_mask:08x} exe {c.exec_mask:08x}"]
    for w in c.gpr:
        name = f"R{w.index}{w.half or ''}"
        parts.append(f"{name}=" + _lanes(w.values, c.exec_mask))
    for w in c.cc:
        parts.append(f"C{w.index}=" + _lanes(w.values, c.exec_mask, 1))
    for w in c.addr:
        parts.append(f"A{w.index}=" + _lanes(w.values, c.exec_mask))
    for m in c.mem:
        parts.append(f"{m.space}[{m.size}]@" + _lanes(m.addr, m.lanes) + " <- " + _lanes(m.data, m.lanes))
    if c.next_pc != c.pc + c.size or c.next_mask != c.active_mask or c.done:
        parts.append(f"-> {c.next_pc:04x} mask {c.next_mask:08x}{' done' if c.done else ''}")
    return "  ".join(parts)


def _lanes(values: np.ndarray, mask: int, digits: int = 8) -> str:
    lanes = [lane for lane in range(32) if mask >> lane & 1]
    vals = {int(values[lane]) for lane in lanes}
    if len(vals) == 1:
        return f"{vals.pop():0{digits}x}"
    shown = " ".join(f"{int(values[lane]):0{digits}x}" for lane in lanes[:4])
    return f"[{shown}{' ...' if len(lanes) > 4 else ''}]"


__all__ = ["RunResult", "build", "check", "format_commit", "render_program", "run_program"]
