"""Fermi words -> cuobjdump-style text, in either dialect (docs/reference/fermi-assembly.md).

`cuda5` (the default) prints as CUDA 5 and later: `c[0x0][0x20]`, `PT`, `SR_TID.X`; `cuda4` as CUDA
4.x: `c [0x0] [0x20]`, `pt`, `SR_Tid_X` (FERMI.md; the CUDA 4 listings of testdata/fermi). Both
print a 20-bit integer immediate as its field in hex (cuobjdump 4.x prints `IADD R3, R3, 0xffc00`;
a minus sign is the operand's negation bit), a 32-bit one of MOV32I/IADD32I/IMUL32I signed
(`MOV32I R2, -0x30f423e`) and of LOP32I unsigned, a float immediate as the shortest decimal that
reads back to the same bits, and a branch target as the absolute byte address, or a label in a
program listing.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from .decode import IllegalWord, decode, find_form, imm20, is_default, is_po, mod_words, operand
from .insn import RZ, Insn
from .table import COND, Form, Opd

DIALECTS = ("cuda5", "cuda4")

# Special registers by their S2R number (envytools gf100.c sreg_sr gives the numbers). The CUDA 4
# spellings are those of its listings (SR_Tid_X, SR_CTAid_X; FERMI.md: SR_ClockLo); the CUDA 5
# ones follow its SR_TID.X pattern. A number without a name prints as SR<n> in both dialects.
SREGS: dict[int, tuple[str, str]] = {
    0: ("SR_LANEID", "SR_LaneId"),
    33: ("SR_TID.X", "SR_Tid_X"),
    34: ("SR_TID.Y", "SR_Tid_Y"),
    35: ("SR_TID.Z", "SR_Tid_Z"),
    37: ("SR_CTAID.X", "SR_CTAid_X"),
    38: ("SR_CTAID.Y", "SR_CTAid_Y"),
    39: ("SR_CTAID.Z", "SR_CTAid_Z"),
    56: ("SR_EQMASK", "SR_EqMask"),
    57: ("SR_LTMASK", "SR_LtMask"),
    58: ("SR_LEMASK", "SR_LeMask"),
    59: ("SR_GTMASK", "SR_GtMask"),
    60: ("SR_GEMASK", "SR_GeMask"),
    80: ("SR_CLOCKLO", "SR_ClockLo"),
    81: ("SR_CLOCKHI", "SR_ClockHi"),
}


def check_dialect(dialect: str) -> str:
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r} (use one of {', '.join(DIALECTS)})")
    return dialect


def sreg_name(n: int, dialect: str) -> str:
    names = SREGS.get(n)
    return names[dialect == "cuda4"] if names else f"SR{n}"


def reg(n: int) -> str:
    return "RZ" if n == RZ else f"R{n}"


def pred(n: int, dialect: str) -> str:
    return ("pt" if dialect == "cuda4" else "PT") if n == 7 else f"P{n}"


def hexs(v: int) -> str:
    return f"-{-v:#x}" if v < 0 else f"{v:#x}"


def float_text(bits: int, double: bool) -> str:
    """The shortest decimal that reads back to the same float (integers without a point)."""
    if double:
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
    else:
        x = struct.unpack("<f", struct.pack("<I", bits))[0]
    if math.isnan(x):  # the payload matters to the bits: NaNs print as their bit pattern
        return f"{bits:#x}"
    if math.isinf(x):
        return "-INF" if x < 0 else "+INF"
    if x == int(x) and abs(x) < 1 << 53:
        return "-0" if math.copysign(1, x) < 0 and x == 0 else str(int(x))
    if double:
        return repr(x)
    for digits in range(1, 18):  # the shortest decimal whose float32 is the same value
        text = f"{x:.{digits}g}"
        if struct.unpack("<f", struct.pack("<f", float(text)))[0] == x:
            return text
    return repr(x)


def const(bank: int, off: str, dialect: str) -> str:
    return f"c [{bank:#x}] [{off}]" if dialect == "cuda4" else f"c[{bank:#x}][{off}]"


def wrap(text: str, neg: bool, ab: bool, inv: bool) -> str:
    if ab:
        text = f"|{text}|"
    if neg:
        text = ("~" if inv else "-") + text
    return text


def operand_text(form: Form, o: Opd, f: dict[str, int], addr: int, dialect: str, labels: dict[int, str] | None) -> str:
    po = is_po(form, f)
    neg = bool(o.neg and f[o.neg]) and not po
    ab = bool(o.abs and f[o.abs])
    k = o.kind
    if k == "r":
        return wrap(reg(f[o.field]) + (".CC" if o.cc and f[o.cc] else ""), neg, ab, form.inv)
    if k in ("b", "c"):
        sel = f["sel"]
        if (k == "b" and sel == 1) or (k == "c" and sel == 2):
            return wrap(const(f["imm20"] >> 16, f"{f['imm20'] & 0xFFFF:#x}", dialect), neg, ab, form.inv)
        if k == "b" and sel == 0:
            return wrap(reg(f["imm20"] & 63), neg, ab, form.inv)
        if k == "b" and sel == 3:
            if o.imm in ("f", "d") and dialect == "cuda5" and not float_text(imm20(f["imm20"], o.imm), o.imm == "d").startswith("0x"):
                text = float_text(imm20(f["imm20"], o.imm), o.imm == "d")
                text = f"|{text}|" if ab else text
                return f"-({text})" if neg else text
            return wrap(f"{f['imm20']:#x}", neg, ab, form.inv)
        return wrap(reg(f["rc"]), neg, ab, form.inv)
    if k == "i32":
        v = f["imm32"]
        if o.imm == "f":
            text = float_text(v, False)
        elif form.imm4 == "signed" and v >> 31:
            text = hexs(v - (1 << 32))
        else:
            text = f"{v:#x}"
        return wrap(text, neg, False, form.inv)
    if k == "p":
        return ("!" if o.not_ and f[o.not_] else "") + pred(f[o.field], dialect)
    if k == "sr":
        return sreg_name(f["sr"], dialect)
    if k in ("g", "sl", "a"):
        off = f[{"g": "goff", "sl": "soff", "a": "aoff"}[k]]
        if f["ra"] == RZ:
            return f"[{hexs(off)}]"
        return f"[{reg(f['ra'])}+{hexs(off)}]" if off else f"[{reg(f['ra'])}]"
    if k == "cm":
        off = f["loff"]
        inner = hexs(off) if f["ra"] == RZ else (f"{reg(f['ra'])}+{hexs(off)}" if off else reg(f["ra"]))
        return const(f["lbank"], inner, dialect)
    if k == "t":
        target = (addr + 8 + f["target"]) & 0xFFFFFFFF
        return labels[target] if labels and target in labels else f"{target:#x}"
    if k == "n":
        return f"{f[o.field]:#x}"
    if k == "cc":
        return f"CC.{COND[f[o.field]]}" if o.field else "CC"
    if k == "pr":
        return "PR"
    raise AssertionError(f"operand kind {k!r}")


def render_word(word: int, addr: int = 0, dialect: str = "cuda5", labels: dict[int, str] | None = None) -> str:
    """One word's text (IllegalWord when it is no instruction)."""
    check_dialect(dialect)
    form, f = find_form(word, addr)
    insn = decode(word, addr)
    ops: list[str] = []
    for o in form.operands:
        if (o.opt or (o.opt5 and dialect == "cuda5")) and is_default(o, operand(form, o, f, addr)):
            continue
        ops.append(operand_text(form, o, f, addr, dialect, labels))
    if form.rev4 and dialect == "cuda4":
        n = sum(1 for o in form.operands if o.kind == "p" and not o.dst)
        ops[len(ops) - n :] = ops[len(ops) - n :][::-1]
    head = ".".join([form.mnemonic, *mod_words(form, f, dialect)])
    g = insn.guard
    guard = "" if g.n == 7 and not g.neg else f"@{'!' if g.neg else ''}{pred(g.n, dialect)} "
    return f"{guard}{head}" + (" " + ", ".join(ops) if ops else "")


