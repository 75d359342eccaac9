"""`make bench` (second part): the RTL's issue rate and the lock-step testbench's speed.

    python scripts/bench_rtl.py [--sim verilator] [--sim icarus] [--num-sp 8 --num-sp 32] [--kernel bench/alu.sass]

Each kernel runs on the RTL in lock-step with the golden model (the same run as `make sim`, seed 1),
so a fast but wrong RTL does not pass. Printed per run: kernel cycles (start pulse to done),
warp-instructions committed, the issue rate (warp-instructions x 32/NUM_SP / cycles: 1.0 is one
warp-instruction every 32/NUM_SP cycles, the aim of rtl/README.md) and the testbench's speed
(wall time of the run including the simulator's start, not the build; simulated cycles and commits
per second). The simulators' output goes to build/bench/<run>/sim.log.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tb.lockstep import LockstepRun, run_lockstep

ROOT = Path(__file__).resolve().parents[1]


KERNELS = [
    ("bench/alu.sass", "issue rate: 24 warps, a 9-instruction integer loop with one branch"),
    ("programs/cf_rounds.sass", "memory and launch: 40 blocks in 10 rounds, GLD/GST"),
]
OUT = ROOT / "build" / "bench"


@contextmanager
def quiet(log: Path) -> Iterator[None]:
    """Send this process's and its children's stdout and stderr to `log` (the runner lets the simulator inherit them)."""
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", action="append", choices=["icarus", "verilator"], help="default: verilator")
    ap.add_argument("--num-sp", action="append", type=int, choices=[8, 16, 32], help="default: 8, 16 and 32")
    ap.add_argument("--kernel", action="append", help="a .sass file (default: " + ", ".join(k for k, _ in KERNELS) + ")")
    args = ap.parse_args()
    kernels = [(k, "") for k in args.kernel] if args.kernel else KERNELS
    print(f"{'kernel':<16} {'sim':<9} {'SPs':>3} {'cycles':>8} {'warp-insns':>10} {'issue rate':>10} {'wall s':>7} {'cycles/s':>9} {'commits/s':>9}  lock-step")
    ok = True
    for path, what in kernels:
        for sim in args.sim or ["verilator"]:
            for num_sp in args.num_sp or [8, 16, 32]:
                out = OUT / f"{Path(path).stem}_{sim}_sp{num_sp}"
                out.mkdir(parents=True, exist_ok=True)
                r = LockstepRun(str((ROOT / path).resolve()), sim, num_sp, out=out)
                with quiet(out / "sim.log"):  # keep the table readable: the simulators' output goes to the run's log
                    r.build()  # not timed
                    res = run_lockstep(r, rerun_with_waves=False)
                ok &= res.passed
                rate = res.commits * (32 / num_sp) / res.cycles if res.cycles else 0.0
                print(f"{Path(path).stem:<16} {sim:<9} {num_sp:>3} {res.cycles:>8} {res.commits:>10} {rate:>10.3f} {res.wall:>7.1f} "
                      f"{res.cycles / res.wall:>9.0f} {res.commits / res.wall:>9.0f}  {'pass' if res.passed else 'FAIL'}", flush=True)  # fmt: skip
                if not res.passed:
                    print(res.summary())
        if what:
            print(f"  ({what})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
