"""Fermi words -> decoded instructions (golden.fermi.insn.Insn), and why a word is none.

What the model keys on: `op` (the mnemonic), `family` (the mnemonic, except that the 32-bit
immediate forms share their base's: IADD32I -> IADD, IMUL32I -> IMUL, LOP32I -> LOP, MOV32I ->
MOV, FADD32I -> FADD, FMUL32I -> FMUL, with the immediate in the base's operand position), `mods`
(CUDA 5 spellings without dots, printed order; a register pair's width comes from a size mod such
as "64"), and the operands in printed order, split into `dsts` and `srcs`:

    IADD     d=(Rd,)            s=(Ra, B)            Rd.cc: writes CC; "X" adds the carry in
    IADD32I  d=(Rd,)            s=(Ra, Imm32)
    ISCADD   d=(Rd,)            s=(Ra, B, Imm shift)  (Ra << shift) + B
    IMUL     d=(Rd,)            s=(Ra, B)            mods: signedness of Ra, of B ("U32"/"S32"), "HI"
    IMUL32I  d=(Rd,)            s=(Ra, Imm32)
    IMAD     d=(Rd,)            s=(Ra, B, C)         Ra * B + C; -Ra negates the product
    ISETP    d=(Pd, Pdn)        s=(Ra, B, Pc)        Pd = cmp op Pc, Pdn = !cmp op Pc
    ISET     d=(Rd,)            s=(Ra, B, Pc)
    ICMP     d=(Rd,)            s=(Ra, B, C)         C cmp 0 ? Ra : B
    IMNMX    d=(Rd,)            s=(Ra, B, Pc)        Pc ? min : max
    SHL/SHR  d=(Rd,)            s=(Ra, B)
    LOP      d=(Rd,)            s=(Ra, B)            Reg.neg/Imm.neg is ~ (inversion)
    LOP32I   d=(Rd,)            s=(Ra, Imm32)
    BFE      d=(Rd,)            s=(Ra, B)            B = position | length << 8
    BFI      d=(Rd,)            s=(Ra, B, C)         insert Ra into C at B's field
    FLO      d=(Rd,)            s=(B,)
    ISAD     d=(Rd,)            s=(Ra, B, C)
    POPC     d=(Rd,)            s=(Ra, B)            popcount(Ra & B)
    SEL      d=(Rd,)            s=(Ra, B, Pc)
    PRMT     d=(Rd,)            s=(Ra, B, C)         bytes of C:Ra chosen by B
    FADD     d=(Rd,)            s=(Ra, B)            FADD32I: s=(Ra, Imm32)
    FMUL     d=(Rd,)            s=(Ra, B)            FMUL32I: s=(Ra, Imm32)
    FFMA     d=(Rd,)            s=(Ra, B, C)
    FSETP    d=(Pd, Pdn)        s=(Ra, B, Pc)        FSET: d=(Rd,)
    FMNMX    d=(Rd,)            s=(Ra, B, Pc)
    MUFU     d=(Rd,)            s=(Ra,)              mods[0]: COS SIN EX2 LG2 RCP RSQ RCP64H RSQ64H
    RRO      d=(Rd,)            s=(B,)
    DADD/DMUL d=(Rd,)           s=(Ra, B)            register pairs
    DFMA     d=(Rd,)            s=(Ra, B, C)
    DSETP    d=(Pd, Pdn)        s=(Ra, B, Pc)        DSET: d=(Rd,); DMNMX: d=(Rd,) s=(Ra, B, Pc)
    F2F/F2I/I2F/I2I d=(Rd,)     s=(B,)               mods: destination type, source type, rounding
    PSETP    d=(Pd, Pdn)        s=(Pa, Pb, Pc)       (Pa op1 Pb) op2 Pc
    PSET     d=(Rd,)            s=(Pa, Pb, Pc)
    CSETP    d=(Pd, Pdn)        s=(CC, Pc)           mods[0]: the CC test
    P2R      d=(Rd,)            s=(PR, Ra, B)        R2P: d=(PR,) s=(Ra, B)
    MOV      d=(Rd,)            s=(B,)               MOV32I: s=(Imm32,)
    S2R      d=(Rd,)            s=(SReg,)
    LD/LDU/LDL/LDS d=(Rd,)      s=(Addr,)            LDC: s=(Const with reg,)
    ST/STL/STS d=()             s=(Addr, Rd)
    ATOM     d=(Rd,)            s=(Addr, Rb)         ATOM.CAS: s=(Addr, Rb, Rc)
    RED      d=()               s=(Addr, Rb)
    CCTL     d=(Rd,)            s=(Addr,)
    MEMBAR   d=()               s=()
    BAR      d=(Rd,)            s=(Ra, [Rb])         Rb (thread count) only when not RZ
    VOTE     d=(Rd, Pd)         s=(Pa,)
    BRA      d=()               s=([CC], Target)     CC only when its test is not T
    CAL/PRET/SSY/PBK/PCNT d=()  s=(Target,)
    EXIT/RET/BRK/CONT d=()      s=([CC],)
    NOP      d=()               s=(CC, [Imm])

`.S` is the last of `mods` when set; `.PO` (both negations of an add) replaces the two negations.
A word that is no instruction raises IllegalWord naming its address and the fields that differ
from the nearest form, or what the word is when it is a kind this project does not support.
"""

