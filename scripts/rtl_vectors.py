"""`make rtl-vectors`: run reference vector files through the RTL FP and SFU units.

    python scripts/rtl_vectors.py [--sim icarus|verilator] [paths...]

Default paths: testdata/vectors/fp32.txt and testdata/vectors/sfu.txt. Every file goes through
both unit tests (cocotb, testcase `vectors` only): tb/test_fp_unit.py on rtl/sm1_fp_alu.v and
tb/test_sfu_unit.py on rtl/sm1_sfu.v. Each unit runs the lines of its own ops and counts the rest;
a line neither unit runs is reported as a count, not an error. Prints `fp: N passed, M failed`,
`sfu: N passed, M failed`, the first failures, and the total `N passed, M failed`; when no check
ran at all (no FP or SFU line in the files, or both units stopped before running one) the last line
is `nothing ran: ...` with the reason instead. Exit code 1 when anything failed, when a unit could
not run (a malformed line is an error naming file:line), or when nothing ran.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from golden.g80.vectors import FP_OPS, SFU_OPS, read_vectors
from tb.config import UnitConfig
from tb.runner import BUILD, failure_messages, run

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PATHS = (ROOT / "testdata" / "vectors" / "fp32.txt", ROOT / "testdata" / "vectors" / "sfu.txt")
SHOW_FAILURES = 20


@dataclass(frozen=True)
class Unit:
    name: str
    toplevel: str
    files: tuple[str, ...]
    test_module: str
    ops: frozenset[str]  # the vector ops the unit's test runs (golden.g80.vectors), to check that it ran all their lines


UNITS = (
    Unit("fp", "sm1_fp_alu", ("sm1_fp_alu.v",), "tb.test_fp_unit", frozenset(FP_OPS)),
    Unit("sfu", "sm1_sfu", ("sm1_sfu.v",), "tb.test_sfu_unit", frozenset(SFU_OPS)),
)


@dataclass
class Outcome:
    unit: Unit
    lines: int = 0  # vector lines of the unit's ops (counted by the script)
    summary: dict | None = None  # the unit test's result JSON
    error: str = ""  # why there is no summary
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return self.summary["passed"] if self.summary else 0

    @property
    def failed(self) -> int:
        return self.summary["failed"] if self.summary else 0


def run_unit(unit: Unit, sim: str, paths: list[Path], lines: int) -> Outcome:
    out = Outcome(unit, lines)
    test_dir = BUILD / f"rtl_vectors_{unit.name}_{sim}"
    test_dir.mkdir(parents=True, exist_ok=True)
    result = test_dir / "result.json"
    result.unlink(missing_ok=True)
    config = UnitConfig(vectors=tuple(str(p) for p in paths), result=str(result))
    plusarg = config.plusarg(config.write(test_dir / "unit.json"))
    results_xml = test_dir / "results.xml"
    try:
        results_xml = run(sim, unit.toplevel, unit.files, unit.test_module, extra_env={"COCOTB_TEST_FILTER": r"\.vectors$"}, plusargs=(plusarg,),
                          test_dir=test_dir)  # fmt: skip
    except SystemExit as e:  # the runner exits when the simulator itself fails
        out.error = f"the simulation stopped (exit code {e.code})"
    except Exception as e:  # a build error: report it with the other unit's results
        out.error = f"{type(e).__name__}: {e}"
    if result.exists():
        out.summary = json.loads(result.read_text(encoding="utf-8"))
        out.failures = out.summary.get("failures", [])
    else:
        reasons = failure_messages(results_xml) if results_xml.exists() else []
        out.error = "; ".join(filter(None, [out.error, *reasons])) or "the unit test wrote no result (see the log above)"
    return out


def count_lines(paths: list[Path]) -> tuple[int, dict[str, int]]:
    """All vector lines, and the lines of each unit's ops (raises ValueError naming file:line)."""
    total = 0
    per_unit = {u.name: 0 for u in UNITS}
    for path in paths:
        for v in read_vectors(path):
            total += 1
            for u in UNITS:
                if v.op in u.ops:
                    per_unit[u.name] += 1
    return total, per_unit


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", default="icarus", choices=["icarus", "verilator"])
    ap.add_argument("paths", nargs="*", type=Path, help="vector files (default: testdata/vectors/fp32.txt and sfu.txt)")
    return ap


def main() -> int:
    ap = _parser()
    args = ap.parse_args()
    paths = [p.resolve() for p in (args.paths or DEFAULT_PATHS)]
    missing = [p for p in paths if not p.is_file()]
    if missing:
        print(f"no such vector file: {', '.join(map(str, missing))}", file=sys.stderr)
        return 1
    try:
        total, per_unit = count_lines(paths)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1

    if sum(per_unit.values()) == 0:  # no simulation can check anything: say so without building
        print(f"nothing ran: none of the {total} lines of {', '.join(map(str, paths))} is an FP or SFU line")
        return 1

    outcomes = [run_unit(u, args.sim, paths, per_unit[u.name]) for u in UNITS]

    print(f"\n=== rtl-vectors ({args.sim}): {len(paths)} file(s), {total} lines ===")
    bad = False
    for o in outcomes:
        if o.summary is not None:
            print(f"{o.unit.name}: {o.passed} passed, {o.failed} failed ({o.lines} lines)")
            bad |= o.failed > 0
            ran = o.summary.get("lines", o.passed + o.failed)
            if ran != o.lines:  # the unit skipped (or invented) lines of its own ops
                print(f"  error: the unit ran {ran} lines, the files hold {o.lines} lines of its ops")
                bad = True
        else:
            print(f"{o.unit.name}: error: {o.error}")
            bad = True
        for text in o.failures[:SHOW_FAILURES]:
            print(f"  {text}")
        if o.failed > len(o.failures[:SHOW_FAILURES]):
            print(f"  ... {o.failed - len(o.failures[:SHOW_FAILURES])} more failures")
    neither = total - sum(per_unit.values())
    if neither:
        print(f"not FP/SFU: {neither} lines (neither unit runs their ops)")
    passed, failed = sum(o.passed for o in outcomes), sum(o.failed for o in outcomes)
    if passed + failed == 0:
        reasons = "; ".join(f"{o.unit.name}: {o.error or 'no check'}" for o in outcomes)
        print(f"nothing ran: no FP or SFU check completed ({reasons})")
        return 1
    print(f"{passed} passed, {failed} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
