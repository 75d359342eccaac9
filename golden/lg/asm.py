"""LG assembly text -> instruction words (docs/reference/lg-assembly.md).

The syntax is the course's (the ISA 1.1 slides, ../shared/seeds/004_eb6d6cefbe84d076.txt, and the
course assembler of Spring 2013, alexzhang007/CS3220_GPU Assembler/assembler.cc): one instruction a
line, the mnemonic and its operands in the slides' order, separated by spaces; the slides also write
`ldw dest, base, offset`, so commas separate operands too. The course assembler knew no labels,
comments or directives (branch offsets were counted by hand, as in `brp -29`); labels, comments and
the directives below are this project's, so that programs stay readable and carry their data.

Float immediates follow one of the formats the course used (FORMATS): the 1.8.7 fixed point of the
TA simulator of April 2013 (the `seed` and `ta2013` profiles' format, the default), the IEEE binary16
the course assembler wrote earlier that term, and the 1.11.4 fixed point of the 2015 assembler.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from golden.isa.assembler import did_you_mean
from golden.isa.source import AsmError, CommentRules, Line, label_table, read_lines
from golden.isa.syntax import SyntaxProblem
from golden.lg.profile import PROFILES
from golden.lg.state import MEM_BYTES

from .table import ALIASES, BY_MNEMONIC, FIELDS, Op, encode, scalar_dest

# `;` is the comment of the course's documents and of most assemblers students know; `//` and `#`
# are accepted as in G80 programs. There are no block comments and no instruction terminator.
LG_COMMENTS = CommentRules(line=(";", "//", "#"), directive_text=(), block=False, terminator=None)


# -- float immediates ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FloatFormat:
    """One way of writing a real number into a 16-bit immediate."""

    name: str
    doc: str
    encode: Callable[[Fraction, str], int]  # (value, its text) -> 16 bits; ValueError says why not
    value: Callable[[int], Fraction | None]  # 16 bits -> the exact value (None: not a finite number)
    render: Callable[[int], str]  # 16 bits -> the shortest text that assembles to them


def _fixed(frac_bits: int, name: str, doc: str) -> FloatFormat:
    scale = 1 << frac_bits
    lo, hi = Fraction(-32768, scale), Fraction(32767, scale)

    def enc(value: Fraction, text: str) -> int:
        # trunc(x * 2^frac) as the course's FLOAT_TO_FIXED macros (a C cast truncates toward zero)
        n = int(value * scale)
        if not -32768 <= n <= 32767:
            raise ValueError(f"{text} is out of range of {name} ({_dec(lo)} .. {_dec(hi)})")
        return n & 0xFFFF

    def val(bits: int) -> Fraction:
        return Fraction(bits - 0x10000 if bits & 0x8000 else bits, scale)

    def render(bits: int) -> str:
        return _dec(val(bits)) + "f"

    return FloatFormat(name, doc, enc, val, render)


def _dec(value: Fraction) -> str:
    """The exact decimal of a dyadic fraction, with at least one digit after the point."""
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    if "." not in text:
        text += ".0"
    return text


def _half_encode(value: Fraction, text: str) -> int:
    h = np.float16(float(value))  # round to nearest even, as the course assembler's conversion table
    if not np.isfinite(h):
        raise ValueError(f"{text} is out of range of IEEE binary16 (largest 65504)")
    return int(h.view(np.uint16))


def _half_value(bits: int) -> Fraction | None:
    h = np.uint16(bits).view(np.float16)
    return Fraction(float(h)) if np.isfinite(h) else None


def _half_render(bits: int) -> str:
    h = np.uint16(bits).view(np.float16)
    if not np.isfinite(h):
        return f"0x{bits:04x}"  # infinities and NaNs have no decimal: the raw bits
    text = np.format_float_positional(h, unique=True, trim="0")
    return text + "f"


FORMATS: dict[str, FloatFormat] = {
    "fixed187": _fixed(7, "fixed187", "1.8.7 two's-complement fixed point, trunc(x*128) (TA simulator, April 2013; LG.md)"),
    "half": FloatFormat("half", "IEEE binary16, round to nearest even (course assembler, Spring 2013)", _half_encode, _half_value, _half_render),
    "fixed1114": _fixed(4, "fixed1114", "1.11.4 two's-complement fixed point, trunc(x*16) (course assembler, 2015)"),
}
# the profiles' formats: both read 1.8.7 (LG.md, "Semantics of the TA simulator")
PROFILE_FORMATS = {"seed": "fixed187", "ta2013": "fixed187"}
DEFAULT_FORMAT = "fixed187"


def float_format(name: str) -> FloatFormat:
    """A format by its name or by a profile's; ValueError names the known ones."""
    key = PROFILE_FORMATS.get(name, name)
    if key not in FORMATS:
        raise ValueError(f"unknown float format {name!r} (known: {', '.join([*FORMATS, *PROFILE_FORMATS])})")
    return FORMATS[key]


