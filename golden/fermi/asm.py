"""Fermi assembly text (cuobjdump syntax, either dialect) -> 64-bit instruction words.

A line is `[label:] [@[!]Pn] MNEMONIC[.MOD...] [operand, ...][;]`, with `//` and `#` line comments
and `/* */` block comments (so a cuobjdump line `/*0008*/ /*0x...*/ MOV R1, ...;` assembles as it
stands). Both dialects of FERMI.md are read: `c [0x1] [0x100]` and `c[0x1][0x100]`, `pt` and `PT`,
`SR_Tid_X` and `SR_TID.X`. The one spelling the two dialects give different bits is SHL/SHR's
`.W` (CUDA 4.x prints it when bit 9 is clear, CUDA 5 when it is set), so a program is read in one
dialect: the one given, or CUDA 4.x when its text has a CUDA-4-only mark (`c [`, `pt`, `SR_Tid_X`
style names), else CUDA 5.

Branch targets are absolute byte addresses or labels. cuobjdump's lines around a function's rows
(`code for sm_20`, `Function : name`, `.headerflags ...`, the dotted end line) are skipped. A line starting with `.` is a directive and a
line starting with `#size` a size note: neither is interpreted here, both are handed to the
caller's callback (programs/fermi's launch directives). Every bad line is reported, each as
`file:line:col: error: ...` with the line and a caret.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from golden.isa.assembler import did_you_mean, split_mnemonic, split_operands
from golden.isa.source import AsmError, CommentRules, Line, label_table, read_lines
from golden.isa.syntax import SyntaxProblem

from .decode import IllegalWord, decode
from .disasm import DIALECTS, SREGS, check_dialect
from .insn import Insn
from .table import BY_MNEMONIC, COND, FIELDS, UNSUPPORTED_BY_NAME, Form, Opd

# On a directive line `//` is text: an `.expect` expression is numpy, where it is floor division
# (docs/reference/program-format.md, "Comments"); `#` and `/* */` still start a comment there.
FERMI_COMMENTS = CommentRules(line=("//", "#"), directive_text=("//",), block=True, terminator=";")

Directive = Callable[[str, str, Line], None]

_REG_RE = re.compile(r"R(\d+|Z)$", re.I)
_PRED_RE = re.compile(r"(!?)(P[0-6]|PT)$", re.I)
_INT_RE = re.compile(r"[-+]?(0x[0-9a-f]+|\d+)$", re.I)
_FLOAT_RE = re.compile(r"[-+]?((\d+\.?\d*|\.\d+)(e[-+]?\d+)?|INF|QNAN|NAN)$", re.I)
_CONST_RE = re.compile(r"c\s*\[\s*(0x[0-9a-f]+|\d+)\s*\]\s*\[\s*([^\]]*?)\s*\]$", re.I)
_ADDR_RE = re.compile(r"\[\s*([^\]]*?)\s*\]$")
_GUARD_RE = re.compile(r"\s*@(!?)(P[0-6]|PT)\s+", re.I)
_CUDA4_MARK_RE = re.compile(r"\bc \[|\bpt\b|SR_[A-Z][a-z]")
_SREG_BY_NAME = {name.upper(): n for n, names in SREGS.items() for name in names}


class AsmErrors(AsmError):
    """Every bad line of a program, each a located error; the first is the exception's own."""

    def __init__(self, errors: list[AsmError]) -> None:
        self.errors = errors
        first = errors[0]
        super().__init__(first.message, first.file, first.line, first.col, first.source)

    def format(self) -> str:
        return "\n".join(AsmError.format(e) for e in self.errors)


@dataclass
class FermiProgram:
    """An assembled program: its words from byte address 0, their instructions, and the directives
    (name, arguments, line) as written, `#size` lines named "#size"."""

    words: list[int]
    insns: list[Insn]
    data: dict[int, int]
    directives: list[tuple[str, str, Line]]
    labels: dict[str, int]
    dialect: str
    lines: list[Line] = field(default_factory=list)


def detect_dialect(text: str) -> str:
    """cuda4 when the text has a mark only CUDA 4.x prints, else cuda5."""
    return "cuda4" if _CUDA4_MARK_RE.search(text) else "cuda5"


