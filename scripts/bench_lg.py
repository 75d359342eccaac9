"""`make bench ISA=lg`: how fast the LG model, the LG lock-step testbench and the LG core run.

    python scripts/bench_lg.py [--programs 6] [--seed 1] [--preset bench] [--runs 2] [--json FILE]

The workload is random LG programs (randgen/lg.py, knobs of the `bench` preset below: long bodies
in loops, graphics sequences), the same for every figure, all on the seed profile:

- model: the golden model alone (Machine.step to the end), instructions per second of CPU;
- scoreboard alone: the lock-step scoreboard (tb/lg/scoreboard.py: the model's step and the
  compare of every commit, the pixel queue) fed a correct DUT's trace, the commit records and
  frame-buffer events the model says the port carries, made before the clock starts; no simulator;
- RTL free-running: the LG core under Verilator in a harness with no Python (tb/lg/freerun/bench_top.v,
  driven by tb/freerun/main.cpp; -O3): cycles per second of the simulator process's CPU less its
  fixed start-up (a one-instruction program's run). A run counts only when its commit and pixel
  checksums equal the model's;
- lock-step: `make sim ISA=lg`'s runner (tb/lg/lockstep.py, Verilator), CPU time of the whole
  process less its fixed start-up (a one-instruction program's run), commits per second;
- the bound: scoreboard alone plus RTL free-running for the same programs, the least a lock-step
  run can cost; the ratio lock-step / bound (goal: within 2x).

CPU time is user + system of this process and its children (the simulators), the least of --runs
runs; on a machine shared with other jobs it is the steadier figure. Builds are done before timing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from golden.errors import FAILURE, OneLineParser, UserError, guarded  # noqa: E402
from golden.lg.commit import LgCommit  # noqa: E402
from golden.lg.model import Machine  # noqa: E402
from golden.lg.profile import SEED  # noqa: E402
from randgen import lg  # noqa: E402
from randgen.config import load  # noqa: E402
from randgen.lg_run import image  # noqa: E402

OUT = ROOT / "build" / "bench_lg"
HARNESS = ROOT / "tb" / "lg" / "freerun" / "bench_top.v"
MAIN = ROOT / "tb" / "freerun" / "main.cpp"
QUIET = 64  # the harness's quiet cycles after the last commit (bench_top.v), not counted
VERILATOR_FLAGS = ["-O3", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "-Wno-lint", "-Wno-style"]
# the workload's knobs: long random bodies repeated by loops, graphics in them, small triangles
BENCH_KNOBS = {"length": 400, "loop_max": 20, "depth": 2, "subroutines": 2, "tri_size": 1.0, "control": {"gfx": 1.5}}


@dataclass
class Figures:
    programs: int
    instructions: int
    pixels: int
    cycles: int
    model_cpu_s: float
    scoreboard_cpu_s: float
    freerun_cpu_s: float
    lockstep_cpu_s: float
    startup_cpu_s: float
    freerun_startup_cpu_s: float

    @property
    def bound_s(self) -> float:
        return self.scoreboard_cpu_s + self.freerun_cpu_s

    @property
    def ratio(self) -> float:
        return self.lockstep_cpu_s / self.bound_s

    def table(self) -> list[str]:
        n = self.instructions

        def rate(count: int, s: float, unit: str) -> str:
            return f"{count / s:>12,.0f} {unit}/s" if s > 0 else f"{'-':>12} {unit}/s"

        return [
            f"LG workload: {self.programs} random programs, {n} instructions, {self.pixels} pixels, {self.cycles} cycles (CPU seconds, least of the runs)",
            f"  model alone                 {self.model_cpu_s:8.3f} s  {rate(n, self.model_cpu_s, 'instructions')}",
            f"  scoreboard alone            {self.scoreboard_cpu_s:8.3f} s  {rate(n, self.scoreboard_cpu_s, 'commits')}",
            f"  RTL free-running, Verilator {self.freerun_cpu_s:8.3f} s  {rate(self.cycles, self.freerun_cpu_s, 'cycles')}  "
            f"(start-up {self.freerun_startup_cpu_s * 1000:.1f} ms a program, not counted)",
            f"  bound (scoreboard + RTL)    {self.bound_s:8.3f} s  {rate(n, self.bound_s, 'commits')}",
            f"  lock-step, Verilator        {self.lockstep_cpu_s:8.3f} s  {rate(n, self.lockstep_cpu_s, 'commits')}  "
            f"(start-up {self.startup_cpu_s:.2f} s a program, not counted)",
            f"  lock-step / bound           {self.ratio:8.2f} x  (goal: within 2x)",
        ]


def cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def least(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = cpu()
        fn()
        best = min(best, cpu() - t0)
    return best


def workload(count: int, seed: int, preset: str) -> list[Path]:
    _, cfg = load(preset, overrides=BENCH_KNOBS, base=lg.LgConfig(), presets=lg.PRESETS)
    out = OUT / "programs"
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for s in range(seed, seed + count):
        path = out / f"bench_{preset}_s{s}.lgs"
        path.write_text(lg.render(lg.generate(s, cfg, preset)))
        paths.append(path)
    return paths


def model_run(path: Path) -> list[LgCommit]:
    words, data = image(path)
    m = Machine(SEED)
    m.load(words, data)
    return m.run()


# -- checksums of the harness (bench_top.v), from the model's records ---------------------------


def _rotl(x: int) -> int:
    return ((x << 1) | (x >> 31)) & 0xFFFFFFFF


def port_records(recs: list[LgCommit]) -> list[dict[str, int]]:
    """Each record as the commit port carries it; the port carries the matrix-stack depth on every
    record, so a record that leaves the stack alone carries the depth of the last one that changed it."""
    from tb.lg.scoreboard import expected_port

    out, depth = [], 0
    for c in recs:
        depth = c.depth if c.depth is not None else depth
        out.append(expected_port(c, depth))
    return out


def checksums(recs: list[LgCommit]) -> tuple[int, int, int, int, int]:
    """(commit checksum, pixel checksum, pixels, clears, draws) as the harness folds them."""
    ck = fbck = pixels = clears = draws = 0
    for c, e in zip(recs, port_records(recs), strict=True):
        f = (e["pc"] << 16 | e["next_pc"]) ^ e["insn"]
        if e["rd_we"]:
            f ^= e["rd"] << 16 | e["rd_val"]
        if e["cc_we"]:
            f ^= e["cc"] << 20
        if e["vd_we"]:
            f ^= e["vd"] << 16 ^ (e["vd_val"] & 0xFFFFFFFF) ^ (e["vd_val"] >> 32)
        if e["mem_we"]:
            f ^= (e["mem_addr"] << 16 | e["mem_data"]) ^ e["mem_size"]
        if e["mat_we"]:
            for k in range(16):
                f ^= e["mat"] >> (32 * k) & 0xFFFFFFFF
        if e["col_we"]:
            f ^= e["col"]
        if e["vtx_we"]:
            f ^= e["vtx_x"] ^ e["vtx_y"] ^ (e["vtx_z"] << 16 | e["vtx_idx"]) ^ e["vtx_col"]
        if e["prim_begin"]:
            f ^= e["prim_type"] << 8
        if e["prim_end"]:
            f ^= e["frags"]
        ck = _rotl(ck) ^ (f & 0xFFFFFFFF)
        if c.fb is not None:
            for a in c.fb.addr.tolist():
                fbck = _rotl(fbck) ^ (a << 12 | c.fb.data)
                pixels += 1
        clears += c.fb_event == "flush"
        draws += c.fb_event == "draw"
    return ck, fbck, pixels, clears, draws


# -- RTL free-running ------------------------------------------------------------------------------


def build_freerun() -> Path:
    """The harness's Verilator binary, cached per source digest."""
    from tb.runner import _environment, read_file_list

    _environment("verilator")
    files = read_file_list(ROOT / "rtl" / "lg" / "lg.f")
    sources = [*map(str, files.sources), str(HARNESS)]
    digest = hashlib.sha1("".join(Path(s).read_text() for s in [*sources, str(MAIN)]).encode() + " ".join(VERILATOR_FLAGS).encode()).hexdigest()[:12]
    out = OUT / f"freerun_{digest}"
    binary = out / "Vbench_top"
    if not binary.exists():
        cmd = ["verilator", "--cc", "--exe", "--build", "-j", str(os.cpu_count() or 1), *VERILATOR_FLAGS, "--top-module", "bench_top",
               *(f"-I{d}" for d in files.includes), "-Mdir", str(out), *sources, str(MAIN)]  # fmt: skip
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return binary


