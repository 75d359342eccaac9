"""A Fermi program of programs/fermi run on the golden model and checked against its `.expect` lines.

    spec = load(path)                 # assemble (golden/fermi/asm.py) and read the directives
    bad = round_trip(spec)            # words -> disassembly -> assembly: the addresses that differ
    result = run(spec)                # launch the model as the program says, run it, check every .expect

The launch is golden/fermi/program.py's (the CUDA runtime's layout of constant banks 0 and 1 and
the buffers in global memory from address 0x100); the checks are golden/isa/expect.py's, the same
for every ISA. A run in which no expectation compared anything has not shown that the program
works, so it fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from golden.errors import USAGE, UserError
from golden.isa.expect import CheckResult, check
from golden.isa.source import AsmError, Line

from .asm import FermiProgram, assemble, assemble_line
from .decode import IllegalWord
from .disasm import DIALECTS, render_word
from .model import FermiError, Machine
from .profile import SM20, FermiProfile
from .program import FermiLaunch, FermiSpec, launch, load_program


def _assemble(source: str, file: str, directives: Any) -> FermiProgram:
    """golden/fermi/asm.py's assembler as golden/isa/program.py calls an ISA's: the directive lines go
    to the program format's sink. A `#size` line is a note cuobjdump prints about a function, not a
    launch directive, so it is dropped here rather than refused as an unknown directive."""

    def sink(name: str, args: str, line: Line) -> None:
        if name != "#size":
            directives(name, args, line)

    return assemble(source, file, directive=sink)


def load(path: str | Path) -> FermiSpec:
    """A program file assembled with its directives applied; AsmError names the file and line,
    UserError a file that cannot be read."""
    try:
        return load_program(path, _assemble)
    except OSError as e:
        raise UserError(f"{path}: cannot read the program: {e.strerror} (give a .sass file of programs/fermi or its path)", USAGE) from None


@dataclass(frozen=True)
class Mismatch:
    """One word whose disassembly does not assemble back to it."""

    addr: int
    dialect: str
    word: int
    text: str  # the word's disassembly ("" when the word is no instruction)
    again: int | None  # the word that text assembled to; None when it did not assemble
    problem: str = ""  # why there is no text or no word

    def __str__(self) -> str:
        head = f"/*{self.addr:04x}*/ {self.word:#018x}"
        if not self.text:
            return f"{head} does not disassemble: {self.problem}"
        if self.again is None:
            return f"{head} disassembles ({self.dialect}) to '{self.text}', which does not assemble: {self.problem}"
        try:
            back = render_word(self.again, self.addr, self.dialect)
        except IllegalWord:
            back = "no instruction"
        return f"{head} disassembles ({self.dialect}) to '{self.text}', which assembles to {self.again:#018x} '{back}'"


def round_trip(words: list[int], dialects: tuple[str, ...] = DIALECTS) -> list[Mismatch]:
    """Each word rendered in each dialect and assembled back at its own address: the words that do
    not come back. Both dialects are tried because they spell some modifiers and operands
    differently (FERMI.md, "cuobjdump text"), and each spelling must name the same bits."""
    out: list[Mismatch] = []
    for dialect in dialects:
        for i, word in enumerate(words):
            addr = 8 * i
            try:
                text = render_word(word, addr, dialect)
            except IllegalWord as e:
                out.append(Mismatch(addr, dialect, word, "", None, str(e)))
                continue
            try:
                again = assemble_line(text, addr, dialect)
            except AsmError as e:
                out.append(Mismatch(addr, dialect, word, text, None, e.message))
                continue
            except ValueError as e:  # a SyntaxProblem or an encoding the table refuses
                out.append(Mismatch(addr, dialect, word, text, None, getattr(e, "message", str(e))))
                continue
            if again != word:
                out.append(Mismatch(addr, dialect, word, text, again))
    return out


@dataclass
class RunResult:
    """A run's verdict: every expectation checked and the warp-instructions executed."""

    path: str
    checks: list[CheckResult]
    steps: int

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)

    def lines(self) -> list[str]:
        """One line per expectation, then the verdict with the count of expectations compared."""
        out = [f"  {'ok  ' if c.passed else 'FAIL'} {self.path}:{c.line}: .expect {c.buffer}: {c.detail}" for c in self.checks]
        failed = sum(not c.passed for c in self.checks)
        if not self.checks:
            out.append(f"model: FAIL: {self.path} has no .expect line, so the run checked nothing (add one)")
        elif failed:
            out.append(f"model: FAIL: {failed} of {len(self.checks)} expectations failed ({self.steps} warp-instructions)")
        else:
            n = len(self.checks)
            out.append(f"model: PASS: {n} expectation{'s' if n > 1 else ''} checked ({self.steps} warp-instructions)")
        return out


def machine(lau: FermiLaunch, profile: FermiProfile = SM20) -> Machine:
    """A fresh model with the program launched on it: constant banks (which already hold the launch
    dimensions and parameters, golden/fermi/program.py, so the model's own parameter write is given
    nothing to add), global memory from address 0 and the shared size as the launch says."""
    m = Machine(profile)
    m.launch(lau.insns, grid=lau.grid, block=lau.block, const={b: bytes(d) for b, d in lau.const_banks.items()},
             global_mem=bytes(lau.global_memory), shared_size=lau.shared, global_base=0)  # fmt: skip
    return m


def run(spec: FermiSpec, max_steps: int | None = None) -> RunResult:
    """Launch the model as the program's directives say, run it to the end, check every `.expect`.

    The runaway bound is `max_steps`, else the program's `.max_steps`, else the program format's
    default; a run past it, a fault or a stack misuse is a FermiError (a UserError of code FAILURE)
    naming the program, CTA, warp, PC and instruction."""
    bound = max_steps if max_steps is not None else spec.max_steps
    try:
        m = machine(launch(spec))
        steps = _run(m, bound)
    except FermiError as e:  # a fault, stack misuse or bad launch, located by the model at its PC
        raise UserError(f"{source_line(spec, e.pc)}: {e}", e.code) from None
    glob = m.mem.glob

    def read(addr: int, nbytes: int) -> bytes:
        return bytes(glob[addr : addr + nbytes])

    return RunResult(spec.path, check(spec, read), steps)


def source_line(spec: FermiSpec, pc: int | None) -> str:
    """`file:line` of the instruction at byte address `pc` (instruction i sits at 8 i and came from
    the program's i-th instruction line), or the file alone when the PC is not one of them."""
    lines = getattr(spec.program, "lines", [])
    if pc is not None and pc % 8 == 0 and 0 <= pc // 8 < len(lines):
        return f"{spec.path}:{lines[pc // 8].number}"
    return spec.path


def _run(m: Machine, bound: int) -> int:
    """Step the launched machine to the end; the number of warp-instructions. Machine.run keeps every
    commit record, which a kernel of millions of steps does not need, so the records are dropped."""
    step = m.step
    rec = None
    for n in range(bound):
        if m.finished:
            return n
        rec = step()
    if m.finished:
        return bound
    last = f"CTA {rec.cta} warp {rec.warp} pc {rec.pc:#x} ({rec.text})" if rec is not None else "none"
    raise FermiError(f"the program did not end within {bound} warp-instructions (the last: {last}): check its loops "
                     "and branches, or raise .max_steps", pc=rec.pc if rec is not None else None)  # fmt: skip


__all__ = ["Mismatch", "RunResult", "load", "round_trip", "run"]
