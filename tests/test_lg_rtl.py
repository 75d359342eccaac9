"""rtl/lg: the LG core runs small programs on Icarus and Verilator; its commit records and
frame-buffer writes are checked against values worked out here.

Expected values come from the `seed` profile's equations (docs/design/lg.md), computed in this file with plain
integers (the matrices) and a tiny numpy rasteriser (the triangles); nothing of golden/lg is read
beyond table.encode (the words) and trig.COS/SIN (the rotation table docs/design/lg.md names).
Each program runs once per simulator (a module-scoped cache); the tests read its trace.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from golden.lg import trig
from golden.lg.table import encode as E
from tb.lg.harness import Trace, run_program
from tb.runner import SIMULATORS

N, Z, P = 1, 2, 4  # CC as the commit port carries it (seed order: N bit 0, Z bit 1, P bit 2)
WRITE_ENABLES = ("rd_we", "cc_we", "vd_we", "mem_we", "mat_we", "col_we", "vtx_we", "prim_begin", "prim_end", "done")


def q(x: float) -> int:
    """A Q8.7 immediate: trunc(x * 128) & 0xFFFF."""
    return int(x * 128) & 0xFFFF


def s16(v: int) -> int:
    return v - 0x10000 if v & 0x8000 else v


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def vec(*elems: int) -> int:
    """Four 16-bit elements as the commit port's cm_vd_val: element e in bits 16e+15:16e."""
    return sum((e & 0xFFFF) << (16 * i) for i, e in enumerate(elems))


def vmov4(vd: int, *elems: int) -> list[int]:
    """Words that load `elems` into vd (vmovi 0, then vcompmovi per non-zero element)."""
    return [E("vmovi", vd=vd, imm=0)] + [E("vcompmovi", vd=vd, idx=i, imm=e) for i, e in enumerate(elems) if e]


# ---------------------------------------------------------------- programs

ALU = [
    E("movi.d", rm=1, imm=5),  # 0
    E("addi.d", rd=2, rs1=1, imm=3),  # 1: EX->EX forwarding
    E("add.d", rd=3, rs1=2, rs2=1),  # 2: EX->EX and MEM->EX
    E("and.d", rd=4, rs1=3, rs2=2),  # 3
    E("andi.d", rd=5, rs1=4, imm=0xFFF0),  # 4
    E("movi.f", rm=8, imm=q(-1.5)),  # 5
    E("addi.f", rd=9, rs1=8, imm=q(1.0)),  # 6
    E("add.f", rd=10, rs1=9, rs2=9),  # 7
    E("mov", rm=6, rs2=15),  # 8: R15 reads as the next PC
    E("cmp", rm=1, rs2=2),  # 9
    E("cmpi", rm=1, imm=5),  # 10
    E("movi.d", rm=1, imm=0x7FFF),  # 11
    E("addi.d", rd=1, rs1=1, imm=1),  # 12: wraps
    E("cmpi", rm=1, imm=1),  # 13: -32768 < 1 (a wrapped a - b would say P)
    E("cmp", rm=2, rs2=1),  # 14: 8 > -32768 (a wrapped a - b would say N)
    E("add.d", rd=11, rs1=1, rs2=1),  # 15: r1 of three instructions back: the write-first register file
    E("halt"),  # 16
]
ALU_EXPECT = [
    (0, {"rd": 1, "rd_val": 5, "cc": P}),
    (4, {"rd": 2, "rd_val": 8, "cc": P}),
    (8, {"rd": 3, "rd_val": 13, "cc": P}),
    (12, {"rd": 4, "rd_val": 8, "cc": P}),
    (16, {"rd": 5, "rd_val": 0, "cc": Z}),
    (20, {"rd": 8, "rd_val": 0xFF40, "cc": N}),
    (24, {"rd": 9, "rd_val": 0xFFC0, "cc": N}),
    (28, {"rd": 10, "rd_val": 0xFF80, "cc": N}),
    (32, {"rd": 6, "rd_val": 36, "cc": P}),
    (36, {"cc": N}),
    (40, {"cc": Z}),
    (44, {"rd": 1, "rd_val": 0x7FFF, "cc": P}),
    (48, {"rd": 1, "rd_val": 0x8000, "cc": N}),
    (52, {"cc": N}),
    (56, {"cc": P}),
    (60, {"rd": 11, "rd_val": 0, "cc": Z}),
    (64, {"done": 1, "next_pc": 68}),
]

