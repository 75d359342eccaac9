"""The LG golden model: load an image, step one instruction at a time, get its commit record.

    m = Machine(SEED)
    m.load(words, data)
    rec = m.step()            # one retired instruction -> LgCommit
    recs = m.run(max_steps)   # until halt or the PC leaves the program

Decoding is lazy and cached per instruction index, so a word that is never executed is never
judged, and a loop costs one dict-free tuple lookup per step after its first pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from golden.errors import FAILURE, USAGE, UserError
from golden.lg import table
from golden.lg.commit import LgCommit
from golden.lg.fixed import MASK16, MASK32, s16
from golden.lg.profile import SEED, LgProfile
from golden.lg.semantics import FLOAT_REGS, ROUTINES
from golden.lg.state import MEM_BYTES, LgState

DEFAULT_MAX_STEPS = 1_000_000


class LgError(UserError):
    """A program the LG model cannot run (an illegal word, a write to R15, a misaligned jump) or one
    that does not end; one line that names the instruction (index, PC, word)."""

    def __init__(self, message: str, code: int = USAGE) -> None:
        super().__init__(message, code)


@dataclass
class Frame:
    """A frame as shown: at a draw, or the frame buffer when the program ended."""

    seq: int  # the commit that showed it
    reason: str  # "draw" or "final"
    rgb: np.ndarray  # (400, 640, 3) uint8


class Machine:
    """One LG GPU under a profile."""

    def __init__(self, profile: LgProfile = SEED) -> None:
        self.p = profile
        self.fixed = profile.arith == "fixed"
        self.unit = 4 if profile.pc_unit == "byte" else 1
        self.imask = MASK16 if profile.int_bits == 16 else MASK32
        # R0-R7 and R15 are integer registers (int_bits wide), R8-R14 float registers (16 bits)
        self.rmask = [MASK16 if r in FLOAT_REGS else self.imask for r in range(16)]
        if profile.cc_order == "n0z1p2":
            self.cc_n, self.cc_z, self.cc_p = 1, 2, 4
        else:
            self.cc_n, self.cc_z, self.cc_p = 4, 2, 1
        # the branch opcode's 3 bits name N (4), Z (2), P (1): the CC bits they test, in this order
        self.br_mask = [(self.cc_n if b & 4 else 0) | (self.cc_z if b & 2 else 0) | (self.cc_p if b & 1 else 0) for b in range(8)]
        self.words: list[int] = []
        self._data = b""
        self.st = LgState(profile)
        self.reset()

    # -- image ------------------------------------------------------------------------------------

    def reset(self) -> None:
        """Registers, CC, memory and graphics to their reset values; the program stays loaded and its
        data memory is laid again."""
        self.st.reset()
        self.seq = 0
        self.next = 0
        self.done = False
        self.frames: list[Frame] = []
        self._cache: list[tuple[Callable[..., None], table.Insn] | None] = [None] * len(self.words)
        self.st.mem[:len(self._data)] = self._data

    def load(self, words: Sequence[int], data: bytes = b"") -> None:
        """An image: instruction words (instruction i at index i, byte address 4 i) and the initial
        data memory from address 0."""
        for n, w in enumerate(words):
            if not isinstance(w, int) or not 0 <= w <= MASK32:
                raise LgError(f"instruction {n}: {w!r} is not a 32-bit word (give the image's words as integers 0..0xffffffff)")
        if len(data) > MEM_BYTES:
            raise LgError(f"data memory image of {len(data)} bytes is larger than the {MEM_BYTES} the LG GPU has (shorten it)")
        self.words = list(words)
        self._data = bytes(data)
        self.reset()

    # -- helpers the semantic routines call --------------------------------------------------------

    def where(self, pc: int | None = None) -> str:
        pc = self.st.pc if pc is None else pc
        idx = pc // self.unit
        word = f" {self.words[idx]:#010x}" if 0 <= idx < len(self.words) else ""
        return f"instruction {idx} (pc {pc:#06x}){word}"

    def set_cc(self, cc: int, c: LgCommit) -> None:
        self.st.cc = c.cc = cc

    def _cc_of(self, v: int) -> int:
        # CC from the value's low 16 bits as a signed number (seed SetCC; TA casts to int16_t)
        v = s16(v)
        return self.cc_n if v < 0 else self.cc_z if v == 0 else self.cc_p

    def write_r(self, r: int, v: int, c: LgCommit, setcc: bool) -> None:
        """Write the integer view (the only one under fixed arithmetic) of register r."""
        if r == 15:
            raise LgError(f"{self.where()}: {c.text} writes r15, the PC (write another register)")
        v &= self.rmask[r]
        self.st.r[r] = v
        c.rd, c.rd_val = r, v
        if setcc:
            self.st.cc = c.cc = self._cc_of(v)

    def write_f(self, r: int, x: float, c: LgCommit) -> None:
        """Write the float view of register r and set CC from its sign (TA SetConditionCodeFloat)."""
        if r == 15:
            raise LgError(f"{self.where()}: {c.text} writes r15, the PC (write another register)")
        self.st.f[r] = x
        c.rd, c.rd_val = r, x
        self.st.cc = c.cc = self.cc_n if x < 0 else self.cc_z if x == 0 else self.cc_p

    def save_frame(self, reason: str) -> None:
        self.frames.append(Frame(self.seq, reason, self.st.fb.copy()))

    # -- execution ---------------------------------------------------------------------------------

    def _decode(self, idx: int) -> tuple[Callable[..., None], table.Insn]:
        try:
            insn = table.decode(self.words[idx])
        except table.IllegalWord as exc:
            raise LgError(f"instruction {idx} (pc {self.st.pc:#06x}): illegal word: {exc} (fix the program image)") from None
        entry = (ROUTINES[insn.op.family], insn)
        self._cache[idx] = entry
        return entry

    def step(self) -> LgCommit:
        """Execute one instruction; its commit record."""
        if self.done:
            raise LgError(f"step after the program ended at commit {self.seq - 1} (reset or load a program first)", FAILURE)
        st = self.st
        pc = st.pc
        idx = pc // self.unit
        entry = self._cache[idx] if idx < len(self._cache) else None
        if entry is None:
            if idx >= len(self.words):
                raise LgError(f"pc {pc:#06x} is outside the program of {len(self.words)} instructions (load a program)", FAILURE)
            entry = self._decode(idx)
        fn, insn = entry
        nxt = (pc + self.unit) & MASK16
        self.next = nxt
        st.r[15] = nxt  # R15 reads give the address of the next instruction (seed BR note)
        c = LgCommit(self.seq, pc, insn.word, nxt, text=insn.op.mnemonic)
        fn(self, insn, c)
        nxt = self.next
        if nxt % self.unit:
            raise LgError(f"{self.where(pc)}: {c.text} jumps to {nxt:#06x}, which is not a multiple of 4 (jump to an instruction's address)", FAILURE)
        c.next_pc = st.pc = nxt
        if not c.done and not 0 <= nxt // self.unit < len(self.words):
            c.done = True  # ran off the program (TA: the run ends when the PC leaves it)
        self.seq += 1
        if c.done:
            self.done = True
            self.save_frame("final")
        return c

    def run(self, max_steps: int = DEFAULT_MAX_STEPS) -> list[LgCommit]:
        """Step until the program ends; more than max_steps instructions is a runaway (one error)."""
        out: list[LgCommit] = []
        step = self.step
        for _ in range(max_steps):
            c = step()
            out.append(c)
            if c.done:
                return out
        raise LgError(f"the program did not end within {max_steps} instructions (at {self.where()}): "
                      "check its loops or raise the step limit", FAILURE)
