"""The assembler engine's ISA-independent steps: splitting an instruction's text, naming the
nearest known spelling, and choosing among the forms a mnemonic may be.

An ISA's assembler (golden.g80.assembler, golden.lg.asm) reads lines with golden.isa.source,
splits each instruction with these functions, and keeps its own rules (G80's 8-byte alignment
promotion and implicit exit marker; LG's float immediate formats) in its own package.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from .syntax import Fields, SyntaxProblem

T = TypeVar("T")

_MNEMONIC_RE = re.compile(r"\s*([A-Za-z][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)")


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """' (did you mean A, B?)' naming up to three close spellings, or '' when none is close."""
    close = difflib.get_close_matches(name, list(known), n=3)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def mnemonic_end(text: str) -> int | None:
    """The column where the mnemonic's base (before any `.suffix`) ends, or None."""
    m = _MNEMONIC_RE.match(text)
    return m.end(1) if m else None


def split_mnemonic(text: str) -> tuple[str, list[str], str, int]:
    """'IADD.C0 R0, R1, R2' -> ('IADD', ['C0'], ' R0, R1, R2', column of the rest)."""
    m = _MNEMONIC_RE.match(text)
    if not m:
        raise SyntaxProblem(0, f"expected an instruction mnemonic, got {text.strip()!r}")
    suffixes = [s for s in m.group(2).split(".") if s]
    return m.group(1), suffixes, text[m.end() :], m.end()


def split_operands(text: str, col: int) -> list[tuple[str, int]]:
    """Split at commas outside brackets and parentheses; each piece keeps its column."""
    if not text.strip():
        return []
    out: list[tuple[str, int]] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append((text[start:i], col + start))
            start = i + 1
    out.append((text[start:], col + start))
    trimmed = []
    for piece, pcol in out:
        if not piece.strip():
            raise SyntaxProblem(pcol, "empty operand")
        lead = len(piece) - len(piece.lstrip())
        trimmed.append((piece.strip(), pcol + lead))
    return trimmed


def first_that_parses(forms: Sequence[T], parse: Callable[[T], Fields], lead: int) -> tuple[T, Fields]:
    """The first form whose spelling parses the text. When none does, the problem raised is the one
    that got furthest into the text (the likeliest intended form's complaint); a column of -1
    ("in the mnemonic") counts as `lead`."""
    best: SyntaxProblem | None = None
    for form in forms:
        try:
            return form, parse(form)
        except SyntaxProblem as e:
            col = lead if e.col < 0 else e.col
            problem = SyntaxProblem(col, e.message)
            if best is None or problem.col > best.col:
                best = problem
    if best is None:
        raise SyntaxProblem(lead, "no form to parse with")
    raise best