MEM = [
    E("movi.d", rm=1, imm=0x100),  # 0
    E("movi.d", rm=2, imm=0x1234),  # 1
    E("stw", rd=2, base=1, imm=2),  # 2
    E("ldw", rd=3, base=1, imm=2),  # 3
    E("addi.d", rd=4, rs1=3, imm=1),  # 4: load-use
    E("ldb", rd=5, base=1, imm=4),  # 5: a zero byte at a non-zero address
    E("brp", off=1),  # 6: load-use on CC (Z from the value, not P from the address: not taken)
    E("stb", rd=4, base=1, imm=0),  # 7
    E("ldb", rd=6, base=1, imm=0),  # 8
    E("ldw", rd=0, base=1, imm=0xFF10),  # 9: address wraps to 0x0010 (the data image)
    E("addi.d", rd=0, rs1=0, imm=0x80),  # 10: load-use
    E("brz", off=1),  # 11: right after a CC-setting add: taken
    E("movi.d", rm=1, imm=0xBAD),  # 12: skipped
    E("halt"),  # 13
]
MEM_DATA = bytes(0x10) + bytes([0x80, 0xFF])
MEM_EXPECT = [
    (0, {"rd": 1, "rd_val": 0x100, "cc": P}),
    (4, {"rd": 2, "rd_val": 0x1234, "cc": P}),
    (8, {"mem_addr": 0x102, "mem_size": 2, "mem_data": 0x1234}),
    (12, {"rd": 3, "rd_val": 0x1234, "cc": P}),
    (16, {"rd": 4, "rd_val": 0x1235, "cc": P}),
    (20, {"rd": 5, "rd_val": 0, "cc": Z}),
    (24, {"next_pc": 28}),
    (28, {"mem_addr": 0x100, "mem_size": 1, "mem_data": 0x35}),
    (32, {"rd": 6, "rd_val": 0x35, "cc": P}),
    (36, {"rd": 0, "rd_val": 0xFF80, "cc": N}),
    (40, {"rd": 0, "rd_val": 0, "cc": Z}),
    (44, {"next_pc": 52}),
    (52, {"done": 1}),
]

CONTROL = [
    E("movi.d", rm=1, imm=3),  # 0  pc 0
    E("addi.d", rd=1, rs1=1, imm=0xFFFF),  # 1  pc 4: r1 -= 1
    E("brp", off=-2),  # 2  pc 8: back to pc 4 while r1 > 0
    E("jsr", off=3),  # 3  pc 12: to pc 28, R7 = 16
    E("movi.d", rm=4, imm=40),  # 4  pc 16
    E("jsrr", base=4),  # 5  pc 20: to pc 40 (R4 forwarded EX->EX), R7 = 24
    E("halt"),  # 6  pc 24
    E("movi.d", rm=2, imm=0x55),  # 7  pc 28
    E("ret"),  # 8  pc 32: R7 forwarded MEM->EX
    E("movi.d", rm=3, imm=0x66),  # 9  pc 36: never runs
    E("movi.d", rm=5, imm=0x77),  # 10 pc 40
    E("jsrr", base=7),  # 11 pc 44: reads R7 (24, forwarded MEM->EX) before writing it
]
CONTROL_EXPECT = [
    (0, {"rd": 1, "rd_val": 3, "cc": P}),
    (4, {"rd": 1, "rd_val": 2, "cc": P}),
    (8, {"next_pc": 4}),
    (4, {"rd": 1, "rd_val": 1, "cc": P}),
    (8, {"next_pc": 4}),
    (4, {"rd": 1, "rd_val": 0, "cc": Z}),
    (8, {"next_pc": 12}),
    (12, {"rd": 7, "rd_val": 16, "next_pc": 28}),
    (28, {"rd": 2, "rd_val": 0x55, "cc": P}),
    (32, {"next_pc": 16}),
    (16, {"rd": 4, "rd_val": 40, "cc": P}),
    (20, {"rd": 7, "rd_val": 24, "next_pc": 40}),
    (40, {"rd": 5, "rd_val": 0x77, "cc": P}),
    (44, {"rd": 7, "rd_val": 48, "next_pc": 24}),
    (24, {"done": 1}),
]

