"""The commit record (DESIGN.md section 4): what one warp-instruction did, for comparison.

Lane values are 32-element arrays; only lanes in `exec_mask` are meaningful (the others are 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from golden.isa.record import Schema, recfield

# each field's meaning is field metadata (golden.isa.record): the manual's commit-record table and
# the scoreboard's choice of compared fields read it from here


@dataclass
class RegWrite:
    """One register write of a commit: a general register, a `$c` flag register or an address register."""

    kind: str = recfield('"gpr" (index: register number, half None/"L"/"H"), "cc" ($c number) or "addr" ($a number)')
    index: int = recfield("the register's number")
    values: np.ndarray = recfield("uint32 per lane (flags: the 4-bit nibble)")
    half: str | None = recfield('None for a full register, "L" or "H" for the low or high 16 bits', default=None)


@dataclass
class MemWrite:
    """One memory write of a commit (8- and 16-byte accesses: one record per 32-bit part)."""

    space: str = recfield('"global", "shared" or "local"')
    size: int = recfield("bytes per lane")
    lanes: int = recfield("mask of the lanes that wrote")
    addr: np.ndarray = recfield("byte address per lane")
    data: np.ndarray = recfield("uint32 per lane")


@dataclass
class Commit:
    """What one warp-instruction did when it retired, compared field by field by the scoreboard."""

    cta: int = recfield("block slot", compared=False, why="the warp the model steps is the DUT's, so its block is too")
    warp: int = recfield("warp id in the SM", compared=False, why="the model steps the warp the DUT committed")
    seq: int = recfield("per-warp sequence number", width=32)
    pc: int = recfield("byte address of the instruction", width=24)
    insn: int = recfield("raw 32- or 64-bit instruction", width=64)
    size: int = recfield("instruction bytes (4 or 8)", compared=False, why="insn says it (w0 bit 0)")
    active_mask: int = recfield("lanes active when it issued", width=32)
    exec_mask: int = recfield("lanes that executed it (active and guard predicate true)", width=32)
    next_pc: int = recfield("where the warp continues (after branch, divergence, join, call, return, exit)", width=24)
    next_mask: int = recfield("the lanes it continues with", width=32)
    done: bool = recfield("the warp has finished")
    gpr: list[RegWrite] = recfield("general-register writes (RegWrite, kind gpr)", default_factory=list)
    cc: list[RegWrite] = recfield("$c flag-register writes (RegWrite, kind cc)", default_factory=list)
    addr: list[RegWrite] = recfield("address-register writes: R2A, ADA, post-increment (RegWrite, kind addr)", default_factory=list)
    mem: list[MemWrite] = recfield("memory writes (MemWrite), in program order", default_factory=list)
    synced: list[str] = recfield(
        "values taken from the RTL, not checked", compared=False, why="the list of what was not compared", default_factory=list
    )
    text: str = recfield("disassembly of the instruction, for messages", compared=False, why="insn is compared; this is its text", default="")
    barrier: bool = recfield(
        "the warp waits at a barrier after it",
        compared=False,
        why='which warp "waits" at the last arrival is naming; the model checks barrier release itself',
        default=False,
    )

    def lanes(self) -> list[int]:
        return [lane for lane in range(32) if self.exec_mask >> lane & 1]


SCHEMA = Schema("g80", Commit, (RegWrite, MemWrite), "golden/g80/commit.py")
