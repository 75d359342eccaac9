"""`make bench` (fault-injection part): faults per minute of small SEU campaigns on Verilator, per
core, with 1 and 2 workers, and what that rate means for a campaign of published size.

    python scripts/bench_faults.py [--kernel vecadd:400] [--kernel kernels/saxpy:150] [--kernel kernels/matmul:40]
                                   [--workers 1,2] [--engines fast] [--engines cocotb,fast]

Each campaign is planned afresh (seed 1, every state bit of the SM a candidate site) and run on an
embedded Dask cluster of W workers, or in this process for one (tb/cluster.py), with the early
stop of converged runs (tb/faults/test_campaign.py) and the engine E (fast: the memory-word shortcut; cocotb: every fault
simulated), into build/faults/bench/<kernel>_<E>_w<W>/ (the simulators' output in sim.log there).
Printed per kernel, engine and worker count: the reference run's cycles, the faults per minute
over the campaign's task phase (the cluster's start where there is one, simulator processes,
fault-free runs and every fault; not the build nor the reference run; one worker runs its tasks in
this process, without a cluster), the same per worker (one worker a core), the mean
time of a fault inside its process, the early stops, the efficiency of W workers (their rate over
W times the one-worker rate), and the bound: the faults per minute of one core that spent on each
fault exactly one free-running run of the kernel in the lean Verilator harness
(scripts/bench_freerun.py: no Python in the loop, the kernel's cycles alone), with the ratio of
that bound to the per-core rate (the kernel's cycles timed by the harness as CPU time, the
fastest of five runs). Then the time a campaign of 583,000 faults (the size of the SC'23
FlexGripPlus permanent-fault study) would take on 16 and on 128 cores at the one-worker per-core
rate of the last engine, which assumes a cluster's cores scale as this machine's first one does. A
campaign's outcomes are a sample far too small to quote: the campaigns of record are in
docs/measurements.md, "Fault-injection campaigns".
"""

from __future__ import annotations

import argparse
import shutil
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golden.errors import OneLineParser  # noqa: E402
from scripts.bench_freerun import freerun  # noqa: E402
from tb.faults.campaign import ENGINES, Campaign, run_campaign  # noqa: E402
from tb.faults.report import summary  # noqa: E402
from tb.lockstep import quiet  # noqa: E402


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    p = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel", action="append", help="program:faults (default vecadd:400, kernels/saxpy:150 and kernels/matmul:40)")
    p.add_argument("--engines", default="fast", help="comma-separated fault engines, each a campaign (default fast; cocotb,fast for before and after)")
    p.add_argument("--workers", default="1,2", help="comma-separated worker counts of the embedded cluster, each a campaign (default 1,2)")
    return p


PROJECTED_FAULTS = 583_000  # the SC'23 study's permanent faults on FlexGripPlus
PROJECTED_CORES = (16, 128)
FREE_RUNS = 5  # free-running runs of each kernel for its bound


def _duration(minutes: float) -> str:
    return f"{minutes / 60:.1f} h" if minutes >= 90 else f"{minutes:.0f} min"


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    a = p.parse_args(argv)
    kernels = a.kernel or ["vecadd:400", "kernels/saxpy:150", "kernels/matmul:40"]
    try:
        counts = [int(w) for w in a.workers.split(",") if w]
    except ValueError:
        p.error(f"--workers {a.workers!r}: comma-separated worker counts, e.g. 1,2")
    if not counts or min(counts) < 1:
        p.error(f"--workers {a.workers!r}: comma-separated worker counts of at least 1, e.g. 1,2")
    engines = [e for e in a.engines.split(",") if e]
    if not engines or any(e not in ENGINES for e in engines):
        p.error(f"--engines {a.engines!r}: comma-separated engines of {', '.join(ENGINES)}")
    print(f"{'kernel':<16} {'engine':>6} {'workers':>7} {'faults':>6} {'ref cycles':>10} {'faults/min':>10} {'per core':>9} {'ms/fault':>9} "
          f"{'early stops':>11} {'efficiency':>10} {'bound':>8} {'bound/core':>10}")  # fmt: skip
    per_core: dict[str, float] = {}
    for spec in kernels:
        test, _, n = spec.partition(":")
        campaign = Campaign(test, int(n or 20), "verilator", "seu", "*", 1)
        # the bound: one free-running run of the kernel per fault, in the same Verilator (the lean harness
        # build), timed by the harness itself as the CPU time of the kernel's cycles (a busy machine
        # does not lengthen it); the fastest of a few runs
        free = [freerun(campaign.lockstep.path, "verilator", campaign.num_sp) for _ in range(FREE_RUNS)]
        best = min((r.timed_cpu_s for r in free if r.correct and r.timed_cpu_s), default=0.0)
        bound = 60 / best if best else 0.0
        for engine in engines:
            one: float | None = None
            for workers in counts:
                db = ROOT / "build" / "faults" / "bench" / f"{test.replace('/', '-')}_{engine}_w{workers}" / "campaign.sqlite"
                shutil.rmtree(db.parent, ignore_errors=True)  # a fresh campaign: the timing of a resumed one means nothing
                with quiet(db.parent / "sim.log"):  # the simulators' output
                    run_campaign(replace(campaign, jobs=workers, db=db, engine=engine), quiet=True)
                s = summary(db)
                rate = s["faults_per_minute"] or 0.0
                core = rate / workers
                if workers == 1:
                    one = rate
                    per_core[test] = core
                eff = f"{100 * rate / (workers * one):.0f} %" if one else ""
                ratio = f"{bound / core:.1f}" if core and bound else ""
                print(f"{test:<16} {engine:>6} {workers:>7} {s['n']:>6} {s['meta']['ref_cycles']:>10} {rate:>10.0f} {core:>9.0f} {1000 * s['mean_wall_s']:>9.1f} "
                      f"{s['early']['stopped']:>11} {eff:>10} {bound:>8.0f} {ratio:>10}", flush=True)  # fmt: skip
    for test, core in per_core.items():
        if core:
            times = ", ".join(f"{_duration(PROJECTED_FAULTS / (core * cores))} on {cores} cores" for cores in PROJECTED_CORES)
            print(f"{test}: {PROJECTED_FAULTS:,} faults at {core:.0f} faults/min per core: {times}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