VECTOR = [
    E("vmovi", vd=1, imm=0x0080),  # 0
    E("movi.d", rm=1, imm=0x1234),  # 1
    E("vcompmovi", vd=1, idx=2, imm=0xFF00),  # 2: v1 forwarded MEM->EX (the lanes it keeps)
    E("vcompmov", vd=2, idx=3, rs2=1),  # 3: a scalar forwarded MEM->EX into the vector unit
    E("vadd", vd=3, vs1=1, vs2=2),  # 4: MEM->EX (v1) and EX->EX (v2)
    E("vadd", vd=3, vs1=3, vs2=3),  # 5
    E("vmov", vd=4, vs1=3),  # 6
    E("vmovi", vd=5, imm=0x7FFF),  # 7
    E("vadd", vd=5, vs1=5, vs2=1),  # 8: lanes wrap; the last instruction: runs off the end
]
VECTOR_EXPECT = [
    (0, {"vd": 1, "vd_val": vec(0x80, 0x80, 0x80, 0x80)}),
    (4, {"rd": 1, "rd_val": 0x1234, "cc": P}),
    (8, {"vd": 1, "vd_val": vec(0x80, 0x80, 0xFF00, 0x80)}),
    (12, {"vd": 2, "vd_val": vec(0, 0, 0, 0x1234)}),
    (16, {"vd": 3, "vd_val": vec(0x80, 0x80, 0xFF00, 0x12B4)}),
    (20, {"vd": 3, "vd_val": vec(0x100, 0x100, 0xFE00, 0x2568)}),  # EX->EX
    (24, {"vd": 4, "vd_val": vec(0x100, 0x100, 0xFE00, 0x2568)}),
    (28, {"vd": 5, "vd_val": vec(0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF)}),
    (32, {"vd": 5, "vd_val": vec(0x807F, 0x807F, 0x7EFF, 0x807F), "done": 1, "next_pc": 36}),
]

# every branch condition under each of N, Z and P: `brX +1` over a `vmovi` (which leaves CC alone)
CONDITIONS = ("brn", "brz", "brp", "brnz", "brnp", "brzp", "brnzp")
FLAG_OF = {0xFFFF: ("n", N), 0: ("z", Z), 1: ("p", P)}
BRANCHES = [
    w for value in FLAG_OF for w in [E("movi.d", rm=1, imm=value), *(x for br in CONDITIONS for x in (E(br, off=1), E("vmovi", vd=0, imm=1)))]
]
BRANCHES.append(E("halt"))


def branches_expect() -> list[tuple[int, dict[str, int]]]:
    out: list[tuple[int, dict[str, int]]] = []
    pc = 0
    for value, (letter, flag) in FLAG_OF.items():
        out.append((pc, {"rd": 1, "rd_val": value, "cc": flag}))
        pc += 4
        for br in CONDITIONS:
            taken = letter in br.removeprefix("br")
            out.append((pc, {"next_pc": pc + (8 if taken else 4)}))
            if not taken:
                out.append((pc + 4, {"vd": 0, "vd_val": vec(1, 1, 1, 1)}))
            pc += 8
    return [*out, (pc, {"done": 1})]


V1 = (q(30.0), q(1.5), q(-2.0), 0)  # rotate 30 degrees; translate/scale by (1.5, -2.0)
V2 = (q(-45.5), 0, 0, q(-1.0))  # floor(-45.5) = -46 degrees, negated by vr[3] < 0: 46
V3 = (q(200.5), q(-1.0), q(17.0), 0)  # colour (200, 255, 17)
MATRIX = [
    *vmov4(1, *V1), *vmov4(2, *V2), *vmov4(3, *V3),  # 0-10
    E("setcolor", vr=3),  # 11
    E("pushmatrix"),  # 12
    E("translate", vr=1),  # 13
    E("scale", vr=1),  # 14
    E("rotate", vr=1),  # 15
    E("pushmatrix"),  # 16
    E("rotate", vr=2),  # 17
    E("loadidentity"),  # 18
    E("popmatrix"),  # 19
    E("popmatrix"),  # 20
    E("popmatrix"),  # 21: empty stack, ignored
    E("movi.d", rm=1, imm=17),  # 22
    E("pushmatrix"),  # 23: seventeen pushes, the last ignored
    E("addi.d", rd=1, rs1=1, imm=0xFFFF),  # 24
    E("brp", off=-3),  # 25
    E("halt"),  # 26
]  # fmt: skip

