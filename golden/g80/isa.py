"""The G80 SM_1.0 ISA layer's entry points: one encoding table and everything derived from it."""

from .assembler import AsmError, Program, assemble, assemble_instruction
from .decoder import IllegalInstruction, Instruction, decode, decode_program, make
from .disassembler import format_listing, render_program
from .form import Form

__all__ = [
    "AsmError",
    "Form",
    "IllegalInstruction",
    "Instruction",
    "Program",
    "assemble",
    "assemble_instruction",
    "decode",
    "decode_program",
    "format_listing",
    "make",
    "render_program",
]
