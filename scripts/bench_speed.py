"""`make bench` (third part): the testbench's speed against its bounds, in one table.

    python scripts/bench_speed.py [--kernel bench/alu.sass --kernel bench/kernels/saxpy.sass]
                                  [--no-icarus | --icarus-kernel K ...] [--runs 2] [--startup-program vecadd] [--repeat 3]

Per kernel (default: bench/alu.sass, integer-bound; bench/kernels/saxpy.sass, memory-bound, a
quarter of its instructions GLD/GST), each run checked against the golden model, NUM_SP 8, seed 1:

- lock-step, Verilator: `make sim` (lean build: only the ports VPI-visible), as its run phase
  (from the launch to the end: the simulation, the commit monitor, the model and the compares)
  and as the whole process (plus the fixed start-up, also given on its own at the end);
- scoreboard alone: the golden model's step plus the compare per commit, fed the commit trace
  of the free-running run from its file (tb/trace.py), no simulator: bound 20 us a commit;
- RTL free-running with the testbench (`make sim LOCKSTEP=0`): the simulation with the
  testbench's memory and commit monitor, the compare left out (its run phase);
- RTL free-running in a harness, Verilator (C++) and Icarus (Verilog), no Python:
  `scripts/bench_freerun.py` when present (CPU: the harness process; bound for Icarus on bench/alu.sass: 20k cycles/s);
- lock-step, Icarus, its run phase. Icarus rows only for the kernels of --icarus-kernel (default
  both; bench/alu.sass's 246k cycles take about 30 s of Icarus, free-running and lock-step); every
  Icarus row of a kernel compares with the same kernel's figures.

The bound of a lock-step run is the scoreboard alone plus the RTL free-running in the harness of
the same simulator (the least a lock-step run can cost); the goal for Verilator is within 2x, for
the run phase (neither side of the bound includes the lock-step process's start-up). Then the
fixed start-up of one short lock-step run (`scripts/sim.py vecadd`: a whole process, host and
simulator, build cached).

Every figure is given as wall time and as CPU time (user + system of this process and its
children: the simulators); the Verilator lock-step run, the replay and the harness run `--runs`
times each, the least CPU time counted. On a shared machine the wall time follows the load; the CPU time does
not, so the ratios are of CPU times where both sides have one. Builds are done before timing.
Simulator output goes to build/bench_speed/<run>/sim.log.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from tb.lockstep import LockstepRun, quiet, run_lockstep
from tb.trace import replay

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "bench_speed"
FREERUN = ROOT / "scripts" / "bench_freerun.py"
KERNELS = ["bench/alu.sass", "bench/kernels/saxpy.sass"]
ICARUS_KERNELS = KERNELS  # Icarus rows by default for both: bench/alu.sass's 246k cycles are about 30 s since the third Icarus pass
SCOREBOARD_BOUND_US = 20.0  # goal: one-warp step plus compare per commit
ICARUS_BOUND_CPS = 20_000.0  # goal: RTL free-running under Icarus, cycles per second
ICARUS_GOAL_KERNEL = "alu.sass"  # ... on bench/alu.sass (the other kernels' Icarus rows carry no bound)
T = TypeVar("T")
LOCKSTEP_GOAL = 2.0  # goal: lock-step on Verilator within 2x of its bound


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Figure:
    what: str
    wall: float | None = None
    cpu: float | None = None
    rate: str = ""  # e.g. "10.3k cycles/s"
    bound: str = ""  # the bound, in words
    ratio: str = ""  # figure / bound
    note: str = ""

    def row(self) -> str:
        wall = f"{self.wall:.2f}" if self.wall is not None else "-"
        cpu = f"{self.cpu:.2f}" if self.cpu is not None else "-"
        return f"  {self.what:<52} {wall:>8} {cpu:>8}  {self.rate:<26} {self.bound:<30} {self.ratio:<12} {self.note}"


def _k(x: float) -> str:
    return f"{x / 1000:.1f}k" if x >= 1000 else f"{x:.0f}"


def lockstep(path: Path, sim: str, out: Path, free: bool = False, trace: Path | None = None):
    r = LockstepRun(str(path), sim, 8, out=out, lockstep=not free, trace=trace)
    with quiet(out / "sim.log"):
        r.build()  # not timed
        c0 = _cpu()
        res = run_lockstep(r, rerun_with_waves=False)
        cpu = _cpu() - c0
    if not res.passed:
        raise SystemExit(f"{path} on {sim}{' (free-running)' if free else ''} fails: {res.summary()}")
    return res, cpu


def freerun(path: Path, sim: str) -> tuple[dict | None, float, str]:
    """bench_freerun.py's result (None and why when it is missing or failed) and the CPU time of
    the harness process alone (its `cpu_s`, start-up included): bench_freerun.py's own Python,
    which runs the golden model to check the outcome, is not part of the RTL's cost."""
    if not FREERUN.exists():
        return None, 0.0, "n/a (scripts/bench_freerun.py missing)"
    done = subprocess.run([sys.executable, str(FREERUN), "--sim", sim, str(path), "--json"], capture_output=True, text=True, check=False)
    try:
        data = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return None, 0.0, f"n/a (bench_freerun.py failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]})"
    if not data.get("correct", True):
        return None, 0.0, f"n/a (the free-running RTL is wrong: {data.get('detail', '')})"
    return data, float(data["cpu_s"]), ""