# ---------------------------------------------------------------- reference arithmetic (docs/design/lg.md, seed)

ONE = 1 << 16
Matrix = list[list[int]]


def identity() -> Matrix:
    return [[ONE if i == j else 0 for j in range(4)] for i in range(4)]


def mul(m: Matrix, t: Matrix) -> Matrix:
    """M x T: (sum of the four exact products) >> 16, wrapped to int32."""
    return [[s32(sum(m[i][k] * t[k][j] for k in range(4)) >> 16) for j in range(4)] for i in range(4)]


def transform(kind: str, vr: tuple[int, ...]) -> Matrix:
    t = identity()
    e = [s16(v) for v in vr]
    if kind == "translate":
        t[0][3], t[1][3] = e[1] << 9, e[2] << 9
    elif kind == "scale":
        t[0][0], t[1][1] = e[1] << 9, e[2] << 9
    else:
        a = e[0] >> 7
        a = (-a if e[3] < 0 else a) % 360
        c, s = trig.COS[a], trig.SIN[a]
        t[0][0], t[0][1], t[1][0], t[1][1] = c, -s, s, c
    return t


def mat_of(record: dict[str, int]) -> Matrix:
    flat = [s32(record["mat"] >> (32 * k)) for k in range(16)]
    return [flat[4 * i : 4 * i + 4] for i in range(4)]


def colour(vr: tuple[int, ...]) -> int:
    r, g, b = ((s16(v) >> 7) & 0xFF for v in vr[:3])
    return r << 16 | g << 8 | b


def vertex(m: Matrix, vr: tuple[int, ...]) -> tuple[int, int]:
    x, y = s16(vr[1]) << 9, s16(vr[2]) << 9
    return s32(((m[0][0] * x + m[0][1] * y) >> 16) + m[0][3]), s32(((m[1][0] * x + m[1][1] * y) >> 16) + m[1][3])


class Raster:
    """The `seed` rasteriser (docs/design/lg.md) over numpy arrays: a depth buffer and the writes it makes."""

    def __init__(self) -> None:
        self.depth = np.full((400, 640), 0x180, dtype=np.int64)

    def clear(self) -> None:
        self.depth[:] = 0x180

    def triangle(self, verts: list[tuple[int, int]], z: int, rgb: int) -> tuple[list[tuple], int]:
        """Screen-space rasterisation of the transformed vertices; returns the writes (scan order) and covered count."""
        sx = [((x + (5 << 16)) * 64) >> 12 for x, _ in verts]
        sy = [((y + (5 << 16)) * 40) >> 12 for _, y in verts]
        x0, x1 = max(0, min(sx) >> 4), min(639, max(sx) >> 4)
        y0, y1 = max(0, min(sy) >> 4), min(399, max(sy) >> 4)
        if x0 > x1 or y0 > y1:
            return [], 0
        py, px = np.mgrid[y0 : y1 + 1, x0 : x1 + 1].astype(np.int64)
        cx, cy = 16 * px + 8, 16 * py + 8
        covered = np.ones(px.shape, dtype=bool)
        for a, b in ((0, 1), (1, 2), (2, 0)):
            ea, eb = sy[a] - sy[b], sx[b] - sx[a]
            e = ea * (cx - sx[a]) + eb * (cy - sy[a])
            covered &= (e > 0) | ((e == 0) & ((ea > 0) | ((ea == 0) & (eb > 0))))
        region = self.depth[y0 : y1 + 1, x0 : x1 + 1]
        written = covered & (s16(z) < region)
        region[written] = s16(z)
        data = (rgb >> 20 & 0xF) << 8 | (rgb >> 12 & 0xF) << 4 | (rgb >> 4 & 0xF)
        rows, cols = np.nonzero(written)
        return [("write", int((r + y0) * 640 + c + x0), data) for r, c in zip(rows, cols, strict=True)], int(covered.sum())


# Raw Q8.7 coordinates chosen so that every edge passes through pixel centres: sx = 8x + 5120 and
# sy = 5y + 3200 (1/16 pixel) are centres (16n + 8) for odd x and y = 8 (mod 16). The horizontal
# and vertical edges' centres are drawn, the diagonal's are not: the tie rule decides them.
VA = (0, 1, 8, q(1.0))
VB = (0, 33, 8, 0)
VC = (0, 1, 40, 0)
VT = (0, q(0.125), q(0.125), 0)
VCOL = (q(255.0), q(16.0), q(32.0), 0)


