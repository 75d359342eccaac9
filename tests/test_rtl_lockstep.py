"""Programs on the RTL in lock-step with the golden model (tb/lockstep.py), on both simulators.

The default (what `make test` and CI run): every program at NUM_SP = 8 and a smoke
set at 16 and 32; the kernels of programs/kernels/ (CI size) on Verilator at NUM_SP 8. With
--regress (`make regress`): every program and kernel at 8, 16 and 32 on both simulators, and the
benchmark size of every kernel (bench/kernels/) on both simulators at 8, 16 and 32. Each run's outcome is
also recorded as JSON in $REGRESS_DIR when that is set (`golden regress-summary`, golden/regress_summary.py);
with REGRESS_RESUME=1 a run already recorded there is not run again but gives its recorded outcome
(`make regress` resuming an interrupted regression).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import ROOT

from tb.lockstep import LockstepRun, run_lockstep
from tb.runner import SIMULATORS

PROGRAMS = sorted(p.stem for p in (ROOT / "programs").glob("*.sass"))
SMOKE = ["vecadd", "cf_ifelse", "cf_barrier", "global"]
# Kernels (programs/kernels/, docs/reference/program-format.md, "The kernels"): the CI size by its name under programs/, the
# benchmark size by its path.
KERNELS = sorted(f"kernels/{p.stem}" for p in (ROOT / "programs" / "kernels").glob("*.sass"))
BENCH_KERNELS = sorted(f"bench/kernels/{p.name}" for p in (ROOT / "bench" / "kernels").glob("*.sass"))


def _tag(program: str) -> str:
    """A run's name in file names, records and test ids: kernels/fft -> kernels-fft, bench/kernels/fft.sass -> bench-fft."""
    if program.startswith("bench/"):
        return "bench-" + Path(program).stem
    return program.replace("/", "-")


def run_program(sim: str, program: str, num_sp: int = 8, seed: int = 1) -> None:
    cov_dir = os.environ.get("COVERAGE_DIR")  # make coverage: sample the compared commits
    tag = _tag(program)
    path = str(ROOT / program) if program.endswith(".sass") else program
    out = ROOT / "build" / "sim" / f"{tag}_{sim}_sp{num_sp}_s{seed}" if "/" in program else None  # a kernel's name repeats across sizes
    record_dir = os.environ.get("REGRESS_DIR")
    kept = Path(record_dir) / f"{tag}_{sim}_sp{num_sp}_s{seed}.json" if record_dir else None
    if kept is not None and os.environ.get("REGRESS_RESUME") == "1" and kept.is_file():
        # a run an interrupted `make regress` finished: its recorded outcome, not the run again
        record = json.loads(kept.read_text())
        assert record["passed"], record["summary"]
        assert record["commits"] > 0
        return
    r = LockstepRun(path, sim, num_sp, seed, coverage=Path(cov_dir) / f"{tag}_{sim}_sp{num_sp}_s{seed}.json" if cov_dir else None, out=out)
    result = run_lockstep(r, rerun_with_waves=os.environ.get("WAVES_ON_FAIL", "1") == "1")
    if kept is not None:
        record = {"program": tag, "sim": sim, "num_sp": num_sp, "seed": seed, "passed": result.passed, "commits": result.commits,
                  "cycles": result.cycles, "mem_requests": result.mem_requests, "thread_instructions": result.thread_instructions,
                  "wall": round(result.wall, 2), "rerun": r.rerun_command(), "kind": result.report.kind if result.report else None,
                  "message": result.report.message if result.report else None,
                  "wave_file": result.report.wave_file if result.report else None, "summary": result.summary()}  # fmt: skip
        kept.parent.mkdir(parents=True, exist_ok=True)
        part = kept.with_suffix(".part")  # renamed when whole: an interrupt leaves no half-written record to resume from
        part.write_text(json.dumps(record) + "\n")
        part.replace(kept)
    assert result.passed, result.summary()
    assert result.commits > 0