def freerun(binary: Path, path: Path, recs: list[LgCommit]) -> int:
    """One program free-running; its cycles. A wrong run (checksums, counts) is an error."""
    from tb.lg.harness import write_images

    words, data = image(path)
    work = OUT / "freerun_runs" / path.stem
    plusargs = write_images(work, words, data)
    out = subprocess.run([str(binary), *plusargs], capture_output=True, text=True, cwd=work, check=False).stdout
    line = next((ln for ln in out.splitlines() if ln.startswith("lg_freerun ")), None)
    if line is None or "timeout" in line:
        raise UserError(f"{path}: the free-running LG core did not end the program ({line or out.strip()[-200:]})", FAILURE)
    got = dict(kv.split("=") for kv in line.split()[1:])
    ck, fbck, pixels, clears, draws = checksums(recs)
    want = {"commits": len(recs), "pixels": pixels, "clears": clears, "draws": draws, "ck": ck, "fbck": fbck}
    bad = [k for k, v in want.items() if int(got[k], 16 if k in ("ck", "fbck") else 10) != v]
    if bad:
        raise UserError(f"{path}: the free-running LG core differs from the model in {', '.join(bad)} ({line}): run it in lock-step "
                        f"(make sim ISA=lg TEST={path}) for the first wrong instruction", FAILURE)  # fmt: skip
    return int(got["cycles"]) - QUIET


