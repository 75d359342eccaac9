"""Every row of every real nvcc listing in testdata/vectors/listings, through check-listing."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTDATA

from golden.cli import main
from golden.g80.listing import check_rows, normalise, read_listing

LISTINGS = sorted((TESTDATA / "vectors" / "listings").glob("*.txt"))


def test_there_are_listings() -> None:
    assert len(LISTINGS) >= 7


@pytest.mark.parametrize("path", LISTINGS, ids=lambda p: p.name)
def test_listing(path: Path) -> None:
    rows = read_listing(str(path))
    assert rows, "no rows read"
    passed, failures = check_rows(rows)
    assert not failures, "\n".join(f.format() for f in failures)
    assert passed == len(rows)


def test_check_listing_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-listing", "-q", *map(str, LISTINGS)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    total = sum(len(read_listing(str(p))) for p in LISTINGS)
    assert out[-1] == f"{total} passed, 0 failed"


def _write(tmp_path: Path, rows: str) -> str:
    path = tmp_path / "listing.txt"
    path.write_text("# columns: addr | word0 word1 | NVIDIA | envytools\n" + rows, encoding="utf-8")
    return str(path)


def test_check_listing_reports_a_wrong_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path,
        "0000 | 20000801 04004500 | IADD R0 (C0.EQU), R4, R2 | x\n"  # the words say R1
        "0008 | f0000001 e0000001 | NOP | exit (never) nop\n",
    )
    assert main(["check-listing", "-q", path]) == 1
    out = capsys.readouterr().out
    assert "disassembly differs" in out and "IADD R0 (C0.EQU), R4, R1" in out
    assert out.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_check_listing_reports_wrong_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A join marker that the text does not show, and an illegal word.
    path = _write(tmp_path, "0000 | 10004205 0023c782 | MOV.U16 R0H, g [0x1].U16 | x\n0008 | 80000001 00000000 | | x\n")
    assert main(["check-listing", "-q", path]) == 1
    out = capsys.readouterr().out
    assert "MOV.S.U16" in out
    assert "interp (fragment programs only)" in out
    assert out.strip().splitlines()[-1] == "0 passed, 2 failed"


def test_round_trip_rows_without_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Rows with an empty NVIDIA column check words -> text -> words, exit marker at the end.
    path = _write(tmp_path, "0000 | 30000003 00000280 |  | x\n0008 | d00e0005 a0c00781 |  | x\n")
    assert main(["check-listing", "-q", path]) == 0
    assert capsys.readouterr().out.strip() == "2 passed, 0 failed"


def test_empty_listing_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-listing", "-q", _write(tmp_path, "")]) == 1
    assert capsys.readouterr().out.strip() == "0 passed, 1 failed"


def test_listing_text_with_absolute_value_bars() -> None:
    rows = read_listing(str(TESTDATA / "vectors" / "listings" / "Reduction_kernel.txt"))
    assert any(r.nvidia == "I2I.U32.S32 R8, |R3|" for r in rows)


@pytest.mark.parametrize(
    ("a", "b"),
    [("IADD R5, g [0x4], R0", "IADD R5, g[0x4], R0"), ("ISET.S32.C0 o [0x7f], R2", "ISET.S32.C0 o[0x7f], R2"),
     ("c [0x1] [0x0]", "c[0x1][0x0]"), ("BRA  0x4e0;", "BRA 0x4e0"), ("MOV R1, 0xAB", "MOV R1, 0xab")],
)
def test_normalise(a: str, b: str) -> None:
    assert normalise(a) == normalise(b)
