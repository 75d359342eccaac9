"""The LG golden model, family by family, under `seed` and, where they differ, `ta2013`.

Expected values are worked here by hand from the seed's stated semantics and LG.md, or computed
independently with fractions.Fraction; programs are built with the encoding table
(golden/lg/table.encode). The demo draws three triangles, writes the frame as a PNG under build/
and counts its colours against the independent numpy rasteriser of test_lg_raster.py.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from test_lg_raster import RefBuffers, ref_cover, ref_screen

from golden.errors import FAILURE, UserError
from golden.lg.fixed import imm_q87, imm_value, to_q87
from golden.lg.graphics import mat_mul
from golden.lg.model import LgError, Machine
from golden.lg.png import read_png, write_frames
from golden.lg.profile import PROFILES, SEED, TA2013, LgProfile
from golden.lg.raster import board_word
from golden.lg.table import encode as E

ROOT = Path(__file__).resolve().parents[1]
N, Z, P = 1, 2, 4  # seed CC order (slide "Registers (Cont'd)": bit 0 N, bit 1 Z, bit 2 P)
TN, TZ, TP = 4, 2, 1  # the TA's order (SetConditionCodeInt)


def q(x: float | Fraction | str) -> int:
    """Q8.7 bits by hand: trunc(x * 128) as 16-bit two's complement (LG.md)."""
    return int(Fraction(x) * 128) & 0xFFFF


def run(words: list[int], profile: LgProfile = SEED, data: bytes = b"", max_steps: int = 10_000) -> tuple[Machine, list]:
    m = Machine(profile)
    m.load(words, data)
    return m, m.run(max_steps)


def vset(v: int, xs: list[float | str]) -> list[int]:
    return [E("vcompmovi", vd=v, idx=i, imm=q(x)) for i, x in enumerate(xs)]


# -- numbers --------------------------------------------------------------------------------------


def test_q87_examples_of_lg_md() -> None:
    assert (q(1), q("-1.5"), q(255)) == (0x0080, 0xFF40, 0x7F80)
    for x in (1.0, -1.5, 255.0, 0.0078125, -256.0, 3.0):
        assert to_q87(x) == q(x)
    assert to_q87(1e6) == 0x7FFF and to_q87(-1e6) == 0x8000  # saturated, not wrapped
    assert to_q87(-0.004) == 0  # truncation toward zero, as the course assembler


def test_float_immediate_formats() -> None:
    assert imm_value(0x00C0, "q8_7") == 1.5 and imm_value(0xFF40, "q8_7") == -1.5
    assert imm_value(0x3E00, "half") == 1.5 and imm_value(0xBC00, "half") == -1.0  # IEEE binary16
    assert imm_value(0x0018, "q11_4") == 1.5 and imm_value(0xFFE8, "q11_4") == -1.5  # 4 fraction bits
    assert imm_q87(0x3E00, "half") == 0x00C0 and imm_q87(0x0018, "q11_4") == 0x00C0


def _wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def test_matrix_product_is_exact_floor_then_wrap() -> None:
    rng = random.Random(3)
    for _ in range(200):
        a = [rng.randint(-(2**31), 2**31 - 1) for _ in range(16)]
        b = [rng.choice([rng.randint(-(2**31), 2**31 - 1), rng.randint(-4 << 16, 4 << 16)]) for _ in range(16)]
        got = mat_mul(a, b, True)
        for i in range(4):
            for j in range(4):
                exact = sum(Fraction(a[4 * i + k] * b[4 * k + j]) for k in range(4)) / 65536
                assert got[4 * i + j] == _wrap32(math.floor(exact))


# -- scalar families ------------------------------------------------------------------------------