def render(insn: Insn, dialect: str = "cuda5") -> str:
    """A decoded instruction's text (from its word, which carries every bit)."""
    return render_word(insn.word, insn.addr, dialect)


def disassemble(words: Sequence[int], dialect: str = "cuda5", base: int = 0) -> list[str]:
    """Each word's text, the first at byte address `base`."""
    return [render_word(w, base + 8 * i, dialect) for i, w in enumerate(words)]


def format_listing(words: Sequence[int], dialect: str = "cuda5", keep_going: bool = False) -> tuple[list[str], list[str]]:
    """A program that assembles back to the same words: targets inside the program as labels
    `L_<addr>:`, each instruction followed by its address and word in a comment. An illegal word
    raises IllegalWord, or with keep_going becomes a comment line and its message is returned."""
    check_dialect(dialect)
    labels: dict[int, str] = {}
    errors: list[str] = []
    for i, w in enumerate(words):
        try:
            form, f = find_form(w, 8 * i)
        except IllegalWord:
            continue
        if any(o.kind == "t" for o in form.operands):
            t = (8 * i + 8 + f["target"]) & 0xFFFFFFFF
            if 0 <= t < 8 * len(words):
                labels[t] = f"L_{t:04x}"
    lines: list[str] = []
    for i, w in enumerate(words):
        a = 8 * i
        if a in labels:
            lines.append(f"{labels[a]}:")
        try:
            text = render_word(w, a, dialect, labels)
        except IllegalWord as e:
            if not keep_going:
                raise
            errors.append(str(e))
            lines.append(f"    // /*{a:04x}*/ 0x{w:016x} illegal: {e}")
            continue
        lines.append(f"    {text + ';':<48} // /*{a:04x}*/ 0x{w:016x}")
    return lines, errors