# -- numbers -----------------------------------------------------------------------------------------


def _int(tok: str, col: int, what: str) -> int:
    if not _INT_RE.match(tok):
        raise SyntaxProblem(col, f"expected {what} (a number such as 0x10), got {tok!r}")
    return int(tok, 0)


def _float_bits(tok: str, col: int, double: bool) -> int:
    t = tok.upper().lstrip("+")
    neg = t.startswith("-")
    t = t.lstrip("-")
    if t in ("INF", "QNAN", "NAN"):
        if double:
            bits = 0x7FF0000000000000 if t == "INF" else 0x7FF8000000000000
            return bits | (neg << 63)
        bits = 0x7F800000 if t == "INF" else 0x7FC00000
        return bits | (neg << 31)
    x = float(tok)
    if double:
        return int(struct.unpack("<Q", struct.pack("<d", x))[0])
    try:
        return int(struct.unpack("<I", struct.pack("<f", x))[0])
    except OverflowError:
        raise SyntaxProblem(col, f"{tok} is out of the float32 range") from None


def _fit(value: int, width: int, col: int, tok: str, signed_ok: bool = True) -> int:
    """A number into an unsigned field of `width` bits; a negative number as its two's complement."""
    if 0 <= value < 1 << width:
        return value
    if signed_ok and -(1 << (width - 1)) <= value < 0:
        return value & ((1 << width) - 1)
    raise SyntaxProblem(col, f"{tok} does not fit in {width} bits")


# -- operands ----------------------------------------------------------------------------------------


@dataclass
class _Ctx:
    form: Form
    f: dict[str, int]
    addr: int
    labels: dict[str, int]
    dialect: str


def _strip_neg_abs(tok: str, col: int, o: Opd, ctx: _Ctx, kind: str) -> tuple[str, int]:
    """Take a leading -/~ and |...| off an operand, setting the form's bits for them."""
    neg = tok[:1] in "-~" and (bool(o.neg) or kind != "imm")
    if neg:
        if not o.neg:
            raise SyntaxProblem(col, f"{ctx.form.mnemonic} cannot negate this operand")
        if (tok[0] == "~") != ctx.form.inv:
            raise SyntaxProblem(col, f"{ctx.form.mnemonic} negates with {'~' if ctx.form.inv else '-'}, not {tok[0]}")
        ctx.f[o.neg] = 1
        tok, col = tok[1:].lstrip(), col + 1
    if tok.startswith("|") and tok.endswith("|") and len(tok) > 1:
        if not o.abs:
            raise SyntaxProblem(col, f"{ctx.form.mnemonic} takes no absolute value of this operand")
        ctx.f[o.abs] = 1
        tok, col = tok[1:-1].strip(), col + 1
    return tok, col


def _reg(tok: str, col: int) -> int:
    m = _REG_RE.match(tok)
    if not m:
        raise SyntaxProblem(col, f"expected a register R0-R62 or RZ, got {tok!r}")
    n = 63 if m.group(1).upper() == "Z" else int(m.group(1))
    if n > 63:
        raise SyntaxProblem(col, f"{tok}: registers are R0-R62 and RZ")
    return n


def _const(m: re.Match[str], col: int) -> tuple[int, str]:
    bank = int(m.group(1), 0)
    if bank > 15:
        raise SyntaxProblem(col, f"constant bank {bank:#x} is out of 0x0-0xf")
    return bank, m.group(2)