def test_alu_seed() -> None:
    prog = [
        E("movi.d", rm=0, imm=0x7FFF),
        E("addi.d", rd=1, rs1=0, imm=1),  # 0x8000: wraps negative
        E("add.d", rd=2, rs1=1, rs2=1),  # 0x10000 -> 0
        E("andi.d", rd=3, rs1=0, imm=-256),  # 0x7FFF & 0xFF00
        E("and.d", rd=4, rs1=1, rs2=0),  # 0x8000 & 0x7FFF
        E("movi.f", rm=8, imm=q(1.5)),
        E("addi.f", rd=9, rs1=8, imm=q("-0.25")),
        E("add.f", rd=10, rs1=9, rs2=9),
        E("halt"),
    ]
    _, r = run(prog)
    got = [(c.rd, c.rd_val, c.cc) for c in r[1:8]]
    assert got == [(1, 0x8000, N), (2, 0, Z), (3, 0x7F00, P), (4, 0, Z), (8, 0x00C0, P), (9, 0x00A0, P), (10, 0x0140, P)]
    assert r[-1].done and r[-1].text == "halt"


def test_alu_ta2013_32_bit_integers_and_floats() -> None:
    prog = [
        E("movi.d", rm=0, imm=0x7FFF),
        E("addi.d", rd=1, rs1=0, imm=1),
        E("add.d", rd=2, rs1=1, rs2=1),
        E("movi.f", rm=8, imm=q(1.5)),
        E("addi.f", rd=9, rs1=8, imm=q("-0.25")),
        E("addi.f", rd=10, rs1=9, imm=q(-2)),
    ]
    _, r = run(prog, TA2013)
    # 32-bit registers; CC from the int16 cast of the result, in the TA's order
    assert [(c.rd, c.rd_val, c.cc) for c in r[1:3]] == [(1, 0x8000, TN), (2, 0x10000, TZ)]
    assert [(c.rd, c.rd_val, c.cc) for c in r[3:6]] == [(8, 1.5, TP), (9, 1.25, TP), (10, -0.75, TN)]


def test_move_seed() -> None:
    prog = [E("movi.d", rm=0, imm=0x1234), E("mov", rm=1, rs2=0), E("movi.d", rm=2, imm=-5), E("movi.f", rm=9, imm=q("-1.5")),
            E("movi.d", rm=3, imm=0)]
    _, r = run(prog)
    assert [(c.rd, c.rd_val, c.cc) for c in r] == [(0, 0x1234, P), (1, 0x1234, P), (2, 0xFFFB, N), (9, 0xFF40, N), (3, 0, Z)]


@pytest.mark.parametrize("prof,n,z,p", [(SEED, N, Z, P), (TA2013, TN, TZ, TP)])
def test_compare_signed_without_wrap(prof: LgProfile, n: int, z: int, p: int) -> None:
    prog = [
        E("movi.d", rm=0, imm=-1), E("movi.d", rm=1, imm=1),
        E("cmp", rm=0, rs2=1), E("cmp", rm=1, rs2=0), E("cmpi", rm=0, imm=-1),
        E("movi.d", rm=2, imm=0x8000), E("cmp", rm=2, rs2=1),  # -32768 < 1 although a - b wraps to +32767
    ]
    _, r = run(prog, prof)
    assert [(c.cc, c.rd) for c in (r[2], r[3], r[4], r[6])] == [(n, None), (p, None), (z, None), (n, None)]


def test_ta2013_float_compare_and_cmpi_against_zero() -> None:
    # TA OP_CMP on a float register compares floats; OP_CMPI's float immediate is never decoded, so
    # a float register is compared with 0.0 whatever the immediate says
    prog = [E("movi.f", rm=8, imm=q(0.5)), E("movi.f", rm=9, imm=q(2)), E("cmp", rm=8, rs2=9), E("cmpi", rm=8, imm=q(1))]
    _, r = run(prog, TA2013)
    assert (r[2].cc, r[3].cc) == (TN, TP)


# -- vector family --------------------------------------------------------------------------------


