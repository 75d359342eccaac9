"""The Fermi golden model: launch a grid, step one warp-instruction at a time, get its commit record.

    m = Machine(SM20)
    m.launch(program, grid=(2, 1, 1), block=(64, 1, 1), const={2: b"..."}, global_mem=data, params=b"...")
    rec = m.step()           # the next warp-instruction in the schedule -> FermiCommit
    recs = m.run(max_steps)  # until every CTA has finished

The program is a sequence of decoded instructions (golden/fermi/insn.py); the i-th sits at byte
address 8 i. The schedule is fixed: CTAs run one after another in linear order (x fastest); in a
CTA the warps take turns, one warp-instruction each in warp order, skipping warps that have
finished or wait at a barrier; once every warp that has not finished waits, the barrier opens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from golden.errors import FAILURE, USAGE, UserError
from golden.fermi import memory, simt
from golden.fermi.commit import FermiCommit
from golden.fermi.insn import PT, Insn
from golden.fermi.operands import Exec, OperandError
from golden.fermi.profile import SM20, FermiProfile
from golden.fermi.semantics_ctrl import ROUTINES as CTRL
from golden.fermi.semantics_fp import ROUTINES as FP
from golden.fermi.semantics_int import ROUTINES as INT
from golden.fermi.semantics_mem import ROUTINES as MEM
from golden.fermi.semantics_move import ROUTINES as MOVE
from golden.fermi.state import WARP, CtaState

DEFAULT_MAX_STEPS = 1_000_000
INSN_BYTES = 8
FULL = 0xFFFFFFFF

Routine = Callable[[Exec, Insn], None]
ROUTINES: dict[str, Routine] = {**INT, **FP, **MOVE, **MEM, **CTRL}


class FermiError(UserError):
    """A launch the model cannot take (usage) or a program that fails on it (a fault, stack misuse,
    a runaway): one line naming the CTA, warp, PC and instruction. `pc` is that instruction's byte
    address where there is one, so that a caller holding the source can name its line too."""

    def __init__(self, message: str, code: int = FAILURE, pc: int | None = None) -> None:
        super().__init__(message, code)
        self.pc = pc


def text_of(insn: Insn) -> str:
    """The mnemonic with its modifiers, for messages (the operands are the disassembler's)."""
    return ".".join((insn.op, *insn.mods))


def _dims(name: str, v: int | Sequence[int]) -> tuple[int, int, int]:
    t = (v, 1, 1) if isinstance(v, int) else tuple(v) + (1,) * (3 - len(v))
    if len(t) != 3 or not all(isinstance(k, int) and k > 0 for k in t):
        raise FermiError(f"launch: {name} = {v!r} is not 1-3 positive integers (give e.g. {name}=(64, 1, 1))", USAGE)
    return t  # type: ignore[return-value]


_MASK_BITS: dict[int, np.ndarray] = {}


def mask_bits(mask: int) -> np.ndarray:
    """The 32 lanes of a mask as read-only bools (masks recur, so they are cached)."""
    got = _MASK_BITS.get(mask)
    if got is None:
        got = np.unpackbits(np.array([mask], "<u4").view(np.uint8), bitorder="little").astype(bool)
        got.flags.writeable = False
        _MASK_BITS[mask] = got
    return got


def bits_mask(bits: np.ndarray) -> int:
    """A 32-lane bool array as a mask."""
    return int(np.packbits(bits, bitorder="little").view("<u4")[0])


@dataclass(frozen=True, slots=True)
class Plan:
    """What every execution of one instruction needs, decided once."""

    insn: Insn
    run: Routine
    text: str
    guarded: bool  # the guard is not plain PT
    sync: bool  # .S


class Cta:
    """One CTA: its threads' state, shared and local memory, warps."""

    def __init__(self, m: Machine, linear: int) -> None:
        bx, by, bz = m.block
        gx, gy, _ = m.grid
        self.linear = linear
        self.ctaid = (linear % gx, (linear // gx) % gy, linear // (gx * gy))
        self.nthreads = bx * by * bz
        self.state = CtaState(self.nthreads)
        self.shared = np.zeros(m.shared_size, dtype=np.uint8)
        self.local = np.zeros(self.state.nwarps * WARP * m.p.local_size, dtype=np.uint8)
        t = np.arange(self.state.nwarps * WARP)
        self.tid = (t % bx, (t // bx) % by, t // (bx * by))
        self.warps = []
        for w in range(self.state.nwarps):
            n = min(WARP, self.nthreads - w * WARP)
            self.warps.append(simt.Warp(linear, w, w * WARP, (1 << n) - 1 if n < WARP else FULL))
        self.turn = 0


class Machine:
    """One Fermi SM under a profile."""

    def __init__(self, profile: FermiProfile = SM20) -> None:
        self.p = profile
        self.plans: list[Plan] = []
        self.cta: Cta | None = None
        self.finished = True
        self.clock = 0

    def launch(self, program: Sequence[Insn], grid: int | Sequence[int] = 1, block: int | Sequence[int] = 32,
               const: dict[int, bytes] | None = None, global_mem: bytes | np.ndarray = b"", shared_size: int = 0,
               params: bytes = b"", global_base: int = 0) -> None:  # fmt: skip
        """Set up a grid. `const` gives banks' initial bytes; launch then writes ntid and nctaid and the
        parameters into c0 and the stack pointer into c1 (profile `ntid_offset`, `param_base`,
        `stack_pointer`), as the CUDA driver's launch convention does (FERMI.md)."""
        self.grid, self.block = _dims("grid", grid), _dims("block", block)
        nthreads = self.block[0] * self.block[1] * self.block[2]
        if nthreads > 1024:
            raise FermiError(f"launch: block {self.block} has {nthreads} threads, more than sm_20's 1024 (make it smaller)", USAGE)
        if not program:
            raise FermiError("launch: the program is empty (give at least one instruction)", USAGE)
        for i, insn in enumerate(program):
            if insn.family not in ROUTINES:
                raise FermiError(f"launch: instruction {i} (pc {i * INSN_BYTES:#x}) {text_of(insn)}: family {insn.family!r} "
                                 "is not one the model executes (see golden/fermi/model.py ROUTINES)", USAGE)  # fmt: skip
        banks = dict(const or {})
        for bank, data in banks.items():
            if not 0 <= bank < memory.CONST_BANKS or len(data) > memory.CONST_BANK_BYTES:
                raise FermiError(f"launch: const bank {bank} with {len(data)} bytes is not c0-c17 of at most 64 KiB (fix const)", USAGE)
        c0 = bytearray(banks.get(0, b"").ljust(self.p.param_base + len(params), b"\0"))
        dims = np.array([*self.block, *self.grid], dtype="<u4").tobytes()
        c0[self.p.ntid_offset : self.p.ntid_offset + len(dims)] = dims
        c0[self.p.param_base : self.p.param_base + len(params)] = params
        banks[0] = bytes(c0)
        c1 = bytearray(banks.get(1, b"").ljust(self.p.stack_pointer + 4, b"\0"))
        c1[self.p.stack_pointer : self.p.stack_pointer + 4] = self.p.local_size.to_bytes(4, "little")
        banks[1] = bytes(c1)
        if shared_size < 0 or shared_size > 48 * 1024:
            raise FermiError(f"launch: shared_size {shared_size} is not 0..49152 bytes (sm_20's largest shared configuration)", USAGE)
        self.mem = memory.Memory(banks, global_mem, global_base)
        self.shared_size = shared_size
        self.plans = [Plan(i, ROUTINES[i.family], text_of(i), not (i.guard.n == PT and not i.guard.neg), "S" in i.mods) for i in program]
        self.ncta = self.grid[0] * self.grid[1] * self.grid[2]
        self.next_cta = 0
        self.clock = 0
        self.finished = False
        self._start_cta()

    def _start_cta(self) -> None:
        if self.next_cta >= self.ncta:
            self.cta, self.finished = None, True
            return
        self.cta = Cta(self, self.next_cta)
        self.next_cta += 1

    def where(self, cta: Cta, w: simt.Warp, pc: int) -> str:
        idx = pc // INSN_BYTES
        text = self.plans[idx].text if 0 <= idx < len(self.plans) and pc % INSN_BYTES == 0 else "?"
        return f"CTA {cta.linear} warp {w.index} pc {pc:#x} ({text})"

    def _pick(self) -> tuple[Cta, simt.Warp]:
        """The warp whose turn it is, opening a barrier or starting the next CTA as needed."""
        while self.cta is not None:
            cta = self.cta
            ws = cta.warps
            for k in range(len(ws)):
                w = ws[(cta.turn + k) % len(ws)]
                if not w.done and not w.at_barrier:
                    cta.turn = (w.index + 1) % len(ws)
                    return cta, w
            waiting = [w for w in ws if w.at_barrier]
            if waiting:  # every warp that has not finished waits: the barrier opens
                for w in waiting:
                    w.at_barrier = False
                continue
            self._start_cta()
        raise FermiError("step after every CTA finished (launch a grid first)")

    def step(self) -> FermiCommit:
        """Execute the next warp-instruction of the schedule; its commit record."""
        cta, w = self._pick()
        pc = w.pc
        idx = pc // INSN_BYTES
        if pc % INSN_BYTES or not 0 <= idx < len(self.plans):
            raise FermiError(f"CTA {cta.linear} warp {w.index}: pc {pc:#x} is outside the program of {len(self.plans)} instructions "
                             "(end every path with EXIT)")  # fmt: skip
        plan = self.plans[idx]
        insn = plan.insn
        active = w.active
        ex = mask_bits(active)
        if plan.guarded:
            g = cta.state.p[insn.guard.n, w.base : w.base + WARP]
            ex = ex & (~g if insn.guard.neg else g)
            exmask = bits_mask(ex)
        else:
            exmask = active
        rec = FermiCommit(w.seq, cta.linear, w.index, pc, insn.word, pc + INSN_BYTES, active, exmask, active, False, text=plan.text)
        x = Exec(self, cta, w, insn, ex, rec)
        w.pc = pc + INSN_BYTES
        try:
            if exmask:  # no lane executes: nothing is read or written (a push needs its guard too)
                plan.run(x, insn)
            if plan.sync and x.exmask:
                w.sync(x.exmask)
        except (memory.Fault, OperandError, simt.StackMisuse, ValueError) as exc:
            raise FermiError(f"{self.where(cta, w, pc)}: {exc}", pc=pc) from None
        rec.exec_mask = x.exmask
        rec.next_pc, rec.next_mask, rec.done = w.pc, w.active, w.done
        w.seq += 1
        self.clock += 1
        if w.done and all(wp.done for wp in cta.warps):
            self._start_cta()
        return rec

    def run(self, max_steps: int = DEFAULT_MAX_STEPS) -> list[FermiCommit]:
        """Step until every CTA has finished; more than max_steps warp-instructions is a runaway."""
        out: list[FermiCommit] = []
        step = self.step
        for _ in range(max_steps):
            if self.finished:
                return out
            out.append(step())
        if self.finished:
            return out
        cta, w = self._pick()
        raise FermiError(f"the program did not end within {max_steps} warp-instructions (next: {self.where(cta, w, w.pc)}): "
                         "check its loops and branches, or raise max_steps")  # fmt: skip
