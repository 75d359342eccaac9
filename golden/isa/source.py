"""Source-text machinery every ISA's assembler shares: the located error, comment stripping, the
split of a line into labels, a directive or an instruction, and the label table.

An ISA's assembler keeps only what is its own (mnemonics, operand syntax, encoding); the way an
error names its place (`file:line:col: error: message` with the line and a caret under the
column) and the rules for labels are the same for every ISA, so a user reads one error format.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


class AsmError(Exception):
    """Assembly error naming file, line and column (1-based) and what was expected."""

    def __init__(self, message: str, file: str = "<input>", line: int = 0, col: int = 0, source: str = "") -> None:
        self.message, self.file, self.line, self.col, self.source = message, file, line, col, source
        super().__init__(self.format())

    def format(self) -> str:
        head = f"{self.file}:{self.line}:{self.col}: error: {self.message}"
        if self.source:
            caret = " " * max(self.col - 1, 0) + "^"
            return f"{head}\n    {self.source}\n    {caret}"
        return head


@dataclass(frozen=True)
class CommentRules:
    """How one ISA's source marks comments.

    line: markers that end the text of a line; directive_text: those of them that are text, not a
    comment, on a directive line (G80's `.expect` expressions use Python's `//`); block: whether
    `/* ... */` comments exist; terminator: a character that may end an instruction, with only a
    comment after it (cuobjdump's `;`), or None."""

    line: tuple[str, ...] = ("//", "#")
    directive_text: tuple[str, ...] = ("//",)
    block: bool = True
    terminator: str | None = ";"
    terminator_hint: str = "one instruction a line; comments start with // or #"


_DIRECTIVE_LINE_RE = re.compile(r"\s*(?:[A-Za-z_.$][\w.$]*\s*:\s*)*\.")


def strip_comments(lines: Iterable[str], file: str = "<input>", rules: CommentRules | None = None) -> Iterable[tuple[int, str, str]]:
    """(line number, original line, text without comments and the terminator)."""
    rules = rules or CommentRules()
    in_block = False
    for number, source in enumerate(lines, 1):
        text = ""
        i = 0
        directive = not in_block and bool(_DIRECTIVE_LINE_RE.match(source))
        while i < len(source):
            if in_block:
                end = source.find("*/", i)
                if end < 0:
                    i = len(source)
                    break
                i = end + 2
                in_block = False
                text += " " * 2
                continue
            if rules.block and source.startswith("/*", i):
                in_block = True
                text += "  "
                i += 2
                continue
            if any(source.startswith(m, i) and not (directive and m in rules.directive_text) for m in rules.line):
                break
            text += source[i]
            i += 1
        text = text.rstrip()
        if rules.terminator and rules.terminator in text:
            text, _, after = text.partition(rules.terminator)
            if after.strip():
                raise AsmError(f"unexpected text after {rules.terminator!r} ({rules.terminator_hint})",
                               file, number, len(text) + 2, source.rstrip("\n"))  # fmt: skip
            text = text.rstrip()
        yield number, source.rstrip("\n"), text


@dataclass
class Line:
    file: str
    number: int
    source: str  # the original line, for error carets
    text: str  # the instruction text (comments and labels removed)
    col: int  # column of `text` in `source` (0-based)
    labels: list[str] = field(default_factory=list)


LABEL_RE = re.compile(r"\s*([A-Za-z_.$][\w.$]*)\s*:(?!:)")


def read_lines(source: str, file: str, rules: CommentRules | None = None) -> tuple[list[Line], list[tuple[str, str, Line]]]:
    """The instruction lines (each with the labels that name it) and the directives `(name, args,
    line)` of a source text. A label names the next instruction, so it may stand on a line of its own."""
    out: list[Line] = []
    directives: list[tuple[str, str, Line]] = []
    pending: list[str] = []
    for number, original, text in strip_comments(source.splitlines(), file, rules):
        col = 0
        while True:
            m = LABEL_RE.match(text, col)
            if not m:
                break
            pending.append(m.group(1))
            col = m.end()
        body = text[col:]
        if not body.strip():
            continue
        stripped = body.lstrip()
        col += len(body) - len(stripped)
        line = Line(file, number, original, stripped, col, pending)
        if stripped.startswith("."):
            name, _, args = stripped[1:].partition(" ")
            if pending:
                raise AsmError("a label must be followed by an instruction, not a directive", file, number, col + 1, original)
            directives.append((name.lower(), args.strip(), line))
            continue
        out.append(line)
        pending = []
    if pending:
        last = out[-1] if out else None
        number = last.number if last else 0
        raise AsmError(f"label {pending[0]!r} at the end of the program labels no instruction", file, number, 1)
    return out, directives


def label_table(lines: Sequence[Line], addrs: Sequence[int]) -> dict[str, int]:
    """Each label's address (the address of the instruction it names); a label defined twice is an error."""
    labels: dict[str, int] = {}
    for line, addr in zip(lines, addrs, strict=True):
        for label in line.labels:
            if label in labels:
                raise AsmError(f"label {label!r} defined twice", line.file, line.number, 1, line.source)
            labels[label] = addr
    return labels
