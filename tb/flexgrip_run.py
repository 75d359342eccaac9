"""One lock-step run of a program on FlexGripPlus from Python (make sim DUT=flexgrip, the pytest suites,
make regress DUT=flexgrip, make bench)."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from flexgrip_build import BUILD, GHDL_FLAGS, ROOT, TOP, build, run_args, unlimited_stack
from report import FailureReport
from runner import failure_messages

from golden.flexgrip_export import flexgrip_image, mif
from golden.profile import FLEXGRIP


@dataclass
class FlexgripResult:
    program: Path
    cores: int
    passed: bool
    commits: int = 0
    cycles: int = 0
    thread_instructions: int = 0
    wall: float = 0.0
    report: FailureReport | None = None
    extra: dict = field(default_factory=dict)

    def summary(self) -> str:
        head = f"{self.program.stem} on FlexGripPlus (GHDL, {self.cores} SPs)"
        if self.passed:
            return f"{head}: PASS, {self.commits} commits compared in lock-step, {self.cycles} cycles, {self.wall:.1f} s"
        return f"{head}: FAIL\n{self.report.to_text() if self.report else 'no report'}"


def rerun_command(program: Path, cores: int) -> str:
    return f"make sim DUT=flexgrip TEST={program.stem} NUM_SP={cores}" if program.suffix == ".sass" else f"python scripts/sim.py {program} --dut flexgrip --num-sp {cores}"


def run_flexgrip(program: str | Path, cores: int | None = None, out: Path | None = None, max_mismatches: int = 1,
                 watchdog: int = 200000) -> FlexgripResult:  # fmt: skip
    """Build (cached) and run `program` on FlexGripPlus in lock-step; the outcome from result.json."""
    from cocotb_tools.runner import get_runner

    program = Path(program).resolve()
    image = flexgrip_image(program, FLEXGRIP, cores)  # NotRunnable before anything is built
    cores = image.cores
    build_dir = build(cores)
    out = out or BUILD / "runs" / f"{program.stem}_sp{cores}"
    out.mkdir(parents=True, exist_ok=True)
    # FlexGripPlus's memories read these at time 0 (global memory image as its own testbench does)
    (out / "global_mem.mif").write_text(mif(image.initial[: max(image.readback, len(image.initial))]))
    for name in ("constant_mem.mif", "system_mem.mif", "dummy.mif"):
        (out / name).write_text("")
    result_file = out / "result.json"
    result_file.unlink(missing_ok=True)
    for p in (str(ROOT / "tb"), str(ROOT)):
        if p not in sys.path:
            sys.path.insert(0, p)
    unlimited_stack()
    env = {"PROGRAM": str(program), "NUM_SP": str(cores), "RESULT": str(result_file), "MAX_MISMATCHES": str(max_mismatches),
           "WATCHDOG_CYCLES": str(watchdog), "RERUN": rerun_command(program, cores)}  # fmt: skip
    t0 = time.perf_counter()
    with contextlib.suppress(SystemExit):  # a failed cocotb test: the outcome is read from result.json
        get_runner("ghdl").test(hdl_toplevel=TOP, hdl_toplevel_lang="vhdl", test_module="test_flexgrip", build_dir=build_dir, test_dir=out,
                                test_args=[*GHDL_FLAGS, f"--workdir={build_dir}"], plusargs=run_args(), extra_env=env, results_xml=str(out / "results.xml"))  # fmt: skip
    wall = time.perf_counter() - t0
    if not result_file.exists():
        results = out / "results.xml"
        why = (failure_messages(results) or ["no failure recorded"])[0] if results.exists() else f"no {results} (simulator crashed?)"
        report = FailureReport("testbench", f"the run ended without an outcome: {why}", test=program.stem, simulator="ghdl", num_sp=cores,
                               profile="flexgrip", rerun=rerun_command(program, cores))  # fmt: skip
        report.write(out / "report.json")
        return FlexgripResult(program, cores, False, wall=wall, report=report)
    data = json.loads(result_file.read_text())
    report = FailureReport.read_dict(data["report"]) if data["report"] else None
    if report:
        report.write(out / "report.json")
    return FlexgripResult(program, cores, data["status"] == "pass", data["commits"], data["cycles"], data["thread_instructions"], wall, report,
                          {"global_bytes": data["global_bytes"]})  # fmt: skip
