"""The command line: asm, disasm, check-listing (also as console scripts)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from golden.cli import main

SRC = """// VectorAdd, as nvcc compiled it (testdata/vectors/listings/VectorAdd_integer_kernel.txt)
MOV.U16 R0H, g [0x1].U16
I2I.U32.U16 R1, R0L
IMAD.U16 R0, g [0x6].U16, R0H, R1
SHL R2, R0, 0x2
IADD32 R0, g [0x4], R2
IADD32 R3, g [0x6], R2
GLD.U32 R1, global14[R0]
GLD.U32 R0, global14[R3]
IADD32 R1, R1, R0
IADD32 R0, g [0x8], R2
GST.U32 global14[R0], R1
"""
WORDS = [0x10004205, 0x0023C780, 0xA0000005, 0x04000780, 0x60014C01, 0x00204780, 0x30020009, 0xC4100780,
         0x2102E800, 0x2102EC0C, 0xD00E0005, 0x80C00780, 0xD00E0601, 0x80C00780, 0x20008204, 0x2102F000,
         0xD00E0005, 0xA0C00781]  # fmt: skip


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "vadd.sass"
    path.write_text(SRC, encoding="utf-8")
    return path


def test_asm_hex_to_stdout(source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["asm", str(source)]) == 0
    assert [int(w, 16) for w in capsys.readouterr().out.split()] == WORDS


def test_asm_binary_file_and_disasm_back(source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "vadd.bin"
    assert main(["asm", str(source), "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data == b"".join(w.to_bytes(4, "little") for w in WORDS)
    assert main(["disasm", str(out)]) == 0
    text = capsys.readouterr().out
    assert "IMAD.U16 R0, g [0x6].U16, R0H, R1" in text
    assert text.strip().splitlines()[-1].startswith("/*0040*/ GST.U32 global14[R0], R1 ")  # exit implicit
    relisted = tmp_path / "relisted.sass"
    relisted.write_text(text, encoding="utf-8")
    assert main(["asm", str(relisted), "--format", "hex"]) == 0
    assert [int(w, 16) for w in capsys.readouterr().out.split()] == WORDS


def test_disasm_hex_file_and_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "code.hex"
    path.write_text("# two instructions\n30000003 00000280\nf0000001 e0000001  // end\n", encoding="utf-8")
    assert main(["disasm", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("/*0000*/ RET C0.NE ") and lines[1].startswith("/*0008*/ NOP ")
    assert main(["disasm", "--hex", "10009003", "00000780", "--base", "0x100"]) == 0
    assert capsys.readouterr().out.startswith("/*0100*/ BRA 0x48 ")


def test_disasm_illegal_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["disasm", "--hex", "80000001", "00000780"]) == 1
    assert "illegal instruction at 0x0000 (80000001 00000780): opcode 8.0 is interp" in capsys.readouterr().err
    assert main(["disasm", "--keep-going", "--hex", "80000001", "00000780", "30000003", "00000780"]) == 1
    captured = capsys.readouterr()
    assert "illegal: 80000001 00000780" in captured.out and "RET" in captured.out


def test_asm_error_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.sass"
    path.write_text("NOP\nIADD R0, R1, R999\n", encoding="utf-8")
    assert main(["asm", str(path)]) == 1
    assert f"{path}:2:14: error: register R999 out of range" in capsys.readouterr().err
    assert main(["asm", str(tmp_path / "missing.sass")]) == 1


def test_asm_notes_promotion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.sass"
    path.write_text("MOV32 R0, R1\nRET\n", encoding="utf-8")
    assert main(["asm", str(path)]) == 0
    assert "MOV32 assembled as MOV" in capsys.readouterr().err


def test_console_scripts_and_module(source: Path) -> None:
    exe = Path(sys.executable).parent / "golden-asm"
    if not exe.exists():
        exe_path = shutil.which("golden-asm")
        assert exe_path, "console script golden-asm is not installed (run make setup)"
        exe = Path(exe_path)
    out = subprocess.run([str(exe), str(source)], capture_output=True, text=True, check=True).stdout
    assert [int(w, 16) for w in out.split()] == WORDS
    out = subprocess.run([sys.executable, "-m", "golden", "disasm", "--hex", "30000003", "00000780"],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert out.startswith("/*0000*/ RET ")


def test_roundtrip_writes_the_images_and_compares(source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`golden roundtrip` (make sim's first step): the words are nvcc's (the listing), the printed
    disassembly has one line per instruction, and the re-assembled image is identical."""
    out = tmp_path / "out"
    assert main(["roundtrip", str(source), "-o", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [int(w, 16) for w in (out / "vadd.hex").read_text().split()] == WORDS
    assert (out / "vadd.rt.hex").read_bytes() == (out / "vadd.hex").read_bytes()
    assert printed[-1] == "vadd: 11 instructions, text -> words -> text -> words identical"
    assert printed[:-1] == (out / "vadd.dis").read_text().splitlines() and len(printed) == 12
    assert printed[0].startswith("/*0000*/ MOV.U16 R0H, g [0x1].U16")


def test_roundtrip_names_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.sass"
    path.write_text("NOP\nIADD R0, R1, R999\n", encoding="utf-8")
    assert main(["roundtrip", str(path), "-o", str(tmp_path)]) == 1
    assert f"{path}:2:14: error: register R999 out of range" in capsys.readouterr().err


def test_coverage_runs_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """make coverage's fan-out: per program the ISA coverage JSON, the cross-coverage JSON and a log; a program that fails on the model
    (programs/bad/trap.sass executes TRAP) is named with its log, and the exit code is 1."""
    programs = [str(ROOT / "programs" / "vecadd.sass"), str(ROOT / "programs" / "iadd.sass")]
    out = tmp_path / "golden"
    assert main(["coverage-runs", *programs, "-o", str(out), "--jobs", "2"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["iadd.cross.json", "iadd.json", "iadd.log", "vecadd.cross.json", "vecadd.json", "vecadd.log"]
    assert "passed, 0 failed" in (out / "vecadd.log").read_text()
    (tmp_path / "rtl").mkdir()  # make coverage with COVERAGE_RTL=0: an empty folder of testbench runs
    assert main(["coverage-report", "-o", str(tmp_path / "rep"), str(out), str(tmp_path / "rtl")]) == 0
    report = capsys.readouterr().out
    assert "coverage: 4 files," in report and "coverage: crosses:" in report
    trap = str(ROOT / "programs" / "bad" / "trap.sass")
    assert main(["coverage-runs", programs[0], trap, "-o", str(tmp_path / "g2")]) == 1
    err = capsys.readouterr().err
    assert f"coverage: {trap} failed (see {tmp_path / 'g2' / 'trap.log'})" in err and "TRAP" in (tmp_path / "g2" / "trap.log").read_text()


def test_regress_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    base = {"seed": 1, "mem_requests": 0, "thread_instructions": 0, "wave_file": None}
    records = [
        {**base, "program": "iadd", "sim": "icarus", "num_sp": 8, "passed": True, "commits": 195, "cycles": 3343, "wall": 2.0,
         "rerun": "make sim TEST=iadd", "kind": None, "message": None},
        {**base, "program": "vecadd", "sim": "icarus", "num_sp": 8, "passed": False, "commits": 3, "cycles": 10, "wall": 1.0,
         "rerun": "make sim TEST=vecadd SIM=icarus NUM_SP=8 SEED=1 WAVES=1", "kind": "mismatch", "message": "gpr differs"},
    ]  # fmt: skip
    for r in records:
        (runs / f"{r['program']}.json").write_text(json.dumps(r))
    page = tmp_path / "summary.md"
    assert main(["regress-summary", str(runs), "--junit", str(tmp_path / "none.xml"), "-o", str(page)]) == 1
    text = page.read_text()
    assert "2 runs, 1 passed, 1 failed" in text and "| iadd | 3343 / 195 |" in text and "| vecadd | **FAIL** (mismatch) |" in text
    assert "rerun: `make sim TEST=vecadd SIM=icarus NUM_SP=8 SEED=1 WAVES=1`" in text
    (runs / "vecadd.json").unlink()
    assert main(["regress-summary", str(runs), "--junit", str(tmp_path / "none.xml")]) == 0
    assert main(["regress-summary", str(tmp_path / "nothing"), "--junit", str(tmp_path / "none.xml")]) == 1
    assert "no runs recorded" in capsys.readouterr().err


def test_a_reader_that_goes_away_ends_the_tool_quietly() -> None:
    """`golden ... | head`: the pipe closes under the writer; no traceback and no message, exit 1."""
    code = ("import sys\nfrom golden.errors import guarded\n"
            "def body():\n    raise BrokenPipeError(32, 'Broken pipe')\n"
            "sys.exit(guarded('golden', body))\n")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert (r.returncode, r.stderr) == (1, "")
