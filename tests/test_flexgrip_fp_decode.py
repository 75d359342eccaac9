"""The flexgrip profile's floating point as FlexGripPlus's SM runs it (golden/g80/execute.py, the _fg_*
helpers; findings in golden/g80/flexgrip_findings.py), without a simulator.

Every expected value here was observed on FlexGripPlus 4.4 under GHDL (8 SPs), in lock-step runs of
programs/fadd.sass, fmad.sass, fset.sass, f2i.sass, i2f.sass, sfu.sass and two probe programs, and
in their waveforms; the lanes and operands are those runs' own. Each test also shows that the G80
profile gives something else, so the switch is what makes the difference.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from golden.g80.profile import FLEXGRIP, G80, Profile
from golden.g80.program import load_program
from golden.g80.run import run_program

_LOAD = """
        I2I.U32.U16 R1, R0L
        SHL R2, R1, 0x2
        IADD R3, g [0x4], R2
        GLD.U32 R4, global14[R3]
        IADD R3, g [0x6], R2
        GLD.U32 R5, global14[R3]
        IADD R3, g [0x8], R2
        GLD.U32 R7, global14[R3]
        IADD R3, g [0xa], R2
"""


def _run(tmp_path: Path, code: str, profile: Profile, a: list[int], b: list[int] | None = None, c: list[int] | None = None,
         head: str = "", result: str = "R6") -> np.ndarray:  # fmt: skip
    """Run `code` with R4 = a[t], R5 = b[t], R7 = c[t] (32 lanes) and return `result` of every lane."""

    def words(v: list[int] | None) -> str:
        return " ".join(f"{x:#x}" for x in (v or [0] * 32))

    src = tmp_path / "case.sass"
    src.write_text(f".block 32\n.registers 16\n.buffer a u32 32 = {words(a)}\n.buffer b u32 32 = {words(b)}\n"
                   f".buffer c u32 32 = {words(c)}\n.buffer out u32 32\n.param a\n.param b\n.param c\n.param out\n{head}"
                   f"{_LOAD}{code}\n        GST.U32 global14[R3], {result}\n        RET\n")  # fmt: skip
    spec = load_program(src)
    r = run_program(spec, profile)
    buf = spec.buffers["out"]
    return np.frombuffer(r.gmem.data[buf.addr : buf.addr + buf.nbytes].tobytes(), np.uint32)


# programs/fadd.sass's operands (lane t adds a[t] and b[t])
FADD_A = [0x3F800000, 0xBF800000, 0x0, 0x80000000, 0x7F800000, 0x7F800000, 0x7FC00000, 0xFF800001, 0x1, 0x807FFFFF, 0x7F7FFFFF,
          0x7F7FFFFF, 0x3F800001, 0x3F7FFFFF, 0x800000, 0x800001, 0x800000, 0x3FC00000, 0x40490FDB, 0x3F800000, 0xBF800000,
          0xFF800000, 0x409C2958, 0x3D9DAA6A, 0x35FB1810, 0xC45B56E2, 0xC4E46332, 0xB8EEDC4C, 0xB53B7266, 0xBB68D1B1, 0xB7E7093B,
          0x44FF9403]  # fmt: skip
FADD_B = [0x3F800000, 0x3F800000, 0x80000000, 0x80000000, 0xFF800000, 0x3F800000, 0x3F800000, 0x0, 0x1, 0x80000001, 0x7F7FFFFF,
          0x73000000, 0xB3800000, 0x33800000, 0x80800001, 0x80800000, 0x800000, 0xBF800000, 0xC0490FDB, 0x33000000, 0xB3800001,
          0x7F7FFFFF, 0xBF07EE47, 0xB9853A38, 0x3F72C888, 0x484B9C66, 0x39B03F0D, 0xC35C5AF1, 0xB2649F29, 0x3AB4EE0E, 0xC7E0DE78,
          0x44E3B8C1]  # fmt: skip


def test_fadd_adder_lanes_read_zero_beside_subtractor_lanes(tmp_path: Path) -> None:
    """fp_lanes_zero: fadd PC 0x48 wrote 0 in every lane whose operands are both positive (each sub-warp
    of 8 has a lane with a negative operand); the waves showed SP 0's out_fp 0x40000000 cleared before
    the copy. Lane 0 is 1.0 + 1.0."""
    fg = _run(tmp_path, "        FADD R6, R4, R5", FLEXGRIP, FADD_A, FADD_B)
    adder = [t for t in range(32) if not (FADD_A[t] | FADD_B[t]) >> 31]
    assert adder and all(fg[t] == 0 for t in adder)
    assert _run(tmp_path, "        FADD R6, R4, R5", G80, FADD_A, FADD_B)[0] == 0x40000000
    # all lanes on the adder: nothing is lost (a probe program's FADD32I g [0x6], 1.0 gave 6.0 in every lane)
    assert list(_run(tmp_path, "        FADD R6, R4, R5", FLEXGRIP, [0x3F800000] * 32, [0x3F800000] * 32)) == [0x40000000] * 32


def test_fadd_trunc_rounds_to_nearest(tmp_path: Path) -> None:
    """fp_rounding_mode_bits: the FPU's mode is bits 52:51, so FADD.TRUNC rounds to nearest: fadd PC
    0x60, lane 27, gave 0xc35c5aea (truncated: 0xc35c5ae9)."""
    assert _run(tmp_path, "        FADD.TRUNC R6, R4, R5", FLEXGRIP, FADD_A, FADD_B)[27] == 0xC35C5AEA


def test_fadd_sat_decodes_to_nothing(tmp_path: Path) -> None:
    """fp_sat_not_decoded: fadd PC 0xc0, FADD.SAT R6, R4, R5, wrote 0 in every lane."""
    assert not _run(tmp_path, "        FADD.SAT R6, R4, R5", FLEXGRIP, FADD_A, FADD_B).any()


def test_fadd32i_negated_immediate_bit_is_ignored(tmp_path: Path) -> None:
    """fp_imm_forms: fadd PC 0x268, FADD32I R6, R4, -(0x3f000000), gave +0.5 for lane 3 (a = -0)."""
    assert _run(tmp_path, "        FADD32I R6, R4, -(0x3f000000)", FLEXGRIP, FADD_A)[3] == 0x3F000000


def test_fadd32i_negated_register_reads_r_plus_64(tmp_path: Path) -> None:
    """fp_imm_forms: cos_soft PC 0x98, FADD32I R5, -R5, 1.0, gave exactly 1.0 in every lane (R69 reads 0)."""
    out = _run(tmp_path, "        FADD32I R6, -R4, 0x3f800000", FLEXGRIP, [0x40400000] * 32)
    assert list(out) == [0x3F800000] * 32


def test_fadd32i_shared_source_reads_16_words_on(tmp_path: Path) -> None:
    """fp_imm_forms: a probe with 0.25 at g [0x6] and 5.0 at g [0x16] got 6.0 from FADD32I R5, g [0x6], 1.0
    (g [0xc] is the first parameter word after the four pointers here; g [0x1c] is 16 words on)."""
    head = ".param u32 0x3e800000\n" + ".param u32 0\n" * 15 + ".param u32 0x40a00000\n"
    out = _run(tmp_path, "        FADD32I R6, g [0xc], 0x3f800000", FLEXGRIP, [0] * 32, head=head)
    assert list(out) == [0x40C00000] * 32


def test_short_form_constant_is_flat_word_32b_plus_n(tmp_path: Path) -> None:
    """short_const_unsplit: a probe with -2.0 at c[0x1][0x0] and 3.0 at flat word 32 got 1.0 + 3.0 from
    FADD32 R5, R4, c[0x1][0x0] (the long form reads -2.0)."""
    head = ".const 1 0 u32 0xc0000000\n.const 0 0x80 u32 0x40400000\n"
    code = "        FADD32 R6, R4, c[0x1][0x0]\n        FADD32 R8, R4, R4"
    assert list(_run(tmp_path, code, FLEXGRIP, [0x3F800000] * 32, head=head)) == [0x40800000] * 32
    assert list(_run(tmp_path, code, G80, [0x3F800000] * 32, head=head)) == [0xBF800000] * 32


# programs/fset.sass's operands
FSET_A = [0x0, 0x1, 0x7FC00000, 0x3F800000, 0x7FC00000, 0x7F800000, 0xFF800000, 0x807FFFFF, 0xBF800000, 0x3F800000, 0x3F800000,
          0x40490FDB, 0x800000, 0x3F800001, 0x7F7FFFFF, 0xBF800000, 0x409C2958, 0x3D9DAA6A, 0x35FB1810, 0xC45B56E2, 0xC4E46332,
          0xB8EEDC4C, 0xB53B7266, 0xBB68D1B1, 0xB7E7093B, 0x44FF9403, 0x3E9C06A6, 0x409C2958, 0x3D9DAA6A, 0x35FB1810, 0xC45B56E2,
          0x80000000]  # fmt: skip
FSET_B = [0x80000000, 0x80000000, 0x3F800000, 0xFF812345, 0x7FC00000, 0xFF800000, 0xFF800000, 0x1, 0xC0000000, 0x40000000,
          0xBF800000, 0x40490FDB, 0x7FFFFF, 0x3F800000, 0x7F800000, 0x3F800000, 0xBF07EE47, 0xB9853A38, 0x3F72C888, 0x484B9C66,
          0x39B03F0D, 0xC35C5AF1, 0xB2649F29, 0x3AB4EE0E, 0xC7E0DE78, 0x44E3B8C1, 0xB66A0897, 0x409C2958, 0x3D9DAA6A, 0x35FB1810,
          0x445B56E2, 0x3F800000]  # fmt: skip


def test_fset_with_abs_compares_with_the_register_number(tmp_path: Path) -> None:
    """fp_long_operand_bits: fset PC 0x1c8, FSET R6, |R4|, R5, LT: bit 52 makes src2 the number 5 (the
    waves: src2_in = 0x00000005); the lanes FlexGripPlus set are these."""
    out = _run(tmp_path, "        FSET R6, |R4|, R5, LT", FLEXGRIP, FSET_A, FSET_B)
    assert "".join("1" if x else "0" for x in out) == "11000011100000010001111110000011"


def test_fmad_floor_reads_constant_word_of_the_register_field(tmp_path: Path) -> None:
    """fp_long_operand_bits: fmad PC 0xe8, FMAD.FLOOR R6, R4, R5, R7, gave R7 (c[5] * R4 + R7, c[5] = 0):
    lanes 0 and 1 0xbf800000 and 0xbfdef2e0."""
    a, b, c = [0x3F800001, 0x3FCFBB3E] * 16, [0x3F800001, 0x3FA0B26C] * 16, [0xBF800000, 0xBFDEF2E0] * 16
    out = _run(tmp_path, "        FMAD.FLOOR R6, R4, R5, R7", FLEXGRIP, a, b, c)
    assert (out[0], out[1]) == (0xBF800000, 0xBFDEF2E0)


def test_fmad32_third_source_is_r0(tmp_path: Path) -> None:
    """fmad32_third_source: fmad PC 0x200, FMAD32 R8, R4, R5, R8, lane 0 (R0 = 0, a = b = 0x3f800001):
    0x3f800002, a * b without R8."""
    code = "        MVI R8, 0x3f800000\n        FMAD32 R8, R4, R5, R8\n        FMAD32 R9, R4, R5, R9"
    out = _run(tmp_path, code, FLEXGRIP, [0x3F800001] * 32, [0x3F800001] * 32, result="R8")
    assert out[0] == 0x3F800002


def test_f2i_negated_is_the_integer_cvt(tmp_path: Path) -> None:
    """cvt_negated_source: f2i PC 0x198, F2I.S32.F32 R6, -R4, wrote R4's bits (lane 0: 0x3f000000)."""
    a = [0x3F000000, 0x3FC00000, 0x40200000, 0xBF000000] * 8
    assert list(_run(tmp_path, "        F2I.S32.F32 R6, -R4", FLEXGRIP, a)) == a