def warm_freerun(sim: str) -> None:
    """Build the harness of `sim` (cached by bench_freerun.py per simulator and NUM_SP) on a short program, not timed."""
    if FREERUN.exists():
        subprocess.run([sys.executable, str(FREERUN), "--sim", sim, str(ROOT / "programs" / "vecadd.sass"), "--json"], capture_output=True, check=False)


def ratio(a: float | None, b: float | None, goal: float | None = None) -> str:
    if a is None or not b:
        return "n/a"
    x = a / b
    return f"{x:.2f}x" + (("  ok" if x <= goal else "  OVER") if goal is not None else "")


def best(runs: int, measure: Callable[[], T], cpu: Callable[[T], float]) -> T:
    """The run of least CPU time of `runs`: on a shared machine other processes only ever add
    to a run's CPU time (caches, hyper-threads), so the least is the steadiest estimate. Each
    side of a ratio is measured the same way."""
    results = [measure() for _ in range(max(1, runs))]
    return min(results, key=cpu)


def kernel_table(path: Path, icarus: bool, runs: int = 1) -> list[Figure]:
    name = path.stem
    rows: list[Figure] = []
    ls, ls_cpu = best(runs, lambda: lockstep(path, "verilator", OUT / f"{name}_verilator"), lambda r: r[0].extra.get("run_cpu_s") or r[1])
    trace = OUT / f"{name}.trace"
    free, _ = lockstep(path, "verilator", OUT / f"{name}_verilator_free", free=True, trace=trace)
    rep = best(runs, lambda: replay(trace), lambda r: r.cpu_seconds)
    if rep.report is not None or rep.compared != ls.commits:
        raise SystemExit(f"{name}: the replayed trace does not compare like the run ({rep.compared} of {ls.commits} commits)")
    us = 1e6 * rep.cpu_seconds / rep.commits
    warm_freerun("verilator")
    fv, fv_cpu, fv_why = best(runs, lambda: freerun(path, "verilator"), lambda r: r[1] if r[0] is not None else float("inf"))
    bound_wall = rep.seconds + fv["wall_s"] if fv else None
    bound_cpu = rep.cpu_seconds + fv_cpu if fv else None
    bound = f"{bound_cpu:.2f} s: scoreboard + harness" if bound_cpu is not None else "scoreboard + Verilator harness"
    run_s, run_cpu = ls.extra.get("run_s"), ls.extra.get("run_cpu_s")
    # the goal is judged on the run phase (launch to end): neither side of the bound has the
    # lock-step process's fixed start-up (imports, cocotb, program load), which is its own row below
    rows.append(Figure(f"{name}: lock-step, Verilator: run (launch to end)", run_s, run_cpu,
                       f"{_k(ls.commits / run_s)} commits/s, {_k(ls.cycles / run_s)} cycles/s" if run_s else "", bound,
                       ratio(run_cpu, bound_cpu, LOCKSTEP_GOAL) if fv else fv_why))  # fmt: skip
    rows.append(Figure(f"{name}: lock-step, Verilator: whole process", ls.wall, ls_cpu, f"{ls.commits} commits, {ls.cycles} cycles",
                       "the same", ratio(ls_cpu, bound_cpu) if fv else fv_why, f"(wall {ratio(ls.wall, bound_wall)}; start-up included)" if fv else ""))  # fmt: skip
    rows.append(Figure(f"{name}: scoreboard alone (trace replayed)", rep.seconds, rep.cpu_seconds, f"{us:.1f} us/commit (CPU)",
                       f"{SCOREBOARD_BOUND_US:.0f} us/commit", ratio(us, SCOREBOARD_BOUND_US, 1.0)))  # fmt: skip
    frun_s, frun_cpu = free.extra.get("run_s"), free.extra.get("run_cpu_s")
    rows.append(Figure(f"{name}: RTL free-running with tb (LOCKSTEP=0)", frun_s, frun_cpu, f"{_k(free.cycles / frun_s)} cycles/s" if frun_s else "",
                       "", "", f"(run phase; the compare after it: {free.extra.get('replay_cpu_s') or 0:.2f} s CPU)"))  # fmt: skip
    rows.append(Figure(f"{name}: RTL free-running, Verilator harness", fv["wall_s"] if fv else None, fv_cpu if fv else None,
                       f"{_k(fv['cycles_per_s'])} cycles/s" if fv else fv_why, "", "", "(CPU: the harness process)" if fv else ""))  # fmt: skip
    if icarus:
        warm_freerun("icarus")
        fi, fi_cpu, fi_why = freerun(path, "icarus")
        goal = path.name == ICARUS_GOAL_KERNEL  # the goal names one program; another kernel's row is a figure only
        rows.append(Figure(f"{name}: RTL free-running, Icarus harness", fi["wall_s"] if fi else None, fi_cpu if fi else None,
                           f"{_k(fi['cycles_per_s'])} cycles/s" if fi else fi_why, f"{_k(ICARUS_BOUND_CPS)} cycles/s" if goal else "",
                           ratio(ICARUS_BOUND_CPS, fi["cycles"] / fi_cpu if fi and fi_cpu else None, 1.0) if fi and goal else "",
                           f"({_k(fi['cycles'] / fi_cpu)} cycles per CPU s)" if fi and fi_cpu else ""))  # fmt: skip
        li, li_cpu = lockstep(path, "icarus", OUT / f"{name}_icarus")
        li_run, li_run_cpu = li.extra.get("run_s"), li.extra.get("run_cpu_s")
        rows.append(Figure(f"{name}: lock-step, Icarus: run (launch to end)", li_run, li_run_cpu,
                           f"{_k(li.commits / li_run)} commits/s, {_k(li.cycles / li_run)} cycles/s" if li_run else "",
                           "scoreboard + Icarus harness", ratio(li_run_cpu, rep.cpu_seconds + fi_cpu) if fi else fi_why,
                           f"(whole process {li_cpu:.2f} s CPU)"))  # fmt: skip
    return rows