def _composite(tok: str, col: int, o: Opd, ctx: _Ctx) -> None:
    f = ctx.f
    if o.imm in ("f", "d") and ctx.dialect == "cuda5" and tok.startswith("-(") and tok.endswith(")"):
        if not o.neg:
            raise SyntaxProblem(col, f"{ctx.form.mnemonic} cannot negate this operand")
        f[o.neg] = 1
        tok, col = tok[2:-1].strip(), col + 2
        if tok.startswith("|") and tok.endswith("|") and len(tok) > 1 and o.abs:
            f[o.abs] = 1
            tok, col = tok[1:-1].strip(), col + 1
    elif o.imm in ("f", "d") and ctx.dialect == "cuda5" and _FLOAT_RE.match(tok):
        pass  # a decimal float's sign is the value's (the negation bit is written -(x))
    else:
        kind = "imm" if _INT_RE.match(tok.lstrip("-~")) else "other"
        tok, col = _strip_neg_abs(tok, col, o, ctx, kind)
    m = _CONST_RE.match(tok)
    if m:
        bank, off = _const(m, col)
        value = _fit(_int(off, col, "a constant offset"), 16, col, off, signed_ok=False)
        f["sel"], f["imm20"] = 1, bank << 16 | value
        return
    if _REG_RE.match(tok):
        f["sel"], f["imm20"] = 0, _reg(tok, col)
        return
    f["sel"] = 3
    if o.imm in ("f", "d") and not tok.lower().lstrip("-+").startswith("0x"):
        if not _FLOAT_RE.match(tok):
            raise SyntaxProblem(col, f"expected a register, constant or float immediate, got {tok!r}")
        bits = _float_bits(tok, col, o.imm == "d")
        shift = 44 if o.imm == "d" else 12
        if bits & ((1 << shift) - 1):
            raise SyntaxProblem(col, f"{tok} needs more than the 20 top bits a float immediate keeps (use a constant or a 32I form)")
        f["imm20"] = bits >> shift
        return
    if not _INT_RE.match(tok):
        raise SyntaxProblem(col, f"expected a register, a constant c[bank][offset] or an immediate, got {tok!r}")
    value = int(tok, 0)
    if value >= 1 << 20 and value >> 19 == (1 << 13) - 1:  # a sign-extended 32-bit pattern
        value &= 0xFFFFF
    f["imm20"] = _fit(value, 20, col, tok)


def _address(tok: str, col: int, base: str, off_field: str, ctx: _Ctx) -> None:
    m = _ADDR_RE.match(tok)
    if not m:
        raise SyntaxProblem(col, f"expected an address [Rn+offset], got {tok!r}")
    inner = m.group(1).replace(" ", "")
    reg_text, _, off_text = inner.partition("+")
    if _INT_RE.match(reg_text) and not off_text:
        reg_text, off_text = "RZ", reg_text
    elif reg_text.upper().startswith("R") and "-" in reg_text:
        reg_text, _, rest = reg_text.partition("-")
        off_text = "-" + rest
    ctx.f[base] = _reg(reg_text, col + 1)
    bf = FIELDS[off_field]
    value = _int(off_text, col + 1, "an address offset") if off_text else 0
    lo, hi = -(1 << (bf.width - 1)), (1 << (bf.width - 1)) - 1
    if not lo <= value <= hi:
        raise SyntaxProblem(col, f"offset {off_text} is out of {bf.width}-bit signed range")
    ctx.f[off_field] = value


