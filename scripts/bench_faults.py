"""`make bench` (fault-injection part): faults per minute of small SEU campaigns on Verilator.

    python scripts/bench_faults.py [--kernel vecadd:60] [--kernel kernels/reduce_pass2:40] [--jobs 2]

Each campaign is planned afresh (seed 1, every state bit of the SM a candidate site), run with
JOBS simulator processes and the early stop of converged runs (tb/faults/test_campaign.py), into
build/faults/bench/<kernel>/ (the simulators' output in sim.log there). Printed per kernel: the reference run's cycles, the faults per minute over the
simulator processes' wall time (their start, the checkpoint runs and every fault; not the build
nor the reference run), the mean time of a fault inside its process, and how many runs the early
stop ended and what it saved. A campaign's outcomes are a sample far too small to quote: the
campaigns of record are in docs/measurements.md, "Fault-injection campaigns" (tb/faults).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tb.faults.campaign import Campaign, run_campaign  # noqa: E402
from tb.faults.report import summary  # noqa: E402
from tb.lockstep import quiet  # noqa: E402


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel", action="append", help="program:faults (default vecadd:60 and kernels/reduce_pass2:40)")
    p.add_argument("--jobs", type=int, default=2)
    return p


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    a = p.parse_args(argv)
    kernels = a.kernel or ["vecadd:60", "kernels/reduce_pass2:40"]
    print(f"{'kernel':<22} {'faults':>6} {'ref cycles':>10} {'faults/min':>10} {'ms/fault':>9} {'early stops':>11} {'cycles saved':>12}")
    for spec in kernels:
        test, _, n = spec.partition(":")
        db = ROOT / "build" / "faults" / "bench" / test.replace("/", "-") / "campaign.sqlite"
        shutil.rmtree(db.parent, ignore_errors=True)  # a fresh campaign: the timing of a resumed one means nothing
        with quiet(db.parent / "sim.log"):  # the simulators' output
            run_campaign(Campaign(test, int(n or 20), "verilator", "seu", "*", 1, jobs=a.jobs, db=db), quiet=True)
        s = summary(db)
        e = s["early"]
        print(f"{test:<22} {s['n']:>6} {s['meta']['ref_cycles']:>10} {s['faults_per_minute']:>10.0f} {1000 * s['mean_wall_s']:>9.0f} "
              f"{e['stopped']:>11} {100 * e['cycles_saving']:>11.1f}%")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