# -- scoreboard alone and lock-step ----------------------------------------------------------------


def dut_trace(recs: list[LgCommit]) -> list[tuple[str, object]]:
    """What a correct LG core's ports carry for these records: each commit, then its pixel writes, clear or draw."""
    trace: list[tuple[str, object]] = []
    for c, e in zip(recs, port_records(recs), strict=True):
        trace.append(("commit", e))
        if c.fb is not None:
            trace += [("fb", ("write", a, c.fb.data)) for a in c.fb.addr.tolist()]
        elif c.fb_event is not None:
            trace.append(("fb", ("clear",) if c.fb_event == "flush" else ("draw",)))
    return trace


def scoreboard(path: Path, trace: list[tuple[str, object]]) -> None:
    from tb.lg.program import load as load_test
    from tb.lg.scoreboard import LgScoreboard

    sb = LgScoreboard(load_test(str(path)), {"test": path.stem}, OUT / "scoreboard")
    for cycle, (kind, item) in enumerate(trace):
        if kind == "commit":
            sb.commit(cycle, item)  # type: ignore[arg-type]
        else:
            sb.fb_event(cycle, item)  # type: ignore[arg-type]
    sb.end(len(trace), True)
    if sb.failed:
        raise UserError(f"{path}: the scoreboard refused a correct trace: {sb.report.message if sb.report else ''}", FAILURE)


def lockstep(path: Path) -> int:
    from tb.lg.lockstep import run_lockstep
    from tb.lg.program import load as load_test

    r = run_lockstep(load_test(str(path)), "verilator", out_dir=OUT / "lockstep")
    if not r.passed:
        raise UserError(f"{path}: lock-step failed: {r.report.message if r.report else 'no report'} (make sim ISA=lg TEST={path})", FAILURE)
    return r.commits


def measure(paths: list[Path], runs: int, log: Callable[[str], None]) -> Figures:
    recs = {p: model_run(p) for p in paths}
    n = sum(len(r) for r in recs.values())
    log(f"bench_lg: {len(paths)} programs, {n} instructions; model ...")
    t_model = least(runs, lambda: [model_run(p) for p in paths])
    traces = {p: dut_trace(recs[p]) for p in paths}
    log("bench_lg: scoreboard alone ...")
    t_sb = least(runs, lambda: [scoreboard(p, traces[p]) for p in paths])
    log("bench_lg: RTL free-running (Verilator build first) ...")
    binary = build_freerun()
    cycles = sum(freerun(binary, p, recs[p]) for p in paths)  # checked once, then timed
    # a one-instruction program gives each process's fixed cost (start, $readmemh, the harness's
    # tail), taken out of both the free-running and the lock-step figures
    tiny = OUT / "programs" / "startup.lgs"
    tiny.write_text("        halt\n")
    tiny_recs = model_run(tiny)
    t_free_start = least(runs, lambda: freerun(binary, tiny, tiny_recs))
    t_free = least(runs, lambda: [freerun(binary, p, recs[p]) for p in paths]) - len(paths) * t_free_start
    log("bench_lg: lock-step (Verilator build first) ...")
    lockstep(tiny)  # the build, outside the clock
    t_start = least(runs, lambda: lockstep(tiny))
    t_lock = least(runs, lambda: [lockstep(p) for p in paths]) - len(paths) * t_start
    pixels = sum(checksums(r)[2] for r in recs.values())
    return Figures(len(paths), n, pixels, cycles, t_model, t_sb, t_free, t_lock, t_start, t_free_start)


def _parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="bench_lg.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--programs", type=int, default=8, help="random programs in the workload")
    ap.add_argument("--seed", type=int, default=1, help="the first program's seed")
    ap.add_argument("--preset", default="default", help=f"the randgen LG preset under the bench knobs: {', '.join(lg.PRESETS)}")
    ap.add_argument("--runs", type=int, default=2, help="runs of each timing; the least CPU time counts")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return guarded("bench_lg", lambda: _main(args))


def _main(args: argparse.Namespace) -> int:
    if args.programs < 1 or args.runs < 1:
        raise UserError("--programs and --runs: give at least 1")
    if args.preset not in lg.PRESETS:
        raise UserError(f"--preset {args.preset}: the LG presets are {', '.join(lg.PRESETS)}")
    t0 = time.perf_counter()
    figs = measure(workload(args.programs, args.seed, args.preset), args.runs, lambda s: print(s, file=sys.stderr, flush=True))
    print("\n".join(figs.table()))
    print(f"({time.perf_counter() - t0:.0f} s in all)")
    if args.json:
        args.json.write_text(json.dumps({**asdict(figs), "bound_s": figs.bound_s, "ratio": figs.ratio}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
