"""LG semantics: one routine per family of the encoding table (table.Op.family).

The model looks up the routine by the row's family and calls it with the machine, the decoded
instruction and the commit record it fills. Within a family the seed's opcode map tells the
variants apart: bits 5:3 the operation, bits 2:0 the data format (seed "Opcode Format": 000 integer
register, 001 integer immediate, 100 float register, 101 float immediate, 010 vector, 111 vector
immediate; for ld/st 001 byte, 010 word).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from golden.lg import graphics, raster
from golden.lg.commit import LgCommit, LgMemWrite, LgVertex
from golden.lg.fixed import MASK16, imm_q87, imm_value, q87_value, s16
from golden.lg.state import STACK_DEPTH
from golden.lg.table import Insn

if TYPE_CHECKING:
    from golden.lg.model import Machine

FLOAT_REGS = range(8, 15)  # seed "Registers": R8-R14 are the floating-point registers


def alu(m: Machine, i: Insn, c: LgCommit) -> None:
    """add.d, addi.d, add.f, addi.f, and.d, andi.d (seed ADD/AND slides): rd <- rs1 op src2; SetCC."""
    st, f, fmt = m.st, i.fields, i.op.opcode & 7
    if fmt & 4:  # float
        if not m.fixed:  # the TA adds the float views and sets CC from the float sum
            b = st.f[f["rs2"]] if fmt == 4 else imm_value(f["imm"], m.p.float_imm)
            m.write_f(f["rd"], st.f[f["rs1"]] + b, c)
            return
        b = st.r[f["rs2"]] if fmt == 4 else imm_q87(f["imm"], m.p.float_imm)
        m.write_r(f["rd"], (st.r[f["rs1"]] + b) & MASK16, c, True)
        return
    b = st.r[f["rs2"]] if fmt == 0 else s16(f["imm"]) & m.imask  # imm16 is two's complement (seed)
    a = st.r[f["rs1"]]
    m.write_r(f["rd"], (a & b) if i.op.opcode >> 3 & 7 == 1 else (a + b), c, True)


def move(m: Machine, i: Insn, c: LgCommit) -> None:
    """mov, movi.d, movi.f (seed MOV slides): the register in 19:16 <- source; SetCC."""
    st, f, fmt = m.st, i.fields, i.op.opcode & 7
    d = f["rm"]
    if not m.fixed and (fmt == 5 or (fmt == 0 and d in FLOAT_REGS)):
        # TA OP_MOV: a float destination moves the float view; OP_MOVI_F writes the float view
        m.write_f(d, st.f[f["rs2"]] if fmt == 0 else imm_value(f["imm"], m.p.float_imm), c)
        return
    if fmt == 0:
        v = st.r[f["rs2"]]
    elif fmt == 1:
        v = s16(f["imm"]) & m.imask
    else:
        v = imm_q87(f["imm"], m.p.float_imm)
    m.write_r(d, v, c, True)


def compare(m: Machine, i: Insn, c: LgCommit) -> None:
    """cmp, cmpi (seed CMP slides): CC = N if a < b, Z if equal, P if a > b, as signed integers."""
    st, f = m.st, i.fields
    a = f["rm"]
    if not m.fixed and a in FLOAT_REGS:
        # TA OP_CMP/OP_CMPI on a float register: float compare; cmpi's float immediate is never
        # decoded there (DecodeInstruction OP_CMPI sets only int_value), so it compares with 0.0
        x, y = st.f[a], (st.f[f["rs2"]] if "rs2" in f else 0.0)
    else:
        x, y = s16(st.r[a]), s16(st.r[f["rs2"]] if "rs2" in f else f["imm"])
    m.set_cc(m.cc_n if x < y else m.cc_z if x == y else m.cc_p, c)


def vector(m: Machine, i: Insn, c: LgCommit) -> None:
    """vadd, vmov, vmovi, vcompmov, vcompmovi (seed slides); no CC (seed: vector instructions
    do not set CC)."""
    st, f, oc = m.st, i.fields, i.op.opcode
    d = st.v[f["vd"]]
    fixed = m.fixed
    if oc == 0x02:  # vadd
        a, b = st.v[f["vs1"]], st.v[f["vs2"]]
        d[:] = [(x + y) & MASK16 for x, y in zip(a, b, strict=True)] if fixed else [x + y for x, y in zip(a, b, strict=True)]
    elif oc == 0x12:  # vmov
        d[:] = st.v[f["vs1"]]
    elif oc in (0x17, 0x27):  # vmovi: all four elements; vcompmovi: element idx
        fi = m.p.float_imm
        val = imm_q87(f["imm"], fi) if fixed else imm_value(f["imm"], fi)
        if oc == 0x17:
            d[:] = [val] * 4
        else:
            d[f["idx"]] = val
    else:  # vcompmov
        s = f["rs2"]
        if fixed:
            d[f["idx"]] = st.r[s] & MASK16
        else:
            d[f["idx"]] = st.f[s] if m.p.vcompmov_float_view else q87_value(st.r[s])
    c.vd, c.vd_val = f["vd"], tuple(d)


def _addr(m: Machine, i: Insn) -> int:
    return (m.st.r[i.fields["base"]] + s16(i.fields["imm"])) & MASK16


def load(m: Machine, i: Insn, c: LgCommit) -> None:
    """ldb, ldw (seed LDB/LDW): rd <- mem (a byte or a little-endian word); SetCC where the
    profile says loads set it."""
    mem, a = m.st.mem, _addr(m, i)
    if i.op.opcode & 7 == 1:
        v, keep = mem[a], ~0xFF
    else:
        v, keep = mem[a] | mem[(a + 1) & MASK16] << 8, ~MASK16
    if m.p.ldb_merges:  # TA: memcpy of the loaded bytes over the register's low bytes
        v |= m.st.r[i.fields["rd"]] & keep
    m.write_r(i.fields["rd"], v, c, m.p.loads_set_cc)


def store(m: Machine, i: Insn, c: LgCommit) -> None:
    """stb, stw (seed STB/STW): mem <- the low byte or word of the register in 23:20."""
    mem, a = m.st.mem, _addr(m, i)
    v = m.st.r[i.fields["rd"]]
    if i.op.opcode & 7 == 1:
        mem[a] = v & 0xFF
        c.mem = LgMemWrite(a, 1, v & 0xFF)
    else:
        mem[a], mem[(a + 1) & MASK16] = v & 0xFF, v >> 8 & 0xFF
        c.mem = LgMemWrite(a, 2, v & MASK16)


def vertex(m: Machine, i: Insn, c: LgCommit) -> None:
    """setvertex: a vertex from vr[1..3] through the current matrix, with the current colour; the
    fourth and later of a primitive are dropped (every primitive is a triangle: TA)."""
    st = m.st
    if len(st.verts) >= 3:
        return
    x, y, z = graphics.transform_vertex(st.m, st.v[i.fields["vr"]], m.fixed)
    st.verts.append((x, y, z, st.colour))
    c.vertex = LgVertex(len(st.verts) - 1, x, y, z, st.colour)


def color(m: Machine, i: Insn, c: LgCommit) -> None:
    """setcolor: the current colour from vr[0..2] (r, g, b)."""
    m.st.colour = c.colour = graphics.colour_of(m.st.v[i.fields["vr"]], m.fixed)


def transform(m: Machine, i: Insn, c: LgCommit) -> None:
    """rotate, translate, scale: M <- M x T."""
    st, oc, vr = m.st, i.op.opcode, m.st.v[i.fields["vr"]]
    if oc == 0x52:
        t = graphics.rotate_t(vr, m.p, m.fixed)
    elif oc == 0x5A:
        t = graphics.translate_t(vr, m.fixed)
    else:
        t = graphics.scale_t(vr, m.fixed)
    st.m = graphics.mat_mul(st.m, t, m.fixed)
    c.mat = tuple(st.m)


def matrix(m: Machine, i: Insn, c: LgCommit) -> None:
    """pushmatrix, popmatrix, loadidentity. The stack holds (M, colour) pairs, 16 deep; a push on
    a full or a pop of an empty stack does nothing (TA PushMatrix/PopMatrix); loadidentity also
    makes the colour black (TA LoadIdentity)."""
    st, oc = m.st, i.op.opcode
    if oc == 0x80:
        if len(st.stack) < STACK_DEPTH:
            st.stack.append((list(st.m), st.colour))
    elif oc == 0x88:
        if st.stack:
            st.m, st.colour = st.stack.pop()
            c.mat, c.colour = tuple(st.m), st.colour
    else:
        st.m, st.colour = graphics.identity(m.fixed), 0
        c.mat, c.colour = tuple(st.m), 0
    c.depth = len(st.stack)


def primitive(m: Machine, i: Insn, c: LgCommit) -> None:
    """beginprimitive (empties the vertex buffer, records the type, which the drawing ignores: TA)
    and endprimitive (rasterises three vertices; fewer draw nothing; then the buffer is empty)."""
    st = m.st
    if i.op.opcode == 0x91:
        st.verts, st.prim_type = [], i.fields["type"]
        c.prim_begin = st.prim_type
        return
    frags = 0
    if len(st.verts) == 3:
        frags, c.fb = raster.rasterise(st, st.verts)
    st.verts = []
    c.prim_end = frags


def frame(m: Machine, i: Insn, c: LgCommit) -> None:
    """flush (frame buffer to black, depth to 3.0) and draw (the frame is complete: saved; cleared
    afterwards where the profile says so)."""
    if i.op.opcode == 0xB0:
        m.st.clear_frame()
        c.fb_event = "flush"
        return
    m.save_frame("draw")
    c.fb_event = "draw"
    if m.p.draw_clears:
        m.st.clear_frame()


def halt(m: Machine, i: Insn, c: LgCommit) -> None:
    """halt (course assembler's enum): the program ends, where the profile says halt stops it."""
    if m.p.halt_stops:
        c.done = True


def branch(m: Machine, i: Insn, c: LgCommit) -> None:
    """br[n][z][p]: taken when CC has any flag the opcode names (bits 26:24, N high); the target
    counts from the next instruction (seed BR note)."""
    if m.st.cc & m.br_mask[i.op.opcode & 7]:
        m.next = (m.next + i.fields["off"] * m.unit) & MASK16


def jump(m: Machine, i: Insn, c: LgCommit) -> None:
    """jmp (ret = jmp r7), jsr, jsrr: jsr/jsrr link R7 <- next PC; jsrr reads its base first."""
    st, oc = m.st, i.op.opcode
    nxt = m.next
    if oc == 0xF0:
        target = (nxt + i.fields["off"] * m.unit) & MASK16
    else:
        target = st.r[i.fields["base"]] & MASK16
    if oc != 0xE0:
        m.write_r(7, nxt, c, False)
    m.next = target


ROUTINES: dict[str, Callable[[Machine, Insn, LgCommit], None]] = {
    "alu": alu, "move": move, "compare": compare, "vector": vector, "load": load, "store": store,
    "vertex": vertex, "color": color, "transform": transform, "matrix": matrix,
    "primitive": primitive, "frame": frame, "halt": halt, "branch": branch, "jump": jump,
}