# -- operands --------------------------------------------------------------------------------------

_TOKEN_RE = re.compile(r"[^\s,]+")
_INT_RE = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|\d+)$")
_FLOAT_RE = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)[fF]?$")
_RAW_RE = re.compile(r"0[xX][0-9a-fA-F]{1,4}$")
_LABEL_NAME_RE = re.compile(r"[A-Za-z_.$][\w.$]*$")


class OperandError(SyntaxProblem, ValueError):
    """A bad operand: the message, and the column (0-based, in the instruction text) it points at
    (the machinery's SyntaxProblem; a ValueError too, as callers of the LG assembler catch it)."""


def _register(tok: str, col: int, prefix: str, count: int) -> int:
    m = re.fullmatch(prefix + r"(\d+)", tok, re.IGNORECASE)
    if not m or int(m.group(1)) >= count:
        raise OperandError(col, f"expected a {'scalar' if prefix == 'r' else 'vector'} register {prefix}0-{prefix}{count - 1}, got {tok!r}")
    return int(m.group(1))


def _small(tok: str, col: int, what: str, top: int) -> int:
    if not _INT_RE.match(tok) or not 0 <= int(tok, 0) <= top:
        raise OperandError(col, f"expected {what} 0-{top}, got {tok!r}")
    return int(tok, 0)


def parse_int_imm(tok: str, col: int) -> int:
    """A 16-bit integer immediate: -32768..65535, stored as its low 16 bits."""
    if not _INT_RE.match(tok):
        raise OperandError(col, f"expected an integer immediate, got {tok!r}")
    v = int(tok, 0)
    if not -32768 <= v <= 0xFFFF:
        raise OperandError(col, f"immediate {tok} does not fit in 16 bits (-32768 .. 65535)")
    return v & 0xFFFF


def parse_float_imm(tok: str, col: int, fmt: FloatFormat) -> int:
    """A float immediate in `fmt`; `0x` and up to four hex digits give the 16 bits themselves."""
    if _RAW_RE.match(tok):
        return int(tok, 16)
    m = _FLOAT_RE.match(tok)
    if not m:
        raise OperandError(col, f"expected a float immediate such as 1.5f, -1.0f or 255, got {tok!r}")
    try:
        return fmt.encode(Fraction(m.group(1)), tok)
    except ValueError as e:
        raise OperandError(col, str(e)) from None


def parse_offset(tok: str, col: int, index: int, labels: dict[str, int] | None) -> int:
    """A branch/jsr operand: a label or a signed offset in instructions from the next instruction."""
    if _INT_RE.match(tok):
        v = int(tok, 0)
    elif _LABEL_NAME_RE.match(tok):
        if labels is None:  # first pass: labels are not known yet
            return 0
        if tok not in labels:
            raise OperandError(col, f"unknown label {tok!r}{did_you_mean(tok, labels)}")
        v = labels[tok] - (index + 1)
    else:
        raise OperandError(col, f"expected a label or an offset in instructions, got {tok!r}")
    if not -32768 <= v <= 32767:
        raise OperandError(col, f"offset {v} does not fit in 16 signed bits")
    return v


