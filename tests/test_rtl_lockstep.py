"""Programs on the RTL in lock-step with the golden model (tb/test_sm.py), on both simulators.

Every integer, data-movement and control program of programs/ runs with NUM_SP = 8; a smoke set
runs with 16 and 32 lanes per pass. Floating-point and SFU programs wait for their datapaths
(the RTL reports them as unimplemented).
"""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tb"))
from runner import SIMULATORS, SM_SOURCES, assert_passed, run

FP_FAMILIES = {"fadd", "fmul", "fmad", "fminmax", "fset", "fslct", "i2f", "f2i", "f2f", "sfu"}
PROGRAMS = sorted(p.stem for p in (ROOT / "programs").glob("*.sass") if p.stem not in FP_FAMILIES)
SMOKE = ["vecadd", "cf_ifelse", "cf_barrier", "global"]


def run_program(sim: str, program: str, num_sp: int = 8, seed: int = 1) -> None:
    params = (("NUM_SP", num_sp),) if num_sp != 8 else ()
    assert_passed(run(sim, "sm_top", SM_SOURCES, "test_sm", params,
                      extra_env={"PROGRAM": str(ROOT / "programs" / f"{program}.sass"), "SEED": str(seed)},
                      test_dir=ROOT / "build" / "sim" / f"{program}_{sim}_{num_sp}"))  # fmt: skip


def test_program_lists() -> None:
    assert len(PROGRAMS) >= 25 and set(SMOKE) <= set(PROGRAMS)


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("program", PROGRAMS)
def test_lockstep(sim: str, program: str) -> None:
    run_program(sim, program)


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("num_sp", [16, 32])
@pytest.mark.parametrize("program", SMOKE)
def test_lockstep_num_sp(sim: str, num_sp: int, program: str) -> None:
    run_program(sim, program, num_sp)
