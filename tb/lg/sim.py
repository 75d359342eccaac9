"""`make sim ISA=lg`: an LG program on the golden model alone, then on an LG core in lock-step.

    python scripts/sim.py --isa lg TEST|PATH.lgs [--dut rtl|NAME] [--rtl 'path/*.v'] [--sim verilator|icarus]
                                   [--hang-cycles N] [--waves] [--check]

TEST is a name under programs/lg/ (bad/NAME for its bad programs) or the path of a .lgs file.
Steps: assemble (a bad line is one located error, exit 2); run the golden model alone against the
program's `;! expect` lines and write the frames draw showed as build/sim/lg/<test>/frame_N.png; then
lock-step on the DUT (the project's core, or with --dut NAME --rtl FILES a core of your own with
the contract's ports, docs/guides/lg-lockstep.md). Prints each step's outcome, the commits
compared and the cycles; a failure prints the report (also build/sim/lg/<test>/<dut>_<sim>/report.json)
and, on a frame mismatch, the diff image. Exit 0 when both pass, 1 when either fails (the
lock-step run is skipped when the model cannot run the program), 2 for a usage error.
A program of programs/lg/bad/ ends in its one error line, the one its `;! error` header names.
"""

from __future__ import annotations

import argparse
import sys

from golden.errors import FAILURE, OneLineParser, UserError, guarded
from tb.runner import SIMULATORS

from .golden_run import run_golden
from .lockstep import BUILD, DEFAULT_HANG, PROJECT_DUT, check_sim, dut_files, run_lockstep
from .program import load


def _parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="sim.py --isa lg", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", help="a name under programs/lg/ or the path of a .lgs program")
    ap.add_argument("--dut", default=PROJECT_DUT, help="rtl (the project's core, rtl/lg/) or a name for a core of your own given with --rtl")
    ap.add_argument("--rtl", default="", help="your core's Verilog files (globs, space-separated), with top level lg_core")
    ap.add_argument("--sim", default="verilator", help=f"the simulator: {', '.join(SIMULATORS)} (default %(default)s)")
    ap.add_argument("--hang-cycles", type=int, default=DEFAULT_HANG, help="cycles without a commit or a pixel that end the run as a hang")
    ap.add_argument("--waves", action="store_true", help="record an FST waveform in the test's folder")
    ap.add_argument("--check", action="store_true", help="check the settings and the program, then stop")
    return ap


def rerun_command(args: argparse.Namespace) -> str:
    rtl = f" DUT={args.dut} RTL='{args.rtl}'" if args.dut != PROJECT_DUT else ""
    return f"make sim ISA=lg TEST={args.test} SIM={args.sim}{rtl} WAVES=1"


def main(argv: list[str]) -> int:
    return guarded("sim", lambda: _main(argv))


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    check_sim(args.sim)
    if args.hang_cycles < 1:
        raise UserError(f"--hang-cycles {args.hang_cycles}: give a positive number of cycles")
    files = dut_files(args.dut, args.rtl)
    test = load(args.test)
    if args.check:
        return 0
    out = BUILD / test.name.replace("/", "_")
    out.mkdir(parents=True, exist_ok=True)
    golden = run_golden(test, out)
    print(golden.summary(test.name), flush=True)
    for line in golden.broken:
        print(f"  {line}")
    result = run_lockstep(test, args.sim, args.dut, files, hang_cycles=args.hang_cycles, waves=args.waves, rerun=rerun_command(args))
    print(result.summary(test.name, args.sim, args.dut), flush=True)
    if result.report is not None:
        print(f"report: {result.out_dir / 'report.json'}")
    if args.waves:
        print(f"waveform: {next(iter(sorted(result.out_dir.glob('*.fst'))), result.out_dir / '(no .fst written)')}")
    if golden.broken:
        raise UserError(f"{test.path}: the golden model broke {len(golden.broken)} of the program's ;! expect lines (listed above)", FAILURE)
    if not result.passed:
        raise UserError(f"{test.name}: lock-step failed on {args.dut} ({args.sim}): {result.report.message if result.report else 'no report'}", FAILURE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

