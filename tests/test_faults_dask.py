"""Fault campaigns on Dask with real parts: a scheduler and workers started here as separate
processes on 127.0.0.1, a worker and the client killed with SIGKILL in the middle of a campaign,
and the batch systems' job scripts as dask-jobqueue writes them.

The independent side of every comparison is the embedded run of the same campaign (same seed):
its database must equal, fault for fault, the one the other runs leave. Every process a test
starts runs in its own process group, killed whole when the test ends, failed or not.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

from tb.cluster import jobqueue_cluster, lifetime_s, read_config, walltime_s

PY = str(ROOT / ".venv" / "bin" / "python")
DASK = str(ROOT / ".venv" / "bin" / "dask")
N = 24
SEED = 5
# small batches: several tasks per worker, so that a kill lands between the first outcomes and the last
CAMPAIGN = ["-m", "tb.faults", "run", "--test", "vecadd", "-n", str(N), "--seed", str(SEED), "--target", "u_ctrl,u_sched", "--batch", "4"]
# what a fault's run gives, the columns compared (wall time and the task's number depend on the run)
OUTCOME = "id, site, unit, word, bit, cycle, model, outcome, grp, field, kind, message, warp, pc, insn, div_cycle, cycles, commits, stopped, simulated"


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def rows(db: Path) -> list[tuple]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return con.execute(f"SELECT {OUTCOME} FROM faults ORDER BY id").fetchall()
    finally:
        con.close()


def done(db: Path) -> int:
    with contextlib.suppress(sqlite3.Error):  # not planned yet, or the client writing
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return int(con.execute("SELECT COUNT(*) FROM faults WHERE outcome IS NOT NULL").fetchone()[0])
        finally:
            con.close()
    return 0


def wall_faults(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT value FROM meta WHERE key = 'wall_faults'").fetchone()[0])
    finally:
        con.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(what: str, ok, timeout: float, proc: subprocess.Popen | None = None) -> None:
    t0 = time.monotonic()
    while not ok():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the campaign ended (exit {proc.returncode}) before {what}")
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"no {what} after {timeout} s")
        time.sleep(0.1)


class Processes:
    """Processes started in their own groups; `stop` kills each group (the simulators a killed worker left too)."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen] = []

    def start(self, args: list[str], log: Path) -> subprocess.Popen:
        out = log.open("w")
        p = subprocess.Popen(args, cwd=ROOT, env=env(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        out.close()
        self.procs.append(p)
        return p

    def stop(self) -> None:
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(10)


@pytest.fixture
def procs() -> Iterator[Processes]:
    ps = Processes()
    try:
        yield ps
    finally:
        ps.stop()


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    """The campaign on the default engine: an embedded cluster of two workers."""
    db = tmp_path_factory.mktemp("embedded") / "campaign.sqlite"
    r = subprocess.run([PY, *CAMPAIGN, "--jobs", "2", "--db", str(db)], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    got = rows(db)
    assert len(got) == N and all(r[7] is not None for r in got)
    assert wall_faults(db) == N
    return got


def cluster(procs: Processes, folder: Path) -> tuple[str, list[subprocess.Popen]]:
    """A `dask scheduler` and two single-threaded `dask worker` processes (no nanny: a killed worker stays dead)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs.start([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], folder / "scheduler.log")
    workers = [procs.start([DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"], folder / f"worker{k}.log")
               for k in range(2)]  # fmt: skip
    from distributed import Client

    t0 = time.monotonic()
    while True:
        try:
            with Client(address, timeout="5s") as client:
                client.wait_for_workers(2, timeout=60)
            break
        except OSError:
            if time.monotonic() - t0 > 60:
                raise
            time.sleep(0.5)
    return address, workers


def test_campaign_on_a_running_scheduler(embedded: list[tuple], procs: Processes, tmp_path: Path) -> None:
    address, _ = cluster(procs, tmp_path)
    db = tmp_path / "campaign.sqlite"
    r = subprocess.run([PY, *CAMPAIGN, "--cluster", address, "--db", str(db)], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert f"Dask cluster {address}, dashboard " in r.stdout
    assert rows(db) == embedded


def test_worker_killed_mid_campaign(embedded: list[tuple], procs: Processes, tmp_path: Path) -> None:
    address, workers = cluster(procs, tmp_path)
    db = tmp_path / "campaign.sqlite"
    client = procs.start([PY, *CAMPAIGN, "--cluster", address, "--db", str(db)], tmp_path / "client.log")
    wait_for("first outcomes", lambda: done(db) > 0, 180, client)
    assert done(db) < N, "the campaign ended before the worker could be killed: more faults or smaller batches"
    os.kill(workers[0].pid, signal.SIGKILL)
    assert client.wait(240) == 0, (tmp_path / "client.log").read_text()[-3000:]
    assert workers[0].poll() is not None and workers[1].poll() is None  # finished on the other worker
    assert rows(db) == embedded  # nothing lost
    assert wall_faults(db) == N  # nothing counted twice: the tasks of the lost worker came back once


def test_client_killed_mid_campaign_resumes(embedded: list[tuple], procs: Processes, tmp_path: Path) -> None:
    db = tmp_path / "campaign.sqlite"
    args = [PY, *CAMPAIGN, "--jobs", "2", "--db", str(db)]
    client = procs.start(args, tmp_path / "first.log")
    wait_for("first outcomes", lambda: done(db) > 0, 180, client)
    os.kill(client.pid, signal.SIGKILL)
    client.wait(10)
    procs.stop()  # the embedded cluster's workers and simulators the client left
    kept = done(db)
    assert 0 < kept < N, f"{kept} of {N} faults kept: the kill did not land in the middle"
    r = subprocess.run(args, cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert f"{N} planned, {N - kept} to run" in r.stdout  # resumed, not started over
    assert rows(db) == embedded


# -- bad CLUSTER_CONFIG: one line, exit 2 (an unknown kind and an unreachable address: tests/test_first_contact.py) --


def one_line(args: list[str], tmp_path: Path) -> str:
    r = subprocess.run([PY, *CAMPAIGN, "--db", str(tmp_path / "x.sqlite"), *args], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("cores = 2\nmemory = '4GB'\nwalltime = '01:00:00'\nqueues = 'x'\n", "unknown key 'queues'"),
        ("cores = 2\nmemory = '4GB'\n", "no 'walltime'"),
        ("cores = 2\nmemory = '4GB'\nwalltime = [1\n", "not TOML"),
        ("cores = 0\nmemory = '4GB'\nwalltime = '1:00:00'\n", "cores = 0"),
        ("cores = 1\nmemory = '4GB'\nwalltime = 'soon'\n", "walltime = 'soon'"),
    ],
)
def test_bad_cluster_config(text: str, want: str, tmp_path: Path) -> None:
    path = tmp_path / "slurm.toml"
    path.write_text(text, encoding="utf-8")
    line = one_line(["--cluster", "slurm", "--cluster-config", str(path)], tmp_path)
    assert line.startswith(f"faults: CLUSTER_CONFIG={path}: ") and want in line, line


def test_batch_system_without_config(tmp_path: Path) -> None:
    assert "needs CLUSTER_CONFIG=path" in one_line(["--cluster", "pbs"], tmp_path)


# -- batch systems: the job scripts (constructed, never submitted: no batch system here) -----------------


def test_walltimes() -> None:
    assert walltime_s("01:00:00") == 3600
    assert walltime_s("2-00:30:00") == 2 * 86400 + 1800
    assert walltime_s("90") == 5400  # SLURM: minutes alone
    assert walltime_s("02:30") == 9000  # LSF: HH:MM
    assert lifetime_s("01:00:00") == 3300 and lifetime_s("00:04:00") == 120


CONFIG = """
cores = 4
memory = "8GB"
walltime = "01:00:00"
queue = "short"
account = "lab42"
job_extra = ["--exclusive"]
"""


@pytest.mark.parametrize(
    ("kind", "directives"),
    [
        ("slurm", ["#SBATCH -p short", "#SBATCH -A lab42", "#SBATCH -t 01:00:00", "#SBATCH --exclusive", "#SBATCH --mem=8G"]),
        ("pbs", ["#PBS -q short", "#PBS -A lab42", "#PBS -l walltime=01:00:00", "#PBS --exclusive"]),
        ("sge", ["#$ -q short", "#$ -P lab42", "#$ -l h_rt=01:00:00", "#$ --exclusive"]),
        ("lsf", ["#BSUB -q short", '#BSUB -P "lab42"', "#BSUB -W 01:00", "#BSUB --exclusive"]),
    ],
)
def test_batch_job_scripts(kind: str, directives: list[str], tmp_path: Path) -> None:
    """The job script of each batch system from one TOML file: its directives as the system's manual writes them, and workers that retire before the walltime."""
    path = tmp_path / f"{kind}.toml"
    path.write_text(CONFIG, encoding="utf-8")
    cluster = jobqueue_cluster(kind, read_config(path, kind))
    try:
        script = cluster.job_script()
    finally:
        cluster.close()
    for d in directives:
        assert d in script.splitlines(), (d, script)
    assert "--lifetime 3300s" in script and "--nthreads 1" in script and "--nworkers 4" in script and sys.executable.split("/")[-1] in script
