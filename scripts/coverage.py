"""Merge coverage JSON files (golden-model runs, RTL runs) and write the reports.

    python scripts/coverage.py -o build/coverage/report FILE.json... [--fail-under PCT]

Writes coverage.html (self-contained page), coverage.txt (summary with the holes),
coverage.ucis.xml (UCIS database, pyucis) and the merged coverage.json; prints the summary's
headline figures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from golden.coverage import write_reports

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="FILE.json", help="coverage files written by `golden run --cov` or the testbench")
    parser.add_argument("-o", "--outdir", default=str(ROOT / "build" / "coverage" / "report"), help="report directory")
    parser.add_argument("--fail-under", type=float, default=None, metavar="PCT", help="exit 1 when overall coverage is below PCT")
    args = parser.parse_args(argv)
    try:
        cov = write_reports(args.files, args.outdir)
    except (OSError, ValueError) as e:
        print(f"coverage: error: {e}", file=sys.stderr)
        return 1
    o = cov.overall()
    print(f"coverage: {len(args.files)} files, {cov.samples} commits; {o.total} bins, {o.excluded} excluded, "
          f"{o.hit}/{o.reachable} reachable hit = {o.percent:.1f}%, {len(cov.holes())} holes")  # fmt: skip
    bad = cov.excluded_hit()
    if bad:
        print(f"coverage: WARNING: {len(bad)} excluded bins were hit: {', '.join(b.key for b in bad[:5])}", file=sys.stderr)
    print(f"coverage: reports in {args.outdir}: coverage.html coverage.txt coverage.ucis.xml coverage.json")
    if args.fail_under is not None and o.percent < args.fail_under:
        print(f"coverage: {o.percent:.1f}% is below --fail-under {args.fail_under}", file=sys.stderr)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