def tokens(text: str) -> list[tuple[str, int]]:
    """Whitespace- and comma-separated tokens, each with its column."""
    return [(m.group(0), m.start()) for m in _TOKEN_RE.finditer(text)]


def _operand_names(op: Op) -> str:
    return " ".join(name for name, _ in op.operands) or "no operands"


def parse_instruction(text: str, fmt: FloatFormat, index: int = 0, labels: dict[str, int] | None = None) -> tuple[Op, dict[str, int]]:
    """One instruction's text -> (row, field values). Raises OperandError with its column."""
    toks = tokens(text)
    if not toks:
        raise OperandError(0, "expected an instruction")
    mnemonic, mcol = toks[0]
    name = mnemonic.lower()
    fixed: dict[str, int] = {}
    if name in ALIASES:
        name, fixed = ALIASES[name]
        op = BY_MNEMONIC[name]
        kinds = [(n, k) for n, k in op.operands if n not in fixed]
    elif name in BY_MNEMONIC:
        op = BY_MNEMONIC[name]
        kinds = list(op.operands)
    else:
        raise OperandError(mcol, f"unknown mnemonic {mnemonic!r}{did_you_mean(name, [*BY_MNEMONIC, *ALIASES])}")
    operands = toks[1:]
    shown = mnemonic.lower() + " " + " ".join(n for n, _ in kinds) if kinds else mnemonic.lower()
    if len(operands) < len(kinds):
        end = len(text.rstrip())
        raise OperandError(end, f"{mnemonic.lower()} expects {len(kinds)} operand(s) ({shown}), got {len(operands)}")
    if len(operands) > len(kinds):
        tok, col = operands[len(kinds)]
        raise OperandError(col, f"{mnemonic.lower()} expects {len(kinds)} operand(s) ({shown}); {tok!r} is one too many")
    values = dict(fixed)
    for (fname, kind), (tok, col) in zip(kinds, operands, strict=True):
        if kind in ("r", "base"):
            values[fname] = _register(tok, col, "r", 16)
        elif kind == "v":
            values[fname] = _register(tok, col, "v", 64)
        elif kind == "idx":
            values[fname] = _small(tok, col, "an element index", 3)
        elif kind == "type":
            values[fname] = _small(tok, col, "a primitive type", FIELDS["type"].max_value)
        elif kind == "off":
            values[fname] = parse_offset(tok, col, index, labels)
        elif op.imm == "float":
            values[fname] = parse_float_imm(tok, col, fmt)
        else:
            values[fname] = parse_int_imm(tok, col)
        if fname == scalar_dest(op) and values[fname] == 15:
            raise OperandError(col, f"r15 is the PC: {op.mnemonic} cannot write it (write r0-r14; jmp/jsr/br change the PC)")
    return op, values


# -- programs --------------------------------------------------------------------------------------


class AsmErrors(AsmError):
    """Every bad line of a program, in order, one located error each (the first is the AsmError's own)."""

    def __init__(self, errors: list[AsmError]) -> None:
        first = errors[0]
        self.errors = errors  # before the base's __init__, which formats the message
        super().__init__(first.message, first.file, first.line, first.col, first.source)

    def format(self) -> str:
        return "\n".join(AsmError.format(e) for e in self.errors)


@dataclass
class LgProgram:
    """An assembled program: instruction words from index 0, the initial data memory (byte address ->
    byte) and the directives as written."""

    words: list[int]
    data: dict[int, int]
    directives: list[tuple[str, str, Line]]
    labels: dict[str, int]
    lines: list[Line]
    float_format: str = DEFAULT_FORMAT
    profile: str | None = None
    notes: list[str] = field(default_factory=list)



def _numbers(args: str, line: Line, what: str, top: int, lo: int = 0) -> list[int]:
    out = []
    for tok, col in tokens(args):
        at = line.source.find(args) + col + 1 if args else line.col + 1
        if not _INT_RE.match(tok):
            raise AsmError(f"{what}: expected an integer, got {tok!r}", line.file, line.number, at, line.source)
        v = int(tok, 0)
        if not lo <= v <= top:
            raise AsmError(f"{what}: {tok} is out of range {lo}..{top}", line.file, line.number, at, line.source)
        out.append(v)
    return out