def test_i2f_byte_type_reads_the_low_byte(tmp_path: Path) -> None:
    """cvt_source_read: i2f PC 0x158, I2F.F32.S16.BEXT R6, R4L: 0xffff gave 255.0, 0xffc0 192.0."""
    out = _run(tmp_path, "        I2F.F32.S16.BEXT R6, R4L", FLEXGRIP, [0xFFFF, 0xFFC0] * 16)
    assert (out[0], out[1]) == (0x437F0000, 0x43400000)


def test_f2i_shared_source_reads_0x60_words_on(tmp_path: Path) -> None:
    """cvt_source_read: f2i PC 0x2b0, F2I.S32.F32.TRUNC R6, g [0x4], wrote 0 in every lane (g [0x64])."""
    assert not _run(tmp_path, "        F2I.S32.F32.TRUNC R6, g [0x4]", FLEXGRIP, [0] * 32).any()


def test_rcp32_abs_reads_r_plus_64(tmp_path: Path) -> None:
    """sfu_short_abs_register: sfu PC 0x210, RCP32 R6, |R4|, gave +inf in every lane."""
    code = "        RCP32 R6, |R4|\n        RCP32 R8, -R4"
    assert list(_run(tmp_path, code, FLEXGRIP, [0x40000000] * 32)) == [0x7F800000] * 32


@pytest.mark.parametrize("cores", [8, 16, 32])
def test_sync_group_is_the_sp_count(tmp_path: Path, cores: int) -> None:
    """The adder lanes lost are those that share a sub-warp (NUM_SP lanes) with a subtractor lane: with
    one negative operand in lane 9 only, lanes 8-15 (8 SPs), 0-15 (16) or all but lane 9 (32) read 0."""
    from dataclasses import replace

    a = [0x3F800000] * 32
    a[9] = 0xBF800000
    out = _run(tmp_path, "        FADD R6, R4, R5", replace(FLEXGRIP, fpu_sync_lanes=cores), a, [0x40000000] * 32)
    lost = {t for t in range(32) if out[t] == 0}
    assert lost == {t for t in range(32) if t // cores == 9 // cores and t != 9}
