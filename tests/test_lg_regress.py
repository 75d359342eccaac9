"""`make regress ISA=lg`: the LG programs in lock-step and the bad programs through the regression's
engine (tb/regress.py), its records, its JUnit file and its summary (golden regress-summary --isa lg).

The runs are a subset (PYTEST_ARGS=-k): a straight-line program on Icarus, whose commits are its
instruction lines counted from the source; hazard_jsr_link on Verilator (15 commits, counted by hand:
tests/test_lg_lockstep.py's bring-your-own-core test says the same); one bad program.
"""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from conftest import ROOT, own_make_env

from golden.regress_summary import render_lg
from tb.regress import record_name

SUBSET = "alu-icarus or hazard_jsr_link-verilator or runaway"
IDS = ["test_lockstep[alu-icarus]", "test_lockstep[hazard_jsr_link-verilator]", "test_bad_program_ends_in_its_error_line[runaway]"]


def _make_regress(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "regress", "ISA=lg", f"REGRESS={folder}", "JOBS=2", f"PYTEST_ARGS=-k '{SUBSET}'", *extra], cwd=ROOT,
                          env=own_make_env("ISA", "REGRESS", "PYTEST_ARGS", "DUT", "RANDOM"), capture_output=True, text=True,
                          check=False, timeout=900)  # fmt: skip


def _cases(junit: Path) -> list[tuple[str, str, list[str]]]:
    return [(c.get("classname") or "", c.get("name") or "", [x.tag for x in c]) for c in ET.parse(junit).iter("testcase")]


def _instruction_lines(name: str) -> int:
    """The instructions of a straight-line program: its lines that are neither blank nor a comment."""
    text = (ROOT / "programs" / "lg" / f"{name}.lgs").read_text(encoding="utf-8")
    return sum(1 for line in text.splitlines() if line.split(";")[0].strip())


def test_regress_lg_on_a_subset_and_its_resume(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    proc = _make_regress(folder)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "regress: 3 tests of tests/test_lg_lockstep.py --regress on 2 worker(s)" in proc.stdout
    assert _cases(folder / "junit.xml") == [("tests.test_lg_lockstep", i, []) for i in IDS]
    assert sorted(p.name for p in (folder / "runs").glob("*.json")) == sorted(record_name(f"tests/test_lg_lockstep.py::{i}", "lg") for i in IDS)
    summary = (folder / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("# LG lock-step regression\n\n2 runs, 2 passed, 0 failed; 2 programs x 2 simulators; 1 bad programs, 1 ended in their error line.\n")
    assert "| program | icarus | verilator |" in summary
    alu = re.search(r"^\| alu \| (\d+) / (\d+) / (\d+) \| - \|$", summary, re.M)
    assert alu and int(alu[2]) == _instruction_lines("alu") == 14 and alu[3] == "0"
    assert int(alu[1]) > 14  # a pipeline: at least one cycle per commit and its fill
    assert re.search(r"^\| hazard_jsr_link \| - \| \d+ / 15 / 0 \|$", summary, re.M)
    assert "| bad/runaway | 1 | ends in its error line |" in summary
    assert "## Failures" not in summary

    # an interrupted regression (no summary yet) resumes: no run again, the same JUnit cases and summary
    (folder / "summary.md").unlink()
    again = _make_regress(folder)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert "regress: resuming: 3 finished runs kept in" in again.stdout
    assert _cases(folder / "junit.xml") == [("tests.test_lg_lockstep", i, []) for i in IDS]
    results = summary[summary.index("## Results") :]
    assert (folder / "summary.md").read_text(encoding="utf-8").endswith(results)


def test_a_g80_regression_starting_over_keeps_the_lg_folder(tmp_path: Path) -> None:
    """G80's folder holds LG's (build/regress/lg): starting G80 over removes its own files only."""
    lg = tmp_path / "lg" / "runs"
    lg.mkdir(parents=True)
    (lg / "alu_icarus.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "summary.md").write_text("an old G80 summary\n", encoding="utf-8")
    proc = subprocess.run(["make", "regress", f"REGRESS={tmp_path}", "JOBS=1", "PYTEST_ARGS=-k nosuchprogram"], cwd=ROOT,
                          env=own_make_env("ISA", "REGRESS", "PYTEST_ARGS", "DUT", "RANDOM"), capture_output=True, text=True,
                          check=False, timeout=300)  # fmt: skip
    assert "regress: 0 tests of tests/test_rtl_lockstep.py" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (lg / "alu_icarus.json").is_file()
    assert "an old G80 summary" not in (tmp_path / "summary.md").read_text(encoding="utf-8")


def test_record_names_of_the_lg_test_ids() -> None:
    assert record_name("tests/test_lg_lockstep.py::test_lockstep[hazard_raw_scalar-verilator]", "lg") == "hazard_raw_scalar_verilator.json"
    assert record_name("tests/test_lg_lockstep.py::test_bad_program_ends_in_its_error_line[bad_expect]", "lg") == "bad-bad_expect.json"
    assert record_name("tests/test_lg_lockstep.py::test_the_demos_draw_frames", "lg") is None
    assert record_name("tests/test_rtl_lockstep.py::test_lockstep[vecadd-icarus-sp16]") == "vecadd_icarus_sp16_s1.json"


def test_summary_names_a_failure_at_its_first_wrong_instruction() -> None:
    """Records as a failing run and a bad program that did not end in its line would write them."""
    runs = [
        {"isa": "lg", "program": "hazard_raw_scalar", "sim": "icarus", "passed": False, "commits": 1, "cycles": 9, "pixels": 0, "wall": 1.0,
         "rerun": "make sim ISA=lg TEST=hazard_raw_scalar SIM=icarus WAVES=1", "kind": "mismatch", "message": "rd_val differs",
         "pc": 4, "text": "addi.d r1 r0 2", "field": "rd_val", "wave_file": None, "image": None, "report": "build/x/report.json"},
        {"isa": "lg", "program": "hazard_raw_scalar", "sim": "verilator", "passed": True, "commits": 9, "cycles": 30, "pixels": 0, "wall": 1.0},
        {"isa": "lg", "bad": True, "program": "bad/r15_write", "passed": False, "expected": "sim: x.lgs:3:1: r15 is the PC", "expected_exit": 2,
         "exit": 0, "got": "", "broken": ["its one error line", "exit 2"], "rerun": "make sim ISA=lg TEST=programs/lg/bad/r15_write.lgs"},
    ]  # fmt: skip
    page = render_lg(runs, [])
    assert "1 runs" not in page and "2 runs, 1 passed, 1 failed; 1 programs x 2 simulators; 1 bad programs, 0 ended in their error line." in page
    assert "| hazard_raw_scalar | **FAIL** (mismatch at PC 0x0004 `addi.d r1 r0 2` (field rd_val)) | 30 / 9 / 0 |" in page
    assert "| bad/r15_write | 0 | **FAIL** (not: its one error line, exit 2) |" in page
    assert "- hazard_raw_scalar on icarus: mismatch at PC 0x0004 `addi.d r1 r0 2` (field rd_val): rd_val differs" in page
    assert "  - report: build/x/report.json\n  - rerun: `make sim ISA=lg TEST=hazard_raw_scalar SIM=icarus WAVES=1`" in page
    assert "- bad/r15_write: expected `sim: x.lgs:3:1: r15 is the PC` and exit 2; got `` and exit 0" in page
