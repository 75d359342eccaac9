"""`make sim`: run programs/<TEST>.sass (or a program or kernel bundle by path) on a DUT in lock-step with the golden model.

    python scripts/sim.py TEST|PATH.sass|BUNDLE.txt [--dut rtl|flexgrip] [--sim icarus|verilator|...] [--num-sp 8|16|32] [--seed N] [--mem-order any|request]
                               [--profile g80|flexgrip] [--waves | --no-waves] [--defines MUTANT_X,...]
                               [--free-running] [--trace FILE] [--visibility lean|full]

The simulator defaults to the DUT's first (rtl: verilator, the fast one; Icarus for its 4-state X checks).
--free-running (make sim LOCKSTEP=0) runs the DUT with the testbench's memory without stepping the
model per commit, records the commit trace and compares it with the model after the run (the
same report on a mismatch); --trace writes that trace to a file (tb/trace.py).
Prints the outcome, the commits compared and the simulated cycles. On a failure it prints the
report (DESIGN.md section 6), which is also in build/sim/<run>/report.json, after rerunning with
FST waveforms (unless --no-waves) so that the report names the wave file and the cycle.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from golden.errors import USAGE, OneLineParser, UserError, guarded
from tb.adapters import ADAPTERS, DEFAULT, check_setup
from tb.lockstep import LockstepRun, run_lockstep

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    return guarded("sim", _main)


def _main() -> int:
    ap = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", help="a name of programs/ or the path of a .sass program or FlexGripPlus kernel bundle (.txt)")
    ap.add_argument("--dut", default=DEFAULT, choices=sorted(ADAPTERS), help="the design under test (default %(default)s)")
    ap.add_argument("--sim", help="the simulator (default: the DUT's first)")
    ap.add_argument("--num-sp", type=int, default=8, choices=[8, 16, 32])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="g80", choices=["g80", "flexgrip"])
    ap.add_argument("--waves", action="store_true", help="record FST waveforms in the first run")
    ap.add_argument("--no-waves", action="store_true", help="do not rerun a failing test with waveforms")
    ap.add_argument("--defines", default="", help="comma-separated Verilog defines, or MUTANT_* variants of the RTL (tb/mutants.py)")
    ap.add_argument("--waive", default="", choices=["", "none"], help="none: no waivers for the DUT's known behaviours (golden/flexgrip_findings.py)")
    ap.add_argument("--free-running", action="store_true", help="compare the commit trace with the model after the run, not per commit")
    ap.add_argument("--trace", type=Path, help="write the DUT's commit trace here (tb/trace.py)")
    ap.add_argument("--mem-order", default="any", choices=["any", "request"], help="memory responses: any order or request order")
    ap.add_argument("--visibility", default="lean", choices=["lean", "full"], help="Verilator: what VPI reaches, the ports (lean) or every signal (full)")
    ap.add_argument("--check", action="store_true", help="check the settings, the simulator and the program, then stop (make sim, before the golden run)")
    args = ap.parse_args()
    sim = check_setup(args.dut, args.sim)
    if args.dut == "flexgrip" and args.profile != "flexgrip":
        raise UserError("DUT flexgrip is checked against the flexgrip profile (--profile flexgrip; make sets it for DUT=flexgrip)")
    r = LockstepRun(args.test, sim, args.num_sp, args.seed, args.profile, tuple(d for d in args.defines.split(",") if d), dut=args.dut, waive=args.waive,
                    visibility=args.visibility, lockstep=not args.free_running, trace=args.trace,
                    mem_order=args.mem_order)  # fmt: skip
    if not r.path.exists():
        raise UserError(f"no program {r.path} (TEST is a name of programs/ or a path to a .sass program or kernel bundle)")
    if args.dut == "flexgrip":
        from golden.flexgrip_export import NotRunnable
        from tb.adapters.flexgrip import check_runnable

        try:
            check_runnable(r.path)
        except NotRunnable as exc:
            raise UserError(f"{r.name}: cannot run on FlexGripPlus: {exc}", USAGE) from None
    if args.check:
        return 0
    result = run_lockstep(r, waves=args.waves, rerun_with_waves=not args.no_waves)
    print(result.summary())
    if result.report is not None:
        print(f"report: {r.out_dir / 'report.json'}")
    return 0 if result.passed else 1


if __name__ == "__main__":
    sys.exit(main())