from __future__ import annotations

from .insn import CC, PR, PT, Addr, Const, Imm, Insn, Operand, Pred, Reg, SReg, Target
from .table import COND, DECODER, FIELDS, Form, Opd, unsupported

MASK64 = (1 << 64) - 1


class IllegalWord(ValueError):
    """A word that decodes to no supported instruction."""


def _sx(value: int, bits: int) -> int:
    return value - (1 << bits) if value >> (bits - 1) & 1 else value


def imm20(value: int, kind: str) -> int:
    """A 20-bit immediate field as the operand's full bit pattern (insn.py's rule)."""
    if kind == "f":
        return value << 12
    if kind == "d":
        return value << 44
    if kind == "u":
        return value
    return _sx(value, 20) & 0xFFFFFFFF


def find_form(word: int, addr: int = 0) -> tuple[Form, dict[str, int]]:
    """The word's row and field values; IllegalWord says why there is none."""
    if not 0 <= word <= MASK64:
        raise IllegalWord(f"{addr:#06x}: {word:#x} is not a 64-bit word")
    what = unsupported(word)
    if what:
        raise IllegalWord(f"{addr:#06x}: {word:#018x} is {what}, which is not supported")
    lo = word & 7
    form = DECODER.match(word, lo)
    if form is None:
        near = DECODER.nearest(word, lo, must_match=("olo",))
        if near is None:
            raise IllegalWord(f"{addr:#06x}: {word:#018x}: no instruction has bits 2:0 = {lo}")
        wrong = ", ".join(f"{n}={v:#x} (want {w:#x})" for n, v, w in near.wrong)
        raise IllegalWord(f"{addr:#06x}: {word:#018x} is no instruction; nearest {near.form.name}, whose {wrong}")
    fields = form.extract(word)
    stray = form.stray(word, MASK64)
    if stray:
        raise IllegalWord(f"{addr:#06x}: {word:#018x} is {form.name} with bits {stray:#x} set that no field owns")
    for m in form.mods:
        if fields[m.field] not in m.values:
            raise IllegalWord(f"{addr:#06x}: {word:#018x} is {form.name} with {m.field}={fields[m.field]:#x}, "
                              f"which is none of {', '.join(v or '(none)' for v in m.values.values())}")  # fmt: skip
    for o in form.operands:
        if o.kind == "b" and fields["sel"] == 0 and fields["imm20"] >> 6:
            raise IllegalWord(f"{addr:#06x}: {word:#018x} is {form.name} with a register source and bits 45:32 set")
        if o.kind == "b" and fields["sel"] == 2 and not any(p.kind == "c" for p in form.operands):
            raise IllegalWord(f"{addr:#06x}: {word:#018x} is {form.name} with sel=2, which only three-source forms have")
    return form, fields


