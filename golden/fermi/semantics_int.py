"""Integer families: one routine each (IADD ISCADD IMUL IMAD ISETP ISET ICMP IMNMX LOP SHL SHR BFE
BFI PRMT POPC FLO SEL ISAD).

What each computes is PTX's definition of the operation it implements (PTX ISA manual: add, sub,
addc/subc, mul, mad, setp, set, slct, min/max, and/or/xor/not, shl/shr, bfe, bfi, prmt, popc,
bfind, selp, sad); which modifier and operand bit means what is asfermi's (seed 002) checked
against envytools gf100.c (FERMI.md). Multiplication, shifts and the bit-field operations are
golden.fermi.arith's. A destination printed `R0.CC` also writes CC: the adder's four flags for
IADD, ISCADD and IMAD (seed 003), Z and S from the result for the others (profile `cc_other_ops`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

import numpy as np

from golden.fermi.insn import Insn, Operand, Reg
from golden.fermi.operands import Exec
from golden.fermi.state import CC_C, CC_O, CC_S, CC_Z

M32 = 0xFFFFFFFF
U32 = np.uint32

CMP = ("F", "LT", "EQ", "LE", "GT", "NE", "GE", "T")
LOGIC = ("AND", "OR", "XOR")


def arith() -> ModuleType:
    """golden.fermi.arith, imported on first use (sys.modules makes later calls a lookup)."""
    return importlib.import_module("golden.fermi.arith")


def neg_of(op: Operand) -> bool:
    return bool(getattr(op, "neg", False))


def pick(mods: tuple[str, ...], choices: tuple[str, ...], default: str) -> str:
    """The modifier of `mods` that is one of `choices`, or the default."""
    return next((m for m in mods if m in choices), default)


def compare(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """PTX setp's integer comparisons on lanes of one signedness."""
    if name == "LT":
        return a < b
    if name == "EQ":
        return a == b
    if name == "LE":
        return a <= b
    if name == "GT":
        return a > b
    if name == "NE":
        return a != b
    if name == "GE":
        return a >= b
    return np.full(len(a), name == "T")


