"""A Fermi program file -> its launch -> a model launched with it: what the tools that run many
programs on the model alone and keep the commit records share (coverage runs, random programs, the
benchmark). Reading the file is golden/fermi/run.py's (`load`); the launch golden/fermi/program.py's.
"""

from __future__ import annotations

from pathlib import Path

from .program import FermiLaunch, launch
from .run import load as load_spec
from .run import machine

__all__ = ["load", "machine"]


def load(path: str | Path) -> FermiLaunch:
    """The program's launch; AsmError names the file and line of what is wrong."""
    return launch(load_spec(path))
