"""One-page summary of a lock-step regression (`make regress`).

    golden regress-summary RUNS_DIR [--junit build/regress/junit.xml] [-o summary.md]

RUNS_DIR holds one JSON record per run (tests/test_rtl_lockstep.py writes them when REGRESS_DIR
is set). The page lists pass/fail per program, simulator and NUM_SP with cycles and instructions,
figures per simulator (wall time, simulated cycles per second, commits per second) and, for each
failure, its report summary, wave file and the command that reruns it. Exit status 1 if a run
failed, if a test of the JUnit file failed or if there are no runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path


def load(runs_dir: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(runs_dir.glob("*.json"))]


def junit_failures(path: Path) -> list[str]:
    if not path.exists():
        return []
    out = []
    for case in ET.parse(path).findall(".//testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            out.append(f"{case.get('classname')}::{case.get('name')}")
    return out


def render(runs: list[dict], junit_failed: list[str]) -> str:
    configs = sorted({(r["sim"], r["num_sp"]) for r in runs})
    programs = sorted({r["program"] for r in runs})
    by = {(r["program"], r["sim"], r["num_sp"]): r for r in runs}
    failed = [r for r in runs if not r["passed"]]
    lines = ["# Lock-step regression", "",
             f"{len(runs)} runs, {len(runs) - len(failed)} passed, {len(failed)} failed; {len(programs)} programs x {len(configs)} configurations.", "",
             "## Figures per simulator", "",
             "| simulator | runs | wall time (s) | simulated cycles | cycles/s | commits | commits/s |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    per_sim: dict[str, list[dict]] = defaultdict(list)
    for r in runs:
        per_sim[r["sim"]].append(r)
    for sim, rs in sorted(per_sim.items()):
        wall = sum(r["wall"] for r in rs)
        cycles = sum(r["cycles"] for r in rs)
        commits = sum(r["commits"] for r in rs)
        lines.append(f"| {sim} | {len(rs)} | {wall:.1f} | {cycles} | {cycles / wall:.0f} | {commits} | {commits / wall:.0f} |" if wall else f"| {sim} | {len(rs)} | 0 | | | | |")
    lines += ["", "## Results (cycles / warp-instructions; FAIL in capitals)", "",
              "| program | " + " | ".join(f"{s} sp{n}" for s, n in configs) + " |", "|---|" + "---|" * len(configs)]  # fmt: skip
    for p in programs:
        cells = []
        for s, n in configs:
            r = by.get((p, s, n))
            if r is None:
                cells.append("-")
            elif r["passed"]:
                cells.append(f"{r['cycles']} / {r['commits']}")
            else:
                cells.append(f"**FAIL** ({r['kind']})")
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    if failed or junit_failed:
        lines += ["", "## Failures", ""]
        for r in failed:
            lines.append(f"- {r['program']} on {r['sim']} NUM_SP={r['num_sp']} seed {r['seed']}: {r['kind']}: {r['message']}")
            if r.get("wave_file"):
                lines.append(f"  - waves: {r['wave_file']}")
            lines.append(f"  - rerun: `{r['rerun']}`")
        recorded = {f"{r['program']}-{r['sim']}-sp{r['num_sp']}" for r in runs}
        for name in junit_failed:
            if not any(key in name for key in recorded):
                lines.append(f"- {name} (failed before recording a run; see the JUnit file)")
    return "\n".join(lines) + "\n"


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("runs_dir", type=Path, help="one JSON record per run (tests/test_rtl_lockstep.py with REGRESS_DIR)")
    ap.add_argument("--junit", type=Path, default=Path("build/regress/junit.xml"))
    ap.add_argument("-o", "--output", type=Path, help="also write the page here")


def main(args: argparse.Namespace) -> int:
    runs = load(args.runs_dir) if args.runs_dir.is_dir() else []
    junit_failed = junit_failures(args.junit)
    text = render(runs, junit_failed)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    print(text)
    if not runs:
        print(f"no runs recorded in {args.runs_dir}", file=sys.stderr)
        return 1
    return 1 if junit_failed or any(not r["passed"] for r in runs) else 0