def _directives(found: list[tuple[str, str, Line]], prog: LgProgram, fmt_override: str | None) -> None:
    seen: dict[str, Line] = {}
    for name, args, line in found:

        def err(msg: str, line: Line = line) -> AsmError:
            return AsmError(msg, line.file, line.number, line.col + 1, line.source)

        if name in ("float", "profile"):
            if name in seen:
                raise err(f".{name} given twice (first at line {seen[name].number})")
            seen[name] = line
            value = args.strip().lower()
            if name == "profile":
                if value not in PROFILES:
                    raise err(f".profile {value or '(nothing)'}: the LG profiles are {', '.join(PROFILES)}")
                prog.profile = value
                if "float" not in seen and fmt_override is None:
                    prog.float_format = PROFILE_FORMATS[value]
            else:
                try:
                    prog.float_format = float_format(value).name
                except ValueError as e:
                    raise err(f".float: {e}") from None
        elif name in ("data", "byte"):
            nums = _numbers(args, line, f".{name}", 0xFFFF, -32768)
            if len(nums) < 2:
                raise err(f".{name} ADDRESS VALUE...: an address and at least one value")
            addr, values = nums[0], nums[1:]
            if addr < 0:
                raise err(f".{name}: the address {addr} is negative")
            size = 2 if name == "data" else 1
            if name == "byte" and any(not -128 <= v <= 0xFF for v in values):
                raise err(".byte: values are bytes (-128..255)")
            if name == "data" and addr % 2:
                raise err(f".data: address {addr:#x} is odd (16-bit words are aligned; use .byte)")
            if addr + size * len(values) > MEM_BYTES:
                raise err(f".{name}: {len(values)} value(s) from {addr:#x} run past the 64 KiB data memory")
            for i, v in enumerate(values):
                for b in range(size):
                    a = addr + size * i + b
                    if a in prog.data:
                        raise err(f".{name}: byte {a:#x} is already initialised")
                    prog.data[a] = ((v & 0xFFFF) >> (8 * b)) & 0xFF
        else:
            raise err(f"unknown directive .{name} (known: .byte, .data, .float, .profile)")
    if fmt_override is not None:
        prog.float_format = float_format(fmt_override).name


def assemble(source: str, file: str = "<input>", float_fmt: str | None = None) -> LgProgram:
    """Assemble a whole program. Raises AsmError naming file, line and column; `float_fmt` (a
    format's or a profile's name) overrides the program's .float/.profile."""
    lines, found = read_lines(source, file, LG_COMMENTS)
    prog = LgProgram([], {}, found, {}, lines)
    _directives(found, prog, float_fmt)
    if not lines:
        raise AsmError("no instructions", file)
    fmt = FORMATS[prog.float_format]

    def parse(line: Line, index: int, labels: dict[str, int] | None) -> tuple[Op, dict[str, int]]:
        try:
            return parse_instruction(line.text, fmt, index, labels)
        except OperandError as e:
            raise AsmError(e.message, file, line.number, line.col + e.col + 1, line.source) from None

    # Every line is one word, so the labels are known before any line is parsed: one pass, and every
    # bad line is reported, not only the first.
    prog.labels = label_table(lines, range(len(lines)))
    errors: list[AsmError] = []
    for i, line in enumerate(lines):
        try:
            op, values = parse(line, i, prog.labels)
        except AsmError as e:
            errors.append(e)
            continue
        prog.words.append(encode(op.mnemonic, **values))
    if errors:
        raise AsmErrors(errors)
    return prog


def assemble_line(text: str, float_fmt: str = DEFAULT_FORMAT, index: int = 0) -> int:
    """One instruction (numeric offsets) -> its word; raises AsmError."""
    try:
        op, values = parse_instruction(text, float_format(float_fmt), index, {})
    except OperandError as e:
        raise AsmError(e.message, "<input>", 1, e.col + 1, text) from None
    return encode(op.mnemonic, **values)
