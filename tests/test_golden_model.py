"""The golden model: programs with independent expectations, errors, launch state, the lock-step
API and commit records, profiles, reference vectors and FlexGripPlus bundles."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT, TESTDATA

from golden.cli import main
from golden.errors import MemoryFault, ModelError, RunawayError, StackError, TrapError, UnimplementedError
from golden.g80.checkvec import check_files
from golden.g80.flexgrip_bundle import run_bundle
from golden.g80.isa import assemble
from golden.g80.memory import Memory
from golden.g80.profile import FLEXGRIP, G80
from golden.g80.program import load_program
from golden.g80.run import build, check, run_program
from golden.g80.sm import SM
from golden.g80.state import Launch

PROGRAMS = sorted((ROOT / "programs").glob("*.sass"))
BAD = sorted((ROOT / "programs" / "bad").glob("*.sass"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_program(path: Path) -> None:
    result = run_program(load_program(path), G80)
    assert result.checks, "the program declares no .expect"
    failed = [f"line {c.line}: {c.buffer}: {c.detail}" for c in result.failed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("path", [p for p in PROGRAMS if p.stem.startswith(("cf_", "vecadd", "iadd"))], ids=lambda p: p.stem)
def test_batched_and_single_warp_runs_agree(path: Path) -> None:
    """Free-running mode executes warps at the same PC together; one at a time must give the same memory."""
    spec = load_program(path)
    batched = run_program(spec, G80)
    records = []
    single = run_program(spec, G80, trace=records.append)
    assert np.array_equal(batched.gmem.data, single.gmem.data)
    assert len(records) == single.warp_instructions == batched.warp_instructions


BAD_EXPECT = {
    "runaway": (RunawayError, r"more than 5000 warp-instructions.*warp 0 0x000"),
    "global_oob": (MemoryFault, r"block 0 warp 0 PC 0x0010, lane 1: global access of 4 byte\(s\) at 0x10000 is outside 0..0x1ff"),
    "shared_oob": (MemoryFault, r"PC 0x0010, lane 0: shared access of 4 byte\(s\) at 0x400c"),
    "stack_overflow": (StackError, r"PC 0x0000: SIMT stack overflow \(32 entries\)"),
    "trap": (TrapError, r"PC 0x0008: TRAP"),
    "trap_warp17": (TrapError, r"block 1 warp 17 PC 0x0030: TRAP"),
    "join_empty": (StackError, r"PC 0x0000: join \(.S\) with an empty SIMT stack"),
    "brk_no_pbk": (StackError, r"BRK without a PBK entry"),
    "brk_after_pbk": (StackError, r"PC 0x0010: BRK without a PBK entry"),
    "const_oob": (MemoryFault, r"block 0 warp 0 PC 0x0010, lane 0: constant bank c\[0x0\] access of 4 byte\(s\) at 0x10000 is outside 0..0xffff"),
    "r2g_oob": (MemoryFault, r"block 0 warp 0 PC 0x0020, lane 1: shared access of 4 byte\(s\) at 0x4000 is outside 0..0x3fff"),
    "pc_outside": (ModelError, r"^PC 0x100000 is outside the program \(0x0..0x10\)"),
    "tex": (UnimplementedError, r"^TEX at PC 0x0008 is not implemented \(TEX.FETCH.1D R0, 0x0, 0x0, 0x1; block 0 warp 0\)"),
}


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_program(path: Path) -> None:
    error, pattern = BAD_EXPECT[path.stem]
    with pytest.raises(error, match=pattern):
        run_program(load_program(path), G80)


def test_every_bad_program_is_expected() -> None:
    assert {p.stem for p in BAD} == set(BAD_EXPECT)


def test_illegal_word_is_reported_with_its_address() -> None:
    code = [*assemble("BRA 0x10\nNOP").words, 0x80000001, 0x00000780]  # interp: fragment programs only
    sm = SM(code, Launch(), Memory("global", 16))
    with pytest.raises(ModelError, match=r"illegal instruction at 0x0010 \(80000001 00000780\): opcode 8.0 is interp"):
        sm.run()


def test_running_off_the_end() -> None:
    sm = SM(assemble(".explicit_exit\nIADD R1, R1, R1").words, Launch(), Memory("global", 16))
    with pytest.raises(ModelError, match="PC 0x0008 is outside the program"):
        sm.run()


# --- launch state (DESIGN.md section 3) ---------------------------------------------------------


def _sm(source: str, launch: Launch, profile=G80) -> SM:
    return SM(assemble(source).words, launch, Memory("global", 4096), {}, profile)


def test_launch_state() -> None:
    params = (0x1234).to_bytes(8, "little") + (7).to_bytes(4, "little")
    sm = _sm("NOP", Launch((3, 2), (8, 4, 2), 10, 0, params))
    assert sm.per_round >= 1
    header = sm.shared.data[:16].view(np.uint16)
    assert header.tolist() == [0, 8, 4, 2, 3, 2, 0, 0]
    assert sm.shared.data[16:28].tobytes() == params
    t = np.arange(64)
    assert sm.regs[0, :64].tolist() == ((t % 8) | ((t // 8) % 4) << 16 | (t // 32) << 26).tolist()
    assert all(w.active == 0xFFFFFFFF for w in sm.warps)
    second = sm.blocks[1]
    assert sm.shared.data[0x4000 + 12 : 0x4000 + 16].view(np.uint16).tolist() == [1, 0]  # blockIdx of block 1
    assert second.ctaid == (1, 0)
    assert not sm.regs[1:].any() and not sm.cc.any() and not sm.areg.any()


def test_partial_warps() -> None:
    assert [w.active for w in _sm("NOP", Launch(block=(40, 1, 1))).warps] == [0xFFFFFFFF, 0xFF]
    assert [w.active for w in _sm("NOP", Launch(block=(40, 1, 1)), FLEXGRIP).warps] == [0xFFFFFFFF, 0xFFFFFFFF]


def test_pointer_parameter_size_per_profile(tmp_path: Path) -> None:
    src = tmp_path / "p.sass"
    src.write_text(".buffer a u32 4\n.param a\n.param u32 9\nNOP\n", encoding="utf-8")
    spec = load_program(src)
    assert len(spec.param_bytes(G80.param_slot_bytes_pointer)) == 12
    # the programs' layout (64-bit pointers) under both profiles: FlexGripPlus copies parameter words as given
    assert len(spec.param_bytes(FLEXGRIP.param_slot_bytes_pointer)) == 12
    assert len(spec.param_bytes(4)) == 8


def test_rounds_are_limited_by_registers() -> None:
    assert Launch((40, 1), (64, 1, 1), 32).blocks_per_round(_sm("NOP", Launch()).config) == 4
    with pytest.raises(ModelError, match="does not fit on the SM"):
        _sm("NOP", Launch(block=(512, 1, 1), registers=32))


def test_registers_past_the_allocation_read_zero_and_drop_writes() -> None:
    sm = _sm("MVI R5, 0x7\nMVI R2, 0x9\nIADD R3, R5, R2\nMOV R124, R3\nIADD R4, R124, R2", Launch(registers=5))
    sm.run()
    assert sm.regs[3, 0] == 9 and sm.regs[4, 0] == 9  # R5 and R124 are not allocated: read 0
    sm = _sm("MVI R124, 0x7\nIADD R3, R124, R124\nRET", Launch(registers=5), FLEXGRIP)
    sm.run()
    assert sm.regs[3, 0] == 0  # FlexGripPlus: all registers exist, only R124 reads 0


def test_half_register_write_keeps_the_other_half() -> None:
    sm = _sm("MVI R1, 0x11112222\nMVI.U16 R1H, 0xabcd\nMVI R2, 0x33334444\nIADD.U16 R2L, R1H, R1L", Launch(registers=4))
    sm.run()
    assert hex(sm.regs[1, 0]) == "0xabcd2222" and hex(sm.regs[2, 0]) == "0x3333cdef"


# --- lock-step API and commit records (DESIGN.md sections 4 and 5) --------------------------------------


def test_step_returns_commit_records() -> None:
    src = """
        MVI R1, 0x5
        ISET.C2 o[0x7f], R0, c[0x1][0x0], LT     // lanes 0..9
        IADD R2 (C2.NE), R1, R0
        R2A A1, R0, 0x2
        MOV R3, g [A1+++0x1]
        GST.U32 global14[R2], R1
    """
    sm = SM(assemble(src).words, Launch(block=(16, 1, 1)), Memory("global", 4096), {1: Memory("c1", 64, np.array([10], np.uint32).tobytes())})
    w = sm.warps[0]
    c = sm.step(w)
    assert (c.pc, c.seq, c.active_mask, c.exec_mask, c.next_pc, c.done) == (0, 0, 0xFFFF, 0xFFFF, 8, False)
    assert c.gpr[0].index == 1 and c.gpr[0].values[:16].tolist() == [5] * 16
    c = sm.step(w)
    assert c.cc[0].index == 2 and c.gpr == []
    assert c.cc[0].values[:16].tolist() == [2] * 10 + [1] * 6  # S when true, Z when false
    c = sm.step(w)
    assert c.exec_mask == 0x3FF and c.gpr[0].values[:10].tolist() == list(range(5, 15))
    c = sm.step(w)
    assert c.addr[0].index == 1 and c.addr[0].values[:16].tolist() == [4 * t for t in range(16)]
    c = sm.step(w)
    assert c.addr[0].values[:16].tolist() == [4 * t + 4 for t in range(16)]  # post-increment: +1 unit of 4 bytes
    c = sm.step(w)
    assert c.mem[0].space == "global" and c.mem[0].lanes == 0xFFFF and c.done
    assert c.mem[0].addr[:3].tolist() == [5, 6, 7] and c.mem[0].data[:3].tolist() == [5, 5, 5]
    with pytest.raises(ModelError, match="has finished"):
        sm.step(w)


def test_barrier_commit_and_divergence_records() -> None:
    src = "SSY j\nISET.C0 o[0x7f], R0, c[0x1][0x0], LT\nBRA C0.NE, j\nMVI R1, 0x1\nj: NOP.S\nBAR.ARV.WAIT b0, 0xfff\nMVI R2, 0x2"
    sm = SM(assemble(src).words, Launch(block=(64, 1, 1)), Memory("global", 16), {1: Memory("c1", 64, np.array([4], np.uint32).tobytes())})
    w0, w1 = sm.warps
    sm.step(w0)
    sm.step(w0)
    c = sm.step(w0)  # divergent branch: the taken lanes (0..3) first
    assert (c.next_pc, c.next_mask) == (0x20, 0xF)
    c = sm.step(w0)  # the join pops the fall-through path
    assert (c.next_pc, c.next_mask) == (0x18, 0xFFFFFFF0)
    sm.step(w0)
    c = sm.step(w0)  # the join again: the JOINAT entry restores every lane
    assert (c.next_pc, c.next_mask) == (0x28, 0xFFFFFFFF)
    c = sm.step(w0)
    assert c.barrier and w0.waiting
    with pytest.raises(ModelError, match="waiting at a barrier"):
        sm.step(w0)
    for _ in range(6):
        c = sm.step(w1)
    assert not w0.waiting and not w1.waiting


# --- reference data -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["int.txt", "fp32.txt", "sfu.txt"])
def test_vectors_as_instructions(name: str) -> None:
    path = TESTDATA / "vectors" / name
    lines = sum(1 for line in path.read_text().splitlines() if line.strip() and not line.startswith("#"))
    passed, failures, errors = check_files([str(path)])
    assert not errors and not failures, "\n".join([*errors, *(f.format() for f in failures[:10])])
    assert passed == lines


@pytest.mark.parametrize("name", ["Reduction", "VectorAdd_integer", "cos_soft"])
def test_flexgrip_bundle(name: str) -> None:
    r = run_bundle(TESTDATA / "vectors" / "flexgrip_kernels" / f"{name}.txt")
    assert not r.int_failed, r.int_failed[:5]
    assert not r.float_failed, r.float_failed[:5]
    assert r.int_passed + r.float_passed == len((TESTDATA / "vectors" / "flexgrip_kernels" / f"{name}.expected.log").read_text().split("\n")) - 1


def test_flexgrip_bundle_differs_under_g80_semantics() -> None:
    """Reduction's results depend on FlexGripPlus deviations (LOP.PASS_B as NOT src1, ...): under
    silicon semantics its 33 output words differ, so the profile is what makes it pass."""
    r = run_bundle(TESTDATA / "vectors" / "flexgrip_kernels" / "Reduction.txt", G80)
    assert len(r.int_failed) == 33


def test_cli_run_reports_checks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["run", str(ROOT / "programs" / "vecadd.sass")]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "1 passed, 0 failed"
    bad = tmp_path / "wrong.sass"
    bad.write_text(".buffer o u32 32\n.param o\n.expect o = 1\nNOP\n", encoding="utf-8")
    assert main(["run", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and out.strip().endswith("0 passed, 1 failed")
    none = tmp_path / "none.sass"
    none.write_text("NOP\n", encoding="utf-8")
    assert main(["run", str(none)]) == 1
    assert "nothing was checked" in capsys.readouterr().err


def test_cli_trace(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--trace", str(ROOT / "programs" / "cf_ifelse.sass")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(re.search(r"BRA C0.NE, 0x\w+ +act ffffffff exe aaaaaaaa .*-> \w+ mask aaaaaaaa", line) for line in lines)


def test_expectation_errors_are_reported(tmp_path: Path) -> None:
    p = tmp_path / "e.sass"
    p.write_text(".buffer o u32 4\n.param o\n.expect o = undefined_name + 1\nNOP\n", encoding="utf-8")
    spec = load_program(p)
    _, gmem = build(spec, G80)
    (result,) = check(spec, gmem)
    assert not result.passed and "could not be evaluated" in result.detail


def test_expectation_calling_numpy_methods_in_a_fresh_process(tmp_path: Path) -> None:
    """`a.sum()` is the first numpy reduction of a fresh process: numpy imports its own helper module
    then, through the expression's builtins. It must evaluate (1+2+3+4 = 10, written by no
    instruction: the buffer holds 10 from the start), and an import of anything else must not."""
    import subprocess
    import sys

    p = tmp_path / "s.sass"
    p.write_text(".buffer a u32 4 = 1 2 3 4\n.buffer o u32 1 = 10\n.param a\n.param o\n"
                 ".expect o = a.sum()\n.expect a = __import__('os').getpid()\nNOP\n", encoding="utf-8")  # fmt: skip
    code = ("import sys; from golden.g80.program import load_program; from golden.g80.run import build, check; "
            "from golden.g80.profile import G80; spec = load_program(sys.argv[1]); _, g = build(spec, G80); "
            "print([(r.passed, r.detail) for r in check(spec, g)])")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    summed, imported = eval(out)
    assert summed[0], summed
    assert not imported[0] and "may not import os" in imported[1]


def test_vector_variants_beyond_the_sample(tmp_path: Path) -> None:
    """Forms the hidden vector files may use that the sample does not: 16-bit F2I destinations,
    8/16-bit I2F sources, FMAD.SAT. Expected values worked out from ISA.md 4.3 (clamping, exact
    conversion) and FP_SFU.md 1.5 (saturation)."""
    path = tmp_path / "extra.txt"
    path.write_text(
        "f2i s16 rzi 0 0 c7000000 -> 00008000 2\n"  # -32768.0 fits s16 exactly: 0x8000, S
        "f2i s16 rni 0 0 47000000 -> 00007fff 0\n"  # 32768.0 clamps to 0x7fff
        "f2i u16 rni 0 1 3f800000 -> 00000000 1\n"  # -(1.0) to unsigned clamps to 0
        "i2f s16 rn 0000ffff -> bf800000 2\n"  # the s16 -1
        "i2f u8 rz 000001ff -> 437f0000 0\n"  # only the low byte: 255.0
        "fmad.sat rn 3f800000 40000000 bf800000 -> 3f800000 0\n",  # 1*2 - 1 = 1.0, inside [0, 1]
        encoding="utf-8",
    )
    passed, failures, errors = check_files([str(path)])
    assert (passed, failures, errors) == (6, [], [])


@pytest.mark.parametrize("path", PROGRAMS + BAD + sorted((ROOT / "bench").glob("*.sass")), ids=lambda p: p.stem)
def test_program_disassembly_reassembles(path: Path) -> None:
    from golden.g80.isa import format_listing

    words = load_program(path).program.words
    lines, _ = format_listing(words)
    assert assemble("\n".join(lines)).words == words


def test_texture_32bit_form_is_unimplemented_by_name() -> None:
    """TEX32 (the 32-bit form) is refused by name too, at its own PC."""
    code = assemble("MOV32 R1, R0\nTEX32.2D R0, 0x1, 0x1\nNOP").words
    sm = SM(code, Launch(), Memory("global", 16))
    with pytest.raises(UnimplementedError, match=r"^TEX32 at PC 0x0004 is not implemented \(TEX32.2D R0, 0x1, 0x1;"):
        sm.run()