def test_vector_seed() -> None:
    prog = [
        E("vmovi", vd=1, imm=q(1.5)),
        E("vcompmovi", vd=1, idx=2, imm=q("-0.5")),
        E("vadd", vd=2, vs1=1, vs2=1),
        E("vmov", vd=3, vs1=2),
        E("movi.d", rm=0, imm=0x1234),
        E("vcompmov", vd=3, idx=0, rs2=0),
        E("vmovi", vd=4, imm=q(255)),
        E("vadd", vd=5, vs1=4, vs2=4),  # 0x7F80 + 0x7F80 wraps to 0xFF00
    ]
    _, r = run(prog)
    got = [(c.vd, c.vd_val, c.cc) for c in r if c.vd is not None]
    assert got == [
        (1, (0xC0,) * 4, None),
        (1, (0xC0, 0xC0, 0xFFC0, 0xC0), None),
        (2, (0x180, 0x180, 0xFF80, 0x180), None),
        (3, (0x180, 0x180, 0xFF80, 0x180), None),
        (3, (0x1234, 0x180, 0xFF80, 0x180), None),
        (4, (0x7F80,) * 4, None),
        (5, (0xFF00,) * 4, None),
    ]


def test_vector_ta2013_vcompmov_float_view() -> None:
    prog = [
        E("movi.d", rm=0, imm=0x1234),
        E("vcompmov", vd=1, idx=0, rs2=0),  # r0's float view: nothing wrote it yet
        E("movi.f", rm=0, imm=q(2)),  # TA OP_MOVI_F writes the float view of any register
        E("vcompmov", vd=1, idx=1, rs2=0),
        E("vmovi", vd=2, imm=q("0.75")),
        E("vadd", vd=3, vs1=2, vs2=1),
    ]
    _, r = run(prog, TA2013)
    assert r[1].vd_val == (0.0, 0.0, 0.0, 0.0) and r[3].vd_val == (0.0, 2.0, 0.0, 0.0)
    assert r[5].vd_val == (0.75, 2.75, 0.75, 0.75)
    # the same bits under seed: the register's 16 bits
    _, r = run(prog[:2])
    assert r[1].vd_val == (0x1234, 0, 0, 0)


# -- memory ---------------------------------------------------------------------------------------


def test_load_store_seed() -> None:
    prog = [
        E("movi.d", rm=1, imm=0x100),
        E("movi.d", rm=0, imm=-2),
        E("stw", rd=0, base=1, imm=2),
        E("stb", rd=0, base=1, imm=0),
        E("ldw", rd=2, base=1, imm=2),
        E("ldb", rd=3, base=1, imm=3),  # 0xFF zero-extended: positive
        E("movi.d", rm=4, imm=-1),
        E("ldb", rd=5, base=4, imm=1),  # 0xFFFF + 1 wraps to address 0
        E("ldw", rd=6, base=4, imm=0),  # bytes 0xFFFF and 0x0000
        E("ldb", rd=5, base=1, imm=-0x100 + 1),  # address 1: zero
    ]
    m, r = run(prog, data=b"\x7f")
    assert (r[2].mem.addr, r[2].mem.size, r[2].mem.data) == (0x102, 2, 0xFFFE)
    assert (r[3].mem.addr, r[3].mem.size, r[3].mem.data) == (0x100, 1, 0xFE)
    assert bytes(m.st.mem[0x100:0x104]) == b"\xfe\x00\xfe\xff"
    assert [(c.rd, c.rd_val, c.cc) for c in (r[4], r[5], r[7], r[8], r[9])] == [
        (2, 0xFFFE, N), (3, 0xFF, P), (5, 0x7F, P), (6, 0x7F00, P), (5, 0, Z)]


def test_load_ta2013_no_cc_and_byte_merge() -> None:
    prog = [E("movi.d", rm=1, imm=0x100), E("movi.d", rm=0, imm=0x1280), E("stw", rd=0, base=1, imm=0),
            E("movi.d", rm=3, imm=0x5600), E("ldb", rd=3, base=1, imm=0), E("ldw", rd=4, base=1, imm=0)]
    _, r = run(prog, TA2013)
    assert (r[4].rd_val, r[4].cc) == (0x5680, None)  # TA: memcpy of one byte over r3's low byte
    assert (r[5].rd_val, r[5].cc) == (0x1280, None)


