"""NVIDIA cuobjdump-syntax text -> G80 instruction words.

Line syntax (see docs/reference/assembly.md, "Lines"):
    [label:]... [MNEMONIC[.MOD...] [operand, ...]] [;] [// comment | # comment | /* comment */]
    .directive [arguments]
Labels stand wherever a code address is expected (`BRA C0.NE, loop`, or `!loop`).

Two rules make NVIDIA text round-trip: 64-bit instructions must sit on 8-byte boundaries, so a
32-bit instruction left alone before one is assembled as its 64-bit equivalent (what ptxas does,
reported as a note); and a program's last instruction, when it is a 64-bit normal one without
marker, gets the exit marker that cuobjdump never prints (`.explicit_exit` turns that off).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..isa.assembler import did_you_mean, first_that_parses, mnemonic_end, split_mnemonic, split_operands
from ..isa.source import AsmError, Line, label_table, read_lines
from .decoder import IllegalInstruction, Instruction, decode
from .form import LONG, MARK_EXIT, Form
from .syntax import ParseContext, SyntaxProblem
from .table import BY_MNEMONIC, BY_NAME

# AsmError and Line live in the ISA-independent golden.isa.source (LG's assembler reports errors
# the same way), and the text splitting in golden.isa.assembler; callers of the G80 assembler
# still import them from here.


def _candidates(base: str, col: int) -> list[Form]:
    forms = BY_MNEMONIC.get(base.upper())
    if forms:
        return forms
    raise SyntaxProblem(col, f"unknown mnemonic {base!r}{did_you_mean(base.upper(), BY_MNEMONIC)}")


def parse_instruction(text: str, ctx: ParseContext) -> tuple[Form, dict[str, int]]:
    """One instruction's text -> (form, fields). Raises SyntaxProblem with the best explanation."""
    lead = len(text) - len(text.lstrip())
    base, suffixes, rest, rest_col = split_mnemonic(text)
    forms = _candidates(base, lead)
    operands = split_operands(rest, rest_col)
    return first_that_parses(forms, lambda form: form.parse(suffixes, operands, ctx), lead)


def assemble_instruction(text: str, pc: int = 0, labels: dict[str, int] | None = None) -> Instruction:
    """One instruction, markers explicit (`.S` join, `.E` exit); raises AsmError."""
    ctx = ParseContext(pc=pc, labels=labels or {})
    try:
        form, fields = parse_instruction(text, ctx)
    except SyntaxProblem as e:
        raise AsmError(e.message, line=1, col=e.col + 1, source=text) from None
    return _build(form, fields, pc, text, "<input>", 1)


def _build(form: Form, fields: dict[str, int], pc: int, text: str, file: str, line: int) -> Instruction:
    try:
        word = form.encode(fields)
    except ValueError as e:
        raise AsmError(f"value out of range: {e}", file, line, 1, text) from None
    words = (word & 0xFFFFFFFF,) if form.size == 4 else (word & 0xFFFFFFFF, word >> 32)
    try:
        insn = decode(words, pc if form.size == 8 and pc % 8 == 0 else None)
    except IllegalInstruction as e:
        raise AsmError(e.reason, file, line, 1, text) from None
    if insn.form is not form:
        raise AssertionError(f"{text!r} assembled as {form.name} but decodes as {insn.form.name}")
    return Instruction(form, insn.fields, pc)


# ---------------------------------------------------------------------------------------------
# programs


@dataclass
class Program:
    instructions: list[Instruction]
    labels: dict[str, int]
    lines: list[Line]  # one per instruction
    notes: list[str]
    directives: list[tuple[str, str, Line]]

    @property
    def words(self) -> list[int]:
        return [w for insn in self.instructions for w in insn.words]

    def to_bytes(self) -> bytes:
        return b"".join(w.to_bytes(4, "little") for w in self.words)


Directive = Callable[[str, Line], None]


def assemble(
    source: str,
    file: str = "<input>",
    base: int = 0,
    directives: dict[str, Directive] | None = None,
) -> Program:
    """Assemble a whole program. Raises AsmError naming file, line and column."""
    if base % 8:
        raise AsmError(f"program base address {base:#x} is not 8-byte aligned", file)
    lines, found = read_lines(source, file)
    handlers = {"explicit_exit": lambda args, line: None, **(directives or {})}
    for name, args, line in found:
        if name not in handlers:
            known = ", ".join("." + n for n in sorted(handlers))
            raise AsmError(f"unknown directive .{name} (known: {known})", file, line.number, line.col + 1, line.source)
        handlers[name](args, line)
    explicit_exit = any(name == "explicit_exit" for name, _, _ in found)
    if not lines:
        raise AsmError("no instructions", file)

    def parse(line: Line, ctx: ParseContext, text: str | None = None) -> tuple[Form, dict[str, int]]:
        try:
            return parse_instruction(text or line.text, ctx)
        except SyntaxProblem as e:
            raise AsmError(e.message, file, line.number, line.col + e.col + 1, line.source) from None

    # Pass 1: forms and sizes (labels read as 0), promoting lone 32-bit instructions.
    forms: list[Form] = []
    texts: list[str] = []
    notes: list[str] = []
    addr = base
    labels: dict[str, int] = {}
    addrs: list[int] = []
    for i, line in enumerate(lines):
        form, _ = parse(line, ParseContext(pc=addr, first_pass=True))
        text = line.text
        if form.size == 8 and addr % 8:
            prev_form, prev_text, prev = forms[-1], texts[-1], lines[i - 1]
            promoted = _promoted_text(prev_form, prev_text)
            if promoted is None:
                raise AsmError(
                    f"{form.mnemonic} would sit at {addr:#x}, not 8-byte aligned, and {prev_form.mnemonic} "
                    "has no 64-bit form to pad with",
                    file, line.number, line.col + 1, line.source,
                )  # fmt: skip
            forms[-1], _ = parse(prev, ParseContext(pc=addrs[-1], first_pass=True), promoted)
            texts[-1] = promoted
            notes.append(f"{file}:{prev.number}: {prev_form.mnemonic} assembled as {forms[-1].mnemonic} to keep the next instruction 8-byte aligned")
            addr += 4
        forms.append(form)
        texts.append(text)
        addrs.append(addr)
        for label in line.labels:
            if label in labels:
                raise AsmError(f"label {label!r} defined twice", file, line.number, 1, line.source)
            labels[label] = addr
        addr += form.size
    # Labels after promotion shifts.
    addr = base
    for i, form in enumerate(forms):
        addrs[i] = addr
        addr += form.size
    labels = label_table(lines, addrs)

    # Pass 2: encode with labels known.
    out: list[Instruction] = []
    for i, (line, text) in enumerate(zip(lines, texts, strict=True)):
        form, fields = parse(line, ParseContext(pc=addrs[i], labels=labels), text)
        last = i == len(lines) - 1
        if last and not explicit_exit and form.fmt == LONG and fields.get("marker", 0) == 0:
            fields["marker"] = MARK_EXIT
        out.append(_build(form, fields, addrs[i], line.source, file, line.number))
    return Program(out, labels, lines, notes, found)


def _promoted_text(form: Form, text: str) -> str | None:
    if not form.promote:
        return None
    long_form = BY_NAME[form.promote]
    end = mnemonic_end(text)
    assert end is not None
    return long_form.mnemonic + text[end:]
