"""Floating-point and conversion families: FADD FMUL FFMA FSETP FSET FMNMX MUFU RRO DADD DMUL DFMA
DSETP DMNMX F2F F2I I2F I2I, one routine each.

The arithmetic is golden.fermi.arith's (IEEE-754 binary32/64 with PTX's .rn/.rm/.rp/.rz, .ftz,
.sat; FMZ; MUFU and RRO as approximations with a stated bound); these routines only read the
operands, apply `-` and `|.|` as sign-bit operations (PTX neg/abs on floats), pick the modifiers
(cuobjdump spelling) and write the result. Conversions print the destination type first
(`F2I.S32.F32.TRUNC`, `I2F.F64.S32`); a missing type is F32 for a float side and S32 for an
integer side.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from golden.fermi import conditions
from golden.fermi.insn import Insn, Operand
from golden.fermi.operands import Exec
from golden.fermi.semantics_int import LOGIC, arith, combine, pick, refuse, write_result

U32 = np.uint32
U64 = np.uint64
SIGN32 = U32(0x80000000)
SIGN64 = U64(0x8000000000000000)

RND = ("RN", "RM", "RP", "RZ")
FCMP = conditions.NAMES[:16]  # the float comparisons are the first 16 CC test names
FLOAT_TYPES = ("F16", "F32", "F64")
INT_TYPES = ("U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64")
WIDE = ("F64", "U64", "S64")


def _signed(v: np.ndarray, op: Operand, sign: np.unsignedinteger) -> np.ndarray:
    """The operand's |.| then - applied to the sign bit `sign` of its lanes."""
    if getattr(op, "abs", False):
        v = v & ~sign
    if getattr(op, "neg", False):
        v = v ^ sign
    return v


def f32(x: Exec, op: Operand) -> np.ndarray:
    """A binary32 source with |.| then - applied to its sign bit."""
    return _signed(x.u32(op), op, SIGN32)


def f64(x: Exec, op: Operand) -> np.ndarray:
    """A binary64 source (register pair) with |.| then - applied to its sign bit."""
    return _signed(x.u64(op), op, SIGN64)


def _rnd(i: Insn) -> str:
    return pick(i.mods, RND, "RN")


def fadd(x: Exec, i: Insn) -> None:
    """FADD(32I) d, a, b: a + b (PTX add.f32)."""
    r = arith().fadd(f32(x, i.srcs[0]), f32(x, i.srcs[1]), _rnd(i), "FTZ" in i.mods, "SAT" in i.mods)
    write_result(x, i.dsts[0], r)


def fmul(x: Exec, i: Insn) -> None:
    """FMUL(32I) d, a, b: a * b (PTX mul.f32; .FMZ: 0 times anything is 0)."""
    refuse(i, "D2", "D4", "D8", "M8", "M4", "M2")
    m = i.mods
    r = arith().fmul(f32(x, i.srcs[0]), f32(x, i.srcs[1]), _rnd(i), "FTZ" in m, "SAT" in m, "FMZ" in m)
    write_result(x, i.dsts[0], r)


def ffma(x: Exec, i: Insn) -> None:
    """FFMA d, a, b, c: a * b + c rounded once (PTX fma.f32)."""
    m, s = i.mods, i.srcs
    r = arith().ffma(f32(x, s[0]), f32(x, s[1]), f32(x, s[2]), _rnd(i), "FTZ" in m, "SAT" in m, "FMZ" in m)
    write_result(x, i.dsts[0], r)


def _setp(x: Exec, i: Insn, t: np.ndarray) -> None:
    c = x.pred(i.srcs[2])
    logic = pick(i.mods, LOGIC, "AND")
    x.write_pred(i.dsts[0], combine(logic, t, c))
    if len(i.dsts) > 1:
        x.write_pred(i.dsts[1], combine(logic, ~t, c))


