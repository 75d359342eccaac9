"""Run a program of programs/ on the golden model and check its expectations."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..isa.expect import SAFE_BUILTINS, CheckResult
from ..isa.expect import check as check_expects
from .commit import Commit
from .disassembler import render_program
from .memory import Memory
from .profile import Profile
from .program import KernelSpec
from .sm import SM
from .state import FLEXGRIP_SM, Launch, SMConfig


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


def check(spec: KernelSpec, gmem: Memory) -> list[CheckResult]:
    """The program's expectations against global memory after the run (golden/isa/expect.py)."""
    return check_expects(spec, lambda addr, n: gmem.data[addr : addr + n].tobytes())


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


__all__ = ["SAFE_BUILTINS", "CheckResult", "RunResult", "build", "check", "format_commit", "render_program", "run_program"]
