"""Run an LG program on an LG core in lock-step with the golden model (make sim ISA=lg).

The DUT is the project's core (`rtl`: rtl/lg/lg.f) or a core of the user's own (any other DUT
name, with RTL= its Verilog files): both are built with top level `lg_core` and must have the
contract's ports (docs/guides/lg-lockstep.md; tb/lg/example_wrapper.v adapts a core whose ports
are named otherwise). The program is handed to the core as $readmemh files named by plusargs
(+imem, +ilen, +dmem: tb/lg/harness.py `write_images`), so one build serves every program.

The cocotb test (tb/lg/test_lg_lockstep.py) reads its settings from a JSON file and writes its
outcome to another; this module builds, runs and reads them back as an `LgResult`.
"""

from __future__ import annotations

import glob
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from golden.errors import FAILURE, USAGE, UserError
from tb.lockstep import quiet
from tb.report import FailureReport
from tb.runner import ROOT, SIMULATORS, FileList, read_file_list, run

from .harness import LG_FILE_LIST, PACKED_TOP, TOP, packed_top, write_images
from .program import LgTest

BUILD = ROOT / "build" / "sim" / "lg"
TEST_MODULE = "tb.lg.test_lg_lockstep"
DEFAULT_HANG = 300_000  # cycles without a commit or a pixel: a primitive's bounding box is at most 640 x 400
PROJECT_DUT = "rtl"


@dataclass
class LgResult:
    passed: bool
    commits: int
    cycles: int
    fb_writes: int
    report: FailureReport | None
    out_dir: Path

    def summary(self, name: str, sim: str, dut: str) -> str:
        head = f"lock-step {name} on {dut} ({sim}):"
        if self.passed:
            return f"{head} PASS, {self.commits} commits compared, {self.fb_writes} pixels checked, {self.cycles} cycles"
        return f"{head} FAIL after {self.commits} commits, {self.cycles} cycles\n{self.report.to_text() if self.report else ''}"


def dut_files(dut: str, rtl: str = "") -> FileList:
    """The sources of DUT `dut`: the project's core, or the files RTL= names (globs, space-separated)."""
    if dut == PROJECT_DUT:
        if rtl:
            raise UserError(f"RTL={rtl} is for a core of your own: give it with DUT=<a name of yours> (DUT=rtl is the project's core, rtl/lg/)", USAGE)
        return read_file_list(LG_FILE_LIST)
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", dut):
        raise UserError(f"DUT={dut}: a core of your own needs a plain name (letters, digits, _), used for its build folder", USAGE)
    if not rtl:
        raise UserError(f"DUT={dut} is not the project's core (DUT=rtl): give your core's Verilog files with RTL='path/to/*.v'", USAGE)
    sources: list[Path] = []
    for pattern in shlex.split(rtl):
        found = sorted(glob.glob(pattern, recursive=True))
        if not found:
            raise UserError(f"RTL={rtl}: {pattern!r} matches no file (give Verilog files or globs, relative to {Path.cwd()})", USAGE)
        sources += [Path(f).resolve() for f in found if Path(f).is_file()]
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sources)
    if not re.search(rf"\bmodule\s+{TOP}\b", text):
        raise UserError(f"RTL={rtl}: no module {TOP} in those files: the testbench's top level is {TOP} with the contract's ports "
                        "(wrap your core as tb/lg/example_wrapper.v does; docs/guides/lg-lockstep.md)", USAGE)  # fmt: skip
    includes = tuple(dict.fromkeys(p.parent for p in sources))
    return FileList(tuple(dict.fromkeys(sources)), includes)


def check_sim(sim: str) -> None:
    if sim not in SIMULATORS:
        raise UserError(f"SIM={sim}: the LG cores run on {', '.join(SIMULATORS)} (SIM=, --sim)", USAGE)


def run_lockstep(t: LgTest, sim: str, dut: str = PROJECT_DUT, files: FileList | None = None, out_dir: Path | None = None,
                 hang_cycles: int = DEFAULT_HANG, waves: bool = False, rerun: str = "") -> LgResult:  # fmt: skip
    """Build the DUT (once per simulator and sources) and run `t` on it in lock-step."""
    check_sim(sim)
    if t.program.profile not in (None, "seed"):
        raise UserError(f"{t.path}: .profile {t.program.profile}: lock-step runs the seed profile, the one the LG cores implement "
                        "(run it on the golden model alone, or remove the line)", USAGE)  # fmt: skip
    files = files or dut_files(dut)
    out = (out_dir or BUILD / t.name.replace("/", "_")).resolve() / f"{dut}_{sim}"
    out.mkdir(parents=True, exist_ok=True)
    for stale in ("result.json", "report.json", "frame_diff.png"):
        (out / stale).unlink(missing_ok=True)
    plusargs = write_images(out, t.words, t.data)
    config, result = out / "config.json", out / "result.json"
    context = {"test": t.name, "simulator": sim, "profile": "seed", "dut": dut, "rerun": rerun}
    config.write_text(json.dumps({"program": str(t.path.resolve()), "out_dir": str(out), "hang_cycles": hang_cycles, "context": context}),
                      encoding="utf-8")  # fmt: skip
    # a core of the user's own builds in a folder of its own (tb/runner.py names builds by top level and defines)
    defines = () if dut == PROJECT_DUT else (f"LG_DUT_{dut.upper()}",)
    # the simulator's own output goes to a log, as G80's lock-step runs do: the outcome is the summary and report
    try:
        with quiet(out / "sim.log"):
            top = packed_top(BUILD)  # the core with its ports packed for the monitor (tb/lg/harness.py)
            results = run(sim, PACKED_TOP, FileList((*files.sources, top), files.includes), TEST_MODULE, extra_env={"LG_CONFIG": str(config), "LG_RESULT": str(result)}, test_dir=out,
                          plusargs=plusargs, visibility="lean", rewrite_asserts=False, waves=waves, defines=defines)  # fmt: skip
    except UserError:
        raise
    except (Exception, SystemExit) as exc:  # the simulator's compiler refused the sources: its messages are in the log
        raise UserError(f"building or starting DUT={dut} on {sim} failed ({type(exc).__name__}): the compiler's messages are in {out / 'sim.log'}",
                        FAILURE) from None  # fmt: skip
    if not result.exists():
        from tb.runner import failure_messages

        why = "; ".join(failure_messages(results)) if results.exists() else f"no {results}"
        raise UserError(f"the lock-step test did not run to its end on {sim} ({why}): see {out / 'sim.log'}", FAILURE)
    raw = json.loads(result.read_text(encoding="utf-8"))
    report = FailureReport.read_dict(raw["report"]) if raw["report"] else None
    if report is not None:
        report.write(out / "report.json")
    return LgResult(raw["passed"], raw["commits"], raw["cycles"], raw["fb_writes"], report, out)
