"""Byte-addressed, little-endian memories with vectorised, bounds-checked gathers and scatters."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import MemoryFault

Where = str | Callable[[], str]  # where an access happens, for a fault's message: formatted only when there is one

_SHIFTS = {1: np.array([0], np.uint32), 2: np.array([0, 8], np.uint32), 4: np.array([0, 8, 16, 24], np.uint32)}


class Memory:
    """A flat byte array. `name` appears in fault messages (global, shared, constant bank, local)."""

    def __init__(self, name: str, size: int, data: bytes | np.ndarray | None = None) -> None:
        self.name = name
        self.data = np.zeros(size, np.uint8)
        if data is not None:
            raw = np.frombuffer(bytes(data), np.uint8) if not isinstance(data, np.ndarray) else data.astype(np.uint8)
            if raw.size > size:
                raise ValueError(f"{name}: {raw.size} bytes of initial data do not fit in {size}")
            self.data[: raw.size] = raw

    @property
    def size(self) -> int:
        return int(self.data.size)

    def _check(self, addr: np.ndarray, size: int, where: Where, lanes: np.ndarray | None) -> None:
        bad = (addr < 0) | (addr + size > self.data.size)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            lane = f", lane {int(lanes[i])}" if lanes is not None else ""
            raise MemoryFault(self.name, int(addr[i]), size, self.data.size, f"{where if isinstance(where, str) else where()}{lane}")

    def _words(self, addr: np.ndarray) -> np.ndarray | None:
        """Word indices of aligned 4-byte accesses at int64 byte addresses that are all inside the
        memory, or None (the general path then checks, and reports a fault with its lane)."""
        if self.data.size % 4 or not addr.size or (addr & 3).any() or addr.min() < 0 or addr.max() > self.data.size - 4:
            return None
        return addr >> 2

    def load_words(self, addr: np.ndarray) -> np.ndarray | None:
        """`load(addr, 4)` where every address is aligned and inside the memory, in fewer array
        operations (a model step's GLD/LLD of a whole warp); None otherwise."""
        words = self._words(addr)
        return None if words is None else self.data.view(np.uint32)[words]

    def store_words(self, addr: np.ndarray, value: np.ndarray) -> bool:
        """`store(addr, 4, value)` where every address is aligned and inside the memory, as whole
        words (the same bytes: the memory is little-endian like the words' view, and of lanes that
        write the same word the highest one's value stays, as of the byte stores); False, storing
        nothing, otherwise."""
        words = self._words(addr)
        if words is None:
            return False
        self.data.view(np.uint32)[words] = value
        return True

    def load(self, addr: np.ndarray, size: int, signed: bool = False, where: Where = "", lanes: np.ndarray | None = None) -> np.ndarray:
        """Little-endian loads of 1, 2 or 4 bytes, zero- or sign-extended to uint32."""
        addr = addr.astype(np.int64, copy=False)
        self._check(addr, size, where, lanes)
        if size == 4 and addr.size and not (addr & 3).any():
            return self.data.view(np.uint32)[addr >> 2] if self.data.size % 4 == 0 else self._gather(addr, 4)
        value = self._gather(addr, size)
        if signed and size < 4:
            bits = 8 * size
            value = ((value.astype(np.int64) ^ (1 << (bits - 1))) - (1 << (bits - 1))).astype(np.uint32)
        return value

    def _gather(self, addr: np.ndarray, size: int) -> np.ndarray:
        idx = addr[:, None] + np.arange(size)
        return (self.data[idx].astype(np.uint32) << _SHIFTS[size]).sum(axis=1, dtype=np.uint32) if size > 1 else self.data[addr].astype(np.uint32)

    def store(self, addr: np.ndarray, size: int, value: np.ndarray, where: Where = "", lanes: np.ndarray | None = None) -> None:
        """Little-endian stores; when lanes write the same byte, the highest lane's value stays."""
        addr = addr.astype(np.int64, copy=False)
        self._check(addr, size, where, lanes)
        value = value.astype(np.uint32, copy=False)
        for k in range(size):
            self.data[addr + k] = (value >> np.uint32(8 * k)).astype(np.uint8)

    def read_words(self, addr: int, count: int) -> np.ndarray:
        return self.load(addr + 4 * np.arange(count, dtype=np.int64), 4)

    def write_bytes(self, addr: int, data: bytes) -> None:
        self._check(np.array([addr], np.int64), len(data), "initialisation", None)
        self.data[addr : addr + len(data)] = np.frombuffer(data, np.uint8)
