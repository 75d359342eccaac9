"""The engine every long job shares (tb/cluster.py) under `make random`, `make regress` and
`make mutants`: the same results in this process (JOBS=1), on an embedded cluster of two workers,
and on a running scheduler with two `dask worker` processes started here on 127.0.0.1.

The independent side of each comparison is the job as it ran before the engine (pytest-xdist for
the regression) or in this process alone (JOBS=1, no Dask): the engine must hand back the same
lines, JUnit testcases, summary and verdicts."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

from tb.cluster import Task, batches, run_tasks

PY = str(ROOT / ".venv" / "bin" / "python")
DASK = str(ROOT / ".venv" / "bin" / "dask")
TESTS = Path(__file__).parent


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{TESTS}"}


class Cluster:
    """A `dask scheduler` and two single-threaded `dask worker` processes (no nanny: a killed
    worker stays dead), each in its own process group, killed whole at the end."""

    def __init__(self, folder: Path, preload: Path | None = None) -> None:
        self.procs: list[subprocess.Popen] = []
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        self._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], folder / "scheduler.log")
        extra = ["--preload", str(preload)] if preload else []
        self.workers = [self._start([DASK, "worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", *extra],
                                    folder / f"worker{k}.log") for k in range(2)]  # fmt: skip
        from distributed import Client

        t0 = time.monotonic()
        while True:
            try:
                with Client(self.address, timeout="5s") as client:
                    client.wait_for_workers(2, timeout=60)
                return
            except OSError:
                if time.monotonic() - t0 > 60:
                    raise
                time.sleep(0.5)

    def _start(self, args: list[str], log: Path) -> subprocess.Popen:
        with log.open("w") as out:
            p = subprocess.Popen(args, cwd=ROOT, env=env(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(p)
        return p

    def stop(self) -> None:
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(10)


@contextlib.contextmanager
def cluster(folder: Path, preload: Path | None = None) -> Iterator[Cluster]:
    c = Cluster(folder, preload)
    try:
        yield c
    finally:
        c.stop()


# -- the engine itself -----------------------------------------------------------------------------


def test_batches_keep_the_order_and_give_each_worker_two() -> None:
    assert batches(list(range(10)), 2) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert batches(list(range(3)), 4) == [[0], [1], [2]]
    assert [len(b) for b in batches(list(range(1000)), 1)] == [200] * 5
    assert batches([], 3) == []
    assert batches(list(range(10)), 2, dealt=True) == [[0, 4, 8], [1, 5, 9], [2, 6], [3, 7]]
    assert sorted(x for part in batches(list(range(1000)), 1, dealt=True) for x in part) == list(range(1000))


def slow_square(x: int, marks: str) -> int:
    """A task that says where it runs (its worker's pid) and takes long enough to be caught there."""
    Path(marks, f"{x}.pid").write_text(str(os.getpid()), encoding="utf-8")
    time.sleep(1.5)
    return x * x


def test_a_lost_worker_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    """kill -9 a worker in the middle of its task: the task runs again on the other worker, and
    every result is handed to the writer exactly once."""
    marks = tmp_path / "marks"
    marks.mkdir()
    got: list[tuple[int, int]] = []
    killed: list[int] = []
    with cluster(tmp_path) as c:
        pids = {p.pid for p in c.workers}

        def take(i: int, result: int) -> None:
            got.append((i, result))
            if len(got) == 1 and not killed:  # the first result is in: kill the worker running another task now
                for mark in marks.glob("*.pid"):
                    pid = int(mark.read_text())
                    if pid in pids and int(mark.stem) != i:
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                        return

        tasks = [Task(slow_square, (x, str(marks)), 1, f"sq{x}") for x in range(8)]
        run_tasks(tasks, take, 2, c.address, label="engine", unit="task", quiet=True)
    assert killed, "no worker was caught in a task"
    assert sorted(got) == [(x, x * x) for x in range(8)]


# -- make random -----------------------------------------------------------------------------------

RANDOM = ["-m", "randgen", "run", "--seed", "11", "--count", "6", "--preset", "ci", "--sim", "golden"]


def random_lines(out: str) -> list[str]:
    """One line per program and the count line, their times left out; the engine's own lines (randgen:) too."""
    lines = [x for x in out.splitlines() if x and not x.startswith("randgen:")]
    return [re.sub(r"[\d.]+ s\)?$", "", x) for x in lines]


@pytest.fixture(scope="module")
def random_alone(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("alone")
    r = subprocess.run([PY, *RANDOM, "--jobs", "1", "-o", str(out)], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    lines = random_lines(r.stdout)
    assert len(lines) == 7 and lines[-1].startswith("6 passed, 0 failed")
    return lines


def test_random_on_two_embedded_workers_gives_the_same_lines(random_alone: list[str], tmp_path: Path) -> None:
    r = subprocess.run([PY, *RANDOM, "--jobs", "2", "-o", str(tmp_path)], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert random_lines(r.stdout) == random_alone


def test_random_on_a_running_scheduler_gives_the_same_lines(random_alone: list[str], tmp_path: Path) -> None:
    with cluster(tmp_path) as c:
        r = subprocess.run([PY, *RANDOM, "--cluster", c.address, "-o", str(tmp_path / "out")], cwd=ROOT, env=env(), capture_output=True, text=True,
                           timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert f"randgen: Dask cluster {c.address}, dashboard " in r.stdout
    assert random_lines(r.stdout) == random_alone


# -- make mutants ----------------------------------------------------------------------------------


def mutation_folder(folder: Path, n: int = 9) -> dict:
    """A campaign folder with n mutants and three programs, as `prepare` leaves one (the design is not built: the simulator is a stand-in)."""
    folder.mkdir(parents=True)
    mutants = [{"id": i, "module": "ab"[i % 2], "file": "rtl/m.v", "line": i, "kind": "drop", "original": "x", "mutated": "y", "key": f"m:drop:{i:03d}"}
               for i in range(1, n + 1)]  # fmt: skip
    (folder / "mutants.json").write_text(json.dumps(mutants), encoding="utf-8")
    programs = []
    for name in ("p", "q", "r"):
        (folder / f"{name}.sass").write_text(f"// {name}\n", encoding="utf-8")
        (folder / f"{name}.json").write_text(json.dumps({"program": str(folder / f"{name}.sass")}), encoding="utf-8")
        programs.append({"name": name, "config": str(folder / f"{name}.json")})
    meta = {"n": n, "seed": 1, "mutants": n, "candidates": 20, "directed": 3, "programs": programs, "random": ""}
    (folder / "campaign.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "design.json").write_text(json.dumps({"sources": [], "includes": []}), encoding="utf-8")
    return meta


def mutation_result(folder: Path) -> tuple[str, dict]:
    from tb.mutation import campaign

    text = campaign.report(folder)
    verdicts = {x["mutant"]: (x["status"], x.get("program"), x.get("alone")) for x in campaign._read(folder / "results.jsonl") if "mutant" in x}
    return text, verdicts


def test_mutants_on_a_running_scheduler_give_the_same_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both passes and the confirming pass: in this process (JOBS=1) and as tasks on two `dask
    worker` processes, whose simulator is the same stand-in (tests/engine_fakes.py, preloaded)."""
    import engine_fakes

    from tb.mutation import campaign

    monkeypatch.setattr(campaign, "EQUIVALENT", tmp_path / "none.toml")
    walls = {"p": 1.0, "q": 1.0, "r": 1.0}
    alone = tmp_path / "alone"
    meta = mutation_folder(alone)
    monkeypatch.setattr(campaign, "spawn", engine_fakes.fake_spawn)
    campaign.execute(alone, meta, walls, 1, True)
    assert campaign.confirm(alone, meta, walls, True) == 9
    expected = mutation_result(alone)
    assert "| **all** | 9 | 3 | 6 | 0 | 0 | 0 | **33.3%** |" in expected[0]

    spread = tmp_path / "spread"
    meta = mutation_folder(spread)
    monkeypatch.setattr(campaign, "spawn", lambda *a: pytest.fail("a task ran in the client, not on a worker"))
    with cluster(tmp_path, TESTS / "engine_fakes.py") as c:
        campaign.execute(spread, meta, walls, 2, True, cluster=c.address)
        assert campaign.confirm(spread, meta, walls, True, 2, c.address) == 9
    assert mutation_result(spread) == expected


# -- make regress ----------------------------------------------------------------------------------

SELECT = "test_lockstep and verilator and (sp8 or sp16) and (vecadd or iadd or fadd) and not kernels and not bench"


def regress_result(folder: Path) -> tuple[list[tuple], list[str]]:
    """The JUnit testcases (classname, name, outcome) and the summary without its timing table."""
    cases = []
    for case in ET.parse(folder / "junit.xml").iter("testcase"):
        outcome = "failed" if case.find("failure") is not None or case.find("error") is not None else "skipped" if case.find("skipped") is not None else "passed"
        cases.append((case.get("classname"), case.get("name"), outcome))
    subprocess.run([PY, "-m", "golden", "regress-summary", str(folder / "runs"), "--junit", str(folder / "junit.xml"), "-o", str(folder / "summary.md")],
                   cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    summary = [x for x in (folder / "summary.md").read_text(encoding="utf-8").splitlines() if not re.match(r"\| (icarus|verilator) \|", x)]
    return sorted(cases), summary


def test_regression_on_two_workers_gives_the_junit_and_summary_of_pytest_xdist(tmp_path: Path) -> None:
    xdist, engine = tmp_path / "xdist", tmp_path / "engine"
    r = subprocess.run([PY, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider", "tests/test_rtl_lockstep.py", "--regress", "-k", SELECT,
                        f"--junitxml={xdist / 'junit.xml'}"], cwd=ROOT, env={**env(), "REGRESS_DIR": str(xdist / "runs"), "REGRESS_RESUME": "1"},
                       capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:]
    r = subprocess.run([PY, "-m", "tb.regress", "--runs", str(engine / "runs"), "--junit", str(engine / "junit.xml"), "--jobs", "2", "--", "-k", SELECT],
                       cwd=ROOT, env=env(), capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    want, got = regress_result(xdist), regress_result(engine)
    assert len(want[0]) == 6 and all(c[2] == "passed" for c in want[0])
    assert got == want
    assert sorted(p.name for p in (engine / "runs").glob("*.json")) == sorted(p.name for p in (xdist / "runs").glob("*.json"))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
