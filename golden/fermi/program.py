"""Fermi (sm_20) programs of programs/fermi/: the shared program format (golden/isa/program.py)
launched the way the CUDA runtime launches an sm_20 kernel.

The directives are the machinery's; what is Fermi's is where the launch puts them. Code compiled
by nvcc for sm_2x reads its launch from constant bank 0 and its stack pointer from bank 1, as every
sm_20 `cuobjdump -sass` listing shows (`IMAD R0, R0, c[0x0][0x8], R2` for
blockIdx.x * blockDim.x + threadIdx.x, `ISCADD R2.CC, R0, c[0x0][0x20], 0x2` for the first
parameter, `MOV R1, c[0x1][0x100]` at entry); ../shared/reference/FERMI.md, "cuobjdump text":

    c[0x0][0x08..0x10]  ntid.x, .y, .z      (blockDim; 32-bit each)
    c[0x0][0x14..0x1c]  nctaid.x, .y, .z    (gridDim)
    c[0x0][0x20..]      the parameters in order, naturally aligned; a buffer is its 64-bit address
    c[0x1][0x100]       the initial stack pointer: the top of each thread's local memory window

c[0x0][0x0..0x7] are left zero (the runtime's use of them is not documented). Buffers are in one
64-bit global address space from 0x100, each 256-byte aligned (as cudaMalloc aligns), so every
address is 8-byte aligned for LD.E.64. The program's own `.const` data may not overlap these.

The assembler is a parameter: `assemble(text, file, directives=...)` returning an object with
`.words` (64-bit instruction words) and `.insns` (golden/fermi/insn.py), which is what
golden/fermi/asm.py provides.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..isa.program import AsmError, ProgramSpec, load

NTID_OFFSET = 0x8  # c[0x0][0x8]: ntid.x, then .y, .z, nctaid.x, .y, .z, 4 bytes each
PARAM_OFFSET = 0x20  # c[0x0][0x20]: the first parameter
PARAM_LIMIT = 0x1000  # sm_2x passes at most 4 KiB of parameters (CUDA C Programming Guide, B.1.4)
POINTER_BYTES = 8  # 64-bit device pointers (the code's LD.E/ST.E take register pairs)
STACK_BANK, STACK_OFFSET = 1, 0x100  # MOV R1, c[0x1][0x100] at every kernel's entry
LOCAL_BYTES = 0x1000  # each thread's local memory window; the stack grows down from its top
BANK_BYTES = 0x10000  # 64 KiB a constant bank
MAX_REGISTERS = 63  # R0..R62: R63 is RZ (sm_2x: 63 registers a thread)
MAX_SHARED = 0xC000  # 48 KiB of shared memory a block (the larger L1/shared split)
MAX_THREADS = 1024  # a block (compute capability 2.x)
MAX_BLOCK = (1024, 1024, 64)
MAX_GRID = (65535, 65535)


class Assembled(Protocol):
    """What the Fermi assembler returns."""

    words: Sequence[int]
    insns: Sequence[Any]


@dataclass
class FermiSpec(ProgramSpec):
    program: Assembled

    def bank0(self) -> bytes:
        """Constant bank 0 up to the end of the parameters: the launch dimensions and the parameters."""
        dims = struct.pack("<6I", *self.block, *self.grid, 1)
        return b"\0" * NTID_OFFSET + dims + self.param_bytes(POINTER_BYTES)


@dataclass
class FermiLaunch:
    """Everything `Machine.launch` takes: code, dimensions, constant banks, global memory, shared size."""

    words: list[int]
    insns: list[Any]
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    const_banks: dict[int, bytearray]
    global_memory: bytearray
    shared: int
    registers: int
    max_steps: int


def _fail(spec: FermiSpec, name: str, message: str) -> None:
    line = spec.where.get(name)
    if line is None:
        raise AsmError(message, spec.path)
    raise AsmError(f".{name}: {message}", line.file, line.number, line.col + 1, line.source)


def check_limits(spec: FermiSpec) -> None:
    """sm_20's launch limits, each named at the directive that passes it."""
    if not 1 <= spec.registers <= MAX_REGISTERS:
        _fail(spec, "registers", f"{spec.registers} registers a thread: sm_20 has 1..{MAX_REGISTERS} (R63 is RZ)")
    if not 0 <= spec.shared <= MAX_SHARED:
        _fail(spec, "shared", f"{spec.shared} bytes: a block has at most {MAX_SHARED} ({MAX_SHARED // 1024} KiB) of shared memory")
    if any(not 1 <= b <= m for b, m in zip(spec.block, MAX_BLOCK, strict=True)) or spec.block[0] * spec.block[1] * spec.block[2] > MAX_THREADS:
        _fail(spec, "block", f"block {spec.block}: at most {MAX_BLOCK} and {MAX_THREADS} threads in all")
    if any(not 1 <= g <= m for g, m in zip(spec.grid, MAX_GRID, strict=True)):
        _fail(spec, "grid", f"grid {spec.grid}: each of x and y is 1..{MAX_GRID[0]}")
    end = len(spec.bank0())
    if end > PARAM_LIMIT:
        _fail(spec, "param", f"the parameters end at c[0x0][{end:#x}], past the {PARAM_LIMIT:#x} bytes sm_20 passes")
    reserved = [(0, 0, end, "the launch dimensions and parameters"), (STACK_BANK, STACK_OFFSET, STACK_OFFSET + 4, "the stack pointer")]
    for (bank, offset, data), line in zip(spec.consts, spec.const_lines, strict=True):
        if offset + len(data) > BANK_BYTES:
            raise AsmError(f".const: c[{bank:#x}][{offset:#x}] + {len(data)} bytes is past the bank's {BANK_BYTES:#x}",
                           line.file, line.number, line.col + 1, line.source)  # fmt: skip
        for rbank, lo, hi, what in reserved:
            if bank == rbank and offset < hi and lo < offset + len(data):
                raise AsmError(f".const: c[{bank:#x}][{offset:#x}..{offset + len(data):#x}] overlaps {what} at "
                               f"c[{rbank:#x}][{lo:#x}..{hi:#x}] (use bank 2 or 3, or another offset)",
                               line.file, line.number, line.col + 1, line.source)  # fmt: skip


def load_program(path: str | Path, assemble: Callable[..., Assembled]) -> FermiSpec:
    """Assemble a Fermi program with `assemble` and read its directives; AsmError names file and line."""
    spec = load(path, assemble, FermiSpec)
    check_limits(spec)
    return spec


def launch(spec: FermiSpec, local_bytes: int = LOCAL_BYTES) -> FermiLaunch:
    """The launch of a loaded program: constant banks 0 and 1 as the CUDA runtime fills them (module
    docstring), then the program's `.const` data; global memory with the buffers' initial contents."""
    banks: dict[int, bytearray] = {}

    def write(bank: int, offset: int, data: bytes) -> None:
        mem = banks.setdefault(bank, bytearray(BANK_BYTES))
        mem[offset : offset + len(data)] = data

    write(0, 0, spec.bank0())
    write(STACK_BANK, STACK_OFFSET, struct.pack("<I", local_bytes))
    for bank, offset, data in spec.consts:
        write(bank, offset, data)
    gmem = bytearray(spec.global_size)
    for buf in spec.buffers.values():
        gmem[buf.addr : buf.addr + buf.nbytes] = buf.init.tobytes()
    return FermiLaunch(list(spec.program.words), list(spec.program.insns), (*spec.grid, 1), spec.block, banks, gmem,
                       spec.shared, spec.registers, spec.max_steps)  # fmt: skip


__all__ = ["FermiLaunch", "FermiSpec", "launch", "load_program"]
