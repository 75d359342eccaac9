"""The LG commit record: what one retired instruction did, as the RTL's commit port carries it.

One LgCommit per instruction. A field that the instruction did not write is None. Values are as the
profile keeps them: under `seed` every register value and vector element is 16 bits, the matrix
and vertex coordinates int32 Q15.16; under float arithmetic (`ta2013`) a float register's value,
vector elements, matrix and vertex coordinates are Python floats. Frame-buffer writes and the
flush/draw events ride along in `fb` and `fb_event` for the testbench, but they are not on the
commit port: they are checked where they leave the core, at the frame-buffer port.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from golden.isa.record import Schema, compared_fields, recfield

# each field's meaning is field metadata (golden.isa.record), so the generated schema page, the
# scoreboard's choice of compared fields and its messages read it from here rather than from a copy


@dataclass(slots=True)
class LgVertex:
    """A vertex written by setvertex: transformed position, depth and colour."""

    index: int = recfield("slot 0-2 of the vertex buffer (2 bits)")
    x: int | float = recfield("transformed x: int32 Q15.16 (float under float arithmetic)")
    y: int | float = recfield("transformed y: int32 Q15.16 (float under float arithmetic)")
    z: int | float = recfield("z as given: Q8.7 bits, 16 (float under float arithmetic)")
    colour: int = recfield("the current colour when it was set, 0xRRGGBB (24 bits)")


@dataclass(slots=True)
class LgMemWrite:
    """A store: address, size and the data written."""

    addr: int = recfield("byte address, (R[base] + offset) & 0xFFFF")
    size: int = recfield("1 (stb) or 2 (stw, little-endian)")
    data: int = recfield("the byte or 16-bit word written")


@dataclass(slots=True)
class LgFbWrites:
    """The frame-buffer writes of one endprimitive: every pixel that passed the depth test, in scan
    order (rows, then columns). Shading is flat, so all of them carry one colour."""

    addr: np.ndarray = recfield("int32 addresses row * 640 + col, in scan order")
    data: int = recfield("the 12-bit board word {R4, G4, B4} written at each address")
    rgb: int = recfield("the RGB888 pixel, 0xRRGGBB")

    def __len__(self) -> int:
        return len(self.addr)


@dataclass(slots=True)
class LgCommit:
    """One retired LG instruction."""

    seq: int = recfield("sequence number from 0")
    pc: int = recfield("the instruction's PC (16 bits, in the profile's PC unit)")
    insn: int = recfield("the 32-bit instruction word")
    next_pc: int = recfield("the PC the program continues at (16 bits)")
    rd: int | None = recfield("scalar register written (4 bits), or None", default=None)
    rd_val: int | float | None = recfield("its new value: 16 bits (int_bits 32: 32), a float under float arithmetic", default=None)
    cc: int | None = recfield("CC written (3 bits, the profile's bit order), or None", default=None)
    vd: int | None = recfield("vector register written (6 bits), or None", default=None)
    vd_val: tuple[int | float, ...] | None = recfield("its four elements after the write, element 0 first", default=None)
    mem: LgMemWrite | None = recfield("the store, or None", default=None)
    mat: tuple[int | float, ...] | None = recfield("the current matrix after the write, m00..m33 row-major (16 x int32)", default=None)
    depth: int | None = recfield("matrix-stack depth after pushmatrix, popmatrix or loadidentity (5 bits)", default=None)
    colour: int | None = recfield("current colour written, 0xRRGGBB (24 bits): setcolor, loadidentity, popmatrix", default=None)
    vertex: LgVertex | None = recfield("vertex stored by setvertex (None when the buffer already held three)", default=None)
    prim_begin: int | None = recfield("beginprimitive: the primitive type (4 bits)", default=None)
    prim_end: int | None = recfield(
        "endprimitive: fragments the triangle covered inside the bounding box (19 bits; 0 if fewer than 3 vertices)", default=None
    )
    done: bool = recfield("the program ended with this instruction (halt, or the next PC is outside the program)", default=False)
    fb: LgFbWrites | None = recfield(
        "not on the commit port: the frame-buffer writes of endprimitive",
        compared=False,
        why="checked at the frame-buffer port, where the writes leave the core",
        default=None,
    )
    fb_event: str | None = recfield('not on the commit port: "flush" or "draw"', compared=False, why="checked at the frame-buffer port", default=None)
    text: str = recfield("the instruction's mnemonic, for messages", compared=False, why="insn is compared; this is its text", default="")

    def port_fields(self) -> dict[str, Any]:
        """The fields the commit port carries (everything but fb, fb_event and text)."""
        return {k: getattr(self, k) for k in COMMIT_PORT_FIELDS}


# what the port carries is what the scoreboard compares: the fields not marked compared=False
COMMIT_PORT_FIELDS: tuple[str, ...] = compared_fields(LgCommit)

SCHEMA = Schema("lg", LgCommit, (LgVertex, LgMemWrite, LgFbWrites), "golden/lg/commit.py")
