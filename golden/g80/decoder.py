"""G80 words -> Instruction, and back (on the generic decoder of golden.isa.decoder).

A word is decoded by the one form of its format whose identifying fields match; then every
bit must belong to a field of that form, the fields must have a spelling, and the spelling must
assemble to the same word. Anything else is an IllegalInstruction that names the word(s), the
address and what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from ..isa.bits import bits_to_str
from ..isa.decoder import Decoder
from .form import CTRL, IMM, LONG, SCTRL, SHORT, Form
from .syntax import Fields, ParseContext, SyntaxProblem
from .table import ABSENT, FORMS

# G80's words say their format first (w0[1:0], w1[1:0]), so the forms are matched within a format
DECODER: Decoder[Form] = Decoder(FORMS, key=lambda form: form.fmt)
BY_FORMAT = DECODER.groups  # format -> its forms

WORD_MASK = {SHORT: 0xFFFFFFFF, SCTRL: 0xFFFFFFFF, LONG: (1 << 64) - 1, IMM: (1 << 64) - 1, CTRL: (1 << 64) - 1}


class IllegalInstruction(Exception):
    """A word (pair) that is not a legal SM_1.0 compute instruction."""

    def __init__(self, words: Sequence[int], addr: int | None, reason: str) -> None:
        self.words = tuple(words)
        self.addr = addr
        self.reason = reason
        where = f" at 0x{addr:04x}" if addr is not None else ""
        hexwords = " ".join(f"{w:08x}" for w in self.words)
        super().__init__(f"illegal instruction{where} ({hexwords}): {reason}")


@dataclass(frozen=True)
class Instruction:
    form: Form
    fields: dict[str, int]
    addr: int | None = None

    @cached_property
    def word(self) -> int:
        return self.form.encode(self.fields)

    @property
    def words(self) -> tuple[int, ...]:
        w = self.word
        return (w & 0xFFFFFFFF,) if self.size == 4 else (w & 0xFFFFFFFF, w >> 32)

    @property
    def size(self) -> int:
        return self.form.size

    @property
    def name(self) -> str:
        return self.form.name

    @property
    def marker(self) -> int:
        return self.fields.get("marker", 0)

    @cached_property
    def text(self) -> str:
        return self.form.render(self.fields)

    def render(self, implicit_exit: bool = False) -> str:
        """Text; with implicit_exit, an exit marker is left unprinted (end of a program)."""
        if implicit_exit and self.marker == 1:
            return self.form.render({**self.fields, "marker": 0})
        return self.text

    @cached_property
    def operands(self) -> list[tuple[str, object]]:
        return self.form.describe(self.fields)

    def __str__(self) -> str:
        return self.text


def fmt_of(w0: int, w1: int | None = None) -> str:
    low = w0 & 3
    if low == 0:
        return SHORT
    if low == 2:
        return SCTRL
    if low == 3:
        return CTRL
    if w1 is None:
        return LONG
    return IMM if w1 & 3 == 3 else LONG


def size_of(w0: int) -> int:
    return 4 if w0 & 1 == 0 else 8


def decode(words: Sequence[int], addr: int | None = None) -> Instruction:
    """Decode the instruction at the start of `words` (one word for a short form, two otherwise)."""
    if not words:
        raise IllegalInstruction((), addr, "no instruction word")
    w0 = words[0]
    if not 0 <= w0 <= 0xFFFFFFFF:
        raise IllegalInstruction((w0 & 0xFFFFFFFF,), addr, f"{w0:#x} is not a 32-bit word")
    if size_of(w0) == 8:
        if len(words) < 2:
            raise IllegalInstruction((w0,), addr, "64-bit instruction (bit 0 of word0 set) without its second word")
        w1 = words[1]
        if not 0 <= w1 <= 0xFFFFFFFF:
            raise IllegalInstruction((w0,), addr, f"{w1:#x} is not a 32-bit word")
        if addr is not None and addr % 8:
            raise IllegalInstruction((w0, w1), addr, "64-bit instruction at an address that is not 8-byte aligned")
        return _decode(w0 | w1 << 32, (w0, w1), fmt_of(w0, w1), addr)
    return _decode(w0, (w0,), fmt_of(w0), addr)


def _decode(word: int, words: tuple[int, ...], fmt: str, addr: int | None) -> Instruction:
    form = DECODER.match(word, fmt)
    if form is None:
        raise IllegalInstruction(words, addr, _why_no_form(word, fmt))
    stray = form.stray(word, WORD_MASK[fmt])
    if stray:
        raise IllegalInstruction(words, addr, f"{form.name}: bits {bits_to_str(stray)} are set but mean nothing")
    fields = form.extract(word)
    problems = form.problems(fields)
    if problems:
        raise IllegalInstruction(words, addr, f"{form.name}: " + "; ".join(problems))
    insn = Instruction(form, fields, addr)
    _check_round_trip(insn, word, words, addr)
    return insn


def _check_round_trip(insn: Instruction, word: int, words: tuple[int, ...], addr: int | None) -> None:
    """The text must assemble back to the same word; bits it cannot express make the word illegal."""
    from .assembler import split_mnemonic, split_operands

    text = insn.text
    _, suffixes, rest, rest_col = split_mnemonic(text)
    try:
        fields = insn.form.parse(suffixes, split_operands(rest, rest_col), ParseContext(pc=addr or 0, first_pass=True))
        again = insn.form.encode(fields)
    except (SyntaxProblem, ValueError) as e:
        raise IllegalInstruction(words, addr, f"{insn.form.name}: no faithful spelling ({e})") from None
    if again != word:
        diff = (again ^ word) & WORD_MASK[insn.form.fmt]
        raise IllegalInstruction(
            words, addr, f"{insn.form.name}: bits {bits_to_str(diff)} cannot be expressed in {text!r}"
        )


def _why_no_form(word: int, fmt: str) -> str:
    op = (word >> 28) & 0xF
    sec = (word >> 61) & 0x7 if fmt == LONG else None
    for key in ((fmt, op, sec), (fmt, op, None)):
        if key in ABSENT:
            return f"opcode {op:x}" + (f".{sec}" if sec is not None else "") + f" is {ABSENT[key]}"
    # A form with this opcode whose other identifying fields differ: say which.
    best = DECODER.nearest(word, fmt, must_match=("op", "op3"))
    kind = {SHORT: "32-bit", SCTRL: "32-bit control", LONG: "64-bit", IMM: "64-bit immediate", CTRL: "64-bit control"}[fmt]
    if best is not None:
        detail = ", ".join(f"{n}={got:#x} (expected {want:#x})" for n, got, want in best.wrong)
        where = f"opcode {op:x}" + (f".{sec}" if sec is not None else "")
        return f"no {kind} instruction matches ({where}); nearest is {best.form.name} but {detail}"
    where = f"opcode {op:x}" + (f" secondary {sec}" if sec is not None else "")
    return f"no {kind} instruction has {where}"


def decode_program(words: Sequence[int], base: int = 0) -> list[Instruction]:
    """Decode a whole code image (word0 first in memory); raises at the first illegal word."""
    out = []
    i = 0
    while i < len(words):
        insn = decode(words[i : i + 2], base + 4 * i)
        out.append(insn)
        i += insn.size // 4
    return out


def make(form: Form, fields: Fields, addr: int | None = None) -> Instruction:
    """An Instruction from field values (missing fields 0, identifying fields filled in)."""
    full = {n: 0 for n in form.fields}
    full.update(fields)
    full.update(form.fixed)
    return Instruction(form, full, addr)
