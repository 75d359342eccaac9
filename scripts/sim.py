"""`make sim`: run programs/<TEST>.sass on the RTL in lock-step with the golden model.

    python scripts/sim.py TEST [--dut rtl|flexgrip] [--sim icarus|verilator] [--num-sp 8|16|32] [--seed N] [--profile g80|flexgrip]
                               [--waves | --no-waves] [--defines MUTANT_X,...]

Prints the outcome, the commits compared and the simulated cycles. On a failure it prints the
report (DESIGN.md section 6), which is also in build/sim/<run>/report.json, after rerunning with
FST waveforms (unless --no-waves) so that the report names the wave file and the cycle.
With --dut flexgrip the program (or a kernel bundle ../shared/vectors/flexgrip_kernels/NAME.txt)
runs on FlexGripPlus under GHDL (tb/flexgrip_run.py), always under the flexgrip profile.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tb"))
sys.path.insert(0, str(ROOT))

from lockstep import LockstepRun, run_lockstep  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", help="a program name of programs/, or a path (.sass, or a FlexGripPlus bundle .txt)")
    ap.add_argument("--dut", default="rtl", choices=["rtl", "flexgrip"])
    ap.add_argument("--sim", default="icarus", choices=["icarus", "verilator"])
    ap.add_argument("--num-sp", type=int, default=8, choices=[8, 16, 32])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="g80", choices=["g80", "flexgrip"])
    ap.add_argument("--waves", action="store_true", help="record FST waveforms in the first run")
    ap.add_argument("--no-waves", action="store_true", help="do not rerun a failing test with waveforms")
    ap.add_argument("--defines", default="", help="comma-separated Verilog defines (e.g. a MUTANT_* variant)")
    args = ap.parse_args()
    if args.dut == "flexgrip":
        return flexgrip(args)
    r = LockstepRun(args.test, args.sim, args.num_sp, args.seed, args.profile, tuple(d for d in args.defines.split(",") if d))
    if not r.path.exists():
        print(f"no program {r.path}", file=sys.stderr)
        return 2
    result = run_lockstep(r, waves=args.waves, rerun_with_waves=not args.no_waves)
    print(result.summary())
    if result.report is not None:
        print(f"report: {r.out_dir / 'report.json'}")
    return 0 if result.passed else 1


def flexgrip(args: argparse.Namespace) -> int:
    from flexgrip_build import FlexgripMissing
    from flexgrip_run import run_flexgrip

    from golden.flexgrip_export import NotRunnable

    path = Path(args.test) if args.test.endswith((".sass", ".txt")) else ROOT / "programs" / f"{args.test}.sass"
    if not path.exists():
        print(f"no program {path}", file=sys.stderr)
        return 2
    try:
        result = run_flexgrip(path, None if path.suffix == ".txt" else args.num_sp)
    except (FlexgripMissing, NotRunnable) as exc:
        print(f"{path.stem}: cannot run on FlexGripPlus: {exc}", file=sys.stderr)
        return 2
    print(result.summary())
    return 0 if result.passed else 1


if __name__ == "__main__":
    sys.exit(main())