# -- control --------------------------------------------------------------------------------------


@pytest.mark.parametrize("prof,unit", [(SEED, 4), (TA2013, 1)])
def test_branch_and_pc_unit(prof: LgProfile, unit: int) -> None:
    prog = [
        E("brnzp", off=5),  # CC at reset has no flag set: not taken
        E("movi.d", rm=0, imm=0),  # Z
        E("brz", off=1),  # taken: next + 1 instruction
        E("movi.d", rm=1, imm=1),  # skipped
        E("brnp", off=-3),  # not taken
        E("add.d", rd=2, rs1=15, rs2=0),  # R15 reads the next instruction's PC
        E("halt"),
    ]
    m, r = run(prog, prof)
    assert [c.pc for c in r] == [i * unit for i in (0, 1, 2, 4, 5, 6)]
    assert r[2].next_pc == 4 * unit and r[0].next_pc == unit
    assert r[4].rd_val == 6 * unit
    assert m.st.r[1] == 0


def test_jsr_ret_jsrr_jmp_seed() -> None:
    prog = [
        E("jsr", off=2),  # 0: r7 <- 4, to 12
        E("movi.d", rm=6, imm=16),  # 4: after return
        E("jsrr", base=6),  # 8: r7 <- 12, to 16
        E("ret"),  # 12: back to 4 (first pass), then to 12 again... see below
        E("movi.d", rm=7, imm=28),  # 16
        E("jsrr", base=7),  # 20: base read before the link: to 28, r7 <- 24
        E("halt"),  # 24
        E("movi.d", rm=5, imm=24),  # 28
        E("jmp", base=5),  # 32: to 24
    ]
    _, r = run(prog)
    assert [c.pc for c in r] == [0, 12, 4, 8, 16, 20, 28, 32, 24]
    assert (r[0].rd, r[0].rd_val, r[0].next_pc) == (7, 4, 12)
    assert (r[3].rd, r[3].rd_val, r[3].next_pc) == (7, 12, 16)
    assert (r[5].rd, r[5].rd_val, r[5].next_pc) == (7, 24, 28)
    assert r[-1].done


def test_jsr_ret_ta2013_counts_instructions() -> None:
    prog = [E("jsr", off=2), E("movi.d", rm=7, imm=5), E("halt"), E("ret")]
    # TA: R7 <- index 1, then to 1 + 2; ret back to 1; halt is no instruction of the TA's simulator
    # (a no-op), so the run goes on to ret, which now leaves the program (index 5)
    _, r = run(prog, TA2013)
    assert [c.pc for c in r] == [0, 3, 1, 2, 3]
    assert (r[0].rd, r[0].rd_val, r[0].next_pc) == (7, 1, 3) and r[-1].next_pc == 5 and r[-1].done


def test_halt_stops_seed_runs_on_ta2013() -> None:
    prog = [E("halt"), E("movi.d", rm=0, imm=1)]
    _, r = run(prog)
    assert len(r) == 1 and r[0].done
    _, r = run(prog, TA2013)
    assert len(r) == 2 and not r[0].done and r[1].done  # ran off the end


# -- errors: located, one line, no traceback --------------------------------------------------------


def _err(words: list[int], prof: LgProfile = SEED, max_steps: int = 1000) -> LgError:
    m = Machine(prof)
    m.load(words)
    with pytest.raises(LgError) as ei:
        m.run(max_steps)
    assert isinstance(ei.value, UserError) and "\n" not in str(ei.value)
    return ei.value


def test_write_to_r15_is_a_located_error() -> None:
    e = _err([E("movi.d", rm=0, imm=1), E("movi.d", rm=15, imm=4)])
    assert "instruction 1 (pc 0x0004)" in str(e) and "r15" in str(e) and f"{E('movi.d', rm=15, imm=4):#010x}" in str(e)
    e = _err([E("add.d", rd=15, rs1=0, rs2=0)], TA2013)
    assert "instruction 0" in str(e) and "r15" in str(e)


