"""Lock-step reports of DUT errors and `make sim` by path, on the RTL.

When the RTL stops with an error code, the report must give the instruction (PC, disassembly), the
block, and what the golden model does with the same instruction of the same warp: the lane and
address of its fault. The programs fault where their own comments and ISA.md 7.2 (shared offsets
in units of the access size) say. `make sim` takes a program by path and prints a rerun command
that works for it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, own_make_env

from tb.lockstep import LockstepRun, run_lockstep

LANE8 = """// lane t reads shared word 0x800 * t: lane 8 is the first past 16 KiB
.block 32
        I2I.U32.U16 R1, R0L
        SHL R1, R1, 0xb
        R2A A1, R1
        MOV R2, g [A1+0x0]
"""


@pytest.mark.parametrize(("program", "pc", "text", "model_says"), [
    # MVI R1, 0x3ffc; R2A A1, R1; g[A1+0x4] is byte 0x3ffc + 4 * 4 (units of 4 bytes)
    ("programs/bad/shared_oob.sass", 0x10, "MOV.E R2, g [A1+0x4]", "lane 0: shared access of 4 byte(s) at 0x400c is outside 0..0x3fff"),
    (None, 0x18, "MOV.E R2, g [A1+0x0]", "lane 8: shared access of 4 byte(s) at 0x4000 is outside 0..0x3fff"),
    ("programs/bad/stack_overflow.sass", 0x0, "CAL 0x0", "StackError: block 0 warp 0 PC 0x0000: SIMT stack overflow"),
])  # fmt: skip
def test_rtl_error_report_names_instruction_and_what_the_model_says(tmp_path: Path, program: str | None, pc: int, text: str, model_says: str) -> None:
    if program is None:
        path = tmp_path / "lane8.sass"
        path.write_text(LANE8, encoding="utf-8")
        program = str(path)
    r = LockstepRun(str(ROOT / program) if not Path(program).is_absolute() else program, "icarus", out=tmp_path / "run")
    result = run_lockstep(r, rerun_with_waves=False)
    report = result.report
    assert report is not None and report.kind == "rtl_error", result.summary()
    assert (report.pc, report.text, report.block, report.cta, report.warp) == (pc, text, 0, 0, 0)
    assert "it stops too, so the program is at fault" in report.model_says and model_says in report.model_says
    assert report.history[-1].startswith(f"{pc:04x}  {text}")
    printed = report.to_text()
    assert f"block 0 (slot 0), warp 0, PC {pc:#06x}:  {text}" in printed and "golden model on the same instruction:" in printed


def test_memory_fault_report_names_warp_instruction_and_what_the_model_says(tmp_path: Path) -> None:
    """programs/bad/global_oob.sass: lane 1 loads from 1 << 16 (its comment), past the 512-byte
    global memory; the testbench's memory refuses the request, and the report finds the warp and
    instruction through the model, which faults at the same lane and address."""
    r = LockstepRun(str(ROOT / "programs" / "bad" / "global_oob.sass"), "icarus", out=tmp_path / "run")
    result = run_lockstep(r, rerun_with_waves=False)
    report = result.report
    assert report is not None and report.kind == "memory_fault", result.summary()
    assert (report.warp, report.pc, report.text, report.block) == (0, 0x10, "GLD.E.U32 R3, global14[R2]", 0)
    assert "global memory at 0x10000" in report.message and "lane 1, part 0" in report.message
    assert "it faults too, so the program is at fault" in report.model_says
    assert "lane 1: global access of 4 byte(s) at 0x10000 is outside 0..0x1ff" in report.model_says


# a make of our own: no variables of an enclosing `make test SIM=...` (they travel in MAKEFLAGS)
CLEAN_ENV = own_make_env()


def make_sim(test: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", "sim", f"TEST={test}"], cwd=ROOT, capture_output=True, text=True, timeout=600, env=CLEAN_ENV)


def test_make_sim_takes_a_path_and_its_rerun_command_works(tmp_path: Path) -> None:
    """A passing program outside programs/ by absolute path (the model runs first), then a failing
    one by relative path: the printed rerun command, run as printed, fails the same way."""
    ok = tmp_path / "mov.sass"
    ok.write_text(".block 32\n.buffer out u32 32\n.param out\n.expect out = np.arange(32) * 4\n"
                  "        I2I.U32.U16 R1, R0L\n        SHL R1, R1, 0x2\n        IADD32 R2, g [0x4], R1\n        GST.U32 global14[R2], R1\n",
                  encoding="utf-8")  # fmt: skip
    done = make_sim(str(ok))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "-m golden run " + str(ok) in done.stdout and "1 passed, 0 failed" in done.stdout
    assert "mov on verilator (NUM_SP=8, seed 1): PASS" in done.stdout  # make sim's default simulator

    failed = make_sim("programs/bad/shared_oob.sass")
    assert failed.returncode != 0
    rerun = re.search(r"rerun: (make sim .*)", failed.stdout)
    assert rerun is not None, failed.stdout[-3000:]
    assert rerun.group(1) == "make sim TEST=programs/bad/shared_oob.sass SIM=verilator NUM_SP=8 SEED=1 WAVES=1"
    again = subprocess.run([*rerun.group(1).split(), "--no-print-directory"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                           env=CLEAN_ENV)  # fmt: skip
    assert again.returncode != 0
    assert "LOCK-STEP FAILURE (rtl_error): shared_oob" in again.stdout and "dump.fst (look at cycle" in again.stdout
    assert f"rerun: {rerun.group(1)}" in again.stdout
    # a passing run asked for waveforms says where they are
    waved = subprocess.run(["make", "--no-print-directory", "sim", f"TEST={ok}", "WAVES=1"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                           env=CLEAN_ENV)  # fmt: skip
    assert waved.returncode == 0, waved.stdout[-3000:]
    wave = re.search(r"^waveform: (\S+)$", waved.stdout, re.M)
    assert wave is not None and Path(wave.group(1)).stat().st_size > 0, waved.stdout[-3000:]
