"""Memory families: LD ST LDS STS LDL STL LDC LDU ATOM RED CCTL MEMBAR, one routine each.

Spaces and the generic windows: golden/fermi/memory.py. Access sizes from the type modifier
(PTX ld/st: .u8 .s8 .u16 .s16, none for 32 bits, .64, .128; cuobjdump prints them U8 S8 U16 S16
64 128); .E takes a 64-bit address from a register pair (FERMI.md). Atomics are PTX atom/red: the
lanes update memory one after another (profile `atomic_lane_order`), each seeing the writes of the
lanes before it. The model is sequentially consistent, so MEMBAR and the cache controls (CCTL and
the .CG/.CS/.CV cache modifiers) change nothing it computes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from golden.fermi import memory
from golden.fermi.commit import MemWrite
from golden.fermi.insn import Addr, Const, Insn, Reg
from golden.fermi.operands import Exec, OperandError
from golden.fermi.semantics_int import arith
from golden.fermi.state import WARP

U32 = np.uint32
SIZES = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "32": 4, "64": 8, "128": 16}


def size_of(mods: tuple[str, ...]) -> tuple[int, str]:
    t = next((m for m in mods if m in SIZES), "32")
    return SIZES[t], t


def _extend(words: list[np.ndarray], t: str) -> list[np.ndarray]:
    """Sign-extend an S8/S16 load to 32 bits (PTX ld.s8/.s16); the others arrive zero-extended."""
    if t == "S8":
        return [words[0].astype(np.uint8).view(np.int8).astype(np.int32).view(U32)]
    if t == "S16":
        return [words[0].astype(np.uint16).view(np.int16).astype(np.int32).view(U32)]
    return words


def _addr_op(i: Insn) -> Addr:
    a = next((op for op in i.srcs if isinstance(op, Addr)), None)
    if a is None:
        raise OperandError(f"{i.op} has no [address] operand")
    return a


def _data(x: Exec, i: Insn, size: int) -> list[np.ndarray]:
    """The register (pair, quad) a store writes."""
    r = next(op for op in reversed(i.srcs) if isinstance(op, Reg))
    return x.words(r.n, max(1, size // 4))


def _dst_n(i: Insn) -> int:
    d = i.dsts[0]
    if not isinstance(d, Reg):
        raise OperandError(f"{i.op} loads into a register, not a {type(d).__name__}")
    return d.n


def ld(x: Exec, i: Insn) -> None:
    """LD / LDU d, [a]: a generic load (LDU: uniform across the warp, the same load here)."""
    size, t = size_of(i.mods)
    addr = x.address(_addr_op(i), "E" in i.mods)
    x.write_words(_dst_n(i), _extend(x.generic_load(addr, size), t))


def st(x: Exec, i: Insn) -> None:
    """ST [a], r: a generic store."""
    size, _ = size_of(i.mods)
    x.generic_store(x.address(_addr_op(i), "E" in i.mods), size, _data(x, i, size))


def _space_ld(space: str) -> Callable[[Exec, Insn], None]:
    def run(x: Exec, i: Insn) -> None:
        size, t = size_of(i.mods)
        x.write_words(_dst_n(i), _extend(x.load(space, x.address(_addr_op(i), False), size), t))

    run.__doc__ = f"a load from {space} memory at a 32-bit offset"
    return run


def _space_st(space: str) -> Callable[[Exec, Insn], None]:
    def run(x: Exec, i: Insn) -> None:
        size, _ = size_of(i.mods)
        x.store(space, x.address(_addr_op(i), False), size, _data(x, i, size))

    run.__doc__ = f"a store to {space} memory at a 32-bit offset"
    return run


def ldc(x: Exec, i: Insn) -> None:
    """LDC d, c[bank][r + offset]: a constant-bank load (PTX ld.const)."""
    size, t = size_of(i.mods)
    c = next((op for op in i.srcs if isinstance(op, Const)), None)
    if c is None:
        raise OperandError("LDC has no c[bank][offset] operand")
    x.write_words(_dst_n(i), _extend(x.const(c, size), t))


ATOM_OPS = ("ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS")


def _atomic(x: Exec, i: Insn, want_old: bool) -> None:
    """ATOM/RED: per lane in order, old = [a]; [a] = op(old, b(, c)) (PTX atom, red)."""
    op = next((m for m in i.mods if m in ATOM_OPS), "ADD")
    t = next((m for m in i.mods if m in ("U32", "S32", "U64", "S64", "64", "F32")), "U32")
    size = 8 if t in ("U64", "S64", "64") else 4
    bits = size * 8
    mask = (1 << bits) - 1
    addr = x.address(_addr_op(i), "E" in i.mods)
    vals = [op_ for op_ in i.srcs if not isinstance(op_, Addr)]
    b = x.u64(vals[0]) if size == 8 else x.u32(vals[0])
    c = (x.u64(vals[1]) if size == 8 else x.u32(vals[1])) if len(vals) > 1 else b
    olds = np.zeros(x.n, dtype=np.uint64)
    writes: dict[str, list[tuple[int, int, int]]] = {}
    for k in range(x.n):
        space = next(s for s, sel in x.resolve(addr[k : k + 1]).items() if sel[0])
        off = np.array([int(x.offset(space, addr[k : k + 1])[0])], dtype=np.int64)
        buf, limit, base = x._space(space)
        memory.check(space, off, size, limit)
        idx = off + (0 if base is None else base[k])
        ws = memory.gather(buf, idx, size)
        old = int(ws[0][0]) | (int(ws[1][0]) << 32 if size == 8 else 0)
        new = _combine(op, t, old, int(b[k]), int(c[k]), bits) & mask
        memory.scatter(buf, idx, size, [np.array([(new >> s) & 0xFFFFFFFF], dtype=U32) for s in range(0, bits, 32)])
        olds[k] = old
        writes.setdefault(space, []).append((int(x.lanes[k]), int(off[0]), new))
    for space, ws_ in writes.items():
        lanes = 0
        for lane, _, _ in ws_:
            lanes |= 1 << lane
        for part in range(size // 4):
            ad = np.zeros(WARP, dtype=np.uint64)
            da = np.zeros(WARP, dtype=U32)
            for lane, off_, new in ws_:
                ad[lane], da[lane] = off_ + 4 * part, (new >> (32 * part)) & 0xFFFFFFFF
            x.rec.mem.append(MemWrite(space, 4, lanes, ad, da))
    if want_old and i.dsts:
        d = i.dsts[0]
        if isinstance(d, Reg):
            if size == 8:
                x.write64(d, olds)
            else:
                x.write(d, olds.astype(U32))


def _signed(v: int, bits: int) -> int:
    return v - (1 << bits) if v >> (bits - 1) else v


def _combine(op: str, t: str, old: int, b: int, c: int, bits: int) -> int:
    """The new value of one atomic update (PTX atom: inc wraps to 0 past b, dec to b below 1 or past b)."""
    if op == "ADD":
        if t == "F32":
            return int(arith().fadd(np.array([old], U32), np.array([b], U32), "RN", True, False)[0])
        return old + b
    if op in ("MIN", "MAX"):
        key = (lambda v: _signed(v, bits)) if t in ("S32", "S64") else (lambda v: v)
        return (min if op == "MIN" else max)(old, b, key=key)
    if op == "INC":
        return 0 if old >= b else old + 1
    if op == "DEC":
        return b if old == 0 or old > b else old - 1
    if op == "AND":
        return old & b
    if op == "OR":
        return old | b
    if op == "XOR":
        return old ^ b
    if op == "EXCH":
        return b
    return c if old == b else old  # CAS: compare with b, swap in c


def atom(x: Exec, i: Insn) -> None:
    """ATOM.op d, [a], b(, c): d = the old value."""
    _atomic(x, i, True)


def red(x: Exec, i: Insn) -> None:
    """RED.op [a], b: ATOM without the old value."""
    _atomic(x, i, False)


def nothing(x: Exec, i: Insn) -> None:
    """CCTL, MEMBAR: no effect on a sequentially consistent model without caches."""


ROUTINES: dict[str, Callable[[Exec, Insn], None]] = {
    "LD": ld, "LDU": ld, "ST": st, "LDS": _space_ld("shared"), "STS": _space_st("shared"), "LDL": _space_ld("local"),
    "STL": _space_st("local"), "LDC": ldc, "ATOM": atom, "RED": red, "CCTL": nothing, "MEMBAR": nothing,
}  # fmt: skip
