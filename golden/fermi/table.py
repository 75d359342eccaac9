"""The Fermi (sm_20) encoding table: every supported form once, with its fields, modifiers and operands.

An instruction is one 64-bit integer (the value CUDA 5 cuobjdump prints; CUDA 4.x prints its low
32 bits first). Sources, cited per row as `src`:

- "nv": NVIDIA cuobjdump -sass listings of sm_20 code (testdata/fermi, from seanbaxter/mgpu_old's
  .isa files): bits and text together, the best evidence there is;
- "envy": envytools envydis/gf100.c (tables tabm, tabc and the field definitions above them);
- "asf": asfermi's wiki pages (seeds 001 OpcodeExecution, 002 OpcodeInteger; FERMI.md explains
  their least-significant-bit-first templates);
- "mesa": Mesa's nouveau code emitter for GF100 (src/gallium/drivers/nouveau/codegen/
  nv50_ir_emit_nvc0.cpp; the function is named at each row): it writes the word, not the text, so
  it confirms a row's bits but not its spelling (tests/test_fermi_mesa.py).

A row resting on one source says so in its comment. The layout every row shares (envy, nv):
bits 2:0 and 63:58 are the opcode (some rows use bit 58 or 59 for a modifier and identify
themselves by 63:59 or 63:60), bit 3 marks the 4-byte short forms (not supported), bit 4 is `.S`
(the reconvergence mark cuobjdump prints last), 12:10 the guard predicate and 13 its negation,
19:14 the destination, 25:20 the first source, 45:26 the composite second source (a register in
31:26, a constant `c[bank 45:42][offset 41:26]` or a 20-bit immediate), 47:46 which of those it is,
54:49 the third source register. Bits no field of a row covers must be zero: a word with any of
them set is illegal, so that every legal word has exactly one text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from golden.isa.bits import BitField
from golden.isa.decoder import Decoder
from golden.isa.form import FormBase


def bf(name: str, *pieces: tuple[int, int], signed: bool = False) -> BitField:
    return BitField(name, tuple(pieces), signed)


# -- fields, by name --------------------------------------------------------------------------------
FIELDS: dict[str, BitField] = {
    "olo": bf("olo", (0, 3)),
    "short": bf("short", (3, 1)),
    "s": bf("s", (4, 1)),
    "guard": bf("guard", (10, 3)),
    "gneg": bf("gneg", (13, 1)),
    "ohi6": bf("ohi6", (58, 6)),
    "ohi5": bf("ohi5", (59, 5)),
    "ohi4": bf("ohi4", (60, 4)),
    "ohi2": bf("ohi2", (62, 2)),
    "rd": bf("rd", (14, 6)),
    "ra": bf("ra", (20, 6)),
    "rb": bf("rb", (26, 6)),
    "rc": bf("rc", (49, 6)),
    "sel": bf("sel", (46, 2)),
    "imm20": bf("imm20", (26, 20)),
    "cbank": bf("cbank", (42, 4)),
    "coff": bf("coff", (26, 16)),
    "imm32": bf("imm32", (26, 32)),
    "pd": bf("pd", (17, 3)),
    "pdn": bf("pdn", (14, 3)),
    "pa": bf("pa", (20, 3)),
    "pa_not": bf("pa_not", (23, 1)),
    "pb": bf("pb", (26, 3)),
    "pb_not": bf("pb_not", (29, 1)),
    "pc": bf("pc", (49, 3)),
    "pc_not": bf("pc_not", (52, 1)),
    "sr": bf("sr", (26, 8)),
    "target": bf("target", (26, 24), signed=True),
    "shift5": bf("shift5", (5, 5)),
    "lanes": bf("lanes", (5, 4)),
    "b5": bf("b5", (5, 1)),
    "sgn": bf("sgn", (5, 1), (7, 1)),  # IMUL/IMAD signedness: bit 5 of B, bit 7 of Ra (envy us32_5/us32_7)
    "b22": bf("b22", (22, 1)),
    "idst": bf("idst", (20, 2), (7, 1)),  # integer conversion destination: size 21:20, signed 7 (envy tabcvtidst)
    "isrc": bf("isrc", (23, 2), (9, 1)),  # integer conversion source: size 24:23, signed 9 (envy tabcvtisrc)
    "f2frnd": bf("f2frnd", (49, 2), (7, 1)),  # F2F rounding; bit 7 rounds to an integer value (envy rint)
    "b25": bf("b25", (25, 1)),
    "b6": bf("b6", (6, 1)),
    "b7": bf("b7", (7, 1)),
    "b8": bf("b8", (8, 1)),
    "b9": bf("b9", (9, 1)),
    "b14": bf("b14", (14, 1)),
    "b15": bf("b15", (15, 1)),
    "b16": bf("b16", (16, 1)),
    "b48": bf("b48", (48, 1)),
    "b49": bf("b49", (49, 1)),
    "b55": bf("b55", (55, 1)),
    "b56": bf("b56", (56, 1)),
    "b57": bf("b57", (57, 1)),
    "b58": bf("b58", (58, 1)),
    "b59": bf("b59", (59, 1)),
    "b9_8": bf("b9_8", (8, 2)),
    "b7_6": bf("b7_6", (6, 2)),
    "b7_5": bf("b7_5", (5, 3)),
    "b6_5": bf("b6_5", (5, 2)),
    "b8_5": bf("b8_5", (5, 4)),
    "cond": bf("cond", (5, 5)),  # the CC test of NOP/BRA/EXIT/RET/BRK/CONT (seed 001's NOP table)
    "cmp": bf("cmp", (55, 4)),  # ISETP/FSETP... comparison (envy tabsetit)
    "lop": bf("lop", (53, 2)),  # the logic op combining with the third predicate (envy tabsetlop)
    "plop": bf("plop", (30, 2)),  # PSETP's first logic op (envy tabpsrc)
    "rnd": bf("rnd", (55, 2)),  # FADD/FMUL/FFMA/DADD... rounding (envy tabfarm)
    "crnd": bf("crnd", (49, 2)),  # conversions' rounding (envy tabfcrm)
    "ddst": bf("ddst", (20, 2)),  # conversion destination size (envy tabcvt*dst)
    "dsrc": bf("dsrc", (23, 2)),  # conversion source size
    "bsel": bf("bsel", (55, 2)),  # conversion source byte select (envy BNUM)
    "mulf": bf("mulf", (49, 3)),  # FMUL's scale (envy tabmulf)
    "mufu": bf("mufu", (26, 3)),  # MUFU function (envy tabm 0xc8 rows)
    "csetc": bf("csetc", (20, 5)),  # CSETP's CC test (envy tabsetct)
    "ldty": bf("ldty", (5, 3)),  # memory access size (envy tabldstt)
    "cop": bf("cop", (8, 2)),  # cache operation (envy tablcop/tabscop)
    "goff": bf("goff", (26, 32), signed=True),  # global address offset (envy gmem_imm)
    "soff": bf("soff", (26, 24), signed=True),  # local/shared address offset (envy slmem_imm)
    "aoff": bf("aoff", (26, 17), (55, 3), signed=True),  # ATOM address offset (envy gamem_imm)
    "loff": bf("loff", (26, 16), signed=True),  # LDC offset (envy fcmem_imm)
    "lbank": bf("lbank", (42, 5)),  # LDC bank (envy fcmem_idx)
    "adst": bf("adst", (43, 6)),  # ATOM's destination (envy DST2)
    "atype": bf("atype", (9, 1), (59, 3)),  # ATOM/RED data type (asf 001 "mod3"; envy 0x50/0x58/0x68)
    "aop": bf("aop", (5, 4)),  # ATOM/RED operation (asf 001; envy tabredop)
    "rcz": bf("rcz", (49, 6)),  # ATOM's unused third source, RZ in every listing
    "vmode": bf("vmode", (5, 3)),  # VOTE mode
    "vpd": bf("vpd", (54, 3)),  # VOTE's predicate destination (envy pdst2)
    "barimm": bf("barimm", (20, 4)),  # BAR's barrier number when immediate (envy baroff)
    "bar_ai": bf("bar_ai", (47, 1)),  # BAR: the barrier is an immediate
    "bar_bi": bf("bar_bi", (46, 1)),  # BAR: the thread count is an immediate
    "tcnt": bf("tcnt", (26, 12)),  # BAR thread count immediate (envy tcntoff)
    "barpd": bf("barpd", (53, 3)),  # BAR's predicate destination (envy pdst3)
    "barop": bf("barop", (5, 3)),  # BAR.RED operation / ARV
    "nopimm": bf("nopimm", (26, 16)),  # NOP's immediate (seed 001)
    "prmt": bf("prmt", (5, 3)),  # PRMT mode (envy tabprmtmod)
    "membar": bf("membar", (5, 2)),  # MEMBAR level
    "rro": bf("rro", (5, 1)),  # RRO: SINCOS or EX2 (envy presin/preex2)
    "ctlimm": bf("ctlimm", (14, 1)),  # control target from a constant (envy tabbtarg), must be 0
}

REG_FIELDS = ("rd", "ra", "rb", "rc", "adst")


# -- modifiers --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mod:
    """A modifier field: each legal value and its spelling ('' prints nothing). A value missing from
    `values` makes the word illegal."""

    field: str
    values: Mapping[int, str]
    cuda4: Mapping[int, str] | None = None  # CUDA 4.x's spellings where they differ

    def spell(self, value: int, dialect: str) -> str:
        return (self.cuda4 if dialect == "cuda4" and self.cuda4 is not None else self.values)[value]


def flag(field_name: str, spelling: str) -> Mod:
    return Mod(field_name, {0: "", 1: spelling})


S = flag("s", "S")
X6 = flag("b6", "X")
SAT5 = flag("b5", "SAT")
# Bit 9 of SHL/SHR: envy reads it as wrap (1) or clamp (0); CUDA 4.x prints .W when it is clear,
# and FERMI.md notes that SHL's .W printing changed at 5.0: the CUDA 5 spelling (.W = wrap) is the
# one the model keys on.
WRAP = Mod("b9", {0: "", 1: "W"}, {0: "W", 1: ""})
# IMUL/IMAD: cuobjdump prints nothing for signed x signed, else both types (nv: IMUL.U32.U32)
SGN = Mod("sgn", {0: "U32.U32", 1: "U32.S32", 2: "S32.U32", 3: ""})
U32_5 = Mod("b5", {0: "U32", 1: ""})  # envy us32_5: bit 5 clear is unsigned; cuobjdump prints only U32
FTZ5 = flag("b5", "FTZ")
FTZ6 = flag("b6", "FTZ")
FMZ7 = flag("b7", "FMZ")
CMP_I = Mod("cmp", {1: "LT", 2: "EQ", 3: "LE", 4: "GT", 5: "NE", 6: "GE"})  # asf 002 ISETP; envy tabsetit
CMP_I_ALL = Mod("cmp", {0: "F", 1: "LT", 2: "EQ", 3: "LE", 4: "GT", 5: "NE", 6: "GE", 7: "T"})
CMP_F = Mod(
    "cmp", dict(enumerate(["F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T"]))
)  # envy tabsetit
LOP3 = Mod("lop", {0: "AND", 1: "OR", 2: "XOR"})
RND = Mod("rnd", {0: "", 1: "RM", 2: "RP", 3: "RZ"})  # envy tabfarm (rn is the default, not printed)
CRND = Mod("crnd", {0: "", 1: "RM", 2: "RP", 3: "RZ"})  # envy tabfcrm
FRINT = Mod("crnd", {0: "", 1: "FLOOR", 2: "CEIL", 3: "TRUNC"})  # envy tabfcrmi, CUDA's spellings
# cuobjdump's names of the CC tests (seed 001, NOP's .CCop table); 15 (T, always) is printed as CC.T
COND = dict(enumerate(
    ["F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T", "OFF", "LO", "SFF", "LS", "HI", "SFT", "HS", "OFT", "CSM_TA", "CSM_TR", "CSM_MX", "FCSM_TA", "FCSM_TR", "FCSM_MX", "RLE", "RGT"]))  # fmt: skip


# -- operands ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opd:
    """One operand of a row, in printed order.

    kind: "r" register, "b" composite (register, constant or 20-bit immediate by `sel`), "c" third
    register (or the constant when sel is 2), "i32" 32-bit immediate, "p" predicate, "sr" special
    register, "g"/"sl"/"a" memory address (global 32-bit offset, shared/local 24-bit, atomic
    20-bit), "cm" LDC's constant address, "t" branch target, "n" plain unsigned number, "cc" the CC
    register with a test, "pr" the predicate register PR.
    imm: how an immediate reads: "i" integer (sign-extended 20 bits), "u" unsigned, "f" float32
    (the 20 bits are the top of the value), "d" float64 (top 20 bits of 64).
    ``neg``, ``abs``, ``cc``, ``not_``: the field of that bit, or empty. ``dst``: written by the instruction.
    """

    kind: str
    field: str = ""
    dst: bool = False
    imm: str = "i"
    neg: str = ""
    abs: str = ""
    cc: str = ""
    not_: str = ""
    opt: bool = False  # omitted from the text at its default (RZ, PT, CC.T, 0), as cuobjdump does
    opt5: bool = False  # omitted at its default by CUDA 5 only (NOP's CC.T, which CUDA 4.x prints)


def R(f: str, **kw: object) -> Opd:
    return Opd("r", f, **kw)  # type: ignore[arg-type]


RD = Opd("r", "rd", dst=True)
RDC = Opd("r", "rd", dst=True, cc="b48")  # envy acout30: bit 48 writes CC
RA = Opd("r", "ra")
RC = Opd("c", "rc")
BI = Opd("b", imm="i")
# Every 20-bit integer immediate is sign-extended (envytools reads them all through its signed IMM
# field; NVIDIA's LOP.AND R0, R3, 0xffff0 masks with 0xfffffff0), so no composite reads "u".
BF = Opd("b", imm="f")
BD = Opd("b", imm="d")
PC = Opd("p", "pc", not_="pc_not")
PD = Opd("p", "pd", dst=True)
PDN = Opd("p", "pdn", dst=True)


# -- forms ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Form(FormBase):
    """One row: a mnemonic with its identifying field values, modifiers and operands.

    `extra` names fields the row covers without printing them (fixed-looking fields whose legal
    values `extra_ok` restricts). `po` marks the integer adds whose two negation bits together
    print as `.PO`; `imm4` says how CUDA 4.x prints a negative integer immediate ("signed" as
    -0x8, "raw" as its 20-bit pattern)."""

    name: str
    mnemonic: str
    family: str
    fixed_: tuple[tuple[str, int], ...]
    mods: tuple[Mod, ...]
    operands: tuple[Opd, ...]  # type: ignore[assignment]
    src: tuple[str, ...] = ("nv", "envy")
    doc: str = ""
    guarded: bool = True  # False: bits 13:10 are no guard and must be zero (envy IGNPRED)
    po: bool = False
    imm4: str = "signed"
    rev4: bool = False  # CUDA 4.x prints the source predicates last to first (nv PSETP/PSET)
    inv: bool = False  # negation prints as ~ (a logic operation's inversion), not -
    extra: tuple[tuple[str, tuple[int, ...]], ...] = ()
    fields_: dict[str, BitField] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        names: list[str] = ["olo", "short", "s"] + [n for n, _ in self.fixed_]
        if self.guarded:
            names += ["guard", "gneg"]
        else:
            names += ["guard", "gneg"]  # covered, but must be zero: checked as fixed below
        for m in self.mods:
            names.append(m.field)
        for o in self.operands:
            names += operand_fields(o)
        names += [n for n, _ in self.extra]
        object.__setattr__(self, "fields_", {n: FIELDS[n] for n in dict.fromkeys(names)})
        self.derive_masks()

    @property
    def fields(self) -> dict[str, BitField]:  # type: ignore[override]
        return self.fields_

    @property
    def fixed(self) -> dict[str, int]:  # type: ignore[override]
        out = {"short": 0, **dict(self.fixed_)}
        if not self.guarded:
            out.update(guard=0, gneg=0)
        return out


def operand_fields(o: Opd) -> list[str]:
    out = [f for f in (o.neg, o.abs, o.cc, o.not_) if f]
    if o.kind == "b":
        out += ["sel", "imm20"]
    elif o.kind in ("r", "c", "p", "sr", "t", "n", "cc") and o.field:
        out.append(o.field)
    elif o.kind == "i32":
        out.append("imm32")
    elif o.kind == "g":
        out += ["ra", "goff"]
    elif o.kind == "sl":
        out += ["ra", "soff"]
    elif o.kind == "a":
        out += ["ra", "aoff"]
    elif o.kind == "cm":
        out += ["ra", "loff", "lbank"]
    return out


def _f(name: str, mn: str, fixed: dict[str, int], mods: tuple[Mod, ...], ops: tuple[Opd, ...],
       family: str = "", doc: str = "", **kw: object) -> Form:  # fmt: skip
    return Form(name, mn, family or mn, tuple(fixed.items()), (*mods, S), ops, doc=doc, **kw)  # type: ignore[arg-type]


def _i(hi5: int, **kw: int) -> dict[str, int]:
    return {"olo": 3, "ohi5": hi5, **kw}


def _forms() -> list[Form]:
    F: list[Form] = []
    a = F.append
    neg9, neg8, abs7, abs6 = "b9", "b8", "b7", "b6"
    # ---- integer (bits 2:0 = 3) ----------------------------------------------------------------
    # Bit 9 negates Ra and bit 8 B: NVIDIA's words (IADD R0, -R4, c[..] has bit 9; IADD R2, R0, -R2 bit 8)
    # and envytools (sub/subr) agree; asfermi's table, read as FERMI.md says, has them the other way round: not followed.
    a(
        _f(
            "IADD",
            "IADD",
            _i(9),
            (SAT5, X6),
            (RDC, R("ra", neg=neg9), Opd("b", neg=neg8)),
            po=True,
            doc="integer add; -Ra/-B negate, both together print .PO",
        )
    )
    a(_f("ISCADD", "ISCADD", _i(8), (), (RDC, R("ra", neg="b56"), Opd("b", neg="b55"), Opd("n", "shift5")), doc="(Ra << shift) + B", po=False))
    a(
        _f(
            "IMUL",
            "IMUL",
            _i(10, b8=0, b9=0),
            (SGN, flag("b6", "HI")),
            (RDC, RA, BI),
            doc="integer multiply, low or high 32 bits of the 64-bit product",
        )
    )
    # As IADD: bit 9 negates the product (Ra), bit 8 the addend (nv and envy; asfermi names them reversed).
    a(
        _f(
            "IMAD",
            "IMAD",
            _i(4),
            (SGN, flag("b6", "HI"), flag("b56", "SAT"), flag("b55", "X")),
            (RDC, R("ra", neg=neg9), BI, Opd("c", "rc", neg=neg8)),
            po=True,
            doc="Ra * B + C",
        )
    )
    # Bit 5 clear is .U32 (nv: ISETP.GE.U32 words; asfermi 002 "mod 4: 0 .U32"; envy us32_5).
    a(
        _f(
            "ISETP",
            "ISETP",
            _i(3),
            (CMP_I_ALL, U32_5, X6, LOP3),
            (PD, PDN, RA, BI, PC),
            imm4="raw",
            doc="integer compare into two predicates, combined with a third",
        )
    )
    a(
        _f(
            "ISET",
            "ISET",
            _i(2),
            (flag("b7", "BF"), CMP_I_ALL, U32_5, X6, LOP3),
            (RDC, RA, BI, PC),
            imm4="raw",
            doc="integer compare into a register (all ones, or 1.0 under .BF)",
        )
    )
    a(_f("ICMP", "ICMP", _i(6), (CMP_I_ALL, U32_5), (RD, RA, BI, RC), imm4="raw", doc="Ra if C compares with 0, else B"))
    a(_f("IMNMX", "IMNMX", _i(1, b7_6=0), (U32_5,), (RDC, RA, BI, PC), imm4="raw", doc="minimum if the predicate is true, else maximum"))
    a(_f("SHL", "SHL", _i(12, b5=0, b7=0, b8=0), (WRAP, X6), (RDC, RA, BI), doc="shift left; .W wraps the shift amount, else it clamps"))
    a(_f("SHR", "SHR", _i(11, b6=0), (U32_5, flag("b8", "BREV"), WRAP, flag("b7", "X")), (RDC, RA, BI), doc="shift right, arithmetic unless .U32"))
    a(
        _f(
            "LOP",
            "LOP",
            _i(13),
            (Mod("b7_6", {0: "AND", 1: "OR", 2: "XOR", 3: "PASS_B"}), flag("b5", "X")),
            (RDC, R("ra", neg=neg9), Opd("b", neg=neg8)),
            imm4="raw",
            inv=True,
            doc="bitwise logic; ~Ra/~B invert",
        )
    )
    a(
        _f(
            "BFE",
            "BFE",
            _i(14, b6=0, b7=0, b9=0),
            (U32_5, flag("b8", "BREV")),
            (RDC, RA, BI),
            imm4="raw",
            doc="bit-field extract: B is position | length << 8",
        )
    )
    a(_f("BFI", "BFI", _i(5), (), (RDC, RA, BI, RC), imm4="raw", doc="bit-field insert of Ra into C at B"))
    a(
        _f(
            "FLO",
            "FLO",
            _i(15, ra=0, b7=0, b9=0),
            (U32_5, flag("b6", "SH")),
            (RDC, Opd("b", neg=neg8)),
            imm4="raw",
            inv=True,
            doc="index of the highest set (or, signed, non-sign) bit; ~B inverts",
        )
    )
    # no listing; mesa emitISAD writes the same word (signed is bit 5)
    a(_f("ISAD", "ISAD", _i(7), (U32_5,), (RDC, RA, BI, RC), doc="|Ra - B| + C", src=("envy", "mesa")))
    a(
        _f(
            "POPC",
            "POPC",
            {"olo": 4, "ohi6": 21},
            (),
            (RD, R("ra", neg=neg9), Opd("b", neg=neg8)),
            imm4="raw",
            inv=True,
            doc="population count of Ra & B (~ inverts either)",
        )
    )
    a(_f("SEL", "SEL", {"olo": 4, "ohi6": 8}, (), (RD, RA, BI, PC), imm4="raw", doc="Ra if the predicate, else B"))
    a(
        _f(
            "PRMT",
            "PRMT",
            {"olo": 4, "ohi6": 9},
            (Mod("prmt", {0: "", 1: "F4E", 2: "B4E", 3: "RC8", 4: "ECL", 5: "ECR", 6: "RC16"}),),
            (RDC, RA, BI, RC),
            imm4="raw",
            doc="byte permute of Ra:C selected by B",
        )
    )
    # ---- 32-bit immediate forms (bits 2:0 = 2); the immediate takes the composite's place ----------
    RD32C = Opd("r", "rd", dst=True, cc="b58")  # envy acout3a: bit 58 writes CC
    I32 = Opd("i32", imm="u")
    a(
        _f(
            "IADD32I",
            "IADD32I",
            {"olo": 2, "ohi5": 1, "b8": 0},
            (SAT5, X6),
            (RD32C, R("ra", neg=neg9), I32),
            family="IADD",
            doc="integer add of a 32-bit immediate",
            src=("asf", "envy", "mesa"),  # mesa emitUADD (carry out is bit 58)
        )
    )
    a(
        _f(
            "IMUL32I",
            "IMUL32I",
            {"olo": 2, "ohi5": 2, "b8": 0, "b9": 0},
            (SGN, flag("b6", "HI")),
            (RD32C, RA, I32),
            family="IMUL",
            doc="integer multiply by a 32-bit immediate",
            src=("asf", "envy", "mesa"),  # mesa emitUMUL
        )
    )
    a(
        _f(
            "MOV32I",
            "MOV32I",
            {"olo": 2, "ohi5": 3, "ra": 0, "lanes": 15, "b9": 0},
            (),
            (RD, I32),
            family="MOV",
            doc="a 32-bit immediate into a register",
        )
    )
    a(
        _f(
            "LOP32I",
            "LOP32I",
            {"olo": 2, "ohi5": 7},
            (Mod("b7_6", {0: "AND", 1: "OR", 2: "XOR", 3: "PASS_B"}), flag("b5", "X")),
            (RD32C, R("ra", neg=neg9), Opd("i32", imm="u", neg=neg8)),
            family="LOP",
            inv=True,
            doc="bitwise logic with a 32-bit immediate",
        )
    )
    a(
        _f(
            "FADD32I",
            "FADD32I",
            {"olo": 2, "ohi5": 5, "b6": 0, "b8": 0},
            (FTZ5,),
            (RD32C, R("ra", neg=neg9, abs=abs7), Opd("i32", imm="f")),
            family="FADD",
            src=("envy", "mesa"),  # mesa emitFADD
            doc="float add of a 32-bit immediate",
        )
    )
    a(
        _f(
            "FMUL32I",
            "FMUL32I",
            {"olo": 2, "ohi5": 6, "b8": 0, "b9": 0},
            (FTZ6, FMZ7, SAT5),
            (RD32C, RA, Opd("i32", imm="f")),
            family="FMUL",
            src=("envy", "mesa"),  # mesa emitFMUL
            doc="float multiply by a 32-bit immediate",
        )
    )
    # ---- FP32 (bits 2:0 = 0) ----------------------------------------------------------------------
    a(
        _f(
            "FADD",
            "FADD",
            {"olo": 0, "ohi5": 10, "b57": 0},
            (FTZ5, RND, flag("b49", "SAT")),
            (RDC, R("ra", neg=neg9, abs=abs7), Opd("b", imm="f", neg=neg8, abs=abs6)),
            doc="float add",
        )
    )
    a(
        _f(
            "FMUL",
            "FMUL",
            {"olo": 0, "ohi5": 11, "b8": 0, "b9": 0},
            (Mod("mulf", {0: "", 1: "D2", 2: "D4", 3: "D8", 4: "M8", 5: "M4", 6: "M2"}), FTZ6, FMZ7, RND, SAT5),
            (RDC, RA, Opd("b", imm="f", neg="b57")),
            doc="float multiply; -B negates the product",
        )
    )
    # Bit 9 negates the product and cuobjdump prints it on B (nv: FFMA R6, R3, -c [0x0] [0x34], R4).
    a(
        _f(
            "FFMA",
            "FFMA",
            {"olo": 0, "ohi5": 6},
            (FTZ6, FMZ7, RND, SAT5),
            (RDC, RA, Opd("b", imm="f", neg=neg9), Opd("c", "rc", neg=neg8)),
            doc="float fused multiply-add Ra * B + C",
        )
    )
    a(
        _f(
            "FSETP",
            "FSETP",
            {"olo": 0, "ohi4": 2},
            (CMP_F, flag("b59", "FTZ"), LOP3),
            (PD, PDN, R("ra", neg=neg9, abs=abs7), Opd("b", imm="f", neg=neg8, abs=abs6), PC),
            doc="float compare into predicates",
        )
    )
    a(
        _f(
            "FSET",
            "FSET",
            {"olo": 0, "ohi4": 1},
            (flag("b5", "BF"), CMP_F, flag("b59", "FTZ"), LOP3),
            (RDC, R("ra", neg=neg9, abs=abs7), Opd("b", imm="f", neg=neg8, abs=abs6), PC),
            doc="float compare into a register",
            src=("envy", "mesa"),  # mesa emitSET
        )
    )
    a(
        _f(
            "FMNMX",
            "FMNMX",
            {"olo": 0, "ohi5": 1},
            (FTZ5,),
            (RDC, R("ra", neg=neg9, abs=abs7), Opd("b", imm="f", neg=neg8, abs=abs6), PC),
            doc="float min (predicate true) or max",
            src=("envy", "mesa"),  # mesa emitMINMAX: PT for min, !PT for max
        )
    )
    a(
        _f(
            "MUFU",
            "MUFU",
            {"olo": 0, "ohi5": 25, "b6": 0, "b8": 0, "sel": 0},
            (Mod("mufu", {0: "COS", 1: "SIN", 2: "EX2", 3: "LG2", 4: "RCP", 5: "RSQ", 6: "RCP64H", 7: "RSQ64H"}), SAT5),
            (RD, R("ra", neg=neg9, abs=abs7)),
            doc="multi-function unit approximation",
            src=("envy", "mesa"),  # mesa emitSFnOp, the function numbered as here
        )
    )
    a(
        _f(
            "RRO",
            "RRO",
            {"olo": 0, "ohi5": 12, "ra": 0, "b7": 0, "b9": 0},
            (Mod("rro", {0: "SINCOS", 1: "EX2"}),),
            (RD, Opd("b", imm="f", neg=neg8, abs=abs6)),
            doc="range reduction before MUFU.SIN/COS/EX2",
            src=("envy", "mesa"),  # mesa emitPreOp
        )
    )
    # ---- FP64 (bits 2:0 = 1) ----------------------------------------------------------------------
    a(
        _f(
            "DADD",
            "DADD",
            {"olo": 1, "ohi5": 9, "b5": 0},
            (RND,),
            (RDC, R("ra", neg=neg9, abs=abs7), Opd("b", imm="d", neg=neg8, abs=abs6)),
            doc="double add",
        )
    )
    a(
        _f(
            "DMUL",
            "DMUL",
            {"olo": 1, "ohi5": 10, "b5": 0, "b6": 0, "b7": 0, "b8": 0},
            (RND,),
            (RDC, RA, Opd("b", imm="d", neg=neg9)),
            doc="double multiply; -B negates the product",
        )
    )
    # As FFMA: bit 9 negates the product, printed on B (envy neg9; no NVIDIA row has it).
    a(
        _f(
            "DFMA",
            "DFMA",
            {"olo": 1, "ohi5": 4, "b5": 0, "b6": 0, "b7": 0},
            (RND,),
            (RDC, RA, Opd("b", imm="d", neg=neg9), Opd("c", "rc", neg=neg8)),
            doc="double fused multiply-add",
        )
    )
    a(
        _f(
            "DSETP",
            "DSETP",
            {"olo": 1, "ohi5": 3, "b5": 0},
            (CMP_F, LOP3),
            (PD, PDN, R("ra", neg=neg9, abs=abs7), Opd("b", imm="d", neg=neg8, abs=abs6), PC),
            doc="double compare into predicates",
        )
    )
    a(
        _f(
            "DSET",
            "DSET",
            {"olo": 1, "ohi5": 2},
            (flag("b5", "BF"), CMP_F, LOP3),
            (RDC, R("ra", neg=neg9, abs=abs7), Opd("b", imm="d", neg=neg8, abs=abs6), PC),
            doc="double compare into a register",
            src=("envy", "mesa"),  # mesa emitSET
        )
    )
    a(
        _f(
            "DMNMX",
            "DMNMX",
            {"olo": 1, "ohi5": 1, "b5": 0},
            (),
            (RDC, R("ra", neg=neg9, abs=abs7), Opd("b", imm="d", neg=neg8, abs=abs6), PC),
            doc="double min or max",
            src=("envy", "mesa"),  # mesa emitMINMAX
        )
    )
    # ---- conversions (bits 2:0 = 4) ---------------------------------------------------------------
    FSZ = {1: "F16", 2: "F32", 3: "F64"}
    ISZ = {0: "U8", 1: "U16", 2: "U32", 3: "U64", 4: "S8", 5: "S16", 6: "S32", 7: "S64"}
    I32SZ = {k: v for k, v in ISZ.items() if k & 3 != 3}
    a(
        _f(
            "F2F",
            "F2F",
            {"olo": 4, "ohi6": 4, "b22": 0, "b25": 0, "b9": 0, "b57": 0, "b56": 0},
            (
                flag("b55", "FTZ"),
                Mod("ddst", FSZ),
                Mod("dsrc", FSZ),
                Mod("f2frnd", {0: "", 1: "RM", 2: "RP", 3: "RZ", 4: "ROUND", 5: "FLOOR", 6: "CEIL", 7: "TRUNC"}),
                SAT5,
            ),
            (RDC, Opd("b", imm="f", neg=neg8, abs=abs6)),
            doc="float to float, or to an integral float (ROUND..TRUNC)",
            src=("envy", "mesa"),  # mesa emitCVT (roundMode_C: bit 7 rounds to an integer value)
        )
    )
    a(
        _f(
            "F2I",
            "F2I",
            {"olo": 4, "ohi6": 5, "b22": 0, "b25": 0, "b5": 0, "b9": 0, "b56": 0, "b57": 0},
            (flag("b55", "FTZ"), Mod("idst", {k: v for k, v in ISZ.items() if k & 3}), Mod("dsrc", FSZ), FRINT),
            (RDC, Opd("b", imm="f", neg=neg8, abs=abs6)),
            doc="float to integer",
            src=("envy", "mesa"),  # mesa emitCVT
        )
    )
    a(
        _f(
            "I2F",
            "I2F",
            {"olo": 4, "ohi6": 6, "b22": 0, "b25": 0, "b5": 0, "b7": 0, "b57": 0},
            (Mod("ddst", FSZ), Mod("isrc", ISZ), CRND),
            (RDC, Opd("b", neg=neg8, abs=abs6)),
            doc="integer to float",
        )
    )
    a(
        _f(
            "I2I",
            "I2I",
            {"olo": 4, "ohi6": 7, "b22": 0, "b25": 0, "b57": 0, "crnd": 0},
            (Mod("idst", I32SZ), Mod("isrc", I32SZ), SAT5),
            (RDC, Opd("b", neg=neg8, abs=abs6)),
            doc="integer to integer",
        )
    )
    # ---- predicates and CC (bits 2:0 = 4) ----------------------------------------------------------
    PA = Opd("p", "pa", not_="pa_not")
    PB = Opd("p", "pb", not_="pb_not")
    PLOP = Mod("plop", {0: "AND", 1: "OR", 2: "XOR"})
    a(_f("PSETP", "PSETP", {"olo": 4, "ohi6": 3}, (PLOP, LOP3), (PD, PDN, PA, PB, PC), rev4=True, doc="predicate logic into two predicates"))
    a(_f("PSET", "PSET", {"olo": 4, "ohi6": 2}, (flag("b5", "BF"), PLOP, LOP3), (RDC, PA, PB, PC), rev4=True, doc="predicate logic into a register"))
    a(
        _f(
            "CSETP",
            "CSETP",
            {"olo": 4, "ohi6": 1},
            (Mod("csetc", {k: v for k, v in COND.items() if k < 24}), LOP3),
            (PD, PDN, Opd("cc"), PC),
            doc="a CC test into predicates",
            src=("envy",),
        )
    )
    a(_f("P2R", "P2R", {"olo": 4, "ohi6": 12, "b5": 0}, (), (RD, Opd("pr"), RA, BI), doc="predicates (masked by B) into a register", src=("envy",)))
    a(
        _f(
            "R2P",
            "R2P",
            {"olo": 4, "ohi6": 13, "b5": 0, "rd": 0},
            (),
            (Opd("pr", dst=True), RA, BI),
            doc="a register's bits (masked by B) into the predicates",
            src=("envy",),
        )
    )
    # ---- moves --------------------------------------------------------------------------------------
    a(
        _f(
            "MOV",
            "MOV",
            {"olo": 4, "ohi6": 10, "ra": 0, "lanes": 15, "b9": 0},
            (),
            (RD, BI),
            imm4="raw",
            doc="register, constant or immediate into a register",
        )
    )
    a(_f("S2R", "S2R", {"olo": 4, "ohi6": 11, "ra": 0, "b8_5": 0, "b9": 0}, (), (RD, Opd("sr", "sr")), doc="a special register into a register"))
    # ---- memory (bits 2:0 = 5) ----------------------------------------------------------------------
    LDT = Mod("ldty", {0: "U8", 1: "S8", 2: "U16", 3: "S16", 4: "", 5: "64", 6: "128"})
    LCOP = Mod("cop", {0: "", 1: "CG", 2: "LU", 3: "CV"})  # nv: LDL.LU is envy's "cs"
    SCOP = Mod("cop", {0: "", 1: "CG", 2: "CS", 3: "WT"})
    E = flag("b58", "E")
    a(_f("LD", "LD", {"olo": 5, "ohi5": 16}, (E, LCOP, LDT), (RD, Opd("g")), doc="global load"))
    a(_f("LDU", "LDU", {"olo": 5, "ohi5": 17, "cop": 0}, (E, LDT), (RD, Opd("g")), doc="uniform global load"))
    a(_f("ST", "ST", {"olo": 5, "ohi5": 18}, (E, SCOP, LDT), (Opd("g"), Opd("r", "rd")), doc="global store"))
    # LDL's cache operation 2 prints .LU (nv: LDL.LU R41, [R1]); envytools calls it cs.
    a(_f("LDL", "LDL", {"olo": 5, "ohi6": 48, "b56": 0, "b57": 0}, (LCOP, LDT), (RD, Opd("sl")), doc="local load"))
    a(_f("LDS", "LDS", {"olo": 5, "ohi6": 48, "b56": 1, "b57": 0, "cop": 0}, (LDT,), (RD, Opd("sl")), doc="shared load"))
    a(_f("STL", "STL", {"olo": 5, "ohi6": 50, "b56": 0, "b57": 0}, (SCOP, LDT), (Opd("sl"), Opd("r", "rd")), doc="local store"))
    a(_f("STS", "STS", {"olo": 5, "ohi6": 50, "b56": 1, "b57": 0, "cop": 0}, (LDT,), (Opd("sl"), Opd("r", "rd")), doc="shared store"))
    a(_f("LDC", "LDC", {"olo": 6, "ohi6": 5, "cop": 0, "b57": 0}, (LDT,), (RD, Opd("cm")), doc="constant load with a register offset"))
    ATYPE = Mod("atype", {4: "", 5: "U64", 7: "S32", 11: "F32.FTZ.RN"})
    for k, op in enumerate(["ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH"]):
        a(
            _f(
                f"ATOM.{op}",
                "ATOM",
                {"olo": 5, "ohi2": 1, "aop": k, "rcz": 63},
                (E, Mod("aop", {k: op}), ATYPE),
                (Opd("r", "adst", dst=True), Opd("a"), Opd("r", "rd")),
                family="ATOM",
                doc=f"global atomic {op.lower()}; the first register receives the old value",
                src=("asf", "envy", "mesa"),  # mesa emitATOM, the operation numbered as here
            )
        )
    a(
        _f(
            "ATOM.CAS",
            "ATOM",
            {"olo": 5, "ohi2": 1, "aop": 9},
            (E, Mod("aop", {9: "CAS"}), ATYPE),
            (Opd("r", "adst", dst=True), Opd("a"), Opd("r", "rd"), Opd("r", "rc")),
            family="ATOM",
            doc="global compare-and-swap",
            src=("asf", "envy", "mesa"),  # mesa emitATOM: the swap value is the register after the compare value
        )
    )
    a(
        _f(
            "RED",
            "RED",
            {"olo": 5, "ohi2": 0},
            (E, Mod("aop", dict(enumerate(["ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR"]))), ATYPE),
            (Opd("g"), Opd("r", "rd")),
            doc="global reduction without a result",
        )
    )
    a(
        _f(
            "CCTL",
            "CCTL",
            {"olo": 5, "ohi5": 19},
            (E, Mod("b7_5", {0: "QRY1", 1: "PF1", 2: "PF1_5", 3: "PF2", 4: "WB", 5: "IV", 6: "IVALL", 7: "RS"})),
            (RD, Opd("g")),
            doc="cache control",
            src=("envy", "mesa"),
        )
    )  # mesa emitCCTL numbers IV 5 and IVALL 6 (nv50_ir.h); the other op names are guesses in the CUDA style
    a(
        _f(
            "MEMBAR",
            "MEMBAR",
            {"olo": 5, "ohi6": 56},
            (Mod("membar", {0: "CTA", 1: "GL", 2: "SYS"}),),
            (),
            doc="memory barrier at the level",
            src=("asf", "envy", "mesa"),  # mesa emitMEMBAR
        )
    )
    # ---- synchronisation (bits 2:0 = 4) --------------------------------------------------------------
    a(
        _f(
            "BAR",
            "BAR",
            {"olo": 4, "ohi6": 20, "bar_ai": 0, "bar_bi": 0, "barpd": 7, "pc": 7, "pc_not": 0},
            (Mod("barop", {0: "RED.POPC", 1: "RED.AND", 2: "RED.OR", 4: "ARV"}),),
            (RD, RA, Opd("r", "rb", opt=True)),
            doc="barrier: wait for the block (RED) or arrive (ARV); the count register is RB (RZ: all)",
        )
    )
    a(
        _f(
            "VOTE",
            "VOTE",
            {"olo": 4, "ohi6": 18},
            (Mod("vmode", {0: "ALL", 1: "ANY", 2: "EQ"}),),
            (RD, Opd("p", "vpd", dst=True), Opd("p", "pa", not_="pa_not")),
            doc="warp vote; Rd gets the ballot",
        )
    )
    # ---- control (bits 2:0 = 7) ----------------------------------------------------------------------
    T = Opd("t", "target")
    CCO = Opd("cc", "cond", opt=True)
    a(
        _f(
            "BRA",
            "BRA",
            {"olo": 7, "ohi5": 8, "ctlimm": 0},
            (flag("b15", "U"), flag("b16", "LMT")),
            (CCO, T),
            doc="branch (relative in the word, absolute in the text)",
        )
    )
    a(
        _f(
            "CAL",
            "CAL",
            {"olo": 7, "ohi5": 10, "ctlimm": 0},
            (Mod("b16", {1: "", 0: "NOINC"}),),
            (T,),
            guarded=False,
            doc="call: push the return address",
            src=("asf", "envy", "mesa"),  # mesa emitFlow: opcode and target; bit 16 is its `limit`, left clear
        )
    )
    # .NOINC is bit 16 clear, as CAL's (asfermi CAL template, envy lim); asfermi's PRET template draws it at
    # bit 15, read here as a slip.
    a(
        _f(
            "PRET",
            "PRET",
            {"olo": 7, "ohi5": 15, "ctlimm": 0},
            (Mod("b16", {1: "", 0: "NOINC"}),),
            (T,),
            guarded=False,
            doc="push a return address for RET",
            src=("asf", "envy", "mesa"),  # mesa emitFlow (OP_PRERET)
        )
    )
    for mn, hi5, what in (("SSY", 12, "set the reconvergence point"), ("PBK", 13, "push a break target"),
                          ("PCNT", 14, "push a continue target")):  # fmt: skip
        # SSY and PBK appear in NVIDIA's listings (guard bits zero); PCNT rests on asfermi, envytools and
        # mesa emitFlow (OP_PRECONT, unguarded)
        a(
            _f(
                mn,
                mn,
                {"olo": 7, "ohi5": hi5, "ctlimm": 0},
                (),
                (T,),
                guarded=False,
                doc=what,
                src=("asf", "envy", "mesa") if mn == "PCNT" else ("nv", "envy"),
            )
        )
    for mn, hi5, what in (("EXIT", 16, "end the thread"), ("RET", 18, "return"), ("BRK", 21, "break"),
                          ("CONT", 22, "continue")):  # fmt: skip
        # EXIT and BRK appear in NVIDIA's listings; RET and CONT rest on asfermi's templates, envytools
        # and mesa emitFlow (OP_RET, OP_CONT: CC.T in bits 9:5)
        src = ("nv", "envy") if mn in ("EXIT", "BRK") else ("asf", "envy", "mesa")
        a(_f(mn, mn, {"olo": 7, "ohi5": hi5}, (), (CCO,), doc=what, src=src))
    a(
        _f(
            "NOP",
            "NOP",
            {"olo": 4, "ohi6": 16, "b48": 0},
            (flag("b9", "TRIG"),),
            (Opd("cc", "cond", opt5=True), Opd("n", "nopimm", imm="u", opt=True)),
            doc="no operation",
        )
    )
    return F


FORMS: list[Form] = _forms()
BY_NAME: dict[str, Form] = {f.name: f for f in FORMS}
BY_MNEMONIC: dict[str, list[Form]] = {}
for _form in FORMS:
    BY_MNEMONIC.setdefault(_form.mnemonic, []).append(_form)

DECODER: Decoder[Form] = Decoder(FORMS, key=lambda form: form.fixed["olo"])

# Words of what this project does not support, by (bits 2:0, bits 63:58 from, to): named in the
# error a decoder raises (envy tabm/tabc; FERMI.md "Not needed for compute").
UNSUPPORTED: tuple[tuple[int, int, int, str], ...] = (
    (0, 48, 49, "IPA (graphics attribute interpolation)"),
    (4, 32, 63, "video instruction (VADD/VMNMX/VSET/VSHL/VSHR/VMAD...)"),
    (5, 53, 55, "surface instruction (SULD/SUST/SURED)"),
    (5, 57, 57, "surface query (SUQ)"),
    (5, 60, 60, "surface address (SULEA)"),
    (6, 0, 0, "graphics load (ALD/ISBERD)"),
    (6, 1, 2, "graphics attribute access (ALD/AST)"),
    (6, 4, 4, "PIXLD (pixel information)"),
    (6, 7, 7, "OUT (geometry output)"),
    (6, 32, 63, "texture instruction (TEX/TLD/TLD4/TXQ/TXD)"),
    (7, 0, 5, "JMP/JCAL (absolute branch or call)"),
    (7, 18, 19, "BRX (indirect branch)"),
    (7, 22, 23, "PLONGJMP"),
    (7, 34, 35, "LONGJMP"),
    (7, 38, 39, "KIL (fragment discard)"),
    (7, 52, 55, "BPT (breakpoint)"),
)


# The same, by mnemonic, for the assembler: every upper-case name the descriptions above give.
UNSUPPORTED_BY_NAME: dict[str, str] = {
    name: what for _, _, _, what in UNSUPPORTED for name in re.findall(r"\b[A-Z][A-Z0-9]+\b", what)
}


def unsupported(word: int) -> str | None:
    """What a word is when it is something this project leaves out, or None."""
    if word >> 3 & 1:
        return "a 4-byte short form (bit 3 set)"
    lo, hi = word & 7, word >> 58
    for olo, first, last, what in UNSUPPORTED:
        if lo == olo and first <= hi <= last:
            return what
    return None


_OPERAND_TEXT = {"r": "R", "b": "B", "c": "C", "i32": "IMM32", "p": "P", "sr": "SR", "g": "[R+off32]", "sl": "[R+off24]",
                 "a": "[R+off20]", "cm": "c[bank][R+off]", "t": "target", "n": "N", "cc": "CC", "pr": "PR"}  # fmt: skip


def spelling(form: Form) -> str:
    """A form's syntax for the manual: its mnemonic, each modifier's choices, its operands."""
    parts = [form.mnemonic]
    for m in form.mods:
        names = [v for v in m.values.values() if v]
        if names:
            optional = any(v == "" for v in m.values.values())
            choice = names[0] if len(names) == 1 else "{" + ",".join(names) + "}"
            parts.append(f"[.{choice}]" if optional else f".{choice}")
    ops = []
    for o in form.operands:
        text = _OPERAND_TEXT[o.kind]
        if o.cc:
            text += "[.CC]"
        if o.neg:
            text = ("[~]" if form.inv else "[-]") + text
        ops.append(f"[{text}]" if o.opt else text)
    return "".join(parts) + (" " + ", ".join(ops) if ops else "")


def doc_rows() -> list[str]:
    """The manual's form list (docs/reference/fermi-assembly.md), one markdown row a form."""
    out = ["| form | syntax | family | identified by | sources |", "|---|---|---|---|---|"]
    for form in FORMS:
        ident = ", ".join(f"{n}={v:#x}" for n, v in form.fixed.items() if n not in ("short", "guard", "gneg"))
        out.append(f"| `{form.name}` | `{spelling(form)}` | {form.family} | {ident} | {', '.join(form.src)} |")
    return out


def check_table() -> None:
    """Two rows that can match one word would make decoding depend on row order: refuse them."""
    for f in FORMS:  # and no supported form may be named unsupported
        top = f.match_mask >> 58
        for hi in range(64):
            word = f.match_value & ~(63 << 58) | hi << 58
            if hi & top == (f.match_value >> 58) & top and unsupported(word):
                raise AssertionError(f"row {f.name} has words the UNSUPPORTED table names: {unsupported(word)}")
    for i, f in enumerate(FORMS):
        for g in FORMS[i + 1 :]:
            common = f.match_mask & g.match_mask
            if (f.match_value & common) == (g.match_value & common):
                raise AssertionError(f"rows {f.name} and {g.name} overlap")


check_table()
