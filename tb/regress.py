"""The lock-step regression's runs on the engine (`make regress`, `python -m tb.regress`).

    collect   the test ids of the ISA's lock-step test file with --regress (and the PYTEST_ARGS given):
              tests/test_rtl_lockstep.py for G80, tests/test_lg_lockstep.py for LG (golden/isas.py)
    tasks     batches of those ids (tb/cluster.py: JOBS workers of an embedded cluster, or the
              cluster CLUSTER names); a task runs its ids in ONE pytest process, with its own
              record folder and JUnit file, and hands both back
    write     this process alone writes each run's record to RUNS (REGRESS_DIR's records, which
              `golden regress-summary` reads) and, at the end, the one JUnit file of all the ids in
              collection order: the testcases, names, classnames and outcomes of a pytest-xdist run

Resume is the tests' own: a run whose record is in RUNS is handed to its task, and the test gives
the recorded outcome instead of running again (REGRESS_RESUME=1, in both test files).
Exit 0 when every task came back, failed tests or not (the summary says what failed); 1 when the
engine could not run them.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import socket
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from golden import isas
from golden.errors import FAILURE, OneLineParser, UserError, guarded

from .cluster import Task, batches, check_cluster, default_jobs, run_tasks
from .runner import ROOT


def tests_of(isa: str) -> str:
    return isas.get(isa).regress_tests


def record_name(nodeid: str, isa: str = "g80") -> str | None:
    """The file name of the record a test id writes (None: the test records no run)."""
    for pattern, name in isas.get(isa).regress_records:
        m = re.search(pattern, nodeid)
        if m:
            return name.format(**m.groupdict())
    return None


def _pytest(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # -p no:xdist: a task is one process (the engine spreads the tasks); no cache: tasks on one checkout do not share a file
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, **(env or {})}, check=False)


def collect(pytest_args: list[str], isa: str = "g80") -> list[str]:
    """The regression's test ids, in pytest's order."""
    tests = tests_of(isa)
    r = _pytest(["--collect-only", "-q", tests, "--regress", *pytest_args])
    ids = [x.strip() for x in r.stdout.splitlines() if "::" in x and not x.startswith(" ")]
    if r.returncode not in (0, 5) or (r.returncode == 0 and not ids):
        last = (r.stdout + r.stderr).strip().splitlines()
        raise UserError(f"PYTEST_ARGS={' '.join(pytest_args)!r}: pytest could not collect {tests} ({last[-1] if last else f'exit {r.returncode}'})")
    return ids


def run_batch(ids: list[str], kept: dict[str, str], pytest_args: list[str]) -> dict:
    """One task: the ids in one pytest process, in a folder of its own (its records, its JUnit
    file); `kept` are the records of its runs that an interrupted regression finished."""
    with tempfile.TemporaryDirectory(prefix="regress-") as tmp:
        runs = Path(tmp) / "runs"
        runs.mkdir()
        for name, text in kept.items():
            (runs / name).write_text(text, encoding="utf-8")
        junit = Path(tmp) / "junit.xml"
        r = _pytest(["-q", "--regress", f"--junitxml={junit}", *pytest_args, *ids], {"REGRESS_DIR": str(runs), "REGRESS_RESUME": "1"})
        if not junit.exists():
            tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
            raise RuntimeError(f"pytest left no JUnit file (exit {r.returncode}): {' | '.join(tail)}")
        records = {p.name: p.read_text(encoding="utf-8") for p in runs.glob("*.json")}
        return {"junit": junit.read_text(encoding="utf-8"), "records": records}


def merge_junit(parts: list[str], order: list[str], out: Path) -> None:
    """One JUnit file from the tasks' files, as pytest writes one: a testsuite `pytest` in a
    `testsuites`, its counts summed, the testcases in collection order."""
    cases: dict[str, ET.Element] = {}
    for text in parts:
        for case in ET.fromstring(text).iter("testcase"):
            cases[f"{case.get('classname')}::{case.get('name')}"] = case
    rank = {nodeid_key(n): i for i, n in enumerate(order)}
    ordered = sorted(cases.items(), key=lambda kv: rank.get(kv[0], len(rank)))
    count = {"errors": 0, "failures": 0, "skipped": 0}
    time = 0.0
    for _, case in ordered:
        time += float(case.get("time") or 0)
        if case.find("error") is not None:
            count["errors"] += 1
        elif case.find("failure") is not None:
            count["failures"] += 1
        elif case.find("skipped") is not None:
            count["skipped"] += 1
    suites = ET.Element("testsuites", name="pytest tests")
    suite = ET.SubElement(suites, "testsuite", name="pytest", errors=str(count["errors"]), failures=str(count["failures"]),
                          skipped=str(count["skipped"]), tests=str(len(ordered)), time=f"{time:.3f}",
                          timestamp=datetime.datetime.now().astimezone().isoformat(), hostname=socket.gethostname())  # fmt: skip
    suite.extend(case for _, case in ordered)
    out.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(out, encoding="utf-8", xml_declaration=True)


def nodeid_key(nodeid: str) -> str:
    """A test id as JUnit names it: `tests/test_x.py::test_f[a]` -> `tests.test_x::test_f[a]`."""
    path, _, name = nodeid.partition("::")
    return f"{path.removesuffix('.py').replace('/', '.')}::{name}"


def regress(runs: Path, junit: Path, jobs: int, cluster: str = "", cluster_config: Path | None = None, pytest_args: list[str] | None = None,
            quiet: bool = False, isa: str = "g80") -> int:  # fmt: skip
    """Run the regression's ids through the engine; returns how many failed (a failure or an error in the JUnit file)."""
    check_cluster(cluster, cluster_config, jobs)
    args = list(pytest_args or [])
    ids = collect(args, isa)
    runs.mkdir(parents=True, exist_ok=True)
    parts: list[str] = []

    def plan(workers: int) -> list[Task]:
        tasks = []
        for part in batches(ids, workers, dealt=True):  # JUnit is merged in collection order, whatever the tasks
            kept = {}
            for nodeid in part:
                name = record_name(nodeid, isa)
                if name and (runs / name).is_file():
                    kept[name] = (runs / name).read_text(encoding="utf-8")
            tasks.append(Task(run_batch, (part, kept, args), len(part), f"r{len(tasks)}"))
        return tasks

    def take(_: int, result: dict) -> None:
        for name, text in result["records"].items():
            part = runs / f"{name}.part"  # renamed when whole: an interrupt leaves no half-written record to resume from
            part.write_text(text, encoding="utf-8")
            part.replace(runs / name)
        parts.append(result["junit"])

    if not quiet:
        print(f"regress: {len(ids)} tests of {tests_of(isa)} --regress on {f'CLUSTER={cluster}' if cluster else f'{jobs} worker(s)'}", flush=True)
    run_tasks(plan, take, jobs, cluster, cluster_config, label="regress", unit="test", quiet=quiet)
    merge_junit(parts, ids, junit)
    root = ET.parse(junit).getroot()
    failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in root.iter("testsuite"))
    if not quiet:
        print(f"regress: {len(ids) - failed} passed, {failed} failed; records in {runs}, JUnit {junit}", flush=True)
    return failed


