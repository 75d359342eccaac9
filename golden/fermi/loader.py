"""A Fermi program file -> its launch -> a model launched with it: what the tools that run many
programs on the model alone and keep the commit records share (coverage runs, random programs, the
benchmark). Reading the file is golden/fermi/run.py's (`load`); the launch golden/fermi/program.py's.
"""

from __future__ import annotations

from pathlib import Path

from .model import Machine
from .profile import SM20, FermiProfile
from .program import FermiLaunch, launch
from .run import load as load_spec


def load(path: str | Path) -> FermiLaunch:
    """The program's launch; AsmError names the file and line of what is wrong."""
    return launch(load_spec(path))


def machine(prog: FermiLaunch, profile: FermiProfile = SM20) -> Machine:
    """A fresh model with the program launched on it: constant banks (which already hold the launch
    dimensions and parameters), global memory from address 0 and the shared size as the launch says."""
    m = Machine(profile)
    m.launch(prog.insns, prog.grid, prog.block, const={k: bytes(v) for k, v in prog.const_banks.items()},
             global_mem=bytes(prog.global_memory), shared_size=prog.shared, global_base=0)  # fmt: skip
    return m
