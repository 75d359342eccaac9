"""`golden check-listing --isa lg`: listings of `INDEX | 0xWORD | TEXT` rows (testdata/lg).

Each row is checked both ways: the word disassembled must read as TEXT, and TEXT assembled must give
the word. TEXT is the program's own source line, so the comparison forgives what writing may vary:
white space, commas, the case of mnemonics and registers, and the spelling of a number (`255` and
`255.0f` in a float field, `0x10` and `16` in an integer one, are the same number; a label and the
offset it stands for, too). A label is defined by a row whose TEXT starts with `name:`.

A `# float: NAME` comment line before the rows names the float-immediate format the words were
assembled with (golden.lg.asm.FORMATS; default fixed187).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from golden.isa.rows import table_rows
from golden.isa.source import LABEL_RE

from .asm import DEFAULT_FORMAT, OperandError, float_format, parse_instruction, tokens
from .disasm import render
from .table import ALIASES, BY_MNEMONIC, IllegalWord, decode, encode

_FLOAT_HEADER_RE = re.compile(r"\s*#\s*float\s*:\s*(\S+)")
_NUMBER_RE = re.compile(r"([-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))[fF]?$")


@dataclass
class Row:
    file: str
    line: int
    index: int
    word: int
    text: str  # without a label definition
    label: str | None


@dataclass
class Failure:
    row: Row
    message: str

    def format(self) -> str:
        r = self.row
        return f"{r.file}:{r.line}: {r.index} | 0x{r.word:08x} | {r.text}\n    {self.message}"


def read_listing(path: str) -> tuple[list[Row], str]:
    """The rows and the float format of a listing; ValueError names the line of a malformed row."""
    fmt = DEFAULT_FORMAT
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            m = _FLOAT_HEADER_RE.match(raw)
            if m:
                try:
                    fmt = float_format(m.group(1)).name
                except ValueError as e:
                    raise ValueError(f"{path}: {e}") from None
    rows: list[Row] = []
    for number, raw, parts in table_rows(path):
        if len(parts) != 3:
            raise ValueError(f"{path}:{number}: expected 'INDEX | 0xWORD | TEXT', got {raw.strip()!r}")
        try:
            index = int(parts[0], 10)
            word = int(parts[1], 16)
        except ValueError:
            raise ValueError(f"{path}:{number}: bad index or word in {raw.strip()!r} (INDEX decimal, WORD hex)") from None
        if not 0 <= word <= 0xFFFFFFFF:
            raise ValueError(f"{path}:{number}: {parts[1]} is not one 32-bit word")
        text, label = parts[2], None
        m = LABEL_RE.match(text)
        if m:
            label, text = m.group(1), text[m.end() :].strip()
        rows.append(Row(path, number, index, word, text, label))
    return rows, fmt


def _canonical(text: str, index: int, labels: dict[str, int]) -> list[str]:
    """TEXT as comparable tokens: lower case, numbers by value, labels as offsets, aliases expanded."""
    toks = [t.lower() for t, _ in tokens(text)]
    if toks and toks[0] in ALIASES:
        name, fixed = ALIASES[toks[0]]
        toks = [name, *(f"r{v}" for v in fixed.values()), *toks[1:]]
    out = []
    for t in toks[1:]:
        if t in labels:
            t = str(labels[t] - (index + 1))
        m = _NUMBER_RE.match(t)
        if m:
            s = m.group(1)
            t = str(int(s, 16)) if s.lower().lstrip("+-").startswith("0x") else str(Fraction(s))
        out.append(t)
    return toks[:1] + out


def check_rows(rows: list[Row], fmt_name: str) -> tuple[int, list[Failure]]:
    """(passed, failures): words -> text and text -> words for every row."""
    fmt = float_format(fmt_name)
    labels = {r.label: r.index for r in rows if r.label}
    passed = 0
    failures: list[Failure] = []
    for row in rows:
        try:
            insn = decode(row.word)
        except IllegalWord as e:
            failures.append(Failure(row, f"decode: {e}"))
            continue
        got = render(insn, fmt)
        if _canonical(got, row.index, labels) != _canonical(row.text, row.index, labels):
            failures.append(Failure(row, f"disassembly differs:\n      expected: {row.text}\n      got:      {got}"))
            continue
        try:
            op, values = parse_instruction(row.text, fmt, row.index, labels)
        except OperandError as e:
            failures.append(Failure(row, f"assemble {row.text!r}: column {e.col + 1}: {e.message}"))
            continue
        word = encode(op.mnemonic, **values)
        if word != row.word:
            failures.append(Failure(row, f"assembly differs: {row.text!r} assembles to 0x{word:08x}, expected 0x{row.word:08x}"))
            continue
        passed += 1
    return passed, failures


def check_listing(path: str) -> tuple[int, list[Failure]]:
    rows, fmt = read_listing(path)
    return check_rows(rows, fmt)


assert all(m == m.lower() for m in BY_MNEMONIC), "mnemonics compare in lower case"
