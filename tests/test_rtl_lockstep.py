"""Programs on the RTL in lock-step with the golden model (tb/lockstep.py), on both simulators.

The default (what `make test` and CI run): every program at NUM_SP = 8 and a smoke
set at 16 and 32; the kernels of programs/kernels/ (CI size) on Verilator at NUM_SP 8. With
--regress (`make regress`): every program and kernel at 8, 16 and 32 on both simulators, and the
benchmark size of every kernel (bench/kernels/) on both simulators at 8, 16 and 32. Each run's outcome is
also recorded as JSON in $REGRESS_DIR when that is set (`golden regress-summary`, golden/regress_summary.py).
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
    r = LockstepRun(path, sim, num_sp, seed, coverage=Path(cov_dir) / f"{tag}_{sim}_sp{num_sp}_s{seed}.json" if cov_dir else None, out=out)
    result = run_lockstep(r, rerun_with_waves=os.environ.get("WAVES_ON_FAIL", "1") == "1")
    record_dir = os.environ.get("REGRESS_DIR")
    if record_dir:
        record = {"program": tag, "sim": sim, "num_sp": num_sp, "seed": seed, "passed": result.passed, "commits": result.commits,
                  "cycles": result.cycles, "mem_requests": result.mem_requests, "thread_instructions": result.thread_instructions,
                  "wall": round(result.wall, 2), "rerun": r.rerun_command(), "kind": result.report.kind if result.report else None,
                  "message": result.report.message if result.report else None,
                  "wave_file": result.report.wave_file if result.report else None}  # fmt: skip
        Path(record_dir).mkdir(parents=True, exist_ok=True)
        (Path(record_dir) / f"{tag}_{sim}_sp{num_sp}_s{seed}.json").write_text(json.dumps(record) + "\n")
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