def prim(z: int | None = None) -> list[int]:
    """beginprimitive, three vertices (v10, v11, v12), endprimitive; z: v0's new z first."""
    head = [E("vcompmovi", vd=10, idx=3, imm=z)] if z is not None else []
    return [*head, E("beginprimitive", type=4), *(E("setvertex", vr=r) for r in (10, 11, 12)), E("endprimitive")]


TRIANGLE = [
    *vmov4(10, *VA), *vmov4(11, *VB), *vmov4(12, *VC), *vmov4(13, *VT), *vmov4(14, *VCOL),
    E("loadidentity"),
    E("setcolor", vr=14),
    E("beginprimitive", type=4),
    E("setvertex", vr=10), E("setvertex", vr=11), E("setvertex", vr=12),
    E("setvertex", vr=10),  # a fourth vertex: ignored
    E("endprimitive"),  # z = 1.0
    E("translate", vr=13),
    *prim(q(2.0)),  # behind the first where they overlap
    E("draw"),
    E("flush"),
    *prim(q(3.0)),  # z = 3.0 is not less than the cleared depth: nothing written
    *prim(q(2.0)),  # on the cleared depth buffer: all of it
    E("beginprimitive", type=1), E("endprimitive"),  # no vertices: nothing
    E("halt"),
]  # fmt: skip

PROGRAMS: dict[str, tuple[list[int], bytes]] = {
    "alu": (ALU, b""),
    "mem": (MEM, MEM_DATA),
    "control": (CONTROL, b""),
    "vector": (VECTOR, b""),
    "branches": (BRANCHES, b""),
    "matrix": (MATRIX, b""),
    "triangle": (TRIANGLE, b""),
}

_traces: dict[tuple[str, str], Trace] = {}


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Trace]:
    def get(name: str, sim: str) -> Trace:
        if (name, sim) not in _traces:
            words, data = PROGRAMS[name]
            _traces[name, sim] = run_program(sim, words, tmp_path_factory.mktemp(f"lg_{name}_{sim}"), data)
        return _traces[name, sim]

    return get


