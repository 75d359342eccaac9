"""Generate programs and run them: on the golden model alone, or on the RTL in lock-step.

A generated program carries no `.expect`: what checks it is the lock-step comparison of every
committed instruction with the golden model, and the comparison of the final global memory (every
computed value is dumped there). On the model alone, a run passes when the model finishes every
block without an error (a model error means the generator broke one of its own rules).
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from golden.errors import ModelError
from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import run_program

from .config import Config
from .generator import generate, render

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "random"


@dataclass
class Outcome:
    seed: int
    path: Path
    passed: bool
    line: str
    kind: str = ""  # failure kind (mismatch, hang, ..., "model" for a model error, "refused" for a program the DUT cannot run)
    fields: tuple[str, ...] = ()  # fields that differ (mismatches)
    commits: int = 0
    wall: float = 0.0


def write_program(seed: int, cfg: Config, preset: str, out: Path = OUT) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{preset}_s{seed}.sass"
    path.write_text(render(generate(seed, cfg, preset)))
    return path


def run_golden(path: Path, cov_dir: Path | None = None) -> Outcome:
    """The program on the golden model alone; with `cov_dir`, functional coverage of its commits is
    written there (COV_DIR/NAME.json, for `python -m golden coverage-report`)."""
    seed = _seed_of(path)
    t0 = time.perf_counter()
    try:
        if cov_dir is not None:
            from golden.g80.coverage import Coverage
            from golden.g80.coverage_run import run_with_coverage

            cov = Coverage(run=f"randgen {path.stem}")
            r = run_with_coverage(load_program(path), G80, cov)
            cov_dir.mkdir(parents=True, exist_ok=True)
            cov.save(cov_dir / f"{path.stem}.json")
        else:
            r = run_program(load_program(path), G80)
    except ModelError as e:
        return Outcome(seed, path, False, f"{path.name}: model error: {e}", "model", wall=time.perf_counter() - t0)
    wall = time.perf_counter() - t0
    return Outcome(seed, path, True, f"{path.name}: model ok, {r.warp_instructions} warp-instructions, {wall:.2f} s", commits=r.warp_instructions, wall=wall)


def run_rtl(path: Path, sim: str, num_sp: int, defines: tuple[str, ...] = (), dut: str = "rtl", waves: bool = False, out: Path | None = None) -> Outcome:
    """The program on the RTL in lock-step with the model; `seed` also draws the memory latency."""
    from tb.lockstep import LockstepRun, quiet, run_lockstep

    seed = _seed_of(path)
    kwargs: dict[str, object] = {"dut": dut}
    if out is not None:
        kwargs["out"] = out.resolve()  # the simulator runs inside it: a relative path would not survive
    if dut == "flexgrip":  # what FlexGripPlus cannot run is refused before a build, with the reason
        from golden.g80.flexgrip_export import NotRunnable
        from tb.adapters.flexgrip import check_runnable

        try:
            check_runnable(path)
        except NotRunnable as exc:
            return Outcome(seed, path, False, f"{path.name}: REFUSED (FlexGripPlus cannot run it): {exc}", "refused")
    # FlexGripPlus is checked against the model's flexgrip profile (scripts/sim.py insists on it too)
    run = LockstepRun(str(path), sim, num_sp, seed, "flexgrip" if dut == "flexgrip" else "g80", defines, **kwargs)
    with quiet(run.out_dir / "sim.log"):  # the simulator's own output goes to the run's log, not the summary
        res = run_lockstep(run, rerun_with_waves=waves)
    if res.passed:
        return Outcome(seed, path, True, f"{path.name}: PASS, {res.commits} commits, {res.cycles} cycles, {res.wall:.1f} s", commits=res.commits, wall=res.wall)
    rep = res.report
    kind = rep.kind if rep else "testbench"
    fields = tuple(sorted({d.field.split("[")[0].split(".")[0] for d in rep.diffs})) if rep else ()
    where = f" at PC {rep.pc:#06x} {rep.text}" if rep and rep.pc is not None else ""
    if rep and not where and rep.message:  # no instruction to name (the run ended without an outcome): say why
        where = ": " + rep.message.splitlines()[0]
    # the commits compared before the failure count in the summary too (the failing one is not among them)
    return Outcome(seed, path, False, f"{path.name}: FAIL {kind}{' ' + ','.join(fields) if fields else ''}{where}", kind, fields, commits=res.commits or 0, wall=res.wall)


def run_mutant(path: Path, campaign: Path, mutant: int, out: Path | None = None) -> Outcome:
    """The program in lock-step on generated mutant `mutant` of a mutation campaign's folder
    (`make mutants`, `python -m tb.mutation run`: its instrumented sources, one Verilator build for
    all its mutants), with `sm_top.mut_sel` = `mutant` (tb/mutation/test_mutation.py). Fails when
    the mutant is killed, with the kind and fields of the mismatch: the oracle the shrinker needs
    for a generated mutant."""
    return first_killing([path], campaign, mutant, out or path.parent / "mutant" / f"m{mutant}_{path.stem}")[1]


def first_killing(paths: list[Path], campaign: Path, mutant: int, work: Path) -> tuple[int | None, Outcome]:
    """The programs one after the other on generated mutant `mutant`, in one simulator process, up to
    the first one that kills it: its index (None when none does) and its outcome."""
    from tb.lockstep import LockstepRun
    from tb.mutation.campaign import DEFINE, WATCHDOG, design, spawn
    from tb.runner import FileList

    campaign = campaign.resolve()
    meta = campaign / "design.json"
    if not meta.exists():
        raise FileNotFoundError(f"{campaign} is not a mutation campaign folder (no design.json; `make mutants` or `python -m tb.mutation run` makes one)")
    ids = {m["id"] for m in json.loads((campaign / "mutants.json").read_text(encoding="utf-8"))}
    if mutant not in ids:
        raise ValueError(f"mutant {mutant} is not one of the {len(ids)} mutants of {campaign} (mutants.json)")
    data = json.loads(meta.read_text(encoding="utf-8"))
    files = FileList(tuple(Path(p) for p in data["sources"]), tuple(Path(p) for p in data["includes"]))
    work = work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    programs = []
    for p in paths:
        run = LockstepRun(str(p.resolve()), "verilator", 8, _seed_of(p), defines=(DEFINE,), watchdog=WATCHDOG, out=work / "runs")
        programs.append({"name": p.name, "config": str(run.config().write(work / f"{p.stem}.json"))})
    log = work / "verdict.jsonl"
    log.unlink(missing_ok=True)
    job = {**design("verilator", files, (), (DEFINE,)), "programs": programs, "mutants": [mutant], "log": str(log), "walls": {}, "kills": {}}
    # the job tries its programs killers-first, then by reference time, then by name: a reference time
    # per program in list order keeps them in the order given
    job["walls"] = {p["name"]: float(i) for i, p in enumerate(programs)}
    t0 = time.perf_counter()
    code, stalled = spawn(work / "sim", job, 600)
    wall = time.perf_counter() - t0
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    verdict = next((x for x in lines if "mutant" in x), None)
    if verdict is None:  # the process died or stalled inside the mutant: a kill too, named so (by the first program: it cannot say which)
        why = "stall" if stalled else f"crash (exit {code})"
        return 0, Outcome(_seed_of(paths[0]), paths[0], False, f"{paths[0].name}: FAIL {why} on mutant {mutant} (see {work / 'sim'})", why, wall=wall)
    if verdict["status"] != "killed":
        return None, Outcome(_seed_of(paths[-1]), paths[-1], True, f"{paths[-1].name}: PASS on mutant {mutant}, {wall:.1f} s", wall=wall)
    i = [p.name for p in paths].index(verdict["program"])
    kind = verdict.get("kind") or "testbench"
    fields = tuple(sorted({f.split("[")[0].split(".")[0] for f in verdict.get("fields") or []}))
    line = f"{paths[i].name}: FAIL {kind}{' ' + ','.join(fields) if fields else ''} on mutant {mutant}: {(verdict.get('message') or '')[:160]}"
    return i, Outcome(_seed_of(paths[i]), paths[i], False, line, kind, fields, wall=wall)


def instructions(text: str) -> int:
    """Instructions of a rendered program (code lines: not directives, comments or labels)."""
    return sum(1 for ln in text.splitlines() if ln.startswith(" ") and ln.strip() and not ln.strip().startswith("//"))


def _seed_of(path: Path) -> int:
    tail = path.name.split(".")[0].rsplit("_s", 1)[-1]
    return int(tail) if tail.isdigit() else 1


def keep_failure(path: Path) -> Path:
    dest = path.parent / "failures"
    dest.mkdir(parents=True, exist_ok=True)
    target = dest / path.name
    if path.resolve() != target.resolve():
        shutil.copyfile(path, target)
    return target


def run_batch(paths: list[Path], sim: str, num_sp: int, out: Path, defines: tuple[str, ...] = (), stop: bool = False, stall_s: float = 900) -> list[Outcome | None]:
    """The programs in lock-step, all in one simulator process (tb/mutation/test_mutation.py's
    program loop on the plain RTL: reset, load, launch, compare, then the next program), which
    saves the process start and build check of each; one Outcome per program, in order. A failing
    program should be rerun alone (`run_rtl`) for its full report and waveform."""
    from tb.adapters.rtl import RtlAdapter
    from tb.lockstep import LockstepRun
    from tb.mutation.campaign import design, spawn
    from tb.runner import SM_FILE_LIST, read_file_list

    out = out.resolve()  # the simulator runs in a folder of its own
    out.mkdir(parents=True, exist_ok=True)
    programs = []
    for p in paths:
        run = LockstepRun(str(p.resolve()), sim, num_sp, _seed_of(p), defines=defines, out=out / "runs")
        config = run.config()
        programs.append({"name": p.name, "config": str(config.write(out / f"{p.stem}.json"))})
    log = out / "batch.jsonl"
    log.unlink(missing_ok=True)
    parameters = RtlAdapter.parameters(LockstepRun(str(paths[0]), sim, num_sp).config())
    job = {**design(sim, read_file_list(SM_FILE_LIST), parameters, defines), "reference": True, "programs": programs, "log": str(log), "stop": stop}
    code, stalled = spawn(out / "sim", job, stall_s)
    done = {}
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            done[rec["reference"]] = rec
    outcomes: list[Outcome | None] = []
    failed = False
    for p in paths:
        rec = done.get(p.name)
        if rec is None and stop and failed:
            outcomes.append(None)
        elif rec is None:
            why = "stalled" if stalled else f"ended (exit {code})"
            outcomes.append(Outcome(_seed_of(p), p, False, f"{p.name}: FAIL batch: the simulator process {why} before it (see {out / 'sim'})", "batch"))
        elif rec["passed"]:
            line = f"{p.name}: PASS, {rec['commits']} commits, {rec['cycles']} cycles, {rec['wall_s']:.1f} s (batch)"
            outcomes.append(Outcome(_seed_of(p), p, True, line, commits=rec["commits"], wall=rec["wall_s"]))
        else:
            outcomes.append(Outcome(_seed_of(p), p, False, f"{p.name}: FAIL {rec['message']}", "batch", wall=rec["wall_s"]))
            failed = True
    return outcomes
