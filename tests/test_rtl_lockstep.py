"""Programs on the RTL in lock-step with the golden model (tb/test_sm.py), on both simulators."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tb"))
from runner import SIMULATORS, run

SOURCES = ("sm_top.v", "sm_decode.v", "sm1_int_alu.v")


def run_program(sim: str, program: str, seed: int = 1, params: tuple = ()) -> None:
    results = run(sim, "sm_top", SOURCES, "test_sm", params,
                  extra_env={"PROGRAM": str(ROOT / "programs" / f"{program}.sass"), "SEED": str(seed)},
                  test_dir=ROOT / "build" / "sim" / f"{program}_{sim}")  # fmt: skip
    cases = ET.parse(results).findall(".//testcase")
    assert cases, "no cocotb test ran"
    for case in cases:
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        assert failure is None, failure.get("message")


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("program", ["vecadd"])
def test_lockstep(sim: str, program: str) -> None:
    run_program(sim, program)
