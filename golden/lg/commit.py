"""The LG commit record: what one retired instruction did, as the RTL's commit port carries it.

One LgCommit per instruction. A field that the instruction did not write is None. Values are as the
profile keeps them: under `seed` every register value and vector element is 16 bits, the matrix
and vertex coordinates int32 Q15.16; under float arithmetic (`ta2013`) a float register's value,
vector elements, matrix and vertex coordinates are Python floats. Frame-buffer writes and the
flush/draw events ride along in `fb` and `fb_event` for the testbench, but they are not on the
commit port: they are checked where they leave the core, at the frame-buffer port.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

# each field's meaning is field metadata, so a generated schema page and the scoreboard's messages
# read it from here rather than from a copy that could drift


@dataclass(slots=True)
class LgVertex:
    """A vertex written by setvertex: transformed position, depth and colour."""

    index: int = field(metadata={"doc": "slot 0-2 of the vertex buffer (2 bits)"})
    x: int | float = field(metadata={"doc": "transformed x: int32 Q15.16 (float under float arithmetic)"})
    y: int | float = field(metadata={"doc": "transformed y: int32 Q15.16 (float under float arithmetic)"})
    z: int | float = field(metadata={"doc": "z as given: Q8.7 bits, 16 (float under float arithmetic)"})
    colour: int = field(metadata={"doc": "the current colour when it was set, 0xRRGGBB (24 bits)"})


@dataclass(slots=True)
class LgMemWrite:
    """A store: address, size and the data written."""

    addr: int = field(metadata={"doc": "byte address, (R[base] + offset) & 0xFFFF"})
    size: int = field(metadata={"doc": "1 (stb) or 2 (stw, little-endian)"})
    data: int = field(metadata={"doc": "the byte or 16-bit word written"})


@dataclass(slots=True)
class LgFbWrites:
    """The frame-buffer writes of one endprimitive: every pixel that passed the depth test, in scan
    order (rows, then columns). Shading is flat, so all of them carry one colour."""

    addr: np.ndarray = field(metadata={"doc": "int32 addresses row * 640 + col, in scan order"})
    data: int = field(metadata={"doc": "the 12-bit board word {R4, G4, B4} written at each address"})
    rgb: int = field(metadata={"doc": "the RGB888 pixel, 0xRRGGBB"})

    def __len__(self) -> int:
        return len(self.addr)


@dataclass(slots=True)
class LgCommit:
    """One retired LG instruction."""

    seq: int = field(metadata={"doc": "sequence number from 0"})
    pc: int = field(metadata={"doc": "the instruction's PC (16 bits, in the profile's PC unit)"})
    insn: int = field(metadata={"doc": "the 32-bit instruction word"})
    next_pc: int = field(metadata={"doc": "the PC the program continues at (16 bits)"})
    rd: int | None = field(default=None, metadata={"doc": "scalar register written (4 bits), or None"})
    rd_val: int | float | None = field(default=None, metadata={"doc": "its new value: 16 bits (int_bits 32: 32), a float under float arithmetic"})
    cc: int | None = field(default=None, metadata={"doc": "CC written (3 bits, the profile's bit order), or None"})
    vd: int | None = field(default=None, metadata={"doc": "vector register written (6 bits), or None"})
    vd_val: tuple[int | float, ...] | None = field(default=None, metadata={"doc": "its four elements after the write, element 0 first"})
    mem: LgMemWrite | None = field(default=None, metadata={"doc": "the store, or None"})
    mat: tuple[int | float, ...] | None = field(default=None, metadata={"doc": "the current matrix after the write, m00..m33 row-major (16 x int32)"})
    depth: int | None = field(default=None, metadata={"doc": "matrix-stack depth after pushmatrix, popmatrix or loadidentity (5 bits)"})
    colour: int | None = field(default=None, metadata={"doc": "current colour written, 0xRRGGBB (24 bits): setcolor, loadidentity, popmatrix"})
    vertex: LgVertex | None = field(default=None, metadata={"doc": "vertex stored by setvertex (None when the buffer already held three)"})
    prim_begin: int | None = field(default=None, metadata={"doc": "beginprimitive: the primitive type (4 bits)"})
    prim_end: int | None = field(default=None, metadata={"doc": "endprimitive: fragments the triangle covered inside the bounding box (19 bits; 0 if fewer than 3 vertices)"})
    done: bool = field(default=False, metadata={"doc": "the program ended with this instruction (halt, or the next PC is outside the program)"})
    fb: LgFbWrites | None = field(default=None, metadata={"doc": "not on the commit port: the frame-buffer writes of endprimitive"})
    fb_event: str | None = field(default=None, metadata={"doc": 'not on the commit port: "flush" or "draw"'})
    text: str = field(default="", metadata={"doc": "the instruction's mnemonic, for messages"})

    def port_fields(self) -> dict[str, Any]:
        """The fields the commit port carries (everything but fb, fb_event and text)."""
        return {k: getattr(self, k) for k in COMMIT_PORT_FIELDS}


COMMIT_PORT_FIELDS: tuple[str, ...] = tuple(
    n for n in LgCommit.__dataclass_fields__ if n not in ("fb", "fb_event", "text")
)
