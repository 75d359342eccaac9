"""Moves and predicate families: MOV S2R PSETP PSET P2R R2P CSETP, one routine each.

Definitions: PTX mov, setp/set with predicate operands (`.and/.or/.xor` as the combining and the
first logic op), seed 003 for $flags (P0-P6 in bits 0-6, CC in bits 12-15) and the special
registers (golden/fermi/special.py).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from golden.fermi import conditions, special
from golden.fermi.insn import CC, PR, PT, Imm, Insn, Operand, Pred, Reg, SReg
from golden.fermi.operands import Exec
from golden.fermi.semantics_int import LOGIC, combine, pick, write_result
from golden.fermi.state import FLAGS_CC_SHIFT

U32 = np.uint32


def mov(x: Exec, i: Insn) -> None:
    """MOV d, a (and MOV32I): d = a (PTX mov)."""
    write_result(x, i.dsts[0], x.u32(i.srcs[0]))


def s2r(x: Exec, i: Insn) -> None:
    """S2R d, SR: a special register (golden/fermi/special.py)."""
    sr = i.srcs[0]
    if not isinstance(sr, SReg):
        raise ValueError(f"S2R reads a special register, not a {type(sr).__name__}")
    x.write(i.dsts[0], special.read(x, sr.n))


def _logic_pair(i: Insn) -> tuple[str, str]:
    """The two logic modifiers of PSETP/PSET in printed order (`PSETP.AND.OR`)."""
    ops = [m for m in i.mods if m in LOGIC]
    ops = [*ops, "AND", "AND"]
    return ops[0], ops[1]


def psetp(x: Exec, i: Insn) -> None:
    """PSETP.op1.op2 p, q, a, b, c: p = (a op1 b) op2 c, q = !(a op1 b) op2 c."""
    op1, op2 = _logic_pair(i)
    t = combine(op1, x.pred(i.srcs[0]), x.pred(i.srcs[1]))
    c = x.pred(i.srcs[2])
    x.write_pred(i.dsts[0], combine(op2, t, c))
    if len(i.dsts) > 1:
        x.write_pred(i.dsts[1], combine(op2, ~t, c))


def pset(x: Exec, i: Insn) -> None:
    """PSET.op1.op2 d, a, b, c: all ones (.BF: 1.0f) where (a op1 b) op2 c, else 0."""
    op1, op2 = _logic_pair(i)
    t = combine(op2, combine(op1, x.pred(i.srcs[0]), x.pred(i.srcs[1])), x.pred(i.srcs[2]))
    one = U32(0x3F800000) if "BF" in i.mods else U32(0xFFFFFFFF)
    write_result(x, i.dsts[0], np.where(t, one, U32(0)))


def _flags(x: Exec) -> np.ndarray:
    """$flags per lane: P0-P6 in bits 0-6, CC in bits 12-15 (seed 003)."""
    p = x.st.p[:PT, x.threads].astype(U32)
    v = np.zeros(x.n, dtype=U32)
    for k in range(PT):
        v |= p[k] << U32(k)
    return v | (x.cc().astype(U32) << U32(FLAGS_CC_SHIFT))


def _mask_operand(x: Exec, ops: tuple[Operand, ...]) -> np.ndarray:
    imm = [op for op in ops if isinstance(op, Imm)]
    return x.u32(imm[-1]) if imm else np.full(x.n, 0xFFFFFFFF, dtype=U32)


def p2r(x: Exec, i: Insn) -> None:
    """P2R d, PR|CC, a, mask: d = (a & ~mask) | ($flags & mask) (profile p2r_merge); with the CC
    operand the mask is applied to the CC's bits 12-15 of $flags."""
    mask = _mask_operand(x, i.srcs)
    if any(isinstance(op, CC) for op in i.srcs):
        mask = mask << U32(FLAGS_CC_SHIFT)
    regs = [op for op in i.srcs if isinstance(op, Reg)]
    base = x.u32(regs[0]) if regs and x.m.p.p2r_merge else np.zeros(x.n, dtype=U32)
    write_result(x, i.dsts[0], (base & ~mask) | (_flags(x) & mask))


def r2p(x: Exec, i: Insn) -> None:
    """R2P PR|CC, a, mask: each predicate Pn whose mask bit n is set takes bit n of a; with CC, the
    CC takes bits 0-3 of a where the mask's bits 0-3 are set."""
    regs = [op for op in i.srcs if isinstance(op, Reg)]
    a = x.u32(regs[0])
    mask = int(_mask_operand(x, i.srcs)[0]) if x.n else 0
    if any(isinstance(op, CC) for op in (*i.dsts, *i.srcs)):
        m = mask & 0xF
        x.write_cc(((x.cc().astype(U32) & ~U32(m)) | (a & U32(m))).astype(np.uint8))
        return
    if not any(isinstance(op, PR) for op in (*i.dsts, *i.srcs)):
        raise ValueError("R2P writes PR or CC (name one of them)")
    for k in range(PT):
        if mask >> k & 1:
            x.write_pred(Pred(k), ((a >> U32(k)) & U32(1)).astype(bool))


def csetp(x: Exec, i: Insn) -> None:
    """CSETP.test.logic p, q, CC, c: p = (CC test) logic c, q = !(CC test) logic c (seed 001's CC
    test names, golden/fermi/conditions.py)."""
    ccop = next(op for op in i.srcs if isinstance(op, CC))
    name = ccop.test or pick(i.mods, conditions.NAMES, "T")
    t = conditions.test(name, x.cc())
    c = x.pred([op for op in i.srcs if isinstance(op, Pred)][-1])
    logic = pick(i.mods, LOGIC, "AND")
    x.write_pred(i.dsts[0], combine(logic, t, c))
    if len(i.dsts) > 1:
        x.write_pred(i.dsts[1], combine(logic, ~t, c))


ROUTINES: dict[str, Callable[[Exec, Insn], None]] = {
    "MOV": mov, "S2R": s2r, "PSETP": psetp, "PSET": pset, "P2R": p2r, "R2P": r2p, "CSETP": csetp,
}  # fmt: skip
