"""Micro-architectural coverage (golden/coverage/uarch.py, tb/coverage_uarch.py): the model derived
from the RTL, the sampler against independent counts, skipped points, merging and the reports."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import ROOT

from golden.coverage import Merged, write_reports
from golden.coverage.uarch import EXEC, GAPS, UarchCoverage, exec_states, exec_successors, sfu_steps, uarch_model
from golden.coverage.ucis import UARCH_INSTANCE, read_ucis
from golden.g80.commit import Commit
from golden.g80.coverage_sample import plan_word
from golden.g80.profile import G80
from golden.g80.program import load_program

SEQ = """
module seq;
    wire [3:0] after_step = settled ? X_IDLE : X_C;
    assign take = f_valid && (x_state == X_IDLE || retire);
    always @(posedge clk) begin
        case (x_state)
            X_B: begin
                if (go) x_state <= X_C;  // a comment naming X_D is not a successor
            end
            X_C, X_D: x_state <= after_step;
            default: ;
        endcase
    end
endmodule
"""


def test_successors_of_a_small_sequencer() -> None:
    """Hand-derived from SEQ: X_IDLE (default arm) stays and takes the next instruction (take names
    it: -> X_PASS); X_B goes to X_C under an if (so it may stay); X_C and X_D retire through
    after_step (X_IDLE or X_C) and may take the next instruction."""
    got = exec_successors(["X_IDLE", "X_PASS", "X_B", "X_C", "X_D"], SEQ)
    assert got == {
        "X_IDLE": {"X_IDLE", "X_PASS"},
        "X_PASS": {"X_PASS"},  # no arm: the default one, which assigns nothing
        "X_B": {"X_B", "X_C"},
        "X_C": {"X_IDLE", "X_C", "X_PASS"},
        "X_D": {"X_IDLE", "X_C", "X_PASS"},
    }
    assert exec_successors(["X_IDLE"], "module m; endmodule") is None  # not this shape: nothing excluded


def test_states_are_those_the_sequencer_documents() -> None:
    """The reachable states are the ones rtl/sm_exec_ctrl.v's header comment describes (X_HALT:
    excluded, faults only); a localparam no assignment uses is excluded with that reason."""
    text = (ROOT / "rtl" / "sm_exec_ctrl.v").read_text()
    header = text.split("module", 1)[0]
    documented = set(re.findall(r"^//\s+(X_\w+)", header, re.M))
    m = uarch_model()
    states = {b.name: b.excluded for b in m.bins if b.group == EXEC and b.point == "state"}
    assert set(exec_states()) == set(states)
    reachable = {s for s, why in states.items() if why is None}
    assert reachable == documented - {"X_HALT"}
    assert "fault" in states["X_HALT"]
    for s in set(states) - documented:
        assert "no assignment" in states[s]
    # a transition is excluded exactly when the derived successors do not have it
    succ = exec_successors(exec_states())
    assert succ is not None
    for b in m.bins:
        if b.point == "transition":
            a, c = b.name.split(" -> ")
            assert (b.excluded is None) == (a in reachable and c in reachable and c in succ[a]), b.name


def test_sfu_steps_from_the_top_level_parameters() -> None:
    text = (ROOT / "rtl" / "sm_top.v").read_text()
    sp = int(re.search(r"parameter integer NUM_SP = (\d+)", text).group(1))
    per = int(re.search(r"parameter integer NUM_SFU = NUM_SP / (\d+),", text).group(1))  # NUM_SFU lanes: NUM_SP / per
    assert sfu_steps() == sp // (sp // per)


class _Sig:
    def __init__(self) -> None:
        self.value = 0


def test_a_missing_signal_skips_its_points_with_the_reason() -> None:
    from tb.coverage_uarch import SIGNALS, UarchMonitor

    top = SimpleNamespace(clk=_Sig(), u_ctrl=SimpleNamespace(x_state=_Sig(), x_sub=_Sig(), unit=_Sig()))
    for path in SIGNALS.values():
        if "." not in path:
            setattr(top, path, _Sig())
    mon = UarchMonitor(top)  # no u_sched: the lean build's case
    assert set(mon.missing) == {"fetch", "ready"}
    cov = UarchCoverage("t")
    mon.finish(cov)
    assert set(cov.skipped) == {"SCHED/ready warps at issue", "SCHED/barrier waiters at issue"}
    assert all("u_sched.fetch" in r[0] for r in cov.skipped.values())
    assert mon.enabled("EXEC", "transition")


def test_merge_keeps_skips_and_sums_checks(tmp_path: Path) -> None:
    a, b = UarchCoverage("a"), UarchCoverage("b")
    a.hit("EXEC", "state", "X_PASS", 3)
    b.hit("EXEC", "state", "X_PASS", 2)
    a.skip("SCHED", "commit gap", "why")
    a.check("n", 4, 4)
    b.check("n", 1, 2)
    b.save(tmp_path / "b.uarch.json")
    a.merge(UarchCoverage.load(tmp_path / "b.uarch.json"))
    assert a.count("EXEC/state/X_PASS") == 5 and a.runs == ["a", "b"]
    assert a.skipped == {"SCHED/commit gap": ["why"]}
    assert a.check_failures() == {"n": [5, 6]}
    with pytest.raises(KeyError):
        a.hit("EXEC", "state", "X_NOPE")


@pytest.mark.parametrize(("program", "sim"), [("cf_barrier", "icarus"), ("sfu", "icarus")])
def test_sampler_against_the_commit_trace(tmp_path: Path, program: str, sim: str) -> None:
    """A lock-step run with coverage (scripts/coverage_lockstep.py, as `make coverage COVERAGE_RANDOM=n`
    runs them): every cross-check of the run holds, and the counts agree with a count from the golden
    model's own trace of the program (another run, not the testbench's)."""
    cmd = [sys.executable, "scripts/coverage_lockstep.py", "-o", str(tmp_path), "--sim", sim, str(ROOT / "programs" / f"{program}.sass")]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    result = SimpleNamespace(**json.loads((tmp_path / "runs" / program / "result.json").read_text()))
    assert result.status == "pass"
    u = UarchCoverage.load(tmp_path / f"{program}.uarch.json")
    assert u.checks and not u.check_failures(), u.check_failures()
    assert not u.skipped
    assert not u.excluded_hit()
    families: dict[str, int] = {}
    commits = 0
    from golden.g80.coverage_run import run_with_coverage

    def count(c: Commit) -> None:
        nonlocal commits
        commits += 1
        form = plan_word(c.insn, c.size).insn.form
        key = "sfu unit" if form.unit == "sfu" else form.family
        families[key] = families.get(key, 0) + 1

    run_with_coverage(load_program(ROOT / "programs" / f"{program}.sass"), G80, None, trace=count)
    assert commits == result.commits
    assert sum(u.count(f"SCHED/commit gap/{g}") for g in GAPS) == commits - 1
    assert u.count("EXEC/state/X_CTRL") == families.get("control", 0)
    mem = sum(families.get(f, 0) for f in ("gld", "gst", "lld", "lst"))
    assert u.count("EXEC/transition/X_PASS -> X_MEM") == mem
    assert sum(u.count(f"MEM/request kind/{k}") for k in ("global load", "global store", "local load", "local store")) == result.mem_requests
    steps = [u.count(f"EXEC/SFU sub-step/sub-step {k}") for k in range(sfu_steps())]
    assert steps == [families.get("sfu unit", 0) * 4] * sfu_steps()  # 32 / NUM_SP = 4 passes each
    # the testbench's ISA and cross files of the same run sample every compared commit
    assert json.loads((tmp_path / f"{program}.json").read_text())["samples"] == commits
    assert json.loads((tmp_path / f"{program}.cross.json").read_text())["samples"] == commits


def test_reports_show_the_micro_architecture_and_sources(tmp_path: Path) -> None:
    d, r = tmp_path / "directed", tmp_path / "random"
    d.mkdir()
    r.mkdir()
    a, b = UarchCoverage("a"), UarchCoverage("b")
    a.hit("EXEC", "state", "X_PASS")
    a.skip("SCHED", "commit gap", "signal gone")
    a.check("commit records", 3, 3)
    b.hit("EXEC", "state", "X_MEM")
    b.check("commit records", 1, 2)
    a.save(d / "a.uarch.json")
    b.save(r / "b.uarch.json")
    cov = write_reports([d / "a.uarch.json", r / "b.uarch.json"], tmp_path / "rep", sources={"directed": [d / "a.uarch.json"], "random": [r / "b.uarch.json"]})
    html = (tmp_path / "rep" / "coverage.html").read_text()
    text = (tmp_path / "rep" / "coverage.txt").read_text()
    for page in (html, text):
        assert "Micro-architecture of the RTL" in page and "signal gone" in page
        assert "X_COMMIT" in page  # the exclusion with its reason
    assert "FAIL commit records: 4 vs 5" in text
    assert 'id="sources"' in html and "coverage by source" in text
    n = sum(1 for x in uarch_model().bins if not x.excluded)
    rows = {line.split()[0]: line for line in text.split("coverage by source")[1].splitlines()[2:4]}
    assert f"1/{n} =" in rows["directed"] and f"1/{n} =" in rows["random"]  # X_PASS alone, X_MEM alone
    assert cov.uarch.count("EXEC/state/X_MEM") == 1  # type: ignore[attr-defined]
    back = read_ucis(tmp_path / "rep" / "coverage.ucis.xml")
    assert back[f"{UARCH_INSTANCE}:EXEC/state/X_PASS"] == (1, False)
    assert back[f"{UARCH_INSTANCE}:EXEC/state/X_COMMIT"][1] is True
    assert Merged.of([d / "a.uarch.json"]).uarch.count("EXEC/state/X_PASS") == 1


def test_cli_labels_sources(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    u = UarchCoverage("x")
    u.hit("EXEC", "state", "X_IDLE")
    u.save(d / "x.uarch.json")
    out = subprocess.run([sys.executable, "-m", "golden", "coverage-report", "-o", str(tmp_path / "rep"), f"directed={d}", f"random={d}"],
                         capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert "coverage: directed alone:" in out.stdout and "coverage: random alone:" in out.stdout, out.stdout + out.stderr
