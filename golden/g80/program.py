"""G80 programs of programs/*.sass: the shared program format (golden/isa/program.py) read with
G80's assembler.

What is G80's own is the assembler (its `.explicit_exit` directive and the code's load address)
and where the launch puts the parameters (shared memory from byte 0x10, golden/g80/run.py); the
directives, buffers and expectations are the machinery's (docs/reference/program-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..isa.program import ALIGN, BUFFER_BASE, DTYPES, Buffer, Expectation, ProgramSpec, load
from .assembler import AsmError, Program, assemble

__all__ = ["ALIGN", "BUFFER_BASE", "DTYPES", "AsmError", "Buffer", "Expectation", "KernelSpec", "load_program"]


@dataclass
class KernelSpec(ProgramSpec):
    program: Program


def load_program(path: str | Path, base: int = 0) -> KernelSpec:
    """Assemble a program file and read its directives. Raises AsmError naming file and line."""

    def g80_assemble(source: str, file: str, directives: dict) -> Program:
        return assemble(source, file, base=base, directives=directives)

    return load(path, g80_assemble, KernelSpec)
