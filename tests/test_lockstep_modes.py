"""Free-running runs (`make sim LOCKSTEP=0`) and commit traces (tb/trace.py).

A free-running run compares the DUT's commit trace with the golden model after the run, with the
same scoreboard: a broken RTL variant (tb/mutants.py) must be reported exactly as lock-step
reports it, and a passing run must compare as many commits as the golden model alone executes.
A trace file replayed without a simulator must compare the same way, and a lane changed in it
must be reported at its instruction, naming that lane.
"""

from __future__ import annotations

import pickle
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import build
from tb.lockstep import LockstepRun, run_lockstep
from tb.trace import load, replay


def _model_commits(program: str) -> int:
    """Warp-instructions of `program` on the golden model alone (its own run, no DUT)."""
    sm, _ = build(load_program(ROOT / "programs" / f"{program}.sass"), G80)
    return sum(1 for _ in sm.commits())


def test_free_running_reports_a_mismatch_as_lockstep_does(tmp_path: Path) -> None:
    reports = []
    for lockstep in (True, False):
        r = LockstepRun("iadd", "icarus", defines=("MUTANT_CARRY",), lockstep=lockstep, out=tmp_path / f"run_{lockstep}")
        result = run_lockstep(r, rerun_with_waves=False)
        assert not result.passed and result.report is not None
        reports.append(asdict(result.report))
    same, free = reports
    for key in ("kind", "message", "cycle", "cta", "block", "warp", "pc", "text", "diffs", "history"):
        assert free[key] == same[key], key
    assert "IADD.CARRY" in free["text"]  # the mutant breaks the carry-in add (tb/mutants.py)
    assert free["rerun"].endswith("LOCKSTEP=0 WAVES=1") and "LOCKSTEP" not in same["rerun"]


@pytest.fixture(scope="module")
def vecadd_trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("free")
    trace = out / "vecadd.trace"
    result = run_lockstep(LockstepRun("vecadd", "icarus", lockstep=False, trace=trace, out=out / "run"), rerun_with_waves=False)
    assert result.passed, result.summary()
    assert result.commits == _model_commits("vecadd")
    assert result.extra["run_s"] > 0 and result.extra["replay_cpu_s"] > 0
    return trace


def test_trace_replays_without_a_simulator(vecadd_trace: Path) -> None:
    rep = replay(vecadd_trace)
    assert rep.report is None
    assert rep.compared == rep.commits == _model_commits("vecadd")


def test_a_changed_lane_in_a_trace_is_reported_at_its_instruction(vecadd_trace: Path, tmp_path: Path) -> None:
    data = load(vecadd_trace)
    events = data["events"]
    k, item = next((k, item) for k, (store, item) in enumerate(events) if not store and item.commit.gpr and item.commit.exec_mask >> 5 & 1)
    values = np.array(item.commit.gpr[0].values, np.uint32)
    values[5] ^= 0x100
    item.commit.gpr[0].values = values
    bad = tmp_path / "bad.trace"
    bad.write_bytes(pickle.dumps(data))
    rep = replay(bad)
    assert rep.report is not None and rep.report.kind == "mismatch"
    assert (rep.report.warp, rep.report.pc) == (item.commit.warp, item.commit.pc)
    assert rep.compared == sum(1 for store, _ in events[:k] if not store)
    (diff,) = rep.report.diffs
    assert diff.field == "gpr" and [lane.lane for lane in diff.lanes] == [5]


def test_a_file_that_is_not_a_trace_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.trace"
    path.write_bytes(pickle.dumps({"something": 1}))
    with pytest.raises(ValueError, match=r"x.trace: not a commit trace"):
        replay(path)
