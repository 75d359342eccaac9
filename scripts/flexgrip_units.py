"""FlexGripPlus's FPU (its VHDL under GHDL) against the flexgrip profile's Python, bit for bit.

    python scripts/flexgrip_units.py [--count 100000] [--seed 1] [--ops fadd_rm0 fmul_rm0 ...]

Runs `count` operands (special values and random patterns, tb/flexgrip_units/harness.py) of each
operation through FlexGripPlus's fpu_single (FLEXGRIP_DIR, default ../shared/flexgripplus) and
prints per operation the count compared and the mismatches (the first few named). Exit code 1 on
any mismatch, 2 when GHDL or the checkout is missing. The pytest suite runs a few thousand per
operation (tests/test_flexgrip_fp.py); this is the long run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tb" / "flexgrip_units"))
sys.path.insert(0, str(ROOT))

import harness  # noqa: E402


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100_000, help="operands per operation (default 100000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ops", nargs="*", default=sorted(harness.OPS), help=f"operations (default all: {' '.join(sorted(harness.OPS))})")
    ap.add_argument("--build-dir", type=Path, default=ROOT / "build" / "flexgrip_units")
    ap.add_argument("--compare", type=Path, metavar="DIR",
                    help="no simulation: compare the batches and results an earlier (or interrupted) run left in "
                         "DIR/<backend>/<unit>/ with the current model")  # fmt: skip
    return ap


def main() -> int:
    ap = _parser()
    args = ap.parse_args()
    if args.compare:
        res = harness.Result()
        for unit_dir in sorted(p for p in args.compare.glob("*/*") if (p / "results.txt").is_file()):
            harness.compare_saved(unit_dir.name, unit_dir, res)
        for name, n in res.counts.items():
            print(f"{name}: {n} compared, {len(res.mismatches.get(name, []))} mismatches")
            for line in res.mismatches.get(name, [])[:5]:
                print(f"  {line}")
        print(f"{sum(res.counts.values())} operations compared with FlexGripPlus's VHDL, {res.failed()} mismatches")
        return 1 if res.failed() or not res.counts else 0
    reason = harness.unavailable()
    if reason:
        print(f"flexgrip_units: {reason}", file=sys.stderr)  # the one line: no checkout or no GHDL, and how to fix it
        return 2
    unknown = [o for o in args.ops if o not in harness.OPS]
    if unknown:
        ap.error(f"unknown operations {unknown}")
    t0 = time.time()
    res = harness.run_ops(dict.fromkeys(args.ops, args.count), seed=args.seed, build_dir=args.build_dir)
    for name in args.ops:
        bad = res.mismatches.get(name, [])
        print(f"{name}: {res.counts.get(name, 0)} compared, {len(bad)} mismatches")
        for line in bad[:5]:
            print(f"  {line}")
    print(f"{sum(res.counts.values())} operations compared with FlexGripPlus's VHDL, {res.failed()} mismatches, "
          f"{time.time() - t0:.0f} s")  # fmt: skip
    return 1 if res.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
