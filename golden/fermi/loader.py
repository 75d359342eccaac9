"""A Fermi program file -> its launch -> a model launched with it: the glue the tools that run
programs on the model alone share (coverage runs, random programs, the benchmark).

The program format (golden/fermi/program.py) hands its directives to the assembler as one
callback; golden/fermi/asm.py takes that callback as `directive`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .asm import FermiProgram, assemble
from .model import Machine
from .profile import SM20, FermiProfile
from .program import FermiLaunch, launch, load_program


def _assemble(text: str, file: str, directives: Any = None) -> FermiProgram:
    return assemble(text, file, directive=directives)


def load(path: str | Path) -> FermiLaunch:
    """The program's launch; AsmError names the file and line of what is wrong."""
    return launch(load_program(path, _assemble))


def machine(prog: FermiLaunch, profile: FermiProfile = SM20) -> Machine:
    """A fresh model with the program launched on it: constant banks, global memory and shared size
    as the launch says (buffers from address 0 of global memory)."""
    m = Machine(profile)
    m.launch(prog.insns, prog.grid, prog.block, const={k: bytes(v) for k, v in prog.const_banks.items()},
             global_mem=bytes(prog.global_memory), shared_size=prog.shared)  # fmt: skip
    return m
