"""The listing format of testdata/vectors/listings (nvcc listings), and `check-listing`.

Rows are `addr | word0 [word1] | NVIDIA text | envytools text`; `#` lines are comments. A
listing may hold several kernels: addresses starting again from a lower value begin a new one.
Each kernel is one program, so its last instruction's exit marker is implicit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..isa.rows import table_rows
from .assembler import AsmError, parse_instruction
from .decoder import IllegalInstruction, Instruction, decode
from .disassembler import ends_with_exit
from .form import LONG, MARK_EXIT
from .syntax import ParseContext, SyntaxProblem


@dataclass
class Row:
    file: str
    line: int
    addr: int
    words: tuple[int, ...]
    nvidia: str
    envytools: str


def read_listing(path: str) -> list[Row]:
    rows = []
    for number, raw, parts in table_rows(path):
        if len(parts) < 3:
            raise ValueError(f"{path}:{number}: expected 'addr | words | text [| text]', got {raw.strip()!r}")
        try:
            addr = int(parts[0], 16)
            words = tuple(int(w, 16) for w in parts[1].split())
        except ValueError:
            raise ValueError(f"{path}:{number}: bad address or words in {raw.strip()!r}") from None
        if len(words) not in (1, 2):
            raise ValueError(f"{path}:{number}: expected one or two words, got {len(words)}")
        rows.append(Row(path, number, addr, words, parts[2], parts[3] if len(parts) > 3 else ""))
    return rows


def kernels(rows: list[Row]) -> Iterator[list[Row]]:
    current: list[Row] = []
    for row in rows:
        if current and row.addr <= current[-1].addr:
            yield current
            current = []
        current.append(row)
    if current:
        yield current


_HEX_RE = re.compile(r"0x[0-9a-fA-F]+")


def normalise(text: str) -> str:
    """White space normalised: runs collapse, spaces next to punctuation go; hex digits lower-case."""
    t = text.strip().rstrip(";").strip()
    t = _HEX_RE.sub(lambda m: m.group(0).lower(), t)
    t = re.sub(r"\s+", " ", t)
    return re.sub(r"\s*([^\w\s.])\s*", r"\1", t)


@dataclass
class Failure:
    row: Row
    message: str

    def format(self) -> str:
        words = " ".join(f"{w:08x}" for w in self.row.words)
        return f"{self.row.file}:{self.row.line}: {self.row.addr:04x} | {words} | {self.row.nvidia}\n    {self.message}"


def check_rows(rows: list[Row]) -> tuple[int, list[Failure]]:
    """(passed, failures) over every row of one listing."""
    passed = 0
    failures: list[Failure] = []
    for kernel in kernels(rows):
        decoded: list[Instruction | None] = []
        for row in kernel:
            try:
                insn = decode(row.words, row.addr)
                if insn.size // 4 != len(row.words):
                    raise IllegalInstruction(row.words, row.addr, f"{insn.size}-byte instruction given {len(row.words)} words")
                decoded.append(insn)
            except IllegalInstruction as e:
                decoded.append(None)
                failures.append(Failure(row, f"decode: {e.reason}"))
        good = [d for d in decoded if d is not None]
        implicit_end = bool(good) and decoded[-1] is not None and ends_with_exit(good)
        for i, (row, insn) in enumerate(zip(kernel, decoded, strict=True)):
            if insn is None:
                continue
            last = i == len(kernel) - 1
            problem = _check_row(row, insn, last, implicit_end)
            if problem:
                failures.append(Failure(row, problem))
            else:
                passed += 1
    return passed, failures


def _check_row(row: Row, insn: Instruction, last: bool, implicit_end: bool) -> str | None:
    text = insn.render(implicit_exit=last and implicit_end)
    if row.nvidia:
        if normalise(text) != normalise(row.nvidia):
            return f"disassembly differs:\n      expected: {row.nvidia}\n      got:      {text}"
        source = row.nvidia
    else:
        source = text
    try:
        form, fields = parse_instruction(source, ParseContext(pc=row.addr, first_pass=True))
    except SyntaxProblem as e:
        return f"assemble {source!r}: column {e.col + 1}: {e.message}"
    except AsmError as e:
        return f"assemble {source!r}: {e.message}"
    # The end of a kernel: cuobjdump leaves the exit marker unprinted (assembler rule).
    if last and form.fmt == LONG and fields.get("marker", 0) == 0 and (row.nvidia or implicit_end):
        fields["marker"] = MARK_EXIT
    try:
        word = form.encode(fields)
    except ValueError as e:
        return f"assemble {source!r}: {e}"
    words = (word & 0xFFFFFFFF,) if form.size == 4 else (word & 0xFFFFFFFF, word >> 32)
    if words != row.words:
        got = " ".join(f"{w:08x}" for w in words)
        want = " ".join(f"{w:08x}" for w in row.words)
        what = "round trip" if not row.nvidia else "assembly"
        return f"{what} differs: {source!r} assembles to {got}, expected {want}"
    return None