def _operand(tok: str, col: int, o: Opd, ctx: _Ctx) -> None:
    f, k = ctx.f, o.kind
    if k in ("r", "c"):
        if k == "c" and _CONST_RE.match(tok.lstrip("-")):
            if f.get("sel") not in (0, None):
                raise SyntaxProblem(col, "only one source may be a constant")
            # the third source from the constant bank: the second moves to the rc register
            tok2, col2 = _strip_neg_abs(tok, col, o, ctx, "other")
            bank, off = _const(_CONST_RE.match(tok2), col2)  # type: ignore[arg-type]
            f["rc"] = f["imm20"] & 63
            f["sel"], f["imm20"] = 2, bank << 16 | _fit(_int(off, col2, "a constant offset"), 16, col2, off, False)
            return
        tok, col = _strip_neg_abs(tok, col, o, ctx, "other")
        if tok.upper().endswith(".CC"):
            if not o.cc:
                raise SyntaxProblem(col, f"{ctx.form.mnemonic} cannot write CC from this operand")
            f[o.cc] = 1
            tok = tok[:-3]
        f[o.field] = _reg(tok, col)
    elif k == "b":
        _composite(tok, col, o, ctx)
    elif k == "i32":
        if o.neg and tok[:1] == "~":
            f[o.neg], tok, col = 1, tok[1:], col + 1
        if o.imm == "f" and not tok.lower().lstrip("-+").startswith("0x"):
            if not _FLOAT_RE.match(tok):
                raise SyntaxProblem(col, f"expected a float immediate, got {tok!r}")
            f["imm32"] = _float_bits(tok, col, False)
        else:
            f["imm32"] = _fit(_int(tok, col, "a 32-bit immediate"), 32, col, tok)
    elif k == "p":
        m = _PRED_RE.match(tok)
        if not m:
            raise SyntaxProblem(col, f"expected a predicate P0-P6 or PT, got {tok!r}")
        if m.group(1):
            if not o.not_:
                raise SyntaxProblem(col, f"{ctx.form.mnemonic} cannot negate this predicate")
            f[o.not_] = 1
        name = m.group(2).upper()
        f[o.field] = 7 if name == "PT" else int(name[1])
    elif k == "sr":
        name = tok.upper()
        if name in _SREG_BY_NAME:
            f["sr"] = _SREG_BY_NAME[name]
        elif re.fullmatch(r"SR\d+", name) and int(name[2:]) < 256:
            f["sr"] = int(name[2:])
        else:
            known = [n for names in SREGS.values() for n in names]
            raise SyntaxProblem(col, f"unknown special register {tok!r}{did_you_mean(tok, known)}")
    elif k in ("g", "sl", "a"):
        _address(tok, col, "ra", {"g": "goff", "sl": "soff", "a": "aoff"}[k], ctx)
    elif k == "cm":
        m = _CONST_RE.match(tok)
        if not m:
            raise SyntaxProblem(col, f"expected c[bank][Rn+offset], got {tok!r}")
        bank = int(m.group(1), 0)
        if bank > 31:
            raise SyntaxProblem(col, f"constant bank {bank:#x} is out of 0x0-0x1f")
        f["lbank"] = bank
        _address(f"[{m.group(2)}]", col, "ra", "loff", ctx)
    elif k == "t":
        if tok in ctx.labels:
            target = ctx.labels[tok]
        elif _INT_RE.match(tok):
            target = int(tok, 0)
            if target >= 1 << 31:  # a 32-bit address below the program's start (printed wrapped)
                target -= 1 << 32
        elif re.fullmatch(r"[A-Za-z_.$][\w.$]*", tok):
            raise SyntaxProblem(col, f"undefined label {tok!r}{did_you_mean(tok, ctx.labels)}")
        else:
            raise SyntaxProblem(col, f"expected a branch target (a label or an address), got {tok!r}")
        if target % 8:
            raise SyntaxProblem(col, f"target {target:#x} is not 8-byte aligned")
        bf = FIELDS["target"]
        rel = target - (ctx.addr + 8)
        if not -(1 << (bf.width - 1)) <= rel < 1 << (bf.width - 1):
            raise SyntaxProblem(col, f"target {target:#x} is out of branch range")
        f["target"] = rel
    elif k == "n":
        f[o.field] = _fit(_int(tok, col, "a number"), FIELDS[o.field].width, col, tok, signed_ok=False)
    elif k == "cc":
        name = tok.upper()
        if not o.field:
            if name != "CC":
                raise SyntaxProblem(col, f"expected CC, got {tok!r}")
            return
        test = name[3:] if name.startswith("CC.") else None
        inv = {v: k2 for k2, v in COND.items()}
        if test not in inv:
            raise SyntaxProblem(col, f"expected a CC test such as CC.NE, got {tok!r}")
        f[o.field] = inv[test]
    elif k == "pr":
        if tok.upper() != "PR":
            raise SyntaxProblem(col, f"expected PR, got {tok!r}")
    else:
        raise AssertionError(k)


def _default(o: Opd, f: dict[str, int]) -> None:
    if o.kind == "cc":
        f[o.field] = 15
    elif o.kind == "r":
        f[o.field] = 63
    elif o.kind == "n":
        f[o.field] = 0