def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="python -m tb.regress", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=Path, required=True, help="the folder of the runs' records (REGRESS_DIR)")
    p.add_argument("--junit", type=Path, required=True, help="the JUnit file to write")
    p.add_argument("--jobs", type=int, default=default_jobs(), help="workers of the embedded Dask cluster (1: in this process), or workers asked of a batch system")
    p.add_argument("--cluster", default="", help="empty: embedded; tcp://host:port: a running Dask scheduler; slurm, lsf, sge or pbs (docs/guides/cluster.md)")
    p.add_argument("--cluster-config", type=Path, help="the TOML file of the batch system's options")
    p.add_argument("--isa", default="g80", help=f"the instruction set whose lock-step runs these are: {', '.join(isas.ISAS)} (default %(default)s)")
    p.add_argument("pytest_args", nargs=argparse.REMAINDER, help="after --: pytest's own arguments (PYTEST_ARGS), for the collection and every task")
    return p


def main(argv: list[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    rest = a.pytest_args[1:] if a.pytest_args[:1] == ["--"] else a.pytest_args

    def go() -> int:
        isas.get(a.isa)
        try:
            regress(a.runs.resolve(), a.junit.resolve(), a.jobs, a.cluster, a.cluster_config, rest, isa=a.isa)
        except RuntimeError as exc:
            raise UserError(str(exc), FAILURE) from None
        return 0

    return guarded("regress", go, lambda: f"the finished runs are kept in {a.runs}; run the same make regress again to resume (FRESH=1 starts over)")


if __name__ == "__main__":
    sys.exit(main())
