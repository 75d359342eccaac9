"""Fermi memory spaces (seed 003) and the generic address space.

- constant banks c0-c17: read-only, 64 KiB each here, zero where the launch gave no data;
- shared: one byte array per CTA, its size given at launch;
- local: `local_size` bytes per thread (a profile value), addressed from 0 in each thread;
- global: one byte array placed at a base address, reached with 32-bit addresses or, under `.E`,
  with 64-bit register pairs.

Generic addresses (LD, ST, LDU, ATOM, RED): seed 003 says g[] "can have two holes in address
space: one of them mapped to s[] space, the other to l[] space, allowing unified addressing". The
model places them where the profile says (`shared_window`, `local_window`, each `window_size`
bytes, reported by special registers 48 and 52); an address in a window reaches that space at its offset
into the window, every other address is global.

Accesses are naturally aligned (an access of n bytes at a multiple of n); a misaligned or
out-of-range access is a fault naming the space, address and size.
"""

from __future__ import annotations

import numpy as np

CONST_BANKS = 18
CONST_BANK_BYTES = 0x10000

_VIEW = {1: "<u1", 2: "<u2", 4: "<u4", 8: "<u8"}


class Fault(Exception):
    """An access outside a space or misaligned; the model adds where it happened."""


def check(space: str, addr: np.ndarray, size: int, limit: int) -> None:
    """Every lane's access of `size` bytes at `addr` lies in 0..limit-1 and is aligned."""
    if not len(addr):
        return
    if limit == 0:
        raise Fault(f"{space} access of {size} byte(s) at {int(addr[0]):#x}: the launch gave {space} memory no bytes (give it a size)")
    bad = (addr < 0) | (addr + size > limit)
    if bad.any():
        a = int(addr[np.argmax(bad)])
        raise Fault(f"{space} access of {size} byte(s) at {a:#x} is outside 0..{limit - 1:#x}")
    mis = addr % size != 0
    if mis.any():
        a = int(addr[np.argmax(mis)])
        raise Fault(f"{space} access of {size} byte(s) at {a:#x} is not aligned to {size}")


def gather(buf: np.ndarray, idx: np.ndarray, size: int) -> list[np.ndarray]:
    """The `size` bytes at each byte index of `buf` as 32-bit words (uint32 arrays, lowest first; a
    1- or 2-byte access gives one word holding the value zero-extended)."""
    raw = buf[idx[:, None] + np.arange(size)]
    if size <= 4:
        return [np.ascontiguousarray(raw).view(_VIEW[size]).ravel().astype(np.uint32)]
    words = np.ascontiguousarray(raw).view("<u4").reshape(len(idx), size // 4)
    return [words[:, k].copy() for k in range(size // 4)]


def scatter(buf: np.ndarray, idx: np.ndarray, size: int, words: list[np.ndarray]) -> None:
    """Write each lane's value (32-bit words, lowest first) as `size` bytes at its byte index, lanes
    in order, so where two lanes write one address the higher lane's value stays."""
    if size <= 4:
        raw = words[0].astype(_VIEW[size]).view(np.uint8).reshape(len(idx), size)
    else:
        raw = np.stack([w.astype("<u4") for w in words], axis=1).view(np.uint8).reshape(len(idx), size)
    flat = (idx[:, None] + np.arange(size)).ravel()
    # numpy's fancy assignment keeps the last of repeated indices, which is the highest lane
    buf[flat] = raw.ravel()


class Memory:
    """Constant banks and global memory of a launch (shared and local live with the CTA)."""

    def __init__(self, const: dict[int, bytes], global_mem: bytes | np.ndarray, global_base: int) -> None:
        self.const = np.zeros((CONST_BANKS, CONST_BANK_BYTES), dtype=np.uint8)
        for bank, data in const.items():
            self.const[bank, : len(data)] = np.frombuffer(bytes(data), dtype=np.uint8)
        self.glob = np.array(np.frombuffer(bytes(global_mem), dtype=np.uint8)) if not isinstance(global_mem, np.ndarray) else global_mem.astype(np.uint8).copy()
        self.global_base = global_base

    def const_words(self, bank: int, addr: np.ndarray, size: int) -> list[np.ndarray]:
        check(f"c[{bank:#x}]", addr, size, CONST_BANK_BYTES)
        return gather(self.const[bank], addr, size)
