"""The command line: asm, disasm, check-listing (also as console scripts)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