def test_illegal_word_is_a_located_error() -> None:
    e = _err([E("movi.d", rm=0, imm=1), E("movi.d", rm=0, imm=2), 0x03000000])
    assert "instruction 2 (pc 0x0008)" in str(e) and "0x03000000" in str(e)
    e = _err([E("halt") | 1])  # a stray bit no field uses
    assert "instruction 0" in str(e) and "0xc0000001" in str(e)


def test_runaway_and_misaligned_jump() -> None:
    e = _err([E("movi.d", rm=0, imm=0), E("brz", off=-1)], max_steps=500)
    assert e.code == FAILURE and "500 instructions" in str(e)
    e = _err([E("movi.d", rm=0, imm=6), E("jmp", base=0)])
    assert "jumps to 0x0006" in str(e)
    with pytest.raises(LgError, match="instruction 1: -1 is not a 32-bit word"):
        Machine().load([0, -1])


# -- graphics ---------------------------------------------------------------------------------------


def _q16(x: float | str | Fraction) -> int:
    return int(Fraction(x) * 65536)


def test_matrix_stack_transforms_vertex_seed() -> None:
    prog = [
        *vset(1, [255, 128, "0.5", 0]),
        E("setcolor", vr=1),  # 4
        E("pushmatrix"),  # 5
        *vset(2, [0, 1, "-0.5", 0]),
        E("translate", vr=2),  # 10
        *vset(3, [0, 2, 2, 0]),
        E("scale", vr=3),  # 15
        *vset(4, [0, "0.5", "0.25", 1]),
        E("setvertex", vr=4),  # 20
        E("popmatrix"),  # 21
        *vset(5, [30, 0, 0, 1]),
        E("rotate", vr=5),  # 26
        E("loadidentity"),  # 27
        E("vcompmovi", vd=5, idx=3, imm=q(-1)),
        E("rotate", vr=5),  # 29: vr[3] < 0 turns the other way
    ]
    _, r = run(prog)
    assert r[4].colour == 0xFF8000  # integer parts of 255, 128, 0.5
    assert r[5].depth == 1 and r[5].mat is None
    # translate then scale, post-multiplied: M = T S, by hand
    assert r[10].mat == (65536, 0, 0, 65536, 0, 65536, 0, -32768, 0, 0, 65536, 0, 0, 0, 0, 65536)
    assert r[15].mat == (2 * 65536, 0, 0, 65536, 0, 2 * 65536, 0, -32768, 0, 0, 65536, 0, 0, 0, 0, 65536)
    v = r[20].vertex
    assert (v.index, v.x, v.y, v.z, v.colour) == (0, _q16(2), _q16(0), 0x80, 0xFF8000)  # 2*0.5+1, 2*0.25-0.5
    assert r[21].mat == tuple(65536 if i % 5 == 0 else 0 for i in range(16)) and r[21].colour == 0xFF8000 and r[21].depth == 0
    # cos 30 = 0.866025.. -> 56756 / 65536, sin 30 = 0.5 -> 32768 (round to nearest)
    assert r[26].mat[:2] + r[26].mat[4:6] == (56756, -32768, 32768, 56756)
    assert (r[27].colour, r[27].depth) == (0, 0)
    assert r[29].mat[:2] + r[29].mat[4:6] == (56756, 32768, -32768, 56756)


def test_rotation_fraction_of_a_degree_floors() -> None:
    _, r = run([*vset(1, ["90.99", 0, 0, 0]), E("rotate", vr=1)])
    assert r[-1].mat[:2] == (0, -65536)  # 90 degrees: the integer part
    _, r = run([*vset(1, ["-0.5", 0, 0, 0]), E("rotate", vr=1)])
    assert r[-1].mat[:2] == (65526, 1144)  # floor(-0.5) = -1 degree: cos, -sin(-1 deg) in Q15.16


def test_rotate_ta2013_two_degrees_a_unit_transposed() -> None:
    _, r = run([*vset(1, [15, 0, 0, 1]), E("rotate", vr=1)], TA2013)
    m = r[-1].mat
    assert m[0] == pytest.approx(math.sqrt(3) / 2) and m[1] == pytest.approx(0.5) and m[4] == pytest.approx(-0.5)