def startup(program: str, repeat: int) -> Figure:
    """The whole process of one short lock-step run (build cached): the best of `repeat` after one warm-up."""
    cmd = [sys.executable, str(ROOT / "scripts" / "sim.py"), program, "--sim", "verilator", "--no-waves"]
    subprocess.run(cmd, capture_output=True, check=False)  # warm-up: build, bytecode
    best: tuple[float, float] | None = None
    for _ in range(repeat):
        c0, t0 = _cpu(), time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
        if done.returncode:
            raise SystemExit(f"{program}: the lock-step run fails:\n{done.stdout[-2000:]}")
        if best is None or cpu < best[1]:
            best = (wall, cpu)
    assert best is not None
    return Figure(f"start-up: one lock-step run of {program}", best[0], best[1], "whole process (host + simulator)", "", "", "")  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", action="append", help="a .sass program (default: " + ", ".join(KERNELS) + ")")
    ap.add_argument("--no-icarus", action="store_true", help="leave out the Icarus rows")
    ap.add_argument("--icarus-kernel", action="append",
                    help="the kernels that get Icarus rows (default: " + ", ".join(ICARUS_KERNELS) + "; 'all': every kernel). Icarus runs "
                         "bench/alu.sass's 246k cycles twice, about 30 s; each row compares like with like on its own kernel")
    ap.add_argument("--startup-program", default="vecadd", help="the short program of the start-up figure (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="start-up runs, the best counted (default %(default)s)")
    ap.add_argument("--runs", type=int, default=2,
                    help="Verilator lock-step runs, trace replays and harness runs per kernel, the least CPU time of each counted (default %(default)s)")
    return ap


def main() -> int:
    ap = _parser()
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"testbench speed (NUM_SP 8, seed 1; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}): wall s, CPU s, ratio of CPU times to the bound")
    print(f"  {'what':<52} {'wall s':>8} {'CPU s':>8}  {'rate':<26} {'bound':<30} {'ratio':<12}")
    icarus = set(args.icarus_kernel or ICARUS_KERNELS)
    for kernel in args.kernel or KERNELS:
        with_icarus = not args.no_icarus and ("all" in icarus or kernel in icarus or Path(kernel).stem in icarus)
        for row in kernel_table((ROOT / kernel).resolve(), with_icarus, args.runs):
            print(row.row(), flush=True)
    print(startup(args.startup_program, args.repeat).row())
    return 0


if __name__ == "__main__":
    sys.exit(main())