def _looks_like(o: Opd, tok: str) -> bool:
    if o.kind == "cc":
        return tok.upper().startswith("CC")
    if o.kind == "r":
        return bool(_REG_RE.match(tok))
    return bool(_INT_RE.match(tok))


def _mods(form: Form, suffixes: list[str], dialect: str) -> dict[str, int] | None:
    """The modifier fields the suffixes spell for this form, or None when they do not fit it."""
    f: dict[str, int] = {}
    rest = list(suffixes)
    if form.po and "PO" in rest:
        rest.remove("PO")
        for o in form.operands:
            if o.neg:
                f[o.neg] = 1
    for m in form.mods:
        names = m.cuda4 if dialect == "cuda4" and m.cuda4 is not None else m.values
        best = None
        for value, spelling in names.items():
            words = spelling.split(".") if spelling else []
            if words and rest[: len(words)] == words and (best is None or len(words) > len(best[1])):
                best = (value, words)
        if best is None:
            default = [v for v, s in names.items() if s == ""]
            if not default:
                return None
            f[m.field] = default[0]
        else:
            f[m.field] = best[0]
            rest = rest[len(best[1]) :]
    return None if rest else f


def parse_instruction(text: str, addr: int = 0, labels: dict[str, int] | None = None,
                      dialect: str = "cuda5") -> tuple[Form, dict[str, int]]:  # fmt: skip
    """One instruction's text -> its form and field values (SyntaxProblem with a 0-based column)."""
    f: dict[str, int] = {}
    col0 = 0
    g = _GUARD_RE.match(text)
    guard = (7, 0)
    if g:
        name = g.group(2).upper()
        guard = (7 if name == "PT" else int(name[1]), 1 if g.group(1) else 0)
        col0 = g.end()
    try:
        mn, suffixes, rest, rest_col = split_mnemonic(text[col0:])
    except SyntaxProblem as e:
        raise SyntaxProblem(col0, e.message) from None
    mn_u = mn.upper()
    forms = BY_MNEMONIC.get(mn_u)
    if not forms:
        if mn_u in UNSUPPORTED_BY_NAME:
            raise SyntaxProblem(col0, f"{mn_u} is not supported: {UNSUPPORTED_BY_NAME[mn_u]} is outside the compute subset "
                                      "(docs/reference/fermi-assembly.md)")  # fmt: skip
        raise SyntaxProblem(col0, f"unknown instruction {mn!r}{did_you_mean(mn_u, BY_MNEMONIC)}")
    suffixes = [s.upper() for s in suffixes]
    toks = split_operands(rest, col0 + rest_col)
    best: SyntaxProblem | None = None
    for form in forms:
        mods = _mods(form, suffixes, dialect)
        if mods is None:
            continue
        ctx = _Ctx(form, {**mods}, addr, labels or {}, dialect)
        try:
            _operands(form, toks, ctx, col0)
        except SyntaxProblem as e:
            if best is None or e.col > best.col:
                best = e
            continue
        f = ctx.f
        if form.guarded:
            f["guard"], f["gneg"] = guard
        elif guard != (7, 0):
            raise SyntaxProblem(0, f"{mn_u} takes no guard predicate")
        return form, f
    if best:
        raise best
    spelled = ".".join([mn_u, *suffixes])
    raise SyntaxProblem(col0 + len(mn), f"{spelled}: these modifiers, in this order, fit no form of {mn_u} "
                                         f"(docs/reference/fermi-assembly.md lists each form's modifiers)")  # fmt: skip