def test_stack_overflow_and_underflow_are_ignored() -> None:
    prog = [E("pushmatrix")] * 17 + [E("popmatrix")] * 17
    _, r = run(prog)
    assert [c.depth for c in r[:17]] == [*range(1, 17), 16]
    assert [c.depth for c in r[17:]] == [*range(15, -1, -1), 0]
    assert r[-1].mat is None and r[-2].mat is not None


def test_primitive_vertices_and_fragments() -> None:
    prog = [
        E("beginprimitive", type=4),
        *vset(1, [0, 0, 0, 1]), E("setvertex", vr=1),
        *vset(1, [0, 1, 0, 1]), E("setvertex", vr=1),
        E("endprimitive"),  # two vertices: nothing
        E("beginprimitive", type=4),
        *vset(1, [0, 0, 0, 1]), E("setvertex", vr=1),
        *vset(1, [0, 1, 0, 1]), E("setvertex", vr=1),
        *vset(1, [0, 0, 1, 1]), E("setvertex", vr=1),
        *vset(1, [0, 3, 3, 1]), E("setvertex", vr=1),  # a fourth: dropped
        E("endprimitive"),
    ]
    _, r = run(prog)
    assert r[0].prim_begin == 4
    ends = [c for c in r if c.prim_end is not None]
    assert ends[0].prim_end == 0 and ends[0].fb is None
    sv = [c for c in r if c.text == "setvertex"]
    assert [c.vertex.index if c.vertex else None for c in sv] == [0, 1, 0, 1, 2, None]
    # the triangle (0, 0), (1, 0), (0, 1) units: screen (320, 200), (384, 200), (320, 240) pixels
    mask = ref_cover([ref_screen(0, 0), ref_screen(65536, 0), ref_screen(0, 65536)])
    assert ends[1].prim_end == int(mask.sum()) > 0
    assert np.array_equal(np.asarray(ends[1].fb.addr), np.flatnonzero(mask))
    assert ends[1].fb.data == 0x000 and ends[1].fb.rgb == 0  # colour black after reset


def test_board_colour_mappings() -> None:
    assert board_word(0xFFFFFF, "high_nibble") == 0xFFF and board_word(0xFF0000, "high_nibble") == 0xF00
    assert board_word(0x09F87F, "high_nibble") == 0x0F7
    assert board_word(0x09F87F, "scaled") == 0x1F7  # 9/17 -> 1, 248/17 -> 15, 127/17 -> 7


def _tri(v: int, pts: list[tuple[str, str]], z: str, rgb: list[int]) -> list[int]:
    out = [*vset(v, [rgb[0], rgb[1], rgb[2], 0]), E("setcolor", vr=v), E("beginprimitive", type=4)]
    for x, y in pts:
        out += [*vset(v, [0, x, y, z]), E("setvertex", vr=v)]
    return [*out, E("endprimitive")]


def test_flush_and_draw_seed_keeps_ta2013_clears() -> None:
    tri = _tri(1, [("0", "0"), ("1", "0"), ("0", "1")], "1", [255, 255, 255])
    tri_ta = _tri(1, [("0", "0"), ("0", "1"), ("1", "0")], "1", [255, 255, 255])  # the TA's winding
    for prof, body in ((SEED, tri), (TA2013, tri_ta)):
        m, r = run([*body, E("draw"), E("flush"), *body, E("draw")], prof)
        assert [c.fb_event for c in r if c.fb_event] == ["draw", "flush", "draw"]
        assert [f.reason for f in m.frames] == ["draw", "draw", "final"]
        lit = [int(f.rgb.any(axis=2).sum()) for f in m.frames]
        assert lit[0] > 0 and lit[1] == lit[0]
        # after the last draw: the seed still shows the frame, the TA's draw has cleared it
        assert lit[2] == (lit[0] if prof is SEED else 0)
    m, _ = run([*tri, E("flush")])
    assert not m.st.fb.any() and (m.st.depth == 0x180).all()


