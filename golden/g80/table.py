"""THE encoding table of the G80 (SM_1.0) SASS instruction set, compute subset.

Every instruction form is described here once: its fields (bit positions), the values that
identify it, and its NVIDIA cuobjdump spelling. The decoder, encoder, assembler, disassembler,
coverage model and the RTL decode constants are all derived from FORMS.

Sources: the FlexGripPlus manual (tables 1-5), ../shared/reference/ISA.md (section 1 for the
layout, 1.4 for the opcode map), the real nvcc listings; spellings of forms nvcc never printed
in the available listings (IMIN/IMAX, ISAD, FMIN/FMAX, FSLCT, C2R/R2C, S2R, LLD/LST, PBK/BRK,
TRAP, LOP32I, ISAD32, PMEVENT) follow the same conventions and are documented in docs/reference/assembly.md, "Spellings not seen in
any NVIDIA listing".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..isa.bits import BitField, w1
from ..isa.bits import field as bf
from . import conditions
from .form import CTRL, IMM, LONG, SCTRL, SHORT, Form
from .memsyntax import MEM_SIZES, ConstLoad, DataReg, GlobalMem, LocalMem, SharedStore, StoreSource
from .syntax import (
    LONG_SLOT,
    SHORT_SLOT,
    Cond,
    CondOperand,
    Custom,
    Dst,
    Fields,
    Imm,
    Keyword,
    Mods,
    Named,
    Operand,
    OptImm,
    ParseContext,
    Reg,
    Src,
    SyntaxProblem,
    Target,
    choice,
    flag,
    force,
    holds,
    parse_int,
    render_reg,
)

# ---------------------------------------------------------------------------------------------
# Field catalogues: the name of every field, where it lives, per format (ISA.md 1.3).

COMMON = {
    "f0": bf("f0", (0, 2)),  # format: 0 short, 1 long/immediate, 2 short control, 3 long control
    "op": bf("op", (28, 4)),  # primary opcode
}

LONG_FIELDS = {
    **COMMON,
    "dst": bf("dst", (2, 7)),
    "src1": bf("src1", (9, 7)),
    "src2": bf("src2", (16, 7)),
    "src2_c": bf("src2_c", (23, 1)),
    "src3_c": bf("src3_c", (24, 1)),
    "postinc": bf("postinc", (25, 1)),
    "areg": bf("areg", (26, 2), (w1(2), 1)),
    "marker": bf("marker", (w1(0), 2)),
    "dst_o": bf("dst_o", (w1(3), 1)),
    "cdst": bf("cdst", (w1(4), 2)),
    "cwe": bf("cwe", (w1(6), 1)),
    "pcond": bf("pcond", (w1(7), 5)),
    "preg": bf("preg", (w1(12), 2)),
    "src3": bf("src3", (w1(14), 7)),
    "src1_s": bf("src1_s", (w1(21), 1)),
    "cbank": bf("cbank", (w1(22), 4)),
    "sec": bf("sec", (w1(29), 3)),
    # modifier bits, named per use
    "m14": bf("m14", (w1(14), 1)),
    "m15": bf("m15", (w1(15), 1)),
    "m16": bf("m16", (w1(16), 1)),
    "m17": bf("m17", (w1(17), 1)),
    "m19": bf("m19", (w1(19), 1)),
    "m20": bf("m20", (w1(20), 1)),
    "m26": bf("m26", (w1(26), 1)),
    "m27": bf("m27", (w1(27), 1)),
    "m29": bf("m29", (w1(29), 1)),
    "sec2": bf("sec2", (w1(30), 2)),  # w1[31:30]: secondary opcode when w1[29] is a modifier
    "op3": bf("op3", (29, 3)),  # w0[31:29]: primary opcode when w0[28] is a modifier
    "width": bf("width", (w1(26), 1)),  # 1: 32-bit, 0: 16-bit (half registers)
    "signed": bf("signed", (w1(27), 1)),
    "sat": bf("sat", (w1(27), 1)),
    "addop": bf("addop", (22, 1), (28, 1)),  # IADD: 0 add, 1 sub, 2 subr, 3 addc (ISA.md 3.1)
    "madop": bf("madop", (w1(26), 2)),  # IMAD add operation, same values
    "kind": bf("kind", (w1(29), 3), (28, 1)),  # IMAD multiply kind 0-8 (ISA.md 3.3)
    "setcond": bf("setcond", (w1(14), 3)),
    "fcond": bf("fcond", (w1(14), 4)),
    "lop": bf("lop", (w1(14), 2)),
    "sreg": bf("sreg", (w1(14), 4)),
    "srct": bf("srct", (w1(14), 3)),  # conversion integer source type
    "rnd": bf("rnd", (w1(17), 2)),  # conversion rounding: rn rm rp rz
    "frnd": bf("frnd", (w1(14), 2)),  # FMUL rounding (0 rn, 3 rz)
    "arnd": bf("arnd", (16, 2)),  # FADD rounding (0 rn, 3 rz), in the unused src2 field
    "shimm": bf("shimm", (w1(20), 1)),  # shift count is the immediate w0[22:16]
    "adst": bf("adst", (2, 3)),
    "shcnt4": bf("shcnt4", (16, 4)),
    "aoff": bf("aoff", (9, 16)),
    "soff": bf("soff", (9, 16)),
    "coff": bf("coff", (9, 16)),
    "loff": bf("loff", (9, 16)),
    "gspace": bf("gspace", (16, 4)),
    "msize": bf("msize", (w1(21), 3)),
    "stsize": bf("stsize", (w1(22), 1), (w1(26), 1)),  # R2G: 0 b16, 1 b8, 2 b32
    "stfull": bf("stfull", (w1(21), 1)),
    "csize": bf("csize", (w1(14), 2)),
    "lanes": bf("lanes", (w1(14), 4)),
    "pmev": bf("pmev", (w1(2), 1)),
    "pmid": bf("pmid", (10, 4)),
    # texture instructions (op f, sec 0-3; envytools envydis/g80.c): the register base is `dst`
    "tex": bf("tex", (9, 8)),  # texture $t
    "samp": bf("samp", (17, 5)),  # sampler $s
    "tcnt": bf("tcnt", (22, 2)),  # coordinate registers - 1
    "tfetch": bf("tfetch", (24, 1)),  # texfetch: integer coordinates, one texel
    "tmask": bf("tmask", (25, 2), (w1(14), 2)),  # components written (r g | b a)
    "tcube": bf("tcube", (27, 1)),
    "tlive": bf("tlive", (w1(2), 1)),  # 1 live, 0 all (only fragment programs tell them apart)
    "tderiv": bf("tderiv", (w1(3), 1)),  # implicit derivatives
    "toff": bf("toff", (w1(16), 12)),  # texel offsets: z w1[19:16], y w1[23:20], x w1[27:24], signed
    "tsub": bf("tsub", (w1(16), 4)),  # sec 3: 0 texsize (1 texprep, 2 texquerylod: GT215)
}

SHORT_FIELDS = {
    **COMMON,
    "dst": bf("dst", (2, 6)),
    "src1": bf("src1", (9, 6)),
    "src2": bf("src2", (16, 6)),
    "src2_c": bf("src2_c", (23, 1)),
    "src1_s": bf("src1_s", (24, 1)),
    "postinc": bf("postinc", (25, 1)),
    "areg": bf("areg", (26, 2)),
    "m8": bf("m8", (8, 1)),
    "m15": bf("m15", (15, 1)),
    "m22": bf("m22", (22, 1)),
    "op3": bf("op3", (29, 3)),
    "addop": bf("addop", (22, 1), (28, 1)),
    "kind": bf("kind", (8, 1), (15, 1)),  # IMAD32: 0 u16, 1 s16, 2 sat s16, 3 u24
    "lop": bf("lop", (8, 1), (15, 1)),
    # TEX32 (envydis/g80.c): always all four components
    "tlive": bf("tlive", (8, 1)),
    "tex": bf("tex", (9, 8)),
    "samp": bf("samp", (17, 5)),
    "tcnt": bf("tcnt", (22, 2)),
    "tfetch": bf("tfetch", (24, 1)),
}

TEX_SHORT = ("tlive", "tex", "samp", "tcnt", "tfetch")  # TEX32's fields: no immediate form has them

IMM_FIELDS = {
    **{k: v for k, v in SHORT_FIELDS.items() if k not in ("src2", "src2_c", *TEX_SHORT)},
    "f1": bf("f1", (w1(0), 2)),
    "imm": bf("imm", (16, 6), (w1(2), 26)),
    "dst7": bf("dst7", (2, 7)),  # MVI's destination is 7 bits wide (ISA.md 1.3)
}

CTRL_FIELDS = {
    **COMMON,
    "target": bf("target", (11, 16), (w1(14), 6)),  # word address (byte address >> 2)
    "pcond": bf("pcond", (w1(7), 5)),
    "preg": bf("preg", (w1(12), 2)),
    "lim": bf("lim", (w1(6), 1)),
    "bar_count": bf("bar_count", (9, 12)),
    "bar_id": bf("bar_id", (21, 4)),
    "bar_arv": bf("bar_arv", (25, 1)),
    "bar_wait": bf("bar_wait", (26, 1)),
    "bar_all": bf("bar_all", (w1(14), 1)),
}

CATALOG = {LONG: LONG_FIELDS, SHORT: SHORT_FIELDS, IMM: IMM_FIELDS, CTRL: CTRL_FIELDS, SCTRL: COMMON}
FORMAT_FIXED = {LONG: {"f0": 1}, IMM: {"f0": 1, "f1": 3}, SHORT: {"f0": 0}, CTRL: {"f0": 3}, SCTRL: {"f0": 2}}

# ---------------------------------------------------------------------------------------------
# Modifier groups used by several forms

MARK = Mods([(".S", {"marker": 2}), (".E", {"marker": 1}), ("", {"marker": 0})], "join/exit marker")
CW = Mods([(f".C{n}", {"cwe": 1, "cdst": n}) for n in range(4)] + [("", {"cwe": 0, "cdst": 0})], "$c write")
SAT27 = flag(".SAT", "sat")
SAT29 = flag(".SAT", "m29")
U16 = Mods([(".U16", {"width": 0}), ("", {"width": 1})], "width")
U16_S = Mods([(".U16", {"m15": 0}), ("", {"m15": 1})], "width")  # short/immediate: w0[15]
ITYPE = Mods(
    [("", {"signed": 0, "width": 1}), (".S32", {"signed": 1, "width": 1}),
     (".U16", {"signed": 0, "width": 0}), (".S16", {"signed": 1, "width": 0})],
    "integer type",
)
CARRY = Mods([(f".CARRY{n}", {"addop": 3, "preg": n}) for n in range(4)] + [("", {})], "carry")
CARRY_MAD = Mods([(f".CARRY{n}", {"madop": 3, "preg": n}) for n in range(4)] + [("", {})], "carry")
CARRY0 = Mods([(".CARRY0", {"addop": 3}), ("", {})], "carry")  # short/immediate forms read $c0
ROUND = {0: "", 1: ".FLOOR", 2: ".CEIL", 3: ".TRUNC"}  # rn rm rp rz
MUL_TYPES = {  # (24-bit, src1 signed or "signed", src2 signed or "high")
    ".U16.U16": (0, 0, 0), ".U16.S16": (0, 0, 1), ".S16.U16": (0, 1, 0), ".S16.S16": (0, 1, 1),
    ".U24.U24": (1, 0, 0), ".S24.S24": (1, 1, 0), ".HI.U24.U24": (1, 0, 1), ".HI.S24.S24": (1, 1, 1),
}
MAD_KINDS = {  # ISA.md 3.3: 0 u16, 1 s16, 2 sat s16, 3 u24, 4 s24, 5 sat s24, 6 hi u24, 7 hi s24, 8 hi sat s24
    0: ".U16", 1: ".S16", 2: ".SAT.S16", 3: ".U24", 4: ".S24", 5: ".SAT.S24",
    6: ".HI.U24", 7: ".HI.S24", 8: ".HI.SAT.S24",
}
HALF_KINDS: Cond = ("kind", frozenset({0, 1, 2}))
INT_TYPES = {".U16": (0, 0), ".U32": (0, 1), ".S16": (1, 0), ".S32": (1, 1)}  # (signed, 32-bit)
SRC_TYPES = {0: ".U16", 1: ".U32", 2: ".U16.BEXT", 3: ".U32.BEXT", 4: ".S16", 5: ".S32", 6: ".S16.BEXT", 7: ".S32.BEXT"}
HALF_SRC: Cond = ("srct", frozenset({0, 2, 4, 6}))


def mul_types(f24: str, s1: str, s2: str) -> Mods:
    return Mods([(t, {f24: a, s1: b, s2: c}) for t, (a, b, c) in MUL_TYPES.items()], "multiply type")


# ---------------------------------------------------------------------------------------------
# Operand helpers


def s1(**kw: object) -> Src:
    return Src(1, LONG_SLOT, shared=True, role="src1", **kw)  # type: ignore[arg-type]


def s2(**kw: object) -> Src:
    return Src(2, LONG_SLOT, const=True, role="src2", **kw)  # type: ignore[arg-type]


def s3(**kw: object) -> Src:
    return Src(3, LONG_SLOT, const=True, role="src3", **kw)  # type: ignore[arg-type]


def ss1(**kw: object) -> Src:
    return Src(1, SHORT_SLOT, shared=True, role="src1", **kw)  # type: ignore[arg-type]


def ss2(**kw: object) -> Src:
    return Src(2, SHORT_SLOT, const=True, role="src2", **kw)  # type: ignore[arg-type]


def sdst(half: object = False) -> Dst:
    return Dst(half=half, allow_o=False, bits=6)  # type: ignore[arg-type]


@dataclass
class SameAs(Operand):
    """A source that must be the destination register (the short forms' third operand)."""

    name: str = "dst"
    neg: Cond | None = None
    role: str = "src3"

    def render(self, f: Fields) -> str:
        return ("-" if holds(f, self.neg) else "") + render_reg(f[self.name], False)

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip()
        if t.startswith("-"):
            if self.neg is None:
                raise SyntaxProblem(col, "this operand cannot be negated")
            force(f, self.neg, col, "-")
            t = t[1:].strip()
        m = re.fullmatch(r"R(\d+)", t, re.IGNORECASE)
        if not m or int(m.group(1)) != f.get(self.name):
            raise SyntaxProblem(col, f"the last operand of a 32-bit form must repeat the destination R{f.get(self.name)}")

    def fields(self) -> set[str]:
        return {self.name} | ({self.neg[0]} if self.neg else set())

    def describe(self, f: Fields) -> object:
        from .operands import RegOperand

        return RegOperand(f[self.name], False, neg=holds(f, self.neg))


@dataclass
class ShiftCount(Operand):
    """SHL/SHR count: the 7-bit immediate w0[22:16] when shimm is set, else source slot 2."""

    half: object = False
    role: str = "src2"

    def __post_init__(self) -> None:
        self.slot = s2(half=self.half)

    def render(self, f: Fields) -> str:
        return f"0x{f['src2']:x}" if f["shimm"] else self.slot.render(f)

    def check(self, f: Fields) -> str | None:
        return "shift by immediate with the constant flag set" if f["shimm"] and f["src2_c"] else None

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip()
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", t):
            value = parse_int(t, col)
            if value > 0x7F:
                raise SyntaxProblem(col, f"shift count {t} out of range 0..0x7f")
            f["shimm"], f["src2"], f["src2_c"] = 1, value, 0
            return
        f["shimm"] = 0
        self.slot.parse(text, col, f, ctx)

    def fields(self) -> set[str]:
        return {"shimm"} | self.slot.fields()

    def describe(self, f: Fields) -> object:
        from .operands import ImmOperand

        return ImmOperand(f["src2"]) if f["shimm"] else self.slot.describe(f)


def _bar_count_parse(text: str, col: int, f: Fields, ctx: ParseContext) -> None:
    if text.strip().upper() == "ALL":
        f["bar_all"], f["bar_count"] = 1, 0
        return
    value = parse_int(text, col, "a thread count")
    if value > 0xFFF:
        raise SyntaxProblem(col, "barrier count field is 12 bits (0..0xfff)")
    f["bar_all"], f["bar_count"] = 0, value


BAR_COUNT = Custom(
    render_fn=lambda f: "ALL" if f["bar_all"] else f"0x{f['bar_count']:x}",
    parse_fn=_bar_count_parse,
    names=frozenset({"bar_all", "bar_count"}),
    check_fn=lambda f: "barrier 'all' form with a count" if f["bar_all"] and f["bar_count"] else None,
    role="count",
)


@dataclass
class TexMask(Operand):
    """The components a texture instruction writes (r g b a = bits 0-3), to consecutive registers
    from its base: left out when all four are written and no texel offset follows."""

    optional = True
    trailing = True
    role: str = "mask"
    offsets: bool = True  # the form has the texel-offset field after it

    def render(self, f: Fields) -> str:
        if f["tmask"] == 0xF and not (self.offsets and f["toff"]):
            return ""
        return f"0x{f['tmask']:x}"

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        value = parse_int(text, col, "a component mask")
        if value > 0xF:
            raise SyntaxProblem(col, f"component mask {text.strip()} out of range 0x0..0xf (r g b a)")
        f["tmask"] = value

    def default(self, f: Fields) -> None:
        f["tmask"] = 0xF

    def fields(self) -> set[str]:
        return {"tmask"}


@dataclass
class TexOffsets(Operand):
    """Texel offsets x, y, z (signed 4 bits each) as one 12-bit number, x in the top nibble;
    left out when zero."""

    optional = True
    trailing = True
    role: str = "offsets"

    def render(self, f: Fields) -> str:
        return f"0x{f['toff']:x}" if f["toff"] else ""

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        value = parse_int(text, col, "texel offsets")
        if value > 0xFFF:
            raise SyntaxProblem(col, f"texel offsets {text.strip()} out of range 0x0..0xfff (x y z nibbles)")
        f["toff"] = value

    def default(self, f: Fields) -> None:
        f["toff"] = 0

    def fields(self) -> set[str]:
        return {"toff"}


# Texture instructions (ISA.md 1.4 op f; envytools envydis/g80.c, decuda Opcodes.py). Decoded and
# spelt so that real nvcc code disassembles; neither the model nor the RTL has a texture unit, so
# executing one is reported as not implemented (docs/reference/assembly.md, "Spellings not seen in any NVIDIA listing").
TEX_COUNT = choice("tcnt", {0: ".1D", 1: ".2D", 2: ".3D", 3: ".4D"}, "coordinate registers")
TEX_LIVE = Mods([("", {"tlive": 1}), (".ALL", {"tlive": 0})], "live/all")
TEX_DERIV = flag(".DERIV", "tderiv")
TEX_CUBE = flag(".CUBE", "tcube")


def tex_operands(bits: int, mask: str | None) -> list[Operand]:
    """Register base (destination and coordinates), texture, sampler[, mask[, offsets]]."""
    ops: list[Operand] = [Reg("dst", bits=bits, role="dst"), Imm("tex", bits=8, role="texture"), Imm("samp", bits=5, role="sampler")]
    if mask == "offsets":
        ops += [TexMask(), TexOffsets()]
    elif mask == "plain":
        ops.append(TexMask(offsets=False))
    return ops


def tex_long(name: str, sec: int, op_mods: list[Mods], *, size: bool = False, doc: str) -> Form:
    mods = [*op_mods, TEX_LIVE, TEX_DERIV] if size else [*op_mods, TEX_CUBE, TEX_COUNT, TEX_LIVE, TEX_DERIV]
    fixed = {"op": 0xF, "sec": sec, **({"tsub": 0} if size else {})}
    return long_(name, "tex", fixed, mods, tex_operands(7, "plain" if size else "offsets"), mnemonic="TEX", doc=doc)

# ---------------------------------------------------------------------------------------------
# The forms


# Per-family properties the model, the coverage model and the RTL read from the forms (Form.unit,
# Form.float_result). Integer ALU, moves, memory and control are "int" (the RTL's integer lane or
# no unit at all). The FP unit also computes FSET (a mask) and F2I (an integer); RRO runs on the
# SFU but writes an RRO code (FP_SFU.md 10), not a float.
FP_UNIT_FAMILIES = frozenset({"fadd", "fmul", "fmad", "fminmax", "fset", "fslct", "i2f", "f2i", "f2f"})
SFU_FAMILIES = frozenset({"sfu", "rro"})
FLOAT_RESULT_FAMILIES = frozenset({"fadd", "fmul", "fmad", "fminmax", "fslct", "i2f", "f2f", "sfu"})


def _form(
    fmt: str,
    name: str,
    family: str,
    fixed: dict[str, int],
    mods: list[Mods],
    operands: list[Operand],
    *,
    mnemonic: str | None = None,
    guard: str | None = None,
    guard_default: int = conditions.ALWAYS,
    reg_shown: bool | Cond = False,
    promote: str | None = None,
    doc: str = "",
    extra: tuple[str, ...] = (),
) -> Form:
    catalog = CATALOG[fmt]
    allfixed = {**FORMAT_FIXED[fmt], **fixed}
    used = set(allfixed) | set(extra)
    for piece in [*mods, *operands]:
        used |= piece.fields()
    if guard is None:
        guard = {LONG: "dst", CTRL: "ctrl"}.get(fmt, "none")
    if guard != "none":
        used |= {"pcond", "preg"}
    fields: dict[str, BitField] = {n: catalog[n] for n in sorted(used, key=lambda n: catalog[n].pieces)}
    return Form(
        name=name,
        mnemonic=mnemonic or name,
        fmt=fmt,
        family=family,
        fields=fields,
        fixed=allfixed,
        mods=mods,
        operands=operands,
        guard=guard,
        guard_default=guard_default,
        reg_shown=reg_shown,  # type: ignore[arg-type]
        promote=promote,
        unit="fp" if family in FP_UNIT_FAMILIES else "sfu" if family in SFU_FAMILIES else "int",
        float_result=family in FLOAT_RESULT_FAMILIES,
        doc=doc,
    )


def long_(name: str, family: str, fixed: dict[str, int], mods: list[Mods], operands: list[Operand], **kw: object) -> Form:
    return _form(LONG, name, family, fixed, [MARK, *mods], operands, **kw)  # type: ignore[arg-type]


def ctrl(name: str, op: int, operands: list[Operand], *, predicable: bool, mods: list[Mods] | None = None, doc: str = "") -> Form:
    default = conditions.ALWAYS if predicable else conditions.NEVER
    return _form(CTRL, name, "control", {"op": op}, mods or [], operands, guard_default=default, doc=doc)


SFU_SRC = dict(neg=("m26", 1), abs_=("m20", 1))
F_NEG1, F_NEG2 = ("m26", 1), ("m27", 1)
F_ABS1, F_ABS2 = ("m20", 1), ("m19", 1)
HALF_W: Cond = ("width", 0)
HALF_S: Cond = ("m15", 0)

FORMS: list[Form] = [
    # --- long control (ISA.md 6.1) ---------------------------------------------------------
    ctrl("BRA", 0x1, [Target()], predicable=True, doc="branch; divergence pushes the other path"),
    ctrl("CAL", 0x2, [Target()], predicable=False, mods=[Mods([(".NOINC", {"lim": 0}), ("", {"lim": 1})], "call limit")], doc="call"),
    ctrl("RET", 0x3, [], predicable=True, doc="return; with no CALL entry it ends the threads"),
    ctrl("PBK", 0x4, [Target()], predicable=False, doc="push break address"),
    ctrl("BRK", 0x5, [], predicable=True, doc="break to the PBK address"),
    ctrl(
        "BAR", 0x8, [Named("bar_id", "b", 15, role="barrier"), BAR_COUNT], predicable=False,
        mods=[flag(".ARV", "bar_arv"), flag(".WAIT", "bar_wait")], doc="barrier (__syncthreads)",
    ),
    ctrl("TRAP", 0x9, [], predicable=False, doc="trap: ends the program with an error"),
    ctrl("SSY", 0xA, [Target()], predicable=False, doc="set synchronisation (join) point"),
    _form(SCTRL, "TRAP32", "control", {"op": 0x9}, [], [], promote="TRAP", doc="32-bit trap"),
    # --- op 0: moves between register files, shared store -----------------------------------
    long_("C2R", "c2r", {"op": 0x0, "sec": 1}, [], [Dst(allow_o=False), Named("preg", "C", 3, role="src")], reg_shown=True, doc="$r = $c (flags nibble)"),
    long_("A2R", "a2r", {"op": 0x0, "sec": 2}, [], [Dst(allow_o=False), Named("areg", "A", 7, role="src")], doc="$r = $a"),
    long_("S2R", "s2r", {"op": 0x0, "sec": 3}, [], [Dst(allow_o=False), Named("sreg", "SR", 15, role="src")], doc="$r = special register"),
    long_(
        "R2C", "r2c", {"op": 0x0, "sec": 5}, [Mods([("", {"cwe": 1}), (".NOWE", {"cwe": 0})], "write-enable")],
        [Named("cdst", "C", 3, role="dst"), Src(1, LONG_SLOT, role="src1")], doc="$c = low 4 bits of $r",
    ),
    long_("R2A", "r2a", {"op": 0x0, "sec": 6}, [], [Named("adst", "A", 7, role="dst"), s1(), OptImm(name="shcnt4", bits=4)], doc="$a = $r << count"),
    long_(
        "R2G", "r2g", {"op": 0x0, "sec": 7},
        [Mods([(".U32.U32", {"stsize": 2}), (".U16.U16", {"stsize": 0}), (".U16.U8", {"stsize": 1, "stfull": 0}),
               (".U32.U8", {"stsize": 1, "stfull": 1})], "store size")],
        [SharedStore(), StoreSource()], doc="store to shared memory",
    ),
    # --- op 1: moves and constant loads ----------------------------------------------------
    long_(
        "MOV", "mov", {"op": 0x1, "sec": 0, "lanes": 0xF}, [U16],
        [Dst(half=HALF_W), s1(half=HALF_W)], doc="move register or shared memory",
    ),
    long_("MVC", "mvc", {"op": 0x1, "sec": 1}, [U16], [Dst(half=HALF_W), ConstLoad()], doc="load from constant memory"),
    # --- op 2/3: add family, set, min/max, shifts ---------------------------------------------
    long_(
        "IADD", "iadd", {"op3": 0x1, "sec": 0}, [SAT27, U16, CARRY, CW],
        [Dst(half=HALF_W), s1(half=HALF_W, neg=("addop", 2)), s3(half=HALF_W, neg=("addop", 1))],
        reg_shown=("addop", 3), doc="integer add / sub (-b) / subr (-a) / add with carry",
    ),
    long_("ISET", "iset", {"op": 0x3, "sec": 3}, [ITYPE, CW], [Dst(half=HALF_W), s1(half=HALF_W), s2(half=HALF_W), CondOperand("setcond", bits=3)], doc="integer compare"),
    long_("IMAX", "iminmax", {"op": 0x3, "sec": 4}, [ITYPE, CW], [Dst(half=HALF_W), s1(half=HALF_W), s2(half=HALF_W)], doc="integer maximum"),
    long_("IMIN", "iminmax", {"op": 0x3, "sec": 5}, [ITYPE, CW], [Dst(half=HALF_W), s1(half=HALF_W), s2(half=HALF_W)], doc="integer minimum"),
    long_("SHL", "shift", {"op": 0x3, "sec": 6}, [ITYPE, CW], [Dst(half=HALF_W), s1(half=HALF_W), ShiftCount(half=HALF_W)], doc="shift left"),
    long_("SHR", "shift", {"op": 0x3, "sec": 7}, [ITYPE, CW], [Dst(half=HALF_W), s1(half=HALF_W), ShiftCount(half=HALF_W)], doc="shift right (.S32/.S16 arithmetic)"),
    # --- op 4-7: multiply, sad, multiply-add ---------------------------------------------------
    long_(
        "IMUL", "imul", {"op": 0x4, "sec": 0}, [mul_types("m16", "m15", "m14"), CW],
        [Dst(), s1(half=("m16", 0)), s2(half=("m16", 0))], doc="integer multiply 16x16 or 24x24",
    ),
    long_("ISAD", "isad", {"op": 0x5, "sec": 0}, [ITYPE, CW], [Dst(), s1(half=HALF_W), s2(half=HALF_W), s3()], doc="sum of absolute difference"),
    long_(
        "IMAD", "imad", {"op3": 0x3}, [choice("kind", MAD_KINDS, "multiply kind (0-8)"), CARRY_MAD, CW],
        [Dst(), s1(half=HALF_KINDS, neg=("madop", 2)), s2(half=HALF_KINDS), s3(neg=("madop", 1))],
        reg_shown=("madop", 3), doc="integer multiply-add",
    ),
    # --- op 9: special functions -----------------------------------------------------------
    long_("RCP", "sfu", {"op": 0x9, "sec": 0}, [], [Dst(), Src(1, LONG_SLOT, role="src1", **SFU_SRC)], doc="reciprocal"),  # type: ignore[arg-type]
    long_("RSQ", "sfu", {"op": 0x9, "sec": 2}, [], [Dst(), Src(1, LONG_SLOT, role="src1", **SFU_SRC)], doc="reciprocal square root"),  # type: ignore[arg-type]
    long_("LG2", "sfu", {"op": 0x9, "sec": 3}, [], [Dst(), Src(1, LONG_SLOT, role="src1", **SFU_SRC)], doc="log2"),  # type: ignore[arg-type]
    long_("SIN", "sfu", {"op": 0x9, "sec": 4}, [], [Dst(), Src(1, LONG_SLOT, role="src1")], doc="sine of an RRO.SIN result"),
    long_("COS", "sfu", {"op": 0x9, "sec": 5}, [], [Dst(), Src(1, LONG_SLOT, role="src1")], doc="cosine of an RRO.SIN result"),
    long_("EX2", "sfu", {"op": 0x9, "sec": 6}, [SAT27], [Dst(), Src(1, LONG_SLOT, role="src1")], doc="2^x of an RRO.EX2 result"),
    # --- op a: conversions (ISA.md 3.9, 4.3) -------------------------------------------------
    long_(
        "I2I", "i2i", {"op": 0xA, "sec2": 0},
        [Mods([(t, {"m19": 0, "signed": s, "width": w}) for t, (s, w) in INT_TYPES.items()]
              + [(".U8", {"m19": 1, "signed": 0}), (".S8", {"m19": 1, "signed": 1})], "destination type"),
         choice("srct", SRC_TYPES, "source type"), CW],
        [Dst(half=HALF_W), s1(half=HALF_SRC, neg=("m29", 1), abs_=F_ABS1)], doc="integer to integer (clamping)",
    ),
    long_(
        "I2F", "i2f", {"op": 0xA, "sec2": 1},
        [choice("width", {0: ".F16", 1: ".F32"}, "destination type"), choice("srct", SRC_TYPES, "source type"),
         choice("rnd", ROUND, "rounding"), flag(".SAT", "m19"), CW],
        [Dst(half=HALF_W), s1(half=HALF_SRC, neg=("m29", 1), abs_=F_ABS1)], doc="integer to float",
    ),
    long_(
        "F2I", "f2i", {"op": 0xA, "sec2": 2},
        [Mods([(t, {"signed": s, "width": w}) for t, (s, w) in INT_TYPES.items()], "destination type"),
         choice("m14", {0: ".F16", 1: ".F32"}, "source type"), choice("rnd", ROUND, "rounding"), CW],
        [Dst(half=HALF_W), s1(half=("m14", 0), neg=("m29", 1), abs_=F_ABS1)], doc="float to integer (clamping)",
    ),
    long_(
        "F2F", "f2f", {"op": 0xA, "sec2": 3},
        [choice("width", {0: ".F16", 1: ".F32"}, "destination type"), choice("m14", {0: ".F16", 1: ".F32"}, "source type"),
         Mods([(t, {"m27": 0, "rnd": r}) for r, t in {0: "", 1: ".RM", 2: ".RP", 3: ".RZ"}.items()]
              + [(t, {"m27": 1, "rnd": r}) for r, t in {0: ".ROUND", 1: ".FLOOR", 2: ".CEIL", 3: ".TRUNC"}.items()], "rounding"),
         flag(".SAT", "m19"), CW],
        [Dst(half=HALF_W), s1(half=("m14", 0), neg=("m29", 1), abs_=F_ABS1)], doc="float to float, round to integer",
    ),
    # --- op b: float add, compare, min/max, range reduction ------------------------------------
    long_(
        "FADD", "fadd", {"op": 0xB, "sec2": 0}, [SAT29, Mods([("", {"arnd": 0}), (".TRUNC", {"arnd": 3})], "rounding"), CW],
        [Dst(), s1(neg=F_NEG1), s3(neg=F_NEG2)], doc="float add (second operand in slot 3)",
    ),
    long_("FSET", "fset", {"op": 0xB, "sec": 3}, [CW], [Dst(), s1(neg=F_NEG1, abs_=F_ABS1), s2(neg=F_NEG2, abs_=F_ABS2), CondOperand("fcond", bits=4)], doc="float compare"),
    long_("FMAX", "fminmax", {"op": 0xB, "sec": 4}, [CW], [Dst(), s1(neg=F_NEG1, abs_=F_ABS1), s2(neg=F_NEG2, abs_=F_ABS2)], doc="float maximum"),
    long_("FMIN", "fminmax", {"op": 0xB, "sec": 5}, [CW], [Dst(), s1(neg=F_NEG1, abs_=F_ABS1), s2(neg=F_NEG2, abs_=F_ABS2)], doc="float minimum"),
    long_("RRO", "rro", {"op": 0xB, "sec": 6}, [], [Dst(), s1(neg=F_NEG1, abs_=F_ABS1), Keyword("m14", {0: "SIN", 1: "EX2"})], doc="range reduction before SIN/COS/EX2"),
    # --- op c: float multiply, select ------------------------------------------------------------
    long_(
        "FMUL", "fmul", {"op": 0xC, "sec": 0}, [Mods([("", {"frnd": 0}), (".TRUNC", {"frnd": 3})], "rounding"), CW],
        [Dst(), s1(neg=F_NEG1), s2(neg=F_NEG2)], doc="float multiply",
    ),
    long_("FSLCT", "fslct", {"op": 0xC, "sec2": 1}, [CW], [Dst(), s1(), s2(), s3(neg=("m29", 1))], doc="select src1 if src3 >= 0 else src2"),
    # --- op d: logic, address add, local and global memory -------------------------------------------
    long_(
        "LOP", "lop", {"op": 0xD, "sec": 0}, [choice("lop", {0: ".AND", 1: ".OR", 2: ".XOR", 3: ".PASS_B"}, "logic operation"), U16, CW],
        [Dst(half=HALF_W), s1(half=HALF_W, not_=("m16", 1)), s2(half=HALF_W, not_=("m17", 1))], doc="bitwise logic",
    ),
    long_("ADA", "ada", {"op": 0xD, "sec": 1}, [], [Named("adst", "A", 7, role="dst"), Named("areg", "A", 7, role="src"), Imm("aoff", bits=16)], doc="$a = $a + offset"),
    long_("LLD", "lld", {"op": 0xD, "sec": 2}, [choice("msize", {k: v[0] for k, v in MEM_SIZES.items()}, "size")], [DataReg(), LocalMem()], doc="load local"),
    long_("LST", "lst", {"op": 0xD, "sec": 3}, [choice("msize", {k: v[0] for k, v in MEM_SIZES.items()}, "size")], [LocalMem(), DataReg()], doc="store local"),
    long_("GLD", "gld", {"op": 0xD, "sec": 4}, [choice("msize", {k: v[0] for k, v in MEM_SIZES.items()}, "size")], [DataReg(), GlobalMem()], doc="load global"),
    long_("GST", "gst", {"op": 0xD, "sec": 5}, [choice("msize", {k: v[0] for k, v in MEM_SIZES.items()}, "size")], [GlobalMem(), DataReg()], doc="store global"),
    # --- op e: float multiply-add ---------------------------------------------------------------
    long_(
        "FMAD", "fmad", {"op": 0xE, "sec2": 0},
        [SAT29, Mods([(t, {"src2_c": 0, "src3_c": 0, "cbank": r}) for r, t in ROUND.items() if r] + [("", {})], "rounding hint"), CW],
        [Dst(), s1(neg=F_NEG1), s2(), s3(neg=F_NEG2)], doc="float multiply (truncated) then add",
    ),
    # --- op f: nop ----------------------------------------------------------------------------------
    long_("NOP", "nop", {"op": 0xF, "sec": 7, "pmev": 0}, [], [], guard="ctrl", guard_default=conditions.NEVER, doc="no operation (carries .S joins)"),
    long_("PMEVENT", "nop", {"op": 0xF, "sec": 7, "pmev": 1}, [], [Imm("pmid", bits=4)], guard="ctrl", doc="performance-monitor event"),
    # --- short (32-bit) forms ------------------------------------------------------------------
    _form(SHORT, "MOV32", "mov", {"op": 0x1}, [U16_S], [sdst(HALF_S), ss1(half=HALF_S)], promote="MOV"),
    _form(
        SHORT, "IADD32", "iadd", {"op3": 0x1}, [flag(".SAT", "m8"), U16_S, CARRY0],
        [sdst(HALF_S), ss1(half=HALF_S, neg=("addop", 2)), ss2(half=HALF_S, neg=("addop", 1))], promote="IADD",
    ),
    _form(SHORT, "IMUL32", "imul", {"op": 0x4}, [mul_types("m22", "m15", "m8")], [sdst(), ss1(half=("m22", 0)), ss2(half=("m22", 0))], promote="IMUL"),
    _form(
        SHORT, "ISAD32", "isad", {"op": 0x5},
        [Mods([("", {"m8": 0, "m15": 1}), (".S32", {"m8": 1, "m15": 1}), (".U16", {"m8": 0, "m15": 0}), (".S16", {"m8": 1, "m15": 0})], "integer type")],
        [sdst(), Src(1, SHORT_SLOT, half=HALF_S, role="src1"), Src(2, SHORT_SLOT, half=HALF_S, role="src2"), SameAs()], promote="ISAD",
    ),
    _form(
        SHORT, "IMAD32", "imad", {"op3": 0x3}, [choice("kind", {0: ".U16", 1: ".S16", 2: ".SAT.S16", 3: ".U24"}, "multiply kind"), CARRY0],
        [sdst(), ss1(half=("kind", frozenset({0, 1, 2})), neg=("addop", 2)), ss2(half=("kind", frozenset({0, 1, 2}))), SameAs(neg=("addop", 1))],
        promote="IMAD",
    ),
    _form(SHORT, "RCP32", "sfu", {"op": 0x9}, [], [sdst(), Src(1, SHORT_SLOT, neg=("m22", 1), abs_=("m15", 1), role="src1")], promote="RCP"),
    _form(SHORT, "FADD32", "fadd", {"op": 0xB}, [flag(".SAT", "m8")], [sdst(), ss1(neg=("m15", 1)), ss2(neg=("m22", 1))], promote="FADD"),
    _form(SHORT, "FMUL32", "fmul", {"op": 0xC}, [flag(".SAT", "m8")], [sdst(), ss1(neg=("m15", 1)), ss2(neg=("m22", 1))], promote="FMUL"),
    _form(SHORT, "FMAD32", "fmad", {"op": 0xE}, [flag(".SAT", "m8")], [sdst(), ss1(neg=("m15", 1)), ss2(), SameAs(neg=("m22", 1))], promote="FMAD"),
    # --- long immediate forms -----------------------------------------------------------------
    _form(IMM, "MVI", "mov", {"op": 0x1}, [U16_S], [Dst(half=HALF_S, allow_o=False, name="dst7"), Imm()]),
    _form(
        IMM, "IADD32I", "iadd", {"op3": 0x1}, [flag(".SAT", "m8"), U16_S, CARRY0],
        [sdst(HALF_S), ss1(half=HALF_S, neg=("addop", 2)), Imm(neg=("addop", 1))],
    ),
    _form(IMM, "IMUL32I", "imul", {"op": 0x4}, [mul_types("m22", "m15", "m8")], [sdst(), ss1(half=("m22", 0)), Imm()]),
    _form(
        IMM, "IMAD32I", "imad", {"op3": 0x3}, [choice("kind", {0: ".U16", 1: ".S16", 2: ".SAT.S16", 3: ".U24"}, "multiply kind"), CARRY0],
        [sdst(), ss1(half=("kind", frozenset({0, 1, 2})), neg=("addop", 2)), Imm(), SameAs(neg=("addop", 1))],
    ),
    _form(IMM, "FADD32I", "fadd", {"op": 0xB}, [flag(".SAT", "m8")], [sdst(), ss1(neg=("m15", 1)), Imm(kind="f32", neg=("m22", 1))]),
    _form(IMM, "FMUL32I", "fmul", {"op": 0xC}, [flag(".SAT", "m8")], [sdst(), ss1(neg=("m15", 1)), Imm(kind="f32", neg=("m22", 1))]),
    _form(
        IMM, "LOP32I", "lop", {"op": 0xD}, [choice("lop", {0: ".AND", 1: ".OR", 2: ".XOR", 3: ".PASS_B"}, "logic operation")],
        [sdst(), ss1(not_=("m22", 1)), Imm()],
    ),
    _form(IMM, "FMAD32I", "fmad", {"op": 0xE}, [flag(".SAT", "m8")], [sdst(), ss1(neg=("m15", 1)), Imm(kind="f32"), SameAs(neg=("m22", 1))]),
    # --- op f: texture (last, so that the form ids of the RTL header stay as they were) ---------------
    tex_long("TEX", 0, [Mods([("", {"tfetch": 0}), (".FETCH", {"tfetch": 1})], "operation")],
             doc="texture fetch: texauto (float coordinates, filtered) or .FETCH texfetch (integer, one texel)"),
    tex_long("TEXBIAS", 1, [Mods([(".BIAS", {})], "operation")], doc="texbias: texture fetch with a LOD bias (last coordinate)"),
    tex_long("TEXLOD", 2, [Mods([(".LOD", {})], "operation")], doc="texlod: texture fetch at an explicit LOD (last coordinate)"),
    tex_long("TEXSIZE", 3, [Mods([(".SIZE", {})], "operation")], size=True, doc="texsize: width, height, depth, levels at the LOD in the base register"),
    _form(
        SHORT, "TEX32", "tex", {"op": 0xF},
        [Mods([("", {"tfetch": 0}), (".FETCH", {"tfetch": 1})], "operation"), TEX_COUNT, TEX_LIVE],
        tex_operands(6, None), promote="TEX", doc="32-bit texauto/texfetch: all four components",
    ),
]

BY_NAME: dict[str, Form] = {f.name: f for f in FORMS}
BY_MNEMONIC: dict[str, list[Form]] = {}
for _f in FORMS:
    BY_MNEMONIC.setdefault(_f.mnemonic.upper(), []).append(_f)

# Opcodes that exist on G80-family chips but are not SM_1.0 compute instructions, so the decoder
# can say what a word is instead of only "unknown" (ISA.md 1.4).
ABSENT = {
    (LONG, 0x0, 0): "ld a[] (vertex/geometry programs only)",
    (LONG, 0x0, 4): "st o[] (vertex/geometry programs only)",
    (LONG, 0x1, 2): "ld s[] / G2R (G84 and later, not sm_10)",
    (LONG, 0x1, 3): "vote (G200 only)",
    (LONG, 0x8, None): "interp (fragment programs only)",
    (LONG, 0xC, 4): "quadop (fragment programs only)",
    (LONG, 0xD, 6): "red g[] (G84 and later, not sm_10)",
    (LONG, 0xD, 7): "atom g[] (G84 and later, not sm_10)",
    (LONG, 0xE, None): "f64 instructions (G200 only)",
    (LONG, 0xF, 3): "texprep/texquerylod texture instructions (w1[19:16] 1, 2: GT215 and later)",
    (LONG, 0xF, 4): "texcsaa/texgather texture instructions (fragment programs; texgather GT215 and later)",
    (LONG, 0xF, 5): "an unknown texture-group opcode (envytools lists it as ???)",
    (LONG, 0xF, 6): "emit/restart (geometry programs only)",
    (SHORT, 0x8, None): "interp (fragment programs only)",
    (CTRL, 0x0, None): "discard (fragment programs only)",
    (CTRL, 0x6, None): "quadon (fragment programs only)",
    (CTRL, 0x7, None): "quadpop (fragment programs only)",
    (CTRL, 0xB, None): "brkpt (G84 and later, not sm_10)",
    (CTRL, 0xC, None): "bra c[] (GT215 and later)",
    (CTRL, 0xD, None): "preret (GT215 and later)",
    (SCTRL, 0xB, None): "brkpt (G84 and later, not sm_10)",
}
