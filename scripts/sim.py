"""`make sim`: run programs/<TEST>.sass on the RTL in lock-step with the golden model.

    python scripts/sim.py TEST [--sim icarus|verilator] [--num-sp 8|16|32] [--seed N]

Prints the outcome, the commits compared and the simulated cycles; on a mismatch the report
names the warp, PC, instruction, the differing field and the warp's last instructions.
"""

from __future__ import annotations

import argparse
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tb"))
sys.path.insert(0, str(ROOT))

from runner import SM_SOURCES, run  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test")
    ap.add_argument("--sim", default="icarus", choices=["icarus", "verilator"])
    ap.add_argument("--num-sp", type=int, default=8, choices=[8, 16, 32])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    program = ROOT / "programs" / f"{args.test}.sass"
    if not program.exists():
        print(f"no program {program}", file=sys.stderr)
        return 2
    out = ROOT / "build" / "sim" / f"{args.test}_{args.sim}_{args.num_sp}_s{args.seed}"
    out.mkdir(parents=True, exist_ok=True)
    summary = out / "summary.txt"
    summary.unlink(missing_ok=True)
    params = (("NUM_SP", args.num_sp),) if args.num_sp != 8 else ()
    t0 = time.perf_counter()
    results = run(args.sim, "sm_top", SM_SOURCES, "test_sm", params,
                  extra_env={"PROGRAM": str(program), "SEED": str(args.seed), "SUMMARY": str(summary)}, test_dir=out)  # fmt: skip
    wall = time.perf_counter() - t0
    failures = [f for case in ET.parse(results).findall(".//testcase") for f in (case.find("failure"), case.find("error")) if f is not None]
    if failures:
        print(f"{args.test} on {args.sim} (NUM_SP={args.num_sp}, seed {args.seed}): FAIL")
        for f in failures:
            print(f.get("message"))
        print(f"rerun: make sim TEST={args.test} SIM={args.sim} NUM_SP={args.num_sp} SEED={args.seed}")
        return 1
    commits, cycles = summary.read_text().split()
    print(f"{args.test} on {args.sim} (NUM_SP={args.num_sp}, seed {args.seed}): PASS, {commits} commits compared in lock-step, "
          f"{cycles} cycles, {wall:.1f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