def fsetp(x: Exec, i: Insn) -> None:
    """FSETP.cmp.logic p, q, a, b, c (PTX setp.f32, ordered and unordered comparisons)."""
    t = arith().fcmp(pick(i.mods, FCMP, "F"), f32(x, i.srcs[0]), f32(x, i.srcs[1]), "FTZ" in i.mods)
    _setp(x, i, np.asarray(t, dtype=bool))


def fset(x: Exec, i: Insn) -> None:
    """FSET.cmp.logic d, a, b, c: all ones (.BF: 1.0f) where the test holds, else 0 (PTX set.f32)."""
    t = np.asarray(arith().fcmp(pick(i.mods, FCMP, "F"), f32(x, i.srcs[0]), f32(x, i.srcs[1]), "FTZ" in i.mods), dtype=bool)
    t = combine(pick(i.mods, LOGIC, "AND"), t, x.pred(i.srcs[2]))
    one = U32(0x3F800000) if "BF" in i.mods else U32(0xFFFFFFFF)
    write_result(x, i.dsts[0], np.where(t, one, U32(0)))


def fmnmx(x: Exec, i: Insn) -> None:
    """FMNMX d, a, b, p: min where p holds, else max (PTX min/max.f32)."""
    a, b = f32(x, i.srcs[0]), f32(x, i.srcs[1])
    write_result(x, i.dsts[0], arith().fmnmx(a, b, x.pred(i.srcs[2]), "FTZ" in i.mods))


MUFU_FUNCS = ("COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H")


def mufu(x: Exec, i: Insn) -> None:
    """MUFU.func d, a: the special-function unit's approximation (PTX sin/cos/ex2/lg2/rcp/rsqrt.approx)."""
    refuse(i, "SAT")
    write_result(x, i.dsts[0], arith().mufu(pick(i.mods, MUFU_FUNCS, "RCP"), f32(x, i.srcs[0])))


def rro(x: Exec, i: Insn) -> None:
    """RRO.SINCOS/.EX2 d, a: the range reduction before MUFU."""
    write_result(x, i.dsts[0], arith().rro(pick(i.mods, ("SINCOS", "EX2"), "SINCOS"), f32(x, i.srcs[0])))


def dadd(x: Exec, i: Insn) -> None:
    """DADD d, a, b (PTX add.f64)."""
    x.write64(i.dsts[0], arith().dadd(f64(x, i.srcs[0]), f64(x, i.srcs[1]), _rnd(i)))


def dmul(x: Exec, i: Insn) -> None:
    """DMUL d, a, b (PTX mul.f64)."""
    x.write64(i.dsts[0], arith().dmul(f64(x, i.srcs[0]), f64(x, i.srcs[1]), _rnd(i)))


def dfma(x: Exec, i: Insn) -> None:
    """DFMA d, a, b, c (PTX fma.f64)."""
    s = i.srcs
    x.write64(i.dsts[0], arith().dfma(f64(x, s[0]), f64(x, s[1]), f64(x, s[2]), _rnd(i)))


def dsetp(x: Exec, i: Insn) -> None:
    """DSETP.cmp.logic p, q, a, b, c (PTX setp.f64)."""
    t = arith().dcmp(pick(i.mods, FCMP, "F"), f64(x, i.srcs[0]), f64(x, i.srcs[1]))
    _setp(x, i, np.asarray(t, dtype=bool))


def dmnmx(x: Exec, i: Insn) -> None:
    """DMNMX d, a, b, p: min where p holds, else max (PTX min/max.f64)."""
    a, b = f64(x, i.srcs[0]), f64(x, i.srcs[1])
    x.write64(i.dsts[0], arith().dmnmx(a, b, x.pred(i.srcs[2])))


def _types(i: Insn, dst_default: str, src_default: str) -> tuple[str, str]:
    """(destination type, source type): printed destination first."""
    t = [m for m in i.mods if m in FLOAT_TYPES or m in INT_TYPES]
    dst = t[0] if t else dst_default
    src = t[1] if len(t) > 1 else (dst if len(t) == 1 and dst_default == src_default else src_default)
    return dst, src


