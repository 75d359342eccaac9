"""What a semantic routine sees of one warp-instruction: operand reads, masked writes, memory.

Reads give arrays over the executing lanes only (`n` lanes, in lane order); writes take such
arrays, update the CTA's state in those lanes and add to the commit record. Working on the
executing lanes alone keeps every routine free of masks, and a lane that does not execute can
neither fault nor write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from golden.fermi import memory
from golden.fermi.commit import CCWrite, FermiCommit, MemWrite, PredWrite, RegWrite
from golden.fermi.insn import PT, RZ, Addr, Const, Imm, Insn, Operand, Pred, Reg
from golden.fermi.state import WARP

if TYPE_CHECKING:
    from golden.fermi.model import Cta, Machine
    from golden.fermi.simt import Warp

U32 = np.uint32
U64 = np.uint64
M32 = 0xFFFFFFFF


_LANES: dict[int, np.ndarray] = {}


def lanes_of(mask: int) -> np.ndarray:
    """The lane numbers set in a mask, read-only (masks recur, so they are cached)."""
    got = _LANES.get(mask)
    if got is None:
        got = np.array([k for k in range(WARP) if mask >> k & 1], dtype=np.int64)
        got.flags.writeable = False
        _LANES[mask] = got
    return got


class OperandError(Exception):
    """An operand the routine cannot take (a misaligned pair, a kind it has no reading of)."""


class Exec:
    """One warp-instruction's view of the machine."""

    def __init__(self, m: Machine, cta: Cta, warp: Warp, insn: Insn, ex: np.ndarray, rec: FermiCommit) -> None:
        self.m, self.cta, self.warp, self.insn, self.rec = m, cta, warp, insn, rec
        self.st = cta.state
        self.ex = ex  # bool per lane of the warp
        self.lanes = lanes_of(rec.exec_mask)  # lane numbers that execute
        self.threads = warp.base + self.lanes  # their columns in the state arrays
        # how the state arrays are indexed: a whole warp is a slice, which numpy reads and writes
        # several times faster than a list of 32 columns
        self.cols: slice | np.ndarray = slice(warp.base, warp.base + WARP) if rec.exec_mask == M32 else self.threads
        self.n = len(self.lanes)
        self.exmask = rec.exec_mask
        self.next_pc: int | None = None  # a control routine's new PC (the model keeps the SIMT stack)

    # -- reads -------------------------------------------------------------------------------------

    def reg(self, n: int) -> np.ndarray:
        return self.st.r[n, self.cols].copy()  # a copy: a later write to the register must not change it

    def u32(self, op: Operand) -> np.ndarray:
        """A 32-bit source as uint32 lanes, without its negation or absolute value."""
        if isinstance(op, Reg):
            return self.reg(op.n)
        if isinstance(op, Imm):
            return np.full(self.n, op.value & M32, dtype=U32)
        if isinstance(op, Const):
            return self.const(op, 4)[0]
        raise OperandError(f"{type(op).__name__} operand where a 32-bit value is read")

    def u64(self, op: Operand) -> np.ndarray:
        """A 64-bit source (an aligned register pair, a 64-bit immediate, 8 constant bytes) as uint64 lanes."""
        if isinstance(op, Reg):
            lo, hi = self.words(op.n, 2)
            return lo.astype(U64) | (hi.astype(U64) << U64(32))
        if isinstance(op, Imm):
            return np.full(self.n, op.value & 0xFFFFFFFFFFFFFFFF, dtype=U64)
        if isinstance(op, Const):
            lo, hi = self.const(op, 8)
            return lo.astype(U64) | (hi.astype(U64) << U64(32))
        raise OperandError(f"{type(op).__name__} operand where a 64-bit value is read")

    def words(self, n: int, count: int) -> list[np.ndarray]:
        """`count` consecutive registers from an aligned `n` (RZ reads as zeros)."""
        if n == RZ:
            return [np.zeros(self.n, dtype=U32) for _ in range(count)]
        if n % count or n + count > RZ:
            raise OperandError(f"R{n} does not start an aligned group of {count} registers (use a multiple of {count} below 63)")
        return [self.st.r[n + k, self.cols].copy() for k in range(count)]

    def const(self, op: Const, size: int) -> list[np.ndarray]:
        addr = np.full(self.n, op.offset, dtype=np.int64)
        if op.reg != RZ:
            addr = addr + self.reg(op.reg).astype(np.int64)
        return self.m.mem.const_words(op.bank, addr, size)

    def pred(self, op: Operand) -> np.ndarray:
        """A predicate source with its negation applied, bool lanes."""
        if not isinstance(op, Pred):
            raise OperandError(f"{type(op).__name__} operand where a predicate is read")
        v = self.st.p[op.n, self.cols]
        return ~v if op.neg else v.copy()

    def cc(self) -> np.ndarray:
        return self.st.cc[self.cols].copy()

    # -- writes ------------------------------------------------------------------------------------

    def _full(self, v: np.ndarray, dtype: type) -> np.ndarray:
        out = np.zeros(WARP, dtype=dtype)
        out[self.lanes] = v
        return out

    def write(self, dst: Operand, v: np.ndarray) -> None:
        """Write uint32 lanes to a register destination (RZ: dropped)."""
        if not isinstance(dst, Reg):
            raise OperandError(f"{type(dst).__name__} destination where a register is written")
        self.write_words(dst.n, [v])

    def write_words(self, n: int, words: list[np.ndarray]) -> None:
        """Write consecutive 32-bit words from an aligned register n (RZ: dropped)."""
        if n == RZ:
            return
        if len(words) > 1 and (n % len(words) or n + len(words) > RZ):
            raise OperandError(f"R{n} does not start an aligned group of {len(words)} registers (use a multiple of {len(words)} below 63)")
        for k, v in enumerate(words):
            v = np.asarray(v).astype(U32)
            self.st.r[n + k, self.cols] = v
            self.rec.regs.append(RegWrite(n + k, self.exmask, self._full(v, U32)))

    def write64(self, dst: Operand, v: np.ndarray) -> None:
        if not isinstance(dst, Reg):
            raise OperandError(f"{type(dst).__name__} destination where a register pair is written")
        v = v.astype(U64)
        self.write_words(dst.n, [(v & U64(M32)).astype(U32), (v >> U64(32)).astype(U32)])

    def write_pred(self, dst: Operand, v: np.ndarray) -> None:
        """Write bool lanes to a predicate destination (PT: dropped)."""
        if not isinstance(dst, Pred):
            raise OperandError(f"{type(dst).__name__} destination where a predicate is written")
        if dst.n == PT:
            return
        self.st.p[dst.n, self.cols] = v
        true = int(np.bitwise_or.reduce(np.left_shift(1, self.lanes[v].astype(np.int64)), initial=0))
        self.rec.preds.append(PredWrite(dst.n, self.exmask, true))

    def write_cc(self, flags: np.ndarray) -> None:
        flags = flags.astype(np.uint8) & 0xF
        self.st.cc[self.cols] = flags
        self.rec.cc = CCWrite(self.exmask, self._full(flags, np.uint8))

    # -- memory ------------------------------------------------------------------------------------

    def address(self, op: Addr, wide: bool) -> np.ndarray:
        """[reg + offset] as int64 lanes: a 32-bit register, or under .E a 64-bit pair."""
        if op.reg == RZ:
            base = np.zeros(self.n, dtype=np.int64)
        elif wide:
            lo, hi = self.words(op.reg, 2)
            base = (lo.astype(np.int64) | (hi.astype(np.int64) << 32))
        else:
            base = self.reg(op.reg).astype(np.int64)
        a = base + op.offset
        return a if wide else a & M32

    def _space(self, space: str) -> tuple[np.ndarray, int, np.ndarray | None]:
        """(byte array, limit, per-lane base index or None) of a space."""
        if space == "shared":
            return self.cta.shared, len(self.cta.shared), None
        if space == "local":
            size = self.m.p.local_size
            return self.cta.local, size, self.threads.astype(np.int64) * size
        return self.m.mem.glob, len(self.m.mem.glob), None

    def resolve(self, addr: np.ndarray) -> dict[str, np.ndarray]:
        """Split generic addresses by space: space -> bool selector over the executing lanes."""
        p = self.m.p
        sh = (addr >= p.shared_window) & (addr < p.shared_window + p.window_size)
        lo = (addr >= p.local_window) & (addr < p.local_window + p.window_size)
        return {"shared": sh, "local": lo, "global": ~(sh | lo)}

    def offset(self, space: str, addr: np.ndarray) -> np.ndarray:
        """A generic address as an offset in `space`."""
        p = self.m.p
        if space == "shared":
            return addr - p.shared_window
        if space == "local":
            return addr - p.local_window
        return addr - self.m.mem.global_base

    def load(self, space: str, addr: np.ndarray, size: int, sel: np.ndarray | None = None) -> list[np.ndarray]:
        """Read `size` bytes per lane (of the lanes in `sel`) at offsets `addr` in `space`."""
        buf, limit, base = self._space(space)
        memory.check(space, addr, size, limit)
        idx = addr if base is None else addr + (base if sel is None else base[sel])
        return memory.gather(buf, idx, size)

    def store(self, space: str, addr: np.ndarray, size: int, words: list[np.ndarray], sel: np.ndarray | None = None) -> None:
        """Write `size` bytes per lane and record it, one MemWrite per 32-bit part."""
        buf, limit, base = self._space(space)
        memory.check(space, addr, size, limit)
        idx = addr if base is None else addr + (base if sel is None else base[sel])
        memory.scatter(buf, idx, size, words)
        lanes = self.lanes if sel is None else self.lanes[sel]
        mask = int(np.bitwise_or.reduce(np.left_shift(1, lanes.astype(np.int64)), initial=0))
        part = min(size, 4)
        for k, w in enumerate(words):
            a = np.zeros(WARP, dtype=U64)
            a[lanes] = (addr + k * 4).astype(U64)
            d = np.zeros(WARP, dtype=U32)
            d[lanes] = w
            self.rec.mem.append(MemWrite(space, part, mask, a, d))

    def generic_load(self, addr: np.ndarray, size: int) -> list[np.ndarray]:
        out = [np.zeros(self.n, dtype=U32) for _ in range(max(1, size // 4))]
        for space, sel in self.resolve(addr).items():
            if sel.any():
                got = self.load(space, self.offset(space, addr[sel]), size, sel)
                for o, g in zip(out, got, strict=True):
                    o[sel] = g
        return out

    def generic_store(self, addr: np.ndarray, size: int, words: list[np.ndarray]) -> None:
        for space, sel in self.resolve(addr).items():
            if sel.any():
                self.store(space, self.offset(space, addr[sel]), size, [w[sel] for w in words], sel)
