"""The operand syntax protocol every ISA's spelling pieces follow, and the pieces any ISA can use.

A form spells itself with a mnemonic, modifier groups (`Mods`) and operands (`Operand`). Each
piece works both ways: `render(fields)` gives text, `parse(text, col, fields, ctx)` fills the
fields from text (raising `SyntaxProblem` with a column), and `check(fields)` says what is wrong
with a decoded word that has no spelling. The pieces know nothing of bit positions; they read and
write named fields whose positions the ISA's table gives. An ISA's own operand kinds (registers,
memory operands, condition names) live in its package and subclass `Operand`.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

Fields = dict[str, int]


class SyntaxProblem(Exception):
    """Text that does not fit a form: `col` is the 0-based column in the operand text."""

    def __init__(self, col: int, message: str) -> None:
        super().__init__(message)
        self.col = col
        self.message = message


# ---------------------------------------------------------------------------------------------
# numbers


NUMBER = r"[+-]?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|nan)"
NUMBER_RE = re.compile(NUMBER + r"$", re.IGNORECASE)


def parse_int(text: str, col: int, what: str = "a number") -> int:
    t = text.strip()
    if not re.fullmatch(r"[+-]?(?:0[xX][0-9a-fA-F]+|\d+)", t):
        raise SyntaxProblem(col, f"expected {what} (hex 0x.. or decimal), got {t!r}")
    return int(t, 0)


def float_bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


def hexs(value: int) -> str:
    return f"-0x{-value:x}" if value < 0 else f"0x{value:x}"


# ---------------------------------------------------------------------------------------------
# helpers over field dicts


Cond = tuple[str, object]  # (field, value) or (field, frozenset of values)


def holds(f: Fields, cond: Cond | None) -> bool:
    if cond is None:
        return False
    name, want = cond
    if isinstance(want, frozenset):
        return f.get(name, 0) in want
    return f.get(name, 0) == want


def force(f: Fields, cond: Cond, col: int, what: str) -> None:
    """Set the field of `cond` so that it holds (the first value of a set)."""
    name, want = cond
    value = min(want) if isinstance(want, frozenset) else want
    assert isinstance(value, int)
    if name in f and f[name] != value and not holds(f, cond):
        raise SyntaxProblem(col, f"{what} conflicts with what the rest of the instruction says")
    f[name] = value


def clear(f: Fields, cond: Cond | None) -> None:
    """Record that `cond` does not hold, unless something already made it hold."""
    if cond is None:
        return
    name, want = cond
    if name in f:
        return
    if isinstance(want, frozenset) or want not in (0, 1):
        return  # a multi-valued field is decided by whoever owns it (or defaults to 0)
    f[name] = 1 - want


# ---------------------------------------------------------------------------------------------
# modifier groups


@dataclass
class Mods:
    """One group of mnemonic suffixes: each option is a spelling and the field values it means.

    Rendering picks the first option whose field values all hold; a word for which none holds
    has no spelling (an illegal encoding). Parsing takes the longest option whose suffixes come
    next, or the option spelt "" when none does.
    """

    options: list[tuple[str, Fields]]
    what: str = "modifier"

    def render(self, f: Fields) -> str | None:
        for text, values in self.options:
            if all(f.get(k, 0) == v for k, v in values.items()):
                return text
        return None

    def check(self, f: Fields) -> str | None:
        if self.render(f) is None:
            names = sorted({k for _, values in self.options for k in values})
            shown = ", ".join(f"{k}={f.get(k, 0)}" for k in names)
            return f"no {self.what} spelling for {shown}"
        return None

    def parse(self, suffixes: list[str], i: int, f: Fields) -> int:
        best: tuple[int, Fields] | None = None
        for text, values in self.options:
            parts = [p for p in text.split(".") if p]
            n = len(parts)
            matched = n and [s.upper() for s in suffixes[i : i + n]] == [p.upper() for p in parts]
            if matched and (best is None or n > best[0]):
                best = (n, values)
        if best is None:
            for text, values in self.options:
                if not text:
                    best = (0, values)
                    break
        if best is None:
            got = "." + suffixes[i] if i < len(suffixes) else "nothing"
            spellings = " ".join(t for t, _ in self.options)
            raise SyntaxProblem(0, f"expected {self.what} ({spellings}), got {got}")
        for k, v in best[1].items():
            if k in f and f[k] != v:
                raise SyntaxProblem(0, f"{self.what} conflicts with an earlier modifier")
            f[k] = v
        return i + best[0]

    def fields(self) -> set[str]:
        return {k for _, values in self.options for k in values}


def flag(suffix: str, name: str, what: str | None = None) -> Mods:
    return Mods([(suffix, {name: 1}), ("", {name: 0})], what or suffix)


def choice(name: str, spellings: dict[int, str], what: str) -> Mods:
    return Mods([(text, {name: value}) for value, text in spellings.items()], what)


# ---------------------------------------------------------------------------------------------
# operands


class Operand:
    optional = False
    trailing = False  # optional only by being left out at the end: present, it must parse
    role = ""

    def render(self, f: Fields) -> str:
        raise NotImplementedError

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        raise NotImplementedError

    def check(self, f: Fields) -> str | None:
        return None

    def default(self, f: Fields) -> None:
        """Field values when an optional operand is left out."""

    def fields(self) -> set[str]:
        return set()

    def describe(self, f: Fields) -> object:
        """A structured view of the operand for the models (see operands.py)."""
        return None


@dataclass
class ParseContext:
    """What an operand parser may need from the assembler: label lookup and the current PC."""

    pc: int = 0
    labels: dict[str, int] | None = None
    first_pass: bool = False

    def resolve(self, name: str, col: int) -> int:
        if self.labels is not None and name in self.labels:
            return self.labels[name]
        if self.first_pass:
            return 0
        raise SyntaxProblem(col, f"undefined label {name!r}")
