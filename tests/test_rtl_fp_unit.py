"""rtl/sm1_fp_alu.v: every line of the silicon FP vectors and a golden-model cross-check, on both simulators;
the vector-line parser of tb/test_fp_unit.py; scripts/rtl_vectors.py (`make rtl-vectors`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TESTDATA, own_make_env

from golden.g80.vectors import FP_OPS
from tb.config import UnitConfig
from tb.runner import SIMULATORS, assert_passed, run


def fp_line_count(path: Path) -> int:
    """FP lines of a file, counted from its text (not through the reader the unit test uses)."""
    count = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        text = raw.strip()
        if text and not text.startswith("#") and text.split()[0] in FP_OPS:
            count += 1
    return count


@pytest.mark.parametrize("sim", SIMULATORS)
def test_rtl_fp_unit(sim: str) -> None:
    vectors = TESTDATA / "vectors" / "fp32.txt"
    test_dir = ROOT / "build" / "sim" / f"fp_unit_{sim}"
    result = test_dir / "fp_unit.json"
    result.unlink(missing_ok=True)
    test_dir.mkdir(parents=True, exist_ok=True)
    config = UnitConfig(vectors=(str(vectors),), result=str(result))
    plusarg = config.plusarg(config.write(test_dir / "unit.json"))
    assert_passed(run(sim, "sm1_fp_alu", ("sm1_fp_alu.v",), "tb.test_fp_unit", plusargs=(plusarg,), test_dir=test_dir))
    summary = json.loads(result.read_text(encoding="utf-8"))
    expected = fp_line_count(vectors)
    assert expected > 2000, f"only {expected} FP lines counted in {vectors}"
    assert summary["unit"] == "fp"
    assert (summary["passed"], summary["failed"], summary["other_lines"]) == (expected, 0, 0), summary["failures"][:10]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("fadd rn 3f800000 zz -> 40000000 0", "'zz' is not a hex number"),
        ("fadd rm 3f800000 3f800000 -> 40000000 0", "rounds rn or rz"),
        ("fmul rn 3f800000 -> 3f800000 0", "fmul takes 3 fields"),
        ("fset 10 3f800000 3f800000 -> 00000000 1", "not a 4-bit mask"),
        ("f2i u8 rni 0 0 3f800000 -> 00000001 0", "unknown destination 'u8'"),
        ("f2i s32 rni 2 0 3f800000 -> 00000001 0", "abs must be 0 or 1"),
        ("i2f f32 rn 00000001 -> 3f800000 0", "unknown source type 'f32'"),
        ("f2f rn 3f800000 -> 3f800000 0", "unknown mode 'rn'"),
        ("fmin 3f800000 100000000 -> 3f800000 0", "does not fit 32 bits"),
    ],
)
def test_malformed_fp_line_names_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    from golden.g80.vectors import read_vectors
    from tb.test_fp_unit import inputs_of

    path = tmp_path / "bad.txt"
    path.write_text(f"# header\nrcp 3f800000 -> 3f800000\n{line}\n", encoding="utf-8")
    sfu_line, fp_line = read_vectors(path)
    assert inputs_of(sfu_line) is None  # another unit's line is not an error
    with pytest.raises(ValueError, match=rf"^{path}:3: .*{message}"):
        inputs_of(fp_line)


def test_rtl_vectors_script_counts_and_fails(tmp_path: Path) -> None:
    """One right and one wrong FP line (1.0 + 1.0 = 2.0 = 0x40000000), one integer line: the script
    reports per unit and in total, counts the integer line as neither unit's, and exits 1."""
    path = tmp_path / "mixed.txt"
    path.write_text("fadd rn 3f800000 3f800000 -> 40000000 0\nfadd rn 3f800000 3f800000 -> 40000001 0\n"
                    "iadd add b32 0 00000001 00000002 0 -> 00000003 0\n", encoding="utf-8")  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}  # the script runs as from make, not under pytest
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "rtl_vectors.py"), "--sim", "icarus", str(path)], capture_output=True, text=True, env=env)
    out = proc.stdout
    assert proc.returncode == 1, out[-3000:] + proc.stderr[-3000:]
    assert "fp: 1 passed, 1 failed (2 lines)" in out
    assert f"{path}:2: fadd rn 3f800000 3f800000 -> 40000001 0 -> got 40000000 0" in out
    assert "not FP/SFU: 1 lines" in out
    assert out.rstrip().endswith("1 passed, 1 failed")


def _rtl_vectors_by_make(vectors: str) -> subprocess.CompletedProcess[str]:
    """`make rtl-vectors VECTORS=...` as docs/reference/make-targets.md shows it (SETUP= skips the setup prerequisite;
    the test's own interpreter runs the script); make exports VECTORS to the script's environment."""
    env = own_make_env("PYTEST_CURRENT_TEST")
    return subprocess.run(["make", "-s", "-C", str(ROOT), "rtl-vectors", "SETUP=", f"PY={sys.executable}", f"VECTORS={vectors}", "SIM=icarus"],
                          capture_output=True, text=True, env=env)  # fmt: skip


def test_make_rtl_vectors_takes_two_files(tmp_path: Path) -> None:
    """Two names in VECTORS are two files: 1.0 + 1.0 = 2.0 (fp32 0x40000000) in one, rcp(2.0) = 0.5
    (FP_SFU.md 11.1) in the other; each unit runs its line and the total counts both."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("fadd rn 3f800000 3f800000 -> 40000000 0\n", encoding="utf-8")
    b.write_text("rcp 40000000 -> 3f000000\n", encoding="utf-8")
    proc = _rtl_vectors_by_make(f"{a} {b}")
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-3000:]
    assert "2 file(s), 2 lines" in out
    assert "fp: 1 passed, 0 failed (1 lines)" in out and "sfu: 1 passed, 0 failed (1 lines)" in out
    assert out.rstrip().endswith("2 passed, 0 failed")


def test_rtl_vectors_nothing_ran_is_a_failure(tmp_path: Path) -> None:
    """A file with no FP or SFU line checks nothing: the last line says so and the exit code is 1."""
    path = tmp_path / "int_only.txt"
    path.write_text("# iadd: op width sat a b cin -> result flags\niadd add b32 0 00000001 00000002 0 -> 00000003 0\n", encoding="utf-8")
    proc = _rtl_vectors_by_make(str(path))
    assert proc.returncode != 0
    assert proc.stdout.rstrip().splitlines()[-1] == f"nothing ran: none of the 1 lines of {path} is an FP or SFU line"


def test_rtl_vectors_nothing_ran_when_both_units_stop(tmp_path: Path) -> None:
    """An FP line the unit test rejects (G80's FADD rounds rn or rz only) and no SFU line: neither
    unit completes a check, so the summary is `nothing ran` with each unit's reason, not `0 passed`."""
    path = tmp_path / "bad_fp.txt"
    path.write_text("fadd rm 3f800000 3f800000 -> 40000000 0\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "rtl_vectors.py"), "--sim", "icarus", str(path)], capture_output=True, text=True, env=env)
    last = proc.stdout.rstrip().splitlines()[-1]
    assert proc.returncode == 1
    assert last.startswith("nothing ran: no FP or SFU check completed (fp: ") and "rounds rn or rz" in last and "sfu: " in last, last
