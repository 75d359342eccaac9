"""`golden check-listing --isa fermi`: cuobjdump listings of sm_20 code, either CUDA version's.

Three row formats are read, each line on its own (function headers, `.headerflags`, the dotted
end-of-function lines and `#` comments are skipped):

- CUDA 4.x: `/*0008*/ /*0x00005de428004404*/ MOV R1, c [0x1] [0x100];` -- the hex is word0 (the
  low half) then word1, as that cuobjdump prints them;
- CUDA 5 and later: `/*0018*/ S2R R0, SR_CTAID.X; /* 0x2c00000094001c04 */` -- the hex is the
  64-bit value (high half first);
- the table `ADDR | 0xWORD64 | TEXT` of golden.isa.rows, the 64-bit value high half first.

A file's dialect is the one given, else the one its rows' format says (CUDA 4.x or 5), else (a
table) the one its texts show (golden.fermi.asm.detect_dialect). Each row is checked both ways:
the word decoded at its address must print as its text (white space aside), and the text must
assemble to the word. A word that does not decode but does with its halves swapped is reported as
the other CUDA version's word order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from golden.isa.rows import split_columns
from golden.isa.source import AsmError

from .asm import assemble_line, detect_dialect
from .decode import IllegalWord, decode
from .disasm import DIALECTS, render_word

_CUDA4_RE = re.compile(r"\s*/\*([0-9a-fA-F]{4,})\*/\s*/\*0x([0-9a-fA-F]{16})\*/\s*(.*?);?\s*$")
_CUDA5_RE = re.compile(r"\s*/\*([0-9a-fA-F]{4,})\*/\s*(.*?);\s*/\*\s*0x([0-9a-fA-F]{16})\s*\*/\s*$")
_SKIP_RE = re.compile(r"\s*($|#|//|code for|Function\s*:|\.headerflags|\.+\s*$|/\*\s*0x[0-9a-fA-F]{16}\s*\*/\s*$|[=A-Za-z_ ]+=)")


@dataclass
class Row:
    file: str
    line: int
    addr: int
    word: int
    text: str
    fmt: str  # "cuda4", "cuda5" or "table": where the row came from


@dataclass
class Failure:
    row: Row
    message: str

    def format(self) -> str:
        r = self.row
        return f"{r.file}:{r.line}: /*{r.addr:04x}*/ 0x{r.word:016x} {r.text}\n    {self.message}"


def _swap(word: int) -> int:
    return (word & 0xFFFFFFFF) << 32 | word >> 32


def read_listing(path: str) -> list[Row]:
    """Every instruction row of a listing; ValueError names the first line that is none of the formats."""
    rows: list[Row] = []
    with open(path, encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            m = _CUDA4_RE.match(raw)
            if m:
                half = m.group(2)
                word = int(half[8:], 16) << 32 | int(half[:8], 16)
                rows.append(Row(path, number, int(m.group(1), 16), word, m.group(3).strip(), "cuda4"))
                continue
            m = _CUDA5_RE.match(raw)
            if m:
                rows.append(Row(path, number, int(m.group(1), 16), int(m.group(3), 16), m.group(2).strip(), "cuda5"))
                continue
            if " | " in raw and not raw.lstrip().startswith("#"):
                parts = split_columns(raw)
                if len(parts) != 3:
                    raise ValueError(f"{path}:{number}: expected 'ADDR | 0xWORD64 | TEXT', got {raw.strip()!r}")
                try:
                    addr, word = int(parts[0], 16), int(parts[1], 16)
                except ValueError:
                    raise ValueError(f"{path}:{number}: bad address or word in {raw.strip()!r} (both hex)") from None
                if not 0 <= word < 1 << 64:
                    raise ValueError(f"{path}:{number}: {parts[1]} is not one 64-bit word")
                rows.append(Row(path, number, addr, word, parts[2].rstrip(";").strip(), "table"))
                continue
            if _SKIP_RE.match(raw):
                continue
            raise ValueError(f"{path}:{number}: not a cuobjdump row (CUDA 4.x, CUDA 5) or an 'ADDR | 0xWORD | TEXT' row: {raw.strip()!r}")
    return rows


def file_dialect(rows: list[Row]) -> str:
    """The dialect the rows' format (or, for a table, their text) shows."""
    formats = {r.fmt for r in rows} - {"table"}
    if len(formats) == 1:
        return formats.pop()
    return detect_dialect("\n".join(r.text for r in rows))


def _norm(text: str) -> str:
    return " ".join(text.replace(" ,", ",").split())


def check_rows(rows: list[Row], dialect: str | None = None) -> tuple[int, list[Failure]]:
    """(passed, failures): words -> text and text -> words for every row."""
    if dialect is not None and dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r} (use {' or '.join(DIALECTS)})")
    if not rows:
        return 0, []
    dia = dialect or file_dialect(rows)
    passed = 0
    failures: list[Failure] = []
    for row in rows:
        try:
            decode(row.word, row.addr)
            got = render_word(row.word, row.addr, dia)
        except IllegalWord as e:
            hint = ""
            try:
                decode(_swap(row.word), row.addr)
                hint = " (with its halves swapped it decodes: is this the other CUDA version's word order?)"
            except IllegalWord:
                pass
            failures.append(Failure(row, f"decode: {e}{hint}"))
            continue
        if _norm(got) != _norm(row.text):
            failures.append(Failure(row, f"disassembly differs:\n      expected: {row.text}\n      got:      {got}"))
            continue
        try:
            word = assemble_line(row.text, row.addr, dia)
        except AsmError as e:
            failures.append(Failure(row, f"assemble: column {e.col}: {e.message}"))
            continue
        if word != row.word:
            failures.append(Failure(row, f"assembly differs: {row.text!r} assembles to 0x{word:016x}, expected 0x{row.word:016x}"))
            continue
        passed += 1
    return passed, failures


def check_listing(path: str, dialect: str | None = None) -> tuple[int, list[Failure]]:
    return check_rows(read_listing(path), dialect)