def test_program_lists() -> None:
    assert len(PROGRAMS) >= 25 and set(SMOKE) <= set(PROGRAMS)
    assert len(KERNELS) >= 14 and len(BENCH_KERNELS) == len(KERNELS)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ != "test_lockstep":
        return
    full = metafunc.config.getoption("--regress")
    cases = [(p, sim, 8) for p in PROGRAMS for sim in SIMULATORS]
    cases += [(p, sim, n) for n in (16, 32) for p in (PROGRAMS if full else SMOKE) for sim in SIMULATORS]
    # kernels: seconds each on Verilator; Icarus and the other widths (and the benchmark sizes,
    # minutes) only in the regression, to keep `make test` within a few minutes on two cores
    if full:
        cases += [(k, sim, n) for n in (8, 16, 32) for k in KERNELS for sim in SIMULATORS]
        cases += [(k, sim, n) for n in (8, 16, 32) for k in BENCH_KERNELS for sim in SIMULATORS]
    else:
        cases += [(k, "verilator", 8) for k in KERNELS]
    metafunc.parametrize(("program", "sim", "num_sp"), cases, ids=[f"{_tag(p)}-{s}-sp{n}" for p, s, n in cases])


def test_lockstep(program: str, sim: str, num_sp: int) -> None:
    run_program(sim, program, num_sp)


def test_watchdog_reports_a_hang_with_the_warps_pcs() -> None:
    """Memory that answers after up to 2000 cycles, a watchdog of 50: the run must fail as a hang."""
    r = LockstepRun("global", "icarus", max_latency=2000, watchdog=50, out=ROOT / "build" / "sim" / "watchdog_check")
    result = run_lockstep(r, rerun_with_waves=False)
    assert not result.passed and result.report is not None
    assert result.report.kind == "hang", result.summary()
    assert "no commit for 50 cycles" in result.report.message and "warp 0 0x" in result.report.warps
    assert (r.out_dir / "report.json").exists()


@pytest.mark.parametrize(
    ("source", "pc", "text"),
    [(None, 0x8, "TEX.FETCH.1D R0, 0x0, 0x0, 0x1"),  # programs/bad/tex.sass
     (".block 32\n        MOV32 R1, R0\n        TEX32.2D R2, 0x1, 0x1\n        NOP\n", 0x4, "TEX32.2D R2, 0x1, 0x1")],
    ids=["TEX", "TEX32"],
)  # fmt: skip
def test_texture_instruction_is_reported_unimplemented_by_name(tmp_path: Path, source: str | None, pc: int, text: str) -> None:
    """The RTL raises commit_unimpl for a texture form (no texture unit); the run fails as
    `unimplemented` at that instruction, naming it, not as a mismatch, hang or crash."""
    path = ROOT / "programs" / "bad" / "tex.sass"
    if source is not None:
        path = tmp_path / "tex32.sass"
        path.write_text(source, encoding="utf-8")
    r = LockstepRun(str(path), "icarus", out=tmp_path / "run")
    result = run_lockstep(r, rerun_with_waves=False)
    assert not result.passed and result.report is not None
    assert result.report.kind == "unimplemented", result.summary()
    assert result.report.pc == pc and result.report.text == text
    assert f"the RTL does not implement {text}" in result.report.message


def test_lockstep_run_prints_no_deprecation_warning(tmp_path: Path) -> None:
    """A short lock-step run (`make sim`'s script, vecadd on Verilator) prints no DeprecationWarning
    or FutureWarning from any package. PYTHONWARNINGS=default shows the warnings Python hides by
    default (a DeprecationWarning raised outside __main__), in this process and in the simulator's
    embedded interpreter, which inherits the environment; cocotb logs them as `py.warnings`."""
    import subprocess
    import sys

    env = {**os.environ, "PYTHONWARNINGS": "default"}
    proc = subprocess.run([sys.executable, "-W", "default", str(ROOT / "scripts" / "sim.py"), "vecadd", "--no-waves"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)  # fmt: skip
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "PASS" in out, out[-3000:]
    found = [line for line in out.splitlines() if "DeprecationWarning" in line or "FutureWarning" in line]
    assert not found, "\n".join(found)
