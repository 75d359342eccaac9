"""The commit record (DESIGN.md section 4): what one warp-instruction did, for comparison.

Lane values are 32-element arrays; only lanes in `exec_mask` are meaningful (the others are 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class RegWrite:
    kind: str  # "gpr" (reg number, half None/"L"/"H"), "cc" ($c number), "addr" ($a number)
    index: int
    values: np.ndarray  # uint32 per lane (flags: the 4-bit nibble)
    half: str | None = None


@dataclass
class MemWrite:
    space: str  # "global", "shared", "local"
    size: int  # bytes per lane
    lanes: int  # mask of lanes that wrote
    addr: np.ndarray  # byte address per lane
    data: np.ndarray  # uint32 per lane (for 8/16-byte accesses, one record per 32-bit part)


@dataclass
class Commit:
    cta: int
    warp: int
    seq: int
    pc: int
    insn: int  # raw 32- or 64-bit instruction
    size: int
    active_mask: int
    exec_mask: int
    next_pc: int
    next_mask: int
    done: bool
    gpr: list[RegWrite] = field(default_factory=list)
    cc: list[RegWrite] = field(default_factory=list)
    addr: list[RegWrite] = field(default_factory=list)
    mem: list[MemWrite] = field(default_factory=list)
    synced: list[str] = field(default_factory=list)  # values taken from the RTL, not checked
    text: str = ""
    barrier: bool = False

    def lanes(self) -> list[int]:
        return [lane for lane in range(32) if self.exec_mask >> lane & 1]
