"""Deliberately broken variants of the RTL, for the mutation suite (tests/test_mutants.py).

A passing lock-step run must mean something, so the suite builds small realistic bugs into the SM
and checks that each one is reported at the first instruction it affects. The bugs live here, not
in rtl/: each mutant is a text substitution in one source file, applied to a copy of the sources
in the build directory (`runner.build` does it for a `MUTANT_*` name among its defines, so
`make sim DEFINES=MUTANT_CARRY` and `LockstepRun(..., defines=("MUTANT_CARRY",))` build one).
The original text must occur exactly once in the file: when the RTL changes under a mutant, the
build stops and names the mutant and the file instead of silently building the unbroken design.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Mutant:
    name: str  # the name a build asks for (a "define" of runner.build, DEFINES= of make sim)
    file: str  # the file of rtl/ it changes
    original: str  # text of that file, present exactly once
    broken: str  # what replaces it
    bug: str  # what is broken, in one line


class MutantError(ValueError):
    """A mutant that is unknown or no longer applies to the RTL."""


VARIANTS: dict[str, Mutant] = {
    m.name: m
    for m in (
        Mutant(
            "MUTANT_CARRY", "sm_operands.v",
            "ccarry = cc_regs[(carry_reg ? {preg, 7'd0} : 9'd0) +: 128];",
            "ccarry = cc_regs[(carry_reg ? 9'd0 : {preg, 7'd0}) +: 128];",
            "the carry register select is inverted: a 64-bit addc reads $c0 instead of $c[preg]",
        ),
        Mutant(
            "MUTANT_PREDICATE", "sm_operands.v",
            "guard_n[gl] = SM1_COND_TABLE[{pcond, gcc[gl * 4 +: 4]}];",
            "guard_n[gl] = pcond == 5'h05 || SM1_COND_TABLE[{pcond, gcc[gl * 4 +: 4]}];",
            "the guard condition NE (~Z) is taken as always true",
        ),
        Mutant(
            "MUTANT_DIVERGENCE", "sm_simt.v",
            "active_we = 1'b1; active_next = top_mask & ~exited;",
            "active_we = 1'b1; active_next = cur_active;",
            "a join that pops a branch entry keeps the finished side's lanes instead of the stacked ones",
        ),
        Mutant(
            "MUTANT_BYTE_ENABLE", "sm_mem_unit.v",
            "mem_req_be <= ((m_bytes == 5'd1) ? 64'h1 : (m_bytes == 5'd2) ? 64'h3 : 64'hf) << addr[5:0];",
            "mem_req_be <= ((m_bytes == 5'd1) ? 64'h1 : (m_bytes == 5'd2) ? 64'h3 : 64'hf) << {addr[5:2], 2'b00};",
            "byte and half stores enable the low byte lanes whatever the address (global and local)",
        ),
        Mutant(
            "MUTANT_X_LANES", "sm_commit.v",
            "                if (sh_mask[q]) begin\n",
            "                else begin\n"
            "                    c_gpr_data[(lane0 + q) * 32 +: 32] <= 32'bx;\n"
            "                    if (retire) commit_gpr_data[(lane0 + q) * 32 +: 32] <= 32'bx;\n"
            "                end\n"
            "                if (sh_mask[q]) begin\n",
            "the lanes of a pass that do not write a register are left undriven in the commit record",
        ),
        Mutant(
            "MUTANT_X_MEM_ADDR", "sm_mem_unit.v",
            "mem_req_addr <= {addr[31:6], 6'd0};",
            "mem_req_addr <= {addr[31:6], 6'bxxxxxx};",
            "a single lane's request (not a coalesced line) leaves the low six bits of its line address undriven",
        ),
        Mutant(
            "MUTANT_LOAD_RECORD", "sm_commit.v",
            "commit_gpr_data <= s_gpr_data[{{(20-LSB){1'b0}}, cpl_slot, 12'd0} +: 4096];",
            "commit_gpr_data <= s_gpr_data[{{(20-LSB){1'b0}}, cpl_slot, 12'd0} +: 4096] ^ 4096'd1;",
            "a parked load's commit record has bit 0 of lane 0's value flipped (the register file gets the right value)",
        ),
    )
}  # fmt: skip


def split_defines(defines: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(mutant names, real Verilog defines). A MUTANT_* name this module does not know is an error."""
    mutants, rest = [], []
    for d in defines:
        if d in VARIANTS:
            mutants.append(d)
        elif d.startswith("MUTANT_"):
            raise MutantError(f"unknown mutant {d} (tb/mutants.py has {', '.join(VARIANTS)})")
        else:
            rest.append(d)
    return tuple(mutants), tuple(rest)


def mutate(name: str, text: str) -> str:
    """`text` (the mutant's file) with the mutant's substitution applied."""
    m = VARIANTS[name]
    count = text.count(m.original)
    if count != 1:
        raise MutantError(f"{name}: its original text occurs {count} times in rtl/{m.file} (needs exactly 1): "
                          f"update tb/mutants.py to the RTL\n  {m.original.strip()}")  # fmt: skip
    return text.replace(m.original, m.broken)


def apply(names: Iterable[str], sources: list[Path], out_dir: Path) -> list[Path]:
    """Copies `sources` into `out_dir` with the mutants applied; returns the paths to build from.

    A file is rewritten only when its text changes, so an unchanged variant does not rebuild.
    """
    texts = {p.name: p.read_text(encoding="utf-8") for p in sources}
    for name in names:
        file = VARIANTS[name].file
        if file not in texts:
            raise MutantError(f"{name} changes rtl/{file}, which is not among the sources of this build")
        texts[file] = mutate(name, texts[file])
    out_dir.mkdir(parents=True, exist_ok=True)
    out = []
    for p in sources:
        target = out_dir / p.name
        if not target.exists() or target.read_text(encoding="utf-8") != texts[p.name]:
            target.write_text(texts[p.name], encoding="utf-8")
        out.append(target)
    return out
