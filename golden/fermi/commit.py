"""The Fermi commit record: what one warp-instruction did when it retired.

One FermiCommit per warp-instruction. Lane values are arrays of the warp's 32 lanes, lane 0 first;
a write's `lanes` mask says which lanes it wrote, and the values of the other lanes are 0, so two
records that agree on the lanes compare equal as arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from golden.isa.record import Schema, compared_fields, recfield

# each field's meaning is field metadata (golden.isa.record): the manual's schema page and a
# scoreboard's choice of compared fields read it from here


@dataclass(slots=True)
class RegWrite:
    """A general-register write; a 64- or 128-bit result is one RegWrite per 32-bit register."""

    reg: int = recfield("register number R0-R62 (RZ writes are dropped, never recorded)")
    lanes: int = recfield("mask of the lanes written", width=32)
    values: np.ndarray = recfield("uint32 per lane (0 in lanes not written)")


@dataclass(slots=True)
class PredWrite:
    """A predicate write."""

    pred: int = recfield("predicate number P0-P6 (PT writes are dropped, never recorded)")
    lanes: int = recfield("mask of the lanes written", width=32)
    values: int = recfield("mask of the written lanes where the predicate is now true", width=32)


@dataclass(slots=True)
class CCWrite:
    """A condition-code write."""

    lanes: int = recfield("mask of the lanes written", width=32)
    values: np.ndarray = recfield("uint8 per lane: the 4-bit CC, bit 0 Z, 1 S, 2 C, 3 O (seed 003); 0 in lanes not written")


@dataclass(slots=True)
class MemWrite:
    """A memory write; an 8- or 16-byte store is one MemWrite per 32-bit part, lowest address first."""

    space: str = recfield('"global", "shared" or "local" (a generic address is recorded in the space it resolved to)')
    size: int = recfield("bytes per lane: 1, 2 or 4")
    lanes: int = recfield("mask of the lanes that wrote", width=32)
    addr: np.ndarray = recfield("uint64 byte address per lane in its space (0 in lanes that did not write)")
    data: np.ndarray = recfield("uint32 per lane, the bytes written as a little-endian value (0 in lanes that did not write)")


@dataclass(slots=True)
class FermiCommit:
    """One retired Fermi warp-instruction."""

    seq: int = recfield("the warp's sequence number, from 0 per warp", width=32)
    cta: int = recfield("linear CTA id (x fastest)", compared=False, why="the warp stepped is the DUT's, so its CTA is too")
    warp: int = recfield("warp number in its CTA", compared=False, why="the warp stepped is the DUT's")
    pc: int = recfield("byte address of the instruction", width=32)
    insn: int = recfield("the 64-bit instruction word", width=64)
    next_pc: int = recfield("where the warp continues (after a branch, divergence, sync, break, call, return or exit)", width=32)
    active_mask: int = recfield("lanes active when it issued", width=32)
    exec_mask: int = recfield("lanes that executed it: active and guard true (for BRA/BRK/CONT/RET/EXIT also the CC test)", width=32)
    next_mask: int = recfield("the lanes the warp continues with at next_pc", width=32)
    done: bool = recfield("every lane of the warp has exited")
    regs: list[RegWrite] = recfield("general-register writes, in destination order", default_factory=list)
    preds: list[PredWrite] = recfield("predicate writes, in destination order", default_factory=list)
    cc: CCWrite | None = recfield("the CC write, or None", default=None)
    mem: list[MemWrite] = recfield("memory writes, in program order (atomics: lanes in the profile's order)", default_factory=list)
    text: str = recfield("the instruction's mnemonic and modifiers, for messages", compared=False, why="insn is compared; this is its text", default="")


COMPARED_FIELDS: tuple[str, ...] = compared_fields(FermiCommit)

SCHEMA = Schema("fermi", FermiCommit, (RegWrite, PredWrite, CCWrite, MemWrite), "golden/fermi/commit.py")