def check(tr: Trace, expect: list[tuple[int, dict[str, int]]]) -> None:
    """The records in order: each one's PC, the fields listed, and no write the list does not name."""
    assert tr.finished, f"no record with done in {tr.cycles} cycles"
    assert [r["pc"] for r in tr.commits] == [pc for pc, _ in expect]
    for n, (record, (pc, fields)) in enumerate(zip(tr.commits, expect, strict=True)):
        implied = {"rd": "rd_we", "rd_val": "rd_we", "cc": "cc_we", "vd": "vd_we", "vd_val": "vd_we", "mem_addr": "mem_we"}
        enabled = {implied.get(f, f) for f in fields} & set(WRITE_ENABLES) | ({"done"} if fields.get("done") else set())
        for we in WRITE_ENABLES:
            assert record[we] == (we in enabled), f"record {n} (pc {pc}): {we} = {record[we]}"
        for f, v in fields.items():
            assert record[f] == v, f"record {n} (pc {pc}): {f} = {record[f]:#x}, expected {v:#x}"
        if "next_pc" not in fields and not record["done"]:
            assert record["next_pc"] == tr.commits[n + 1]["pc"]


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize(
    ("name", "expect"),
    [("alu", ALU_EXPECT), ("mem", MEM_EXPECT), ("control", CONTROL_EXPECT), ("vector", VECTOR_EXPECT), ("branches", branches_expect())],
)
def test_scalar_vector_and_control(trace: Callable[[str, str], Trace], sim: str, name: str, expect: list) -> None:
    tr = trace(name, sim)
    check(tr, expect)
    for r in tr.commits:
        assert r["insn"] == PROGRAMS[name][0][r["pc"] // 4]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_matrix_stack_and_transforms(trace: Callable[[str, str], Trace], sim: str) -> None:
    tr = trace("matrix", sim)
    assert tr.finished
    recs = tr.commits[11:]
    c3 = colour(V3)
    assert c3 == (200 << 16 | 255 << 8 | 17)
    m1 = mul(identity(), transform("translate", V1))
    m2 = mul(m1, transform("scale", V1))
    m3 = mul(m2, transform("rotate", V1))
    m4 = mul(m3, transform("rotate", V2))
    assert transform("rotate", V2)[0][0] == trig.COS[46]
    expect = [
        ("setcolor", None, c3, 0),
        ("pushmatrix", None, None, 1),
        ("translate", m1, None, 1),
        ("scale", m2, None, 1),
        ("rotate", m3, None, 1),
        ("pushmatrix", None, None, 2),
        ("rotate", m4, None, 2),
        ("loadidentity", identity(), 0, 2),
        ("popmatrix", m3, c3, 1),
        ("popmatrix", identity(), c3, 0),
        ("popmatrix", None, None, 0),
    ]
    for r, (what, m, col, depth) in zip(recs[: len(expect)], expect, strict=True):
        assert r["mat_we"] == (m is not None), what
        if m is not None:
            assert mat_of(r) == m, what
        assert r["col_we"] == (col is not None), what
        if col is not None:
            assert r["col"] == col, what
        assert r["depth"] == depth, what
    pushes = [r["depth"] for r in tr.commits if r["insn"] == E("pushmatrix") and r["pc"] == 23 * 4]
    assert pushes == [*range(1, 17), 16]


@pytest.mark.parametrize("sim", SIMULATORS)
def test_triangles_against_numpy_rasteriser(trace: Callable[[str, str], Trace], sim: str) -> None:
    tr = trace("triangle", sim)
    assert tr.finished
    rgb = colour(VCOL)
    ident = identity()
    moved = mul(ident, transform("translate", VT))
    raster = Raster()
    fb: list[tuple] = []
    frags: list[int] = []
    first = [vertex(ident, v) for v in (VA, VB, VC)]
    second = [vertex(moved, v) for v in (VA, VB, VC)]
    for verts, z, clear_before, events_after in ((first, q(1.0), False, []), (second, q(2.0), False, [("draw",)]),
                                                   (second, q(3.0), True, []), (second, q(2.0), False, [])):  # fmt: skip
        if clear_before:
            raster.clear()
            fb.append(("clear",))
        writes, covered = raster.triangle(verts, z, rgb)
        fb += writes + events_after
        frags.append(covered)
    assert len([e for e in fb if e[0] == "write"]) > 0 and frags[0] > 0
    assert tr.fb == fb
    vtx = [(r["vtx_idx"], s32(r["vtx_x"]), s32(r["vtx_y"]), r["vtx_z"], r["vtx_col"]) for r in tr.commits if r["vtx_we"]]
    assert vtx[:3] == [(i, x, y, z, rgb) for i, ((x, y), z) in enumerate(zip(first, (q(1.0), 0, 0), strict=True))]
    assert vtx[3:6] == [(i, x, y, z, rgb) for i, ((x, y), z) in enumerate(zip(second, (q(2.0), 0, 0), strict=True))]
    assert vtx[6][3] == q(3.0) and vtx[9][3] == q(2.0)
    assert len(vtx) == 12  # the fourth setvertex of the first primitive wrote nothing
    ends = [r["frags"] for r in tr.commits if r["prim_end"]]
    assert ends == [*frags, 0]
    begins = [r["prim_type"] for r in tr.commits if r["prim_begin"]]
    assert begins == [4, 4, 4, 4, 1]


def test_generated_headers_are_current() -> None:
    """rtl/lg/gen/*.vh are what scripts/gen_lg_rtl.py makes from golden/lg now."""
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_lg_rtl.py"), "--check"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_lint_verilator_and_icarus(tmp_path: Path) -> None:
    """verilator --lint-only -Wall and iverilog -g2012 -Wall are silent on the LG core."""
    from tb.runner import verilator_bin

    lint = subprocess.run([f"{verilator_bin()}/verilator", "--lint-only", "-Wall", "-f", "rtl/lg/lg.f", "--top-module", "lg_core"],
                          capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert lint.returncode == 0 and "%Warning" not in lint.stderr and "%Error" not in lint.stderr, lint.stderr
    icarus = subprocess.run(["iverilog", "-g2012", "-Wall", "-o", str(tmp_path / "lg.vvp"), "-c", "rtl/lg/lg.f", "-s", "lg_core"],
                            capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert icarus.returncode == 0 and not icarus.stdout.strip() and not icarus.stderr.strip(), icarus.stderr