def combine(logic: str, a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The .AND/.OR/.XOR that joins a comparison with the predicate operand (PTX setp's bool op)."""
    if logic == "AND":
        return a & c
    if logic == "OR":
        return a | c
    return a ^ c


def signed(v: np.ndarray) -> np.ndarray:
    return v.astype(U32).view(np.int32)


def zs_flags(r: np.ndarray) -> np.ndarray:
    """Z and S of a 32-bit result, C and O clear (seed 003; profile cc_other_ops)."""
    return np.where(r == 0, CC_Z, 0) | np.where(r >> U32(31), CC_S, 0)


def refuse(i: Insn, *mods: str) -> None:
    """An error for a modifier the sources print but do not define for this family (the model does
    not guess at its meaning)."""
    for m in mods:
        if m in i.mods:
            raise ValueError(f"{i.op}.{m} is not modelled (its meaning is not in the sources)")


def write_result(x: Exec, dst: Operand, r: np.ndarray) -> None:
    r = r.astype(U32)
    x.write(dst, r)
    if isinstance(dst, Reg) and dst.cc:
        x.write_cc(zs_flags(r))


def adder(x: Exec, dst: Operand, a: np.ndarray, b: np.ndarray, na: bool, nb: bool) -> None:
    """The 32-bit adder of IADD, ISCADD and IMAD: a negated operand enters inverted with a carry-in
    of 1 (two's complement), .X takes the carry-in from CC.C instead (PTX addc/subc), .PO is the
    profile's `iadd_po`; .SAT clamps the signed sum (PTX add.sat.s32). With R.CC: Z, S, C (carry
    out of bit 31) and O (signed overflow), seed 003."""
    mods = x.insn.mods
    if "PO" in mods:
        plus_one = x.m.p.iadd_po == "plus_one"
        na = nb = not plus_one
        cin = np.full(x.n, 1 if plus_one else 2, dtype=np.int64)
    elif "X" in mods:
        cin = ((x.cc() & CC_C) != 0).astype(np.int64)
    else:
        cin = np.full(x.n, int(na) + int(nb), dtype=np.int64)
    ua = (~a if na else a).astype(U32).astype(np.int64)
    ub = (~b if nb else b).astype(U32).astype(np.int64)
    s = ua + ub + cin
    r = (s & M32).astype(U32)
    exact = signed(ua.astype(U32)).astype(np.int64) + signed(ub.astype(U32)).astype(np.int64) + cin
    ovf = (exact > 0x7FFFFFFF) | (exact < -0x80000000)
    if "SAT" in mods:
        r = np.clip(exact, -0x80000000, 0x7FFFFFFF).astype(np.int64).astype(U32)
    x.write(dst, r)
    if isinstance(dst, Reg) and dst.cc:
        flags = zs_flags(r) | np.where(s >> 32, CC_C, 0) | np.where(ovf, CC_O, 0)
        x.write_cc(flags)


def iadd(x: Exec, i: Insn) -> None:
    """IADD d, a, b (and IADD32I): d = a + b (seed 002 IADD: -a, -b, .X, .SAT, .PO)."""
    a, b = i.srcs[0], i.srcs[1]
    adder(x, i.dsts[0], x.u32(a), x.u32(b), neg_of(a), neg_of(b))


def iscadd(x: Exec, i: Insn) -> None:
    """ISCADD d, a, b, s: d = (a << s) + b (seed 002 ISCADD, 's must be less than 32')."""
    a, b, s = i.srcs[0], i.srcs[1], i.srcs[2]
    sh = x.u32(s) & U32(31)
    adder(x, i.dsts[0], (x.u32(a) << sh).astype(U32), x.u32(b), neg_of(a), neg_of(b))


def mul_types(x: Exec, mods: tuple[str, ...]) -> tuple[bool, bool]:
    """(a signed, b signed) from .U32/.S32 (seed 002 IMUL: one type bit per operand)."""
    t = [m for m in mods if m in ("U32", "S32")]
    if not t:
        return x.m.p.imul_default_signed, x.m.p.imul_default_signed
    if len(t) == 1:
        return t[0] == "S32", t[0] == "S32"
    return t[0] == "S32", t[1] == "S32"


def imul(x: Exec, i: Insn) -> None:
    """IMUL d, a, b (and IMUL32I): the low or (.HI) high word of the 64-bit product (PTX mul.lo/.hi)."""
    sa, sb = mul_types(x, i.mods)
    r = arith().imul(x.u32(i.srcs[0]), x.u32(i.srcs[1]), sa, sb, "HI" in i.mods)
    write_result(x, i.dsts[0], r)


def imad(x: Exec, i: Insn) -> None:
    """IMAD d, a, b, c: d = a * b + c (PTX mad.lo/.hi); -a negates the product word and -c the
    addend as the adder receives them, .PO/.SAT/.X/.CC as for IADD (seed 002 IMAD)."""
    a, b, c = i.srcs[0], i.srcs[1], i.srcs[2]
    sa, sb = mul_types(x, i.mods)
    p = arith().imul(x.u32(a), x.u32(b), sa, sb, "HI" in i.mods).astype(U32)
    adder(x, i.dsts[0], p, x.u32(c), neg_of(a) or neg_of(b), neg_of(c))


def _int_cmp(x: Exec, i: Insn, a: Operand, b: Operand) -> np.ndarray:
    name = pick(i.mods, CMP, "F")
    va, vb = x.u32(a), x.u32(b)
    if "U32" not in i.mods:
        va, vb = signed(va), signed(vb)
    return compare(name, va, vb)


def isetp(x: Exec, i: Insn) -> None:
    """ISETP.cmp(.U32).logic p, q, a, b, c: p = (a cmp b) logic c, q = !(a cmp b) logic c (PTX setp
    with two destinations; seed 002 ISETP)."""
    refuse(i, "X")
    t = _int_cmp(x, i, i.srcs[0], i.srcs[1])
    c = x.pred(i.srcs[2])
    logic = pick(i.mods, LOGIC, "AND")
    x.write_pred(i.dsts[0], combine(logic, t, c))
    x.write_pred(i.dsts[1], combine(logic, ~t, c))


def iset(x: Exec, i: Insn) -> None:
    """ISET.cmp.logic d, a, b, c: all ones (.BF: 1.0f) where (a cmp b) logic c holds, else 0 (PTX set)."""
    refuse(i, "X")
    t = combine(pick(i.mods, LOGIC, "AND"), _int_cmp(x, i, i.srcs[0], i.srcs[1]), x.pred(i.srcs[2]))
    one = U32(0x3F800000) if "BF" in i.mods else U32(M32)
    write_result(x, i.dsts[0], np.where(t, one, U32(0)))


def icmp(x: Exec, i: Insn) -> None:
    """ICMP.cmp d, a, b, c: d = (c cmp 0) ? a : b, c signed unless .U32 (seed 002 ICMP; PTX slct)."""
    c = x.u32(i.srcs[2])
    t = compare(pick(i.mods, CMP, "F"), c if "U32" in i.mods else signed(c), np.zeros_like(c if "U32" in i.mods else signed(c)))
    write_result(x, i.dsts[0], np.where(t, x.u32(i.srcs[0]), x.u32(i.srcs[1])))


def imnmx(x: Exec, i: Insn) -> None:
    """IMNMX d, a, b, p: min(a, b) where p holds, max where it does not (PTX min/max; the
    predicate operand selects, as envytools gf100.c's min/max share one opcode)."""
    a, b = x.u32(i.srcs[0]), x.u32(i.srcs[1])
    va, vb = (a, b) if "U32" in i.mods else (signed(a), signed(b))
    take_min = x.pred(i.srcs[2])
    write_result(x, i.dsts[0], np.where(take_min == (va < vb), a, b))


def lop(x: Exec, i: Insn) -> None:
    """LOP.op d, a, b (and LOP32I): and/or/xor, or .PASS_B (d = b); ~a and ~b invert the operand
    (PTX and/or/xor/not)."""
    refuse(i, "X")
    a, b = i.srcs[0], i.srcs[1]
    va, vb = x.u32(a), x.u32(b)
    va = ~va if neg_of(a) else va
    vb = ~vb if neg_of(b) else vb
    op = pick(i.mods, ("AND", "OR", "XOR", "PASS_B"), "AND")
    r = va & vb if op == "AND" else va | vb if op == "OR" else va ^ vb if op == "XOR" else vb
    write_result(x, i.dsts[0], r)


def shl(x: Exec, i: Insn) -> None:
    """SHL(.W) d, a, n: a << n; .W takes n modulo 32, otherwise n >= 32 gives 0 (PTX shl clamps)."""
    refuse(i, "X")
    write_result(x, i.dsts[0], arith().shl(x.u32(i.srcs[0]), x.u32(i.srcs[1]), "W" in i.mods))


def shr(x: Exec, i: Insn) -> None:
    """SHR(.U32)(.W) d, a, n: arithmetic shift unless .U32 (PTX shr.s32/.u32)."""
    refuse(i, "X", "BREV")
    write_result(x, i.dsts[0], arith().shr(x.u32(i.srcs[0]), x.u32(i.srcs[1]), "U32" not in i.mods, "W" in i.mods))


def bfe(x: Exec, i: Insn) -> None:
    """BFE(.U32)(.BREV) d, a, poslen: bits pos..pos+len-1 of a (PTX bfe), sign-extended unless .U32."""
    write_result(x, i.dsts[0], arith().bfe(x.u32(i.srcs[0]), x.u32(i.srcs[1]), "U32" not in i.mods, "BREV" in i.mods))


def bfi(x: Exec, i: Insn) -> None:
    """BFI d, a, poslen, base: a's low bits inserted into base (PTX bfi)."""
    write_result(x, i.dsts[0], arith().bfi(x.u32(i.srcs[0]), x.u32(i.srcs[1]), x.u32(i.srcs[2])))


PRMT_MODES = ("F4E", "B4E", "RC8", "ECL", "ECR", "RC16")


def prmt(x: Exec, i: Insn) -> None:
    """PRMT(.mode) d, a, sel, b: bytes of {b, a} picked by sel (PTX prmt; operand order as cuobjdump
    prints `PRMT R0, R1, 0x7610, R2`)."""
    mode = pick(i.mods, PRMT_MODES, "")
    write_result(x, i.dsts[0], arith().prmt(x.u32(i.srcs[0]), x.u32(i.srcs[2]), x.u32(i.srcs[1]), mode))


def popc(x: Exec, i: Insn) -> None:
    """POPC d, a(, b): the number of set bits of a (two sources: of a & b, profile popc_two_source);
    ~ inverts an operand (PTX popc)."""
    vals = []
    for op in i.srcs:
        v = x.u32(op)
        vals.append(~v if neg_of(op) else v)
    v = vals[0] & vals[1] if len(vals) > 1 else vals[0]
    write_result(x, i.dsts[0], arith().popc(v.astype(U32)))


def flo(x: Exec, i: Insn) -> None:
    """FLO(.U32)(.SH) d, a: the position of the most significant non-sign bit (PTX bfind; .SH gives
    the shift amount); ~a inverts first."""
    a = i.srcs[-1]
    v = x.u32(a)
    v = ~v if neg_of(a) else v
    write_result(x, i.dsts[0], arith().flo(v.astype(U32), "U32" not in i.mods, "SH" in i.mods))


def sel(x: Exec, i: Insn) -> None:
    """SEL d, a, b, p: p ? a : b (PTX selp)."""
    write_result(x, i.dsts[0], np.where(x.pred(i.srcs[2]), x.u32(i.srcs[0]), x.u32(i.srcs[1])))


def isad(x: Exec, i: Insn) -> None:
    """ISAD(.U32) d, a, b, c: |a - b| + c (PTX sad), signed unless .U32."""
    write_result(x, i.dsts[0], arith().isad(x.u32(i.srcs[0]), x.u32(i.srcs[1]), x.u32(i.srcs[2]), "U32" not in i.mods))


ROUTINES: dict[str, Callable[[Exec, Insn], None]] = {
    "IADD": iadd, "ISCADD": iscadd, "IMUL": imul, "IMAD": imad, "ISETP": isetp, "ISET": iset, "ICMP": icmp,
    "IMNMX": imnmx, "LOP": lop, "SHL": shl, "SHR": shr, "BFE": bfe, "BFI": bfi, "PRMT": prmt, "POPC": popc,
    "FLO": flo, "SEL": sel, "ISAD": isad,
}  # fmt: skip
