"""Run one program on a DUT in lock-step with the golden model, from Python (make sim, pytest, regress).

`run_lockstep()` builds through the DUT's adapter (tb/adapters/: once per simulator, parameter set
and define set), writes the run's configuration (tb/config.py) as config.json and runs tb/test_sm.py
with `+tb_config=config.json`, reads the outcome the test wrote (result.json), and on a failure
repeats the run with waveforms unless told not to, so that the report names the wave file and
the cycle to look at. The report is also written as JSON (report.json) next to the run's logs.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .adapters import DEFAULT, adapter
from .config import LockstepConfig
from .report import FailureReport, waived_text
from .runner import ROOT, failure_messages

OUT = ROOT / "build" / "sim"


@dataclass
class LockstepRun:
    program: str
    sim: str = "icarus"
    num_sp: int = 8
    seed: int = 1
    profile: str = "g80"
    defines: tuple[str, ...] = ()  # e.g. MUTANT_CARRY: a deliberately broken RTL variant
    max_latency: int = 8
    ready_p: float = 0.8
    watchdog: int = 200_000  # cycles without a commit that count as a hang
    coverage: Path | None = None  # write functional coverage of the compared commits here
    out: Path | None = None
    dut: str = DEFAULT  # the DUT adapter (tb/adapters): rtl | flexgrip
    max_mismatches: int = 1  # mismatches let through before the run ends
    waive: str = ""  # "none": no waivers for the DUT's known behaviours (golden/g80/flexgrip_findings.py)
    visibility: str = "lean"  # Verilator: "lean" exposes the ports to VPI, "full" every signal (tb/runner.py VISIBILITY)
    lockstep: bool = True  # False: free-running, the commit trace compared with the model after the run (make sim LOCKSTEP=0)
    trace: Path | None = None  # write the DUT's commit trace here (tb/trace.py; replayed by make bench)
    mem_order: str = "any"  # memory responses: "any" order (each after its own latency) | "request" order (make sim MEM_ORDER=)

    @property
    def path(self) -> Path:
        p = Path(self.program)
        return p.resolve() if p.suffix in (".sass", ".txt") else ROOT / "programs" / f"{self.program}.sass"

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def out_dir(self) -> Path:
        if self.out is not None:
            return self.out
        variant = "_".join(d.lower() for d in self.defines)
        dut = "" if self.dut == DEFAULT else f"{self.dut}_"
        free = "" if self.lockstep else "_free"
        order = "" if self.mem_order == "any" else f"_{self.mem_order}order"  # MEM_ORDER=request: not the default run's folder
        return OUT / f"{dut}{self.name}_{self.sim}_sp{self.num_sp}_s{self.seed}{'_' + variant if variant else ''}{free}{order}"

    def config(self, result: Path | None = None) -> LockstepConfig:
        """The configuration the test reads from ConfigDB (tb/config.py)."""
        return LockstepConfig(str(self.path), self.dut, self.sim, self.num_sp, self.seed, self.profile, tuple(self.defines), self.max_latency,
                              self.ready_p, self.max_mismatches, self.watchdog, str(result) if result else "", self.rerun_command(),
                              str(Path(self.coverage).resolve()) if self.coverage is not None else "",
                              {"waive": self.waive} if self.waive else {}, self.visibility, self.lockstep,
                              str(Path(self.trace).resolve()) if self.trace is not None else "", self.mem_order)  # fmt: skip

    def build(self, waves: bool = False) -> Path:
        """Build (or reuse) the simulator model of this run; a run builds it anyway, benchmarks do it first."""
        return adapter(self.dut).build(self.config(), waves)

    @property
    def make_test(self) -> str:
        """`make sim`'s TEST for this program: the name of a program of programs/, else its path
        (relative to the checkout when inside it: make runs there)."""
        p = self.path
        if p.suffix == ".sass" and p.parent == ROOT / "programs":
            return p.stem
        try:
            return str(p.relative_to(ROOT))
        except ValueError:
            return str(p)

    def rerun_command(self, waves: bool = True) -> str:
        dut = "" if self.dut == DEFAULT else f" DUT={self.dut}"
        cmd = f"make sim TEST={shlex.quote(self.make_test)}{dut} SIM={self.sim} NUM_SP={self.num_sp} SEED={self.seed}"
        if self.profile != "g80":
            cmd += f" PROFILE={self.profile}"
        if self.defines:
            cmd += f" DEFINES={','.join(self.defines)}"
        if not self.lockstep:
            cmd += " LOCKSTEP=0"
        if self.visibility != "lean" and self.sim == "verilator":
            cmd += f" VISIBILITY={self.visibility}"
        if self.mem_order != "any":
            cmd += f" MEM_ORDER={self.mem_order}"
        return cmd + (" WAVES=1" if waves else "")


@dataclass
class LockstepResult:
    run: LockstepRun
    passed: bool
    commits: int = 0
    cycles: int = 0
    mem_requests: int = 0
    thread_instructions: int = 0
    wall: float = 0.0
    report: FailureReport | None = None
    extra: dict = field(default_factory=dict)

    def summary(self) -> str:
        r = self.run
        head = f"{r.name} on {r.sim} (NUM_SP={r.num_sp}, seed {r.seed}{', ' + ','.join(r.defines) if r.defines else ''})"
        waived = self.extra.get("waived") or {}
        note = f" (waived: {waived_text(waived)})" if waived else ""
        if self.passed:
            how = "in lock-step" if r.lockstep else f"after the free-running run ({self.extra.get('replay_s') or 0:.1f} s of it)"
            return f"{head}: PASS, {self.commits} commits compared {how}{note}, {self.cycles} cycles, {self.wall:.1f} s"
        return f"{head}: FAIL{note}\n{self.report.to_text() if self.report else 'no report'}"


def _once(r: LockstepRun, out: Path, waves: bool) -> tuple[dict | None, float]:
    out.mkdir(parents=True, exist_ok=True)
    result = out / "result.json"
    result.unlink(missing_ok=True)
    config = r.config(result)
    path = config.write(out / "config.json")
    t0 = time.perf_counter()
    adapter(r.dut).run_test(config, out, waves, (config.plusarg(path),))
    wall = time.perf_counter() - t0
    return (json.loads(result.read_text()) if result.exists() else None), wall


def _failure_message(results: Path) -> str:
    if not results.exists():
        return f"no {results} (simulator crashed?)"
    failures = failure_messages(results)
    return f"{failures[0]} (see {results})" if failures else f"no failure recorded in {results}"


def run_lockstep(r: LockstepRun, waves: bool = False, rerun_with_waves: bool = True) -> LockstepResult:
    out = r.out_dir
    data, wall = _once(r, out, waves)
    if data is None:  # the test died before its check phase (simulator crash, Python error)
        report = FailureReport("testbench", f"the run ended without an outcome: {_failure_message(out / 'results.xml')}", test=r.name, seed=r.seed,
                               simulator=r.sim, num_sp=r.num_sp, profile=r.profile, rerun=r.rerun_command())  # fmt: skip
        report.write(out / "report.json")
        return LockstepResult(r, False, wall=wall, report=report)
    report = FailureReport.read_dict(data["report"]) if data["report"] else None
    result = LockstepResult(r, data["status"] == "pass", data["commits"], data["cycles"], data["mem_requests"], data["thread_instructions"], wall, report,
                            {"waived": data.get("waived") or {}, **{k: data.get(k) for k in ("run_s", "run_cpu_s", "replay_s", "replay_cpu_s")}})  # fmt: skip
    if report is not None:
        dut = adapter(r.dut)
        if waves:
            report.wave_file = str(dut.wave_file(r.config(), out))
        elif rerun_with_waves:
            wout = out / "waves"
            again, _ = _once(r, wout, True)
            report.wave_file = str(dut.wave_file(r.config(), wout))
            if again is None or again["report"] is None or again["report"]["cycle"] != report.cycle:
                report.message += " (the rerun with waves did not fail at the same cycle)"
        report.write(out / "report.json")
    return result


@contextmanager
def quiet(log: Path) -> Iterator[None]:
    """Send this process's and its children's stdout and stderr to `log` (the runner lets the simulator inherit them)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "w") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
