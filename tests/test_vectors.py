"""golden.g80.vectors: a vector line as the instruction(s) that compute it, in NVIDIA spelling (docs/reference/assembly.md,
"Spellings not seen in any NVIDIA listing", the nvcc listings), and the named fields the RTL unit tests and tests/test_fp.py use."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTDATA

from golden.g80.isa import assemble
from golden.g80.vectors import FP_OPS, INT_OPS, SFU_OPS, case_of, fp_operation, read_vectors, sfu_operation


def _vector(tmp_path: Path, line: str):
    path = tmp_path / "v.txt"
    path.write_text(f"# header\n{line}\n", encoding="utf-8")
    (v,) = read_vectors(path)
    return v


@pytest.mark.parametrize(
    ("line", "code", "inputs", "cin"),
    [
        # iadd sub: a + ~b + 1 (int.txt header) is src2 negated
        ("iadd sub b32 0 00000005 00000003 0 -> 00000002 0", "IADD.C1 R4, R1, -R2", (5, 3, 0), 0),
        ("iadd addc b16 1 0000ffff 00000001 1 -> 0000ffff 0", "IADD.SAT.U16.CARRY0.C1 R4L, R1L, R2L", (0xFFFF, 1, 0), 1),
        ("imad sat.hi.s24 subr 00000002 00000003 00000004 0 -> 00000000 0", "IMAD.HI.SAT.S24.C1 R4, -R1, R2, R3", (2, 3, 4), 0),
        ("iset s16 1 00000001 00000002 -> ffffffff 2", "ISET.S16.C1 R4L, R1L, R2L, LT", (1, 2, 0), 0),
        ("i2i s32 s8 1 1 00000080 -> 00000080 0", "I2I.S32.S16.BEXT.C1 R4, -|R1L|", (0x80, 0, 0), 0),
        ("fadd.sat rz 3f800000 3f800000 -> 3f800000 0", "FADD.SAT.TRUNC.C1 R4, R1, R2", (0x3F800000, 0x3F800000, 0), 0),
        ("fset 0d 3f800000 7fffffff -> ffffffff 2", "FSET.C1 R4, R1, R2, NEU", (0x3F800000, 0x7FFFFFFF, 0), 0),
        ("f2i s16 rmi 1 1 3f800000 -> 0000ffff 2", "F2I.S16.F32.FLOOR.C1 R4L, -|R1|", (0x3F800000, 0, 0), 0),
        ("i2f u8 rp 000000ff -> 437f0000 0", "I2F.F32.U16.BEXT.CEIL.C1 R4, R1L", (0xFF, 0, 0), 0),
        ("f2f rni 3fc00000 -> 40000000 0", "F2F.F32.F32.ROUND.C1 R4, R1", (0x3FC00000, 0, 0), 0),
        ("presin 3f800000 -> 00517cc1 ; sin -> 3f576aa4 ; cos -> 3f0a5140", "RRO R4, R1, SIN\nSIN R5, R4\nCOS R6, R4", (0x3F800000, 0, 0), 0),
        ("rsqrt 40800000 -> 3f000000", "RSQ R4, R1", (0x40800000, 0, 0), 0),
    ],
)
def test_case_of(tmp_path: Path, line: str, code: str, inputs: tuple[int, int, int], cin: int) -> None:
    case = case_of(_vector(tmp_path, line))
    assert case.code == code
    assert (case.inputs, case.cin) == (inputs, cin)
    assert assemble(case.code).words  # the spelling is one the assembler takes


def test_outputs_read_back(tmp_path: Path) -> None:
    case = case_of(_vector(tmp_path, "preex2 3f800000 -> 00800000 ; ex2 -> 40000000"))
    assert case.outputs == (("R4", 0x00800000), ("R5", 0x40000000))
    assert case_of(_vector(tmp_path, "fmin 3f800000 40000000 -> 3f800000 0")).outputs == (("R4", 0x3F800000), ("C1", 0))


def test_fields(tmp_path: Path) -> None:
    o = fp_operation(_vector(tmp_path, "f2i u32 rzi 1 0 bf800000 -> 00000001 0"))
    assert (o.op, o.dst, o.rnd, o.abs_a, o.neg_a, o.a) == ("f2i", "u32", "rz", True, False, 0xBF800000)
    o = fp_operation(_vector(tmp_path, "f2f sat 3fc00000 -> 3f800000 0"))
    assert (o.rnd, o.rint, o.sat) == ("rn", False, True)
    s = sfu_operation(_vector(tmp_path, "presin 3f800000 -> 00517cc1 ; sin -> 3f576aa4 ; cos -> 3f0a5140"))
    assert (s.x, s.result, s.follow_ups) == (0x3F800000, 0x00517CC1, (("sin", 0x3F576AA4), ("cos", 0x3F0A5140)))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("fadd rm 3f800000 3f800000 -> 40000000 0", "rounds rn or rz"),
        ("i2f f32 rn 00000001 -> 3f800000 0", "unknown source type 'f32'"),
        ("rcp 40000000 40000000 -> 3f000000", "rcp takes one input"),
        ("rcp 40000000 -> 3f000000 ; sin -> 0", "rcp has no follow-up sin"),
        ("bogus 1 -> 2", "unknown vector operation 'bogus'"),
        ("iadd mul b32 0 1 2 0 -> 3 0", "unknown add op 'mul'"),
        ("iadd add b32 0 1 2 -> 3 0", "iadd takes 6 fields"),
        ("iset u32 9 1 2 -> 0 1", "not a 3-bit l/e/g mask"),
        ("shr b16 1 1 -> 0 1", "unknown type 'b16'"),
        ("imad u16 add 1 2 3 -> 5 0", "imad takes 6 fields"),
        ("i2i u32 f32 0 0 1 -> 1 0", "unknown source type 'f32'"),
        ("logic and b32 2 0 1 1 -> 1 0", "not1 must be 0 or 1"),
        ("imin u32 1 zz -> 1 0", "'zz' is not a hex number"),
    ],
)
def test_bad_line_names_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(ValueError, match=rf"^{tmp_path / 'v.txt'}:2: .*{message}"):
        case_of(_vector(tmp_path, line))


def test_op_lists_are_the_files_ops() -> None:
    """Every op of each file is one of its unit's ops, and every listed op occurs (fmad.sat aside:
    fp32.txt has no line of it, FP_SFU.md 1.5 defines it)."""
    for name, ops in (("int.txt", INT_OPS), ("fp32.txt", FP_OPS), ("sfu.txt", SFU_OPS)):
        seen = {v.op for v in read_vectors(TESTDATA / "vectors" / name)}
        assert seen <= set(ops), f"{name}: ops no unit runs: {sorted(seen - set(ops))}"
        assert set(ops) - seen <= {"fmad.sat"}, f"{name}: listed ops with no line: {sorted(set(ops) - seen)}"