def _operands(form: Form, toks: list[tuple[str, int]], ctx: _Ctx, col0: int) -> None:
    """Parse the operand tokens into ctx.f; an optional operand is read only when a token that looks
    like it is there and enough tokens remain for the required ones after it."""
    ops = list(form.operands)
    if form.rev4 and ctx.dialect == "cuda4":
        n = sum(1 for o in ops if o.kind == "p" and not o.dst)
        ops[len(ops) - n :] = ops[len(ops) - n :][::-1]
    required = sum(1 for o in ops if not (o.opt or (o.opt5 and ctx.dialect == "cuda5")))
    i = 0
    for k, o in enumerate(ops):
        later = sum(1 for p in ops[k + 1 :] if not (p.opt or (p.opt5 and ctx.dialect == "cuda5")))
        optional = o.opt or (o.opt5 and ctx.dialect == "cuda5")
        if optional and not (len(toks) - i > later and _looks_like(o, toks[i][0])):
            _default(o, ctx.f)
            continue
        if i >= len(toks):
            end = toks[-1][1] + len(toks[-1][0]) if toks else col0
            raise SyntaxProblem(end, f"{form.mnemonic} takes {required} operand(s), got {len(toks)}")
        _operand(toks[i][0], toks[i][1], o, ctx)
        i += 1
    if i < len(toks):
        raise SyntaxProblem(toks[i][1], f"{form.mnemonic} takes {i} operand(s) here, got {len(toks)}")


def encode(form: Form, f: dict[str, int]) -> int:
    """The word of a form with field values (missing ones 0)."""
    values = dict(f)
    for name, bfield in form.fields.items():
        if name in values and bfield.signed:
            continue
        if name in values and values[name] < 0:
            values[name] &= bfield.max_value
    return form.encode(values)


def assemble_line(text: str, addr: int = 0, dialect: str = "cuda5", labels: dict[str, int] | None = None) -> int:
    """One instruction -> its word; AsmError (column located) on bad text."""
    check_dialect(dialect)
    try:
        form, f = parse_instruction(text, addr, labels, dialect)
    except SyntaxProblem as e:
        raise AsmError(e.message, "<input>", 1, max(e.col, 0) + 1, text) from None
    return encode(form, f)


# The lines cuobjdump prints around a function's rows, skipped so that its output assembles as it stands
_HEADER_RE = re.compile(
    r"\s*(code for sm_\w+|Function\s*:.*|\.headerflags\s.*|\.{3,}|Fatbin \w+ code:|=+|"
    r"(arch|code version|producer|host|compile_size|identifier)\s*=.*)\s*$"
)


def _size_lines(source: str) -> tuple[str, list[tuple[int, str]]]:
    """The `#size` lines (line number, text), and the source with them and cuobjdump's header lines
    blanked."""
    lines = source.splitlines()
    found = []
    for i, raw in enumerate(lines):
        if _HEADER_RE.match(raw):
            lines[i] = ""
        elif raw.lstrip().startswith("#size"):
            found.append((i + 1, raw))
            lines[i] = ""
    return "\n".join(lines), found


def assemble(source: str, file: str = "<input>", dialect: str | None = None, directive: Directive | None = None) -> FermiProgram:
    """A whole program -> its words. AsmErrors lists every bad line."""
    if dialect is not None and dialect not in DIALECTS:
        raise AsmError(f"unknown dialect {dialect!r} (use {' or '.join(DIALECTS)})", file)
    text, sizes = _size_lines(source)
    lines, found = read_lines(text, file, FERMI_COMMENTS)
    for number, raw in sizes:
        body = raw.strip()
        found.append(("#size", body[5:].strip(), Line(file, number, raw, body, raw.find("#size"))))
    found.sort(key=lambda d: d[2].number)
    dia = dialect or detect_dialect("\n".join(line.text for line in lines))
    prog = FermiProgram([], [], {}, found, {}, dia, lines)
    if directive is not None:
        for name, args, line in found:
            directive(name, args, line)
    if not lines:
        raise AsmError("no instructions", file)
    prog.labels = label_table(lines, [8 * i for i in range(len(lines))])
    errors: list[AsmError] = []
    for i, line in enumerate(lines):
        try:
            form, f = parse_instruction(line.text, 8 * i, prog.labels, dia)
            word = encode(form, f)
            insn = decode(word, 8 * i)
        except SyntaxProblem as e:
            errors.append(AsmError(e.message, file, line.number, line.col + max(e.col, 0) + 1, line.source))
            continue
        except (ValueError, IllegalWord) as e:
            errors.append(AsmError(str(e), file, line.number, line.col + 1, line.source))
            continue
        prog.words.append(word)
        prog.insns.append(insn)
    if errors:
        raise AsmErrors(errors)
    return prog
