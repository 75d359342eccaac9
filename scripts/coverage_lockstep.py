"""Programs in lock-step on the RTL with coverage sampling (`make coverage COVERAGE_RANDOM=n`'s RTL part).

    python scripts/coverage_lockstep.py -o build/coverage/random/rtl [--sim verilator] [--num-sp 8] [--max-latency 8] [--ready-p 0.8] PROGRAM.sass...

Each passing run writes OUT/NAME.json (ISA bins), NAME.cross.json and NAME.uarch.json (the
micro-architecture, sampled by VPI: tb/coverage_uarch.py) for `python -m golden coverage-report`.
The model is built with every signal visible (TB_FULL_VISIBILITY=1, tb/runner.py). A failing run
is named with its report and makes the exit code 1; its coverage is not written (the testbench
saves coverage only for a passing run).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="+", type=Path, help="programs (.sass with directives)")
    ap.add_argument("-o", "--outdir", type=Path, required=True)
    ap.add_argument("--sim", default="verilator", choices=["icarus", "verilator"])
    ap.add_argument("--num-sp", type=int, default=8, choices=[8, 16, 32])
    ap.add_argument("--seed", type=int, default=1, help="memory latency and back-pressure draws")
    ap.add_argument("--max-latency", type=int, default=8, help="memory responses come 1..N cycles after their request (more loads in flight)")
    ap.add_argument("--ready-p", type=float, default=0.8, help="probability that the memory port accepts a request in a cycle (back-pressure)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)

    os.environ["TB_FULL_VISIBILITY"] = "1"
    from tb.lockstep import LockstepRun, run_lockstep

    out = args.outdir.resolve()
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for program in args.programs:
        if not program.is_file():
            print(f"coverage-lockstep: error: no program {program}", file=sys.stderr)
            return 2
        r = LockstepRun(str(program.resolve()), args.sim, args.num_sp, args.seed, max_latency=args.max_latency, ready_p=args.ready_p,
                        coverage=out / f"{program.stem}.json", out=out / "runs" / program.stem)  # fmt: skip
        result = run_lockstep(r, rerun_with_waves=False)
        print(result.summary() if result.passed else f"{program}: FAIL ({r.out_dir})\n{result.summary()}", flush=True)
        failed += not result.passed
    print(f"coverage-lockstep: {len(args.programs) - failed} passed, {failed} failed; coverage in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
