"""The commit record (DESIGN.md section 4): what one warp-instruction did, for comparison.

Lane values are 32-element arrays; only lanes in `exec_mask` are meaningful (the others are 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# each field's meaning is field metadata: the manual's commit-record table (docs/_ext) reads it from here


@dataclass
class RegWrite:
    """One register write of a commit: a general register, a `$c` flag register or an address register."""

    kind: str = field(metadata={"doc": '"gpr" (index: register number, half None/"L"/"H"), "cc" ($c number) or "addr" ($a number)'})
    index: int = field(metadata={"doc": "the register's number"})
    values: np.ndarray = field(metadata={"doc": "uint32 per lane (flags: the 4-bit nibble)"})
    half: str | None = field(default=None, metadata={"doc": 'None for a full register, "L" or "H" for the low or high 16 bits'})


@dataclass
class MemWrite:
    """One memory write of a commit (8- and 16-byte accesses: one record per 32-bit part)."""

    space: str = field(metadata={"doc": '"global", "shared" or "local"'})
    size: int = field(metadata={"doc": "bytes per lane"})
    lanes: int = field(metadata={"doc": "mask of the lanes that wrote"})
    addr: np.ndarray = field(metadata={"doc": "byte address per lane"})
    data: np.ndarray = field(metadata={"doc": "uint32 per lane"})


@dataclass
class Commit:
    """What one warp-instruction did when it retired, compared field by field by the scoreboard."""

    cta: int = field(metadata={"doc": "block slot"})
    warp: int = field(metadata={"doc": "warp id in the SM"})
    seq: int = field(metadata={"doc": "per-warp sequence number"})
    pc: int = field(metadata={"doc": "byte address of the instruction"})
    insn: int = field(metadata={"doc": "raw 32- or 64-bit instruction"})
    size: int = field(metadata={"doc": "instruction bytes (4 or 8)"})
    active_mask: int = field(metadata={"doc": "lanes active when it issued"})
    exec_mask: int = field(metadata={"doc": "lanes that executed it (active and guard predicate true)"})
    next_pc: int = field(metadata={"doc": "where the warp continues (after branch, divergence, join, call, return, exit)"})
    next_mask: int = field(metadata={"doc": "the lanes it continues with"})
    done: bool = field(metadata={"doc": "the warp has finished"})
    gpr: list[RegWrite] = field(default_factory=list, metadata={"doc": "general-register writes (RegWrite, kind gpr)"})
    cc: list[RegWrite] = field(default_factory=list, metadata={"doc": "$c flag-register writes (RegWrite, kind cc)"})
    addr: list[RegWrite] = field(default_factory=list, metadata={"doc": "address-register writes: R2A, ADA, post-increment (RegWrite, kind addr)"})
    mem: list[MemWrite] = field(default_factory=list, metadata={"doc": "memory writes (MemWrite), in program order"})
    synced: list[str] = field(default_factory=list, metadata={"doc": "values taken from the RTL, not checked"})
    text: str = field(default="", metadata={"doc": "disassembly of the instruction, for messages"})
    barrier: bool = field(default=False, metadata={"doc": "the warp waits at a barrier after it"})

    def lanes(self) -> list[int]:
        return [lane for lane in range(32) if self.exec_mask >> lane & 1]
