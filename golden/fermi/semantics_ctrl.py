"""Control families: SSY BRA CAL PRET RET EXIT PBK BRK PCNT CONT BAR VOTE NOP, one routine each.

What each instruction does to the warp's stack is golden/fermi/simt.py; the instructions and
their operands are seed 001's (asfermi, OpcodeExecution) with envytools' names for the stack
pushes (FERMI.md: joinat = SSY, prebrk = PBK, precont = PCNT). A CC test operand (`BRA CC.NE`,
seed 001: "conditional code operation seems to be supported by NOP, BRA, RET, EXIT, BRK, CONT")
narrows the executing lanes further. BAR and VOTE are PTX bar.sync/bar.arrive and vote.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from golden.fermi import conditions, simt
from golden.fermi.insn import CC, RZ, Insn, Pred, Reg, Target
from golden.fermi.operands import Exec, OperandError
from golden.fermi.semantics_int import pick

U32 = np.uint32


def _target(i: Insn) -> int:
    t = next((op for op in i.srcs if isinstance(op, Target)), None)
    if t is None:
        raise OperandError(f"{i.op} with a constant-bank target is not modelled (give an address)")
    return t.addr


def _lanes(x: Exec, i: Insn) -> int:
    """The executing lanes, narrowed by a CC test operand; the record's exec mask follows."""
    cc = next((op for op in i.srcs if isinstance(op, CC)), None)
    if cc is None or not cc.test or cc.test == "T":
        return x.exmask
    ok = conditions.test(cc.test, x.cc())
    m = 0
    for lane in x.lanes[ok]:
        m |= 1 << int(lane)
    x.exmask = m
    return m


def _push(kind: str) -> Callable[[Exec, Insn], None]:
    def run(x: Exec, i: Insn) -> None:
        x.warp.push(kind, _target(i), x.warp.active)

    run.__doc__ = f"push {kind}(target, the active lanes)"
    return run


def bra(x: Exec, i: Insn) -> None:
    """BRA(.LMT) target: the executing lanes go to the target; if some active lanes stay, the warp
    diverges (profile diverge_first). BRA.U branches only when every active lane would (profile bra_u)."""
    w = x.warp
    taken = _lanes(x, i)
    target = _target(i)
    if "U" in i.mods and taken != w.active:
        return
    if taken == w.active:
        w.pc = target
    elif taken:
        stay = w.active & ~taken
        if x.m.p.diverge_first == "taken":
            w.push(simt.DIV, w.pc, stay)
            w.pc, w.active = target, taken
        else:
            w.push(simt.DIV, target, taken)
            w.active = stay


def cal(x: Exec, i: Insn) -> None:
    """CAL target: push CALL(return address, calling lanes) and jump; lanes whose guard is false wait
    in a DIV entry at the return address. .NOINC pushes nothing (a jump whose RET pops an entry a
    PRET made)."""
    w = x.warp
    lanes = _lanes(x, i)
    if not lanes:
        return
    if lanes != w.active:
        w.push(simt.DIV, w.pc, w.active & ~lanes)
    if "NOINC" not in i.mods:
        w.push(simt.CALL, w.pc, lanes)
    w.pc, w.active = _target(i), lanes


def _unwind(kind: str) -> Callable[[Exec, Insn], None]:
    def run(x: Exec, i: Insn) -> None:
        lanes = _lanes(x, i)
        if lanes:
            x.warp.unwind(kind, lanes)

    run.__doc__ = f"the executing lanes unwind to the nearest {kind} entry"
    return run


def exit_(x: Exec, i: Insn) -> None:
    """EXIT: the executing lanes end; with none active left the warp resumes from its stack or is done."""
    lanes = _lanes(x, i)
    if lanes:
        x.warp.exit(lanes)


def bar(x: Exec, i: Insn) -> None:
    """BAR.RED.POPC/AND/OR RZ, ... (what nvcc emits for __syncthreads) and BAR.SYNC: the warp waits
    until every warp of the CTA that has not finished arrives (PTX bar.sync, bar.red with the whole
    CTA); BAR.ARV arrives without waiting. The thread count operand is not modelled (the barrier
    waits for every warp), nor the reduction's result (a destination other than RZ is an error)."""
    if "ARV" in i.mods:
        return
    if "RED" in i.mods and any(isinstance(d, Reg) and d.n != RZ for d in i.dsts):
        raise ValueError("BAR.RED into a register is not modelled (reduce through shared memory, or write RZ)")
    x.warp.at_barrier = True


def vote(x: Exec, i: Insn) -> None:
    """VOTE.ALL/ANY/EQ: over the executing lanes, whether the predicate holds in all, any, or all or
    none of them (PTX vote .all/.any/.uni); a register destination gets the ballot (vote.ballot)."""
    p = x.pred(next(op for op in i.srcs if isinstance(op, Pred)))
    mode = pick(i.mods, ("ALL", "ANY", "EQ"), "ALL")
    ballot = 0
    for lane in x.lanes[p]:
        ballot |= 1 << int(lane)
    n = int(p.sum())
    res = n == x.n if mode == "ALL" else n > 0 if mode == "ANY" else n in (0, x.n)
    for d in i.dsts:
        if isinstance(d, Reg):
            x.write(d, np.full(x.n, ballot, dtype=U32))
        elif isinstance(d, Pred):
            x.write_pred(d, np.full(x.n, res))


def nop(x: Exec, i: Insn) -> None:
    """NOP: nothing (its .S, if any, is the model's)."""


ROUTINES: dict[str, Callable[[Exec, Insn], None]] = {
    "SSY": _push(simt.SYNC), "PBK": _push(simt.BREAK), "PCNT": _push(simt.CONT), "BRA": bra, "CAL": cal,
    "PRET": _push(simt.CALL), "RET": _unwind(simt.CALL), "BRK": _unwind(simt.BREAK), "CONT": _unwind(simt.CONT),
    "EXIT": exit_, "BAR": bar, "VOTE": vote, "NOP": nop,
}  # fmt: skip
