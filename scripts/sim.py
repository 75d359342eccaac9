"""`make sim`: run programs/<TEST>.sass (or a program or kernel bundle by path) on a DUT in lock-step with the golden model.

    python scripts/sim.py [--isa g80] TEST|PATH.sass|BUNDLE.txt [--dut rtl|flexgrip] [--sim icarus|verilator|...] [--num-sp 8|16|32] [--seed N] [--mem-order any|request]
                               [--profile g80|flexgrip] [--waves | --no-waves] [--defines MUTANT_X,...]
                               [--free-running] [--trace FILE] [--visibility lean|full]

`--isa lg` runs an LG program instead (tb/lg/sim.py, docs/guides/lg-lockstep.md); `--isa fermi` a
Fermi program on the golden model alone, as no Fermi DUT exists yet (tb/fermi/sim.py, docs/guides/fermi.md).
The simulator defaults to the DUT's first (rtl: verilator, the fast one; Icarus for its 4-state X checks).
--free-running (make sim LOCKSTEP=0) runs the DUT with the testbench's memory without stepping the
model per commit, records the commit trace and compares it with the model after the run (the
same report on a mismatch); --trace writes that trace to a file (tb/trace.py).
Prints the outcome, the commits compared and the simulated cycles. On a failure it prints the
report (DESIGN.md section 6), which is also in build/sim/<run>/report.json, after rerunning with
FST waveforms (unless --no-waves) so that the report names the wave file and the cycle.

--dut flexgrip ends with two verdicts, one line each, kept apart (docs/reference/flexgrip-run.md):
lock-step, FlexGripPlus against its model (the flexgrip profile) commit by commit; then the
program's .expect lines on the global memory FlexGripPlus left (a kernel bundle: its expected dump),
each broken line with the known findings (golden/g80/flexgrip_findings.py) that break it. Exit 0 when
lock-step passed and every broken line is broken by known findings; 1 when lock-step failed or a
line is broken by no known finding; 2 for a usage error or a program FlexGripPlus cannot run.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from golden import isas
from golden.errors import USAGE, OneLineParser, UserError, guarded
from tb.adapters import ADAPTERS, DEFAULT, adapter, check_setup
from tb.lockstep import LockstepResult, LockstepRun, run_lockstep
from tb.report import waived_text

ROOT = Path(__file__).resolve().parents[1]


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", help="a name of programs/ or the path of a .sass program or FlexGripPlus kernel bundle (.txt)")
    # read by main() before this parser (an LG run has options of its own); here for --help and the manual
    ap.add_argument("--isa", default="g80", choices=["g80", "lg", "fermi"],
                    help="the instruction set; lg and fermi hand the whole command line to tb/lg/sim.py, tb/fermi/sim.py")
    ap.add_argument("--dut", default=DEFAULT, choices=sorted(ADAPTERS), help="the design under test (default %(default)s)")
    ap.add_argument("--sim", help="the simulator (default: the DUT's first)")
    ap.add_argument("--num-sp", type=int, default=8, choices=[8, 16, 32])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="g80", choices=["g80", "flexgrip"])
    ap.add_argument("--waves", action="store_true", help="record FST waveforms in the first run")
    ap.add_argument("--no-waves", action="store_true", help="do not rerun a failing test with waveforms")
    ap.add_argument("--defines", default="", help="comma-separated Verilog defines, or MUTANT_* variants of the RTL (tb/mutants.py)")
    ap.add_argument("--waive", default="", choices=["", "none"], help="none: no waivers for the DUT's known behaviours (golden/g80/flexgrip_findings.py)")
    ap.add_argument("--free-running", action="store_true", help="compare the commit trace with the model after the run, not per commit")
    ap.add_argument("--trace", type=Path, help="write the DUT's commit trace here (tb/trace.py)")
    ap.add_argument("--mem-order", default="any", choices=["any", "request"], help="memory responses: any order or request order")
    ap.add_argument("--visibility", default="lean", choices=["lean", "full"], help="Verilator: what VPI reaches, the ports (lean) or every signal (full)")
    ap.add_argument("--check", action="store_true", help="check the settings, the simulator and the program, then stop (make sim, before the golden run)")
    return ap


def main() -> int:
    # `--isa lg` hands the whole command line to the LG testbench (tb/lg/sim.py) and `--isa fermi` to
    # the Fermi run (tb/fermi/sim.py), each with options of its own; without it, or with --isa g80,
    # the G80 run below is unchanged
    argv = sys.argv[1:]
    isa, rest = _isa(argv)
    if isa == "lg":
        from tb.lg.sim import main as lg_main

        return lg_main(rest)
    if isa == "fermi":
        from tb.fermi.sim import main as fermi_main

        return fermi_main(rest)
    sys.argv[1:] = rest
    return guarded("sim", lambda: _g80_main(isa))


def _g80_main(isa: str) -> int:
    isas.get(isa)  # an ISA of the registry without a lock-step run here, or an unknown name: its one error line
    if isa != "g80":
        raise UserError(f"ISA={isa}: make sim runs ISA=g80, ISA=lg and ISA=fermi")
    return _main()


def _isa(argv: list[str]) -> tuple[str, list[str]]:
    """The --isa value (default g80) and the other arguments."""
    rest, isa, i = [], "g80", 0
    while i < len(argv):
        a = argv[i]
        if a == "--isa" and i + 1 < len(argv):
            isa, i = argv[i + 1], i + 2
            continue
        if a.startswith("--isa="):
            isa = a.split("=", 1)[1]
        else:
            rest.append(a)
        i += 1
    return isa, rest


def _main() -> int:
    ap = _parser()
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
        from golden.g80.flexgrip_export import NotRunnable
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
    elif args.waves:  # a failure's report names its wave file; a passing run asked for one says where it is
        print(f"waveform: {adapter(r.dut).wave_file(r.config(), r.out_dir)}")
    if args.dut == "flexgrip":
        return flexgrip_verdicts(r, result)
    return 0 if result.passed else 1


def flexgrip_verdicts(r: LockstepRun, result: LockstepResult) -> int:
    """Print the two verdicts of a FlexGripPlus run and the exit code they give, with its reason.

    A .expect line broken only by known findings does not fail the run: lock-step has shown that
    FlexGripPlus behaves as its model, findings included, and each finding is recorded with a
    program that reproduces it; failing on it would fail every run of the programs that touch a
    known FlexGripPlus bug, and hide a new departure among them. A line no known finding explains
    is a failure: the memory FlexGripPlus left breaks the program for a reason nobody has named."""
    from golden.g80.flexgrip_bundle import dump_on_dut
    from golden.g80.flexgrip_findings import expectations_on_dut
    from golden.g80.profile import FLEXGRIP

    waived = result.extra.get("waived") or {}
    note = f", waived: {waived_text(waived)}" if waived else ""
    if result.passed:
        print(f"lock-step (FlexGripPlus against the flexgrip profile): PASS, {result.commits} commits compared, {result.cycles} cycles{note}")
    else:
        why = result.report.message.splitlines()[0] if result.report and result.report.message else "no report"
        print(f"lock-step (FlexGripPlus against the flexgrip profile): FAIL after {result.commits} commits{note}: {why}")
    head = "expectations on FlexGripPlus's memory"
    dump = r.out_dir / "final_global.bin"
    if not result.passed:
        print(f"{head}: not judged (lock-step failed: the memory is not that of a finished kernel)")
        code, why = 1, "lock-step failed"
    elif not dump.exists():
        print(f"{head}: not judged (the run left no {dump})")
        code, why = 1, "no final memory to judge"
    elif r.path.suffix == ".txt":
        matched, total, bad = dump_on_dut(r.path, dump.read_bytes())
        shown = "; ".join(f"{w.addr:#07x}: expected {w.expected:#010x}, got {w.got:#010x}" for w in bad[:4]) + ("; ..." if len(bad) > 4 else "")
        print(f"{head} (the bundle's expected dump): " + (f"PASS, {total} of {total} words match" if not bad else f"FAIL, {matched} of {total} words match: {shown}"))
        code, why = (1, "words differ from the bundle's dump (no finding is attributed to a dump)") if bad else (0, "lock-step passed, the dump matches")
    else:
        ev = expectations_on_dut(r.path, dump.read_bytes(), waived, replace(FLEXGRIP, fpu_sync_lanes=r.num_sp))
        print(f"{head}: {ev.verdict()}")
        if ev.unexplained:
            code, why = 1, "a .expect line is broken by no known finding"
        elif ev.broken:
            code, why = 0, "lock-step passed; the .expect lines broken are broken by known findings (golden/g80/flexgrip_findings.py)"
        else:
            code, why = 0, "lock-step passed" + (", the expectations hold" if ev.total else "")
    print(f"exit {code}: {why}")
    return code


if __name__ == "__main__":
    sys.exit(main())