def test_demo_three_triangles_png(tmp_path: Path) -> None:
    white, red, green = [255, 255, 255], [255, 0, 0], [0, 255, 0]
    tris = [
        ([("-3", "-3"), ("2", "-3"), ("-3", "2")], "1", white),
        ([("-1", "-1"), ("4", "-1"), ("-1", "4")], "0.5", red),  # in front of white
        ([("-4", "0"), ("0", "0"), ("-4", "4")], "2", green),  # behind white, in front of nothing else
    ]
    prog = [E("flush")]
    for pts, z, rgb in tris:
        prog += _tri(1, pts, z, rgb)
    m, r = run([*prog, E("draw")])
    out = write_frames(m.frames, ROOT / "build" / "lg-demo", "three-triangles")
    assert out[0].name == "three-triangles-00-draw.png"
    img = read_png(out[0])
    assert img.shape == (400, 640, 3) and np.array_equal(img, m.frames[0].rgb)
    ref = RefBuffers()
    for pts, z, rgb in tris:
        screen = [ref_screen(_q16(x), _q16(y)) for x, y in pts]
        ref.draw(ref_cover(screen), q(z), tuple(rgb))
    for rgb in (white, red, green):
        want = int((ref.fb == rgb).all(axis=2).sum())
        assert int((img == rgb).all(axis=2).sum()) == want > 1000
    ends = [c for c in r if c.prim_end is not None]
    assert sum(len(c.fb) for c in ends) >= int(ref.fb.any(axis=2).sum())


def test_profiles_document_every_switch() -> None:
    assert set(PROFILES) == {"seed", "ta2013"}
    for name in LgProfile.switches():
        group, doc, src = LgProfile.switch_doc(name)
        assert group and len(doc) > 20 and "seed" in src and "TA" in src, name
    assert set(TA2013.describe()) >= {"arith", "cc_order", "pc_unit", "loads_set_cc", "rotate_unit", "reverse_winding",
                                      "draw_clears", "int_bits", "vcompmov_float_view", "bbox_inclusive"}
    with pytest.raises(ValueError, match="pc_unit"):
        replace(SEED, pc_unit="word")


def test_speed_of_simple_instructions() -> None:
    # a counted loop of add/compare/branch: the model must not be the lock-step's bottleneck
    prog = [E("movi.d", rm=0, imm=0), E("movi.d", rm=1, imm=20000), E("addi.d", rd=0, rs1=0, imm=1),
            E("cmp", rm=0, rs2=1), E("brn", off=-3), E("halt")]
    m = Machine()
    m.load(prog)
    t = time.perf_counter()
    r = m.run()
    rate = len(r) / (time.perf_counter() - t)
    assert len(r) == 60003 and m.st.r[0] == 20000
    assert rate > 50_000, f"{rate:.0f} instructions/s"


def test_setcolor_integer_part_floor_seed_trunc_ta2013() -> None:
    prog = [*vset(1, ["-0.5", "1.75", "200.5", 0]), E("setcolor", vr=1)]
    _, r = run(prog)
    assert r[-1].colour == 0xFF01C8  # floor(-0.5) = -1 -> 0xFF (8 bits), 1, 200
    _, r = run(prog, TA2013)
    assert r[-1].colour == 0x0001C8  # TA: (int) truncates toward zero


def test_commit_record_fields_are_documented() -> None:
    from dataclasses import fields

    from golden.lg.commit import COMMIT_PORT_FIELDS, LgCommit, LgFbWrites, LgMemWrite, LgVertex

    for cls in (LgCommit, LgVertex, LgMemWrite, LgFbWrites):
        for f in fields(cls):
            assert len(f.metadata.get("doc", "")) > 5, f"{cls.__name__}.{f.name}"
    assert "fb" not in COMMIT_PORT_FIELDS and "fb_event" not in COMMIT_PORT_FIELDS and "mat" in COMMIT_PORT_FIELDS
