"""rtl/sm1_sfu.v on both simulators: every check of the SFU vectors (testdata/vectors/sfu.txt) (both stages of the
presin/preex2 lines) and random operations against golden.g80.arith.sfu (tb/test_sfu_unit.py), with the
RESULT JSON contract of scripts/rtl_vectors.py checked against counts taken from the files here."""

from __future__ import annotations

import contextlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import ROOT, TESTDATA

from golden.g80.vectors import SFU_OPS
from tb.config import UnitConfig
from tb.runner import SIMULATORS, assert_passed, run

BUILD = ROOT / "build" / "sim"


def count(path: Path) -> tuple[int, int]:
    """(SFU checks, other lines) of a vector file, from its text alone: an SFU line is one check
    plus one per `; name -> value` follow-up (presin: sin and cos of the code; preex2: ex2)."""
    checks = other = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        if text.split()[0] in SFU_OPS:
            checks += 1 + text.count(";")
        else:
            other += 1
    return checks, other


def run_unit(sim: str, name: str, vectors: list[Path], test_filter: str | None = None, expect_fail: bool = False) -> tuple[Path, Path]:
    """Run tb/test_sfu_unit.py; returns (results XML, RESULT JSON path). For an expected failure
    the XML is the one the run left in test_dir (whether the cocotb runner exits or returns)."""
    test_dir = BUILD / f"sfu_unit_{name}_{sim}"
    test_dir.mkdir(parents=True, exist_ok=True)
    result = test_dir / "result.json"
    for stale in (result, *test_dir.glob("*.xml")):  # a stale summary must not pass for this run's
        stale.unlink(missing_ok=True)
    config = UnitConfig(vectors=tuple(map(str, vectors)), result=str(result), seed=1)
    plusargs = (config.plusarg(config.write(test_dir / "unit.json")),)
    env = {"COCOTB_TEST_FILTER": test_filter} if test_filter else {}  # cocotb's own selection of tests
    if not expect_fail:
        return run(sim, "sm1_sfu", ("sm1_sfu.v",), "tb.test_sfu_unit", extra_env=env, plusargs=plusargs, test_dir=test_dir), result
    with contextlib.suppress(SystemExit):
        run(sim, "sm1_sfu", ("sm1_sfu.v",), "tb.test_sfu_unit", extra_env=env, plusargs=plusargs, test_dir=test_dir)
    (xml,) = test_dir.glob("*.xml")
    return xml, result


@pytest.mark.parametrize("sim", SIMULATORS)
def test_rtl_sfu_unit(sim: str) -> None:
    sfu_txt, fp32_txt = TESTDATA / "vectors" / "sfu.txt", TESTDATA / "vectors" / "fp32.txt"
    checks, others = count(sfu_txt)
    fp_checks, fp_lines = count(fp32_txt)
    assert checks > 0 and others == 0 and fp_checks == 0
    # fp32.txt rides along to show that lines of other units are counted and skipped
    xml, result = run_unit(sim, "all", [sfu_txt, fp32_txt])
    assert_passed(xml)
    assert {c.get("name") for c in ET.parse(xml).findall(".//testcase")} == {"vectors", "random_against_model"}
    data = json.loads(result.read_text(encoding="utf-8"))
    assert data["unit"] == "sfu"
    assert (data["passed"], data["failed"], data["failures"]) == (checks, 0, [])
    assert data["other_lines"] == fp_lines


def test_rtl_sfu_unit_reports_a_wrong_value(tmp_path: Path) -> None:
    # rcp(2.0) = 0.5 and rsqrt(4.0) = 0.5 exactly (FP_SFU.md 11.1, 11.2); the second line's sin
    # value is deliberately wrong (sin of the +0 code is +0, 12.1), so exactly one check fails
    bad = tmp_path / "wrong.txt"
    bad.write_text("# rcp/rsqrt: input -> output\nrcp 40000000 -> 3f000000\npresin 00000000 -> 00000000 ; sin -> 3f800000 ; cos -> 3f800000\n"
                   "rsqrt 40800000 -> 3f000000\niadd add b32 0 1 2 0 -> 3 0\n", encoding="utf-8")  # fmt: skip
    xml, result = run_unit("icarus", "wrong", [bad], r"\.vectors$", expect_fail=True)
    with pytest.raises(AssertionError, match="1 of 5 SFU checks differ"):
        assert_passed(xml)
    data = json.loads(result.read_text(encoding="utf-8"))
    assert (data["passed"], data["failed"], data["other_lines"]) == (4, 1, 1)
    assert data["failures"] == [f"{bad}:3: presin 00000000 -> 00000000 ; sin -> 3f800000 ; cos -> 3f800000 -> got sin 00000000, expected 3f800000"]


def test_rtl_sfu_unit_rejects_a_malformed_line(tmp_path: Path) -> None:
    bad = tmp_path / "malformed.txt"
    bad.write_text("rcp 40000000 -> 3f000000\nrcp 40000000 40000000 -> 3f000000\n", encoding="utf-8")
    xml, result = run_unit("icarus", "malformed", [bad], r"\.vectors$", expect_fail=True)
    with pytest.raises(AssertionError, match=f"{bad}:2"):
        assert_passed(xml)
    assert not result.exists()
