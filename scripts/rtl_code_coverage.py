"""RTL code coverage: lock-step runs of a few programs on a Verilator model built
with `--coverage`, each run's coverage.dat merged with `verilator_coverage --write`.

    python scripts/rtl_code_coverage.py -o build/coverage/code vecadd cf_ifelse fmad

writes OUT/<program>.dat per run and OUT/coverage.dat (merged); `python -m golden coverage-report
--code OUT/coverage.dat` puts line, branch/expression and toggle percentages per module and the
uncovered lines with their source into the report (golden/coverage/code.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="+", help="program names (programs/NAME.sass)")
    ap.add_argument("-o", "--outdir", default="build/coverage/code")
    ap.add_argument("--num-sp", type=int, default=8)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)

    os.environ["RTL_CODE_COVERAGE"] = "1"  # tb/runner.py: build with --coverage (a build directory of its own)
    from tb.lockstep import LockstepRun, run_lockstep
    from tb.runner import verilator_bin

    out = Path(args.outdir).resolve()  # the simulator runs in its own directory
    out.mkdir(parents=True, exist_ok=True)
    dats, failed = [], []
    for name in args.programs:
        if not (ROOT / "programs" / f"{name}.sass").exists():
            print(f"rtl-code-coverage: error: no program programs/{name}.sass", file=sys.stderr)
            return 2
        r = LockstepRun(name, "verilator", args.num_sp, 1, out=out / "runs" / name)
        stale = r.out_dir / "coverage.dat"
        stale.unlink(missing_ok=True)
        result = run_lockstep(r, rerun_with_waves=False)
        dat = r.out_dir / "coverage.dat"
        if not result.passed or not dat.exists():
            failed.append(name)
            print(f"rtl-code-coverage: {name}: {'failed' if not result.passed else 'no coverage.dat written'} ({r.out_dir})", file=sys.stderr)
            continue
        dst = out / f"{name}.dat"
        shutil.copyfile(dat, dst)
        dats.append(dst)
        print(f"rtl-code-coverage: {name}: {result.commits} commits, {result.cycles} cycles -> {dst}")
    if not dats:
        return 1
    tool = Path(verilator_bin()) / "verilator_coverage"
    merged = out / "coverage.dat"
    subprocess.run([str(tool), "--write", str(merged), *map(str, dats)], check=True)
    print(f"rtl-code-coverage: {len(dats)} runs merged into {merged}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