def _read(x: Exec, op: Operand, typ: str) -> np.ndarray:
    """A conversion's source: floats take - and |.| on the sign bit, integers as two's complement."""
    if typ in FLOAT_TYPES:
        if typ == "F64":
            return f64(x, op)
        v = f32(x, op)
        return v & U32(0xFFFF) if typ == "F16" else v
    v = x.u64(op) if typ in WIDE else x.u32(op).astype(U64)
    bits = 64 if typ in WIDE else 32
    mask = U64((1 << bits) - 1)
    if getattr(op, "abs", False):
        neg = (v >> U64(bits - 1)) & U64(1)
        v = np.where(neg.astype(bool), (~v + U64(1)) & mask, v)
    if getattr(op, "neg", False):
        v = (~v + U64(1)) & mask
    return v if typ in WIDE else v.astype(U32)


def _write(x: Exec, dst: Operand, typ: str, v: np.ndarray) -> None:
    if typ in WIDE:
        x.write64(dst, np.asarray(v).astype(U64))
    else:
        write_result(x, dst, np.asarray(v).astype(U64).astype(U32))


CVT_RND = ("RN", "RM", "RP", "RZ", "ROUND", "FLOOR", "CEIL", "TRUNC")


def f2f(x: Exec, i: Insn) -> None:
    """F2F.dst.src d, a: float to float, or rounding to an integral value (PTX cvt.f*.f*, cvt.rni)."""
    dst, src = _types(i, "F32", "F32")
    m = i.mods
    r = arith().f2f(_read(x, i.srcs[-1], src), src, dst, pick(m, CVT_RND, "RN"), "FTZ" in m, "SAT" in m)
    _write(x, i.dsts[0], dst, r)


def f2i(x: Exec, i: Insn) -> None:
    """F2I.dst.src d, a: float to integer, saturating at the type's range (PTX cvt.s32.f32).

    No rounding modifier is round to nearest even: the crnd field's 0 is envytools' `rni` (gf100.c
    tabfcrmi) and Mesa's ROUND_NI, and truncation is spelled .TRUNC (field 3, Mesa's ROUND_ZI, the
    word NVIDIA's compiler writes for C's (int)x)."""
    dst, src = _types(i, "S32", "F32")
    r = arith().f2i(_read(x, i.srcs[-1], src), src, dst, pick(i.mods, CVT_RND, "ROUND"), "FTZ" in i.mods)
    _write(x, i.dsts[0], dst, r)


def i2f(x: Exec, i: Insn) -> None:
    """I2F.dst.src d, a: integer to float (PTX cvt.f32.s32)."""
    dst, src = _types(i, "F32", "S32")
    r = arith().i2f(_read(x, i.srcs[-1], src), src, dst, pick(i.mods, RND, "RN"))
    _write(x, i.dsts[0], dst, r)


def i2i(x: Exec, i: Insn) -> None:
    """I2I.dst.src d, a: integer to integer, .SAT clamping to the destination's range (PTX cvt.sat)."""
    dst, src = _types(i, "S32", "S32")
    r = arith().i2i(_read(x, i.srcs[-1], src), src, dst, "SAT" in i.mods)
    _write(x, i.dsts[0], dst, r)


ROUTINES: dict[str, Callable[[Exec, Insn], None]] = {
    "FADD": fadd, "FMUL": fmul, "FFMA": ffma, "FSETP": fsetp, "FSET": fset, "FMNMX": fmnmx, "MUFU": mufu,
    "RRO": rro, "DADD": dadd, "DMUL": dmul, "DFMA": dfma, "DSETP": dsetp, "DMNMX": dmnmx, "F2F": f2f,
    "F2I": f2i, "I2F": i2f, "I2I": i2i,
}  # fmt: skip
