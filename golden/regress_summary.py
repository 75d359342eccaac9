"""One-page summary of a lock-step regression (`make regress`, `make regress ISA=lg`).

    golden regress-summary RUNS_DIR [--isa g80|lg] [--junit build/regress/junit.xml] [-o summary.md]

RUNS_DIR holds one JSON record per run (tests/test_rtl_lockstep.py writes them when REGRESS_DIR
is set; for LG, tests/test_lg_lockstep.py). The page lists pass/fail per program, simulator and NUM_SP with cycles and instructions,
figures per simulator (wall time, simulated cycles per second, commits per second) and, for each
failure, its report summary, wave file and the command that reruns it. LG's page has one column
per simulator (cycles, commits and pixels checked), the bad programs and whether each ended in its
error line, and for a failure the first wrong instruction. Exit status 1 if a run
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


def figures(runs: list[dict]) -> list[str]:
    """The rows of the figures-per-simulator table."""
    lines = []
    per_sim: dict[str, list[dict]] = defaultdict(list)
    for r in runs:
        per_sim[r["sim"]].append(r)
    for sim, rs in sorted(per_sim.items()):
        wall = sum(r["wall"] for r in rs)
        cycles = sum(r["cycles"] for r in rs)
        commits = sum(r["commits"] for r in rs)
        lines.append(f"| {sim} | {len(rs)} | {wall:.1f} | {cycles} | {cycles / wall:.0f} | {commits} | {commits / wall:.0f} |" if wall else f"| {sim} | {len(rs)} | 0 | | | | |")
    return lines


FIGURES_HEAD = ["## Figures per simulator", "", "| simulator | runs | wall time (s) | simulated cycles | cycles/s | commits | commits/s |", "|---|---|---|---|---|---|---|"]


def _junit_unrecorded(junit_failed: list[str], recorded: set[str]) -> list[str]:
    return [f"- {name} (failed before recording a run; see the JUnit file)" for name in junit_failed if not any(key in name for key in recorded)]


def render(runs: list[dict], junit_failed: list[str]) -> str:
    configs = sorted({(r["sim"], r["num_sp"]) for r in runs})
    programs = sorted({r["program"] for r in runs})
    by = {(r["program"], r["sim"], r["num_sp"]): r for r in runs}
    failed = [r for r in runs if not r["passed"]]
    lines = ["# Lock-step regression", "",
             f"{len(runs)} runs, {len(runs) - len(failed)} passed, {len(failed)} failed; {len(programs)} programs x {len(configs)} configurations.", "",
             *FIGURES_HEAD, *figures(runs)]  # fmt: skip
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
        lines += _junit_unrecorded(junit_failed, {f"{r['program']}-{r['sim']}-sp{r['num_sp']}" for r in runs})
    return "\n".join(lines) + "\n"


def first_wrong(r: dict) -> str:
    """Where an LG run failed: its kind, the first wrong instruction (PC and text) and field, when the report names them."""
    where = f" at PC {r['pc']:#06x} `{r['text']}`" if r.get("pc") is not None else (f" at `{r['text']}`" if r.get("text") else "")
    return f"{r['kind']}{where}" + (f" (field {r['field']})" if r.get("field") else "")


def render_lg(records: list[dict], junit_failed: list[str]) -> str:
    """The LG page: lock-step runs (records of tests/test_lg_lockstep.py::test_lockstep) and bad programs."""
    runs = [r for r in records if not r.get("bad")]
    bad = [r for r in records if r.get("bad")]
    sims = sorted({r["sim"] for r in runs})
    programs = sorted({r["program"] for r in runs})
    by = {(r["program"], r["sim"]): r for r in runs}
    failed = [r for r in runs if not r["passed"]]
    bad_failed = [r for r in bad if not r["passed"]]
    lines = ["# LG lock-step regression", "",
             f"{len(runs)} runs, {len(runs) - len(failed)} passed, {len(failed)} failed; {len(programs)} programs x {len(sims)} simulators; "
             f"{len(bad)} bad programs, {len(bad) - len(bad_failed)} ended in their error line.", "",
             *FIGURES_HEAD, *figures(runs), "",
             "## Results (cycles / commits / pixels checked; FAIL in capitals with the first wrong instruction)", "",
             "| program | " + " | ".join(sims) + " |", "|---|" + "---|" * len(sims)]  # fmt: skip
    for p in programs:
        cells = []
        for s in sims:
            r = by.get((p, s))
            if r is None:
                cells.append("-")
            elif r["passed"]:
                cells.append(f"{r['cycles']} / {r['commits']} / {r['pixels']}")
            else:
                cells.append(f"**FAIL** ({first_wrong(r)})")
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    if bad:
        lines += ["", "## Bad programs (each must end in its `;! error` line and exit code)", "", "| program | exit | outcome |", "|---|---|---|"]
        for r in sorted(bad, key=lambda r: r["program"]):
            outcome = "ends in its error line" if r["passed"] else f"**FAIL** (not: {', '.join(r['broken'])})"
            lines.append(f"| {r['program']} | {r['exit']} | {outcome} |")
    if failed or bad_failed or junit_failed:
        lines += ["", "## Failures", ""]
        for r in failed:
            lines.append(f"- {r['program']} on {r['sim']}: {first_wrong(r)}: {r['message']}")
            for what in ("report", "image", "wave_file"):
                if r.get(what):
                    lines.append(f"  - {what.replace('_file', '')}: {r[what]}")
            lines.append(f"  - rerun: `{r['rerun']}`")
        for r in bad_failed:
            lines.append(f"- {r['program']}: expected `{r['expected']}` and exit {r['expected_exit']}; got `{r['got']}` and exit {r['exit']}")
            lines.append(f"  - rerun: `{r['rerun']}`")
        recorded = {f"{r['program']}-{r['sim']}" for r in runs} | {f"[{r['program'].removeprefix('bad/')}]" for r in bad}
        lines += _junit_unrecorded(junit_failed, recorded)
    return "\n".join(lines) + "\n"


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("runs_dir", type=Path, help="one JSON record per run (tests/test_rtl_lockstep.py with REGRESS_DIR)")
    ap.add_argument("--isa", default="g80", choices=("g80", "lg"), help="the instruction set whose regression it was (default %(default)s)")
    ap.add_argument("--junit", type=Path, default=Path("build/regress/junit.xml"))
    ap.add_argument("-o", "--output", type=Path, help="also write the page here")


def main(args: argparse.Namespace) -> int:
    runs = load(args.runs_dir) if args.runs_dir.is_dir() else []
    junit_failed = junit_failures(args.junit)
    text = (render_lg if args.isa == "lg" else render)(runs, junit_failed)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    print(text)
    if not runs:
        print(f"no runs recorded in {args.runs_dir}", file=sys.stderr)
        return 1
    return 1 if junit_failed or any(not r["passed"] for r in runs) else 0