def is_po(form: Form, f: dict[str, int]) -> bool:
    """Whether the add's two negation bits are both set (printed .PO instead)."""
    negs = [o.neg for o in form.operands if o.neg]
    return form.po and len(negs) == 2 and all(f[n] for n in negs)


def mod_words(form: Form, f: dict[str, int], dialect: str = "cuda5") -> list[str]:
    """The modifiers in printed order, each a dotted spelling split into its words."""
    out: list[str] = []
    for m in form.mods:
        if m.field == "s" and is_po(form, f):
            out.append("PO")
        spelling = m.spell(f[m.field], dialect)
        out += [w for w in spelling.split(".") if w]
    return out


def operand(form: Form, o: Opd, f: dict[str, int], addr: int) -> Operand:
    """One operand's value as the model sees it."""
    po = is_po(form, f)
    neg = bool(o.neg and f[o.neg]) and not po
    ab = bool(o.abs and f[o.abs])
    k = o.kind
    if k == "r":
        return Reg(f[o.field], neg, ab, bool(o.cc and f[o.cc]))
    if k == "b":
        sel = f["sel"]
        if sel == 0:
            return Reg(f["imm20"] & 63, neg, ab)
        if sel == 1:
            return Const(f["imm20"] >> 16, f["imm20"] & 0xFFFF, neg=neg, abs=ab)
        if sel == 2:
            return Reg(f["rc"], neg, ab)
        return Imm(imm20(f["imm20"], o.imm), neg)
    if k == "c":
        if f["sel"] == 2:
            return Const(f["imm20"] >> 16, f["imm20"] & 0xFFFF, neg=neg)
        return Reg(f["rc"], neg)
    if k == "i32":
        return Imm(f["imm32"], neg)
    if k == "p":
        return Pred(f[o.field], bool(o.not_ and f[o.not_]))
    if k == "sr":
        return SReg(f["sr"])
    if k == "g":
        return Addr(f["ra"], f["goff"])
    if k == "sl":
        return Addr(f["ra"], f["soff"])
    if k == "a":
        return Addr(f["ra"], f["aoff"])
    if k == "cm":
        return Const(f["lbank"], f["loff"], reg=f["ra"])
    if k == "t":
        return Target((addr + 8 + f["target"]) & 0xFFFFFFFF)
    if k == "n":
        return Imm(f[o.field])
    if k == "cc":
        return CC(COND[f[o.field]] if o.field else "")
    if k == "pr":
        return PR()
    raise AssertionError(f"operand kind {k!r}")


def is_default(o: Opd, value: Operand) -> bool:
    """An optional operand at the value cuobjdump leaves out."""
    return (isinstance(value, Reg) and value.n == 63) or (isinstance(value, CC) and value.test == "T") or (
        isinstance(value, Imm) and value.value == 0)  # fmt: skip


def decode(word: int, addr: int = 0) -> Insn:
    """The instruction of one 64-bit word at byte address `addr`."""
    form, f = find_form(word, addr)
    dsts: list[Operand] = []
    srcs: list[Operand] = []
    for o in form.operands:
        value = operand(form, o, f, addr)
        if o.opt and is_default(o, value):
            continue
        (dsts if o.dst else srcs).append(value)
    guard = Pred(f["guard"], bool(f["gneg"])) if form.guarded else Pred(PT)
    return Insn(form.name, form.mnemonic, form.family, tuple(mod_words(form, f)), guard, tuple(dsts), tuple(srcs), addr, word)


assert FIELDS["target"].signed and FIELDS["goff"].signed, "addresses and targets decode signed"
