"""A fault campaign through a real SLURM: munged, slurmctld and slurmd started here for this one
machine, with a configuration of their own in a temporary folder, and `CLUSTER=slurm` submitting
the Dask workers as batch jobs to them.

The independent side is the embedded run of the same campaign: the database the SLURM run leaves
must equal it fault for fault. That the work went through SLURM is read from SLURM's own record of
its jobs (the job completion file), not from the campaign's output.

The daemons run as the user running the tests (root is not needed: slurmd starts jobs of its own
user only, which is all a campaign submits); the packages come from Debian (slurm-wlm, munge:
scripts/setup.sh installs them). Every process started here, and every job
process that inherited this configuration, is killed when the test ends, failed or not.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from conftest import ROOT
from test_faults_dask import PY, env, rows, wall_faults

N = 8
SEED = 5
JOBS = 2
PARTITION = "tb"
CAMPAIGN = ["-m", "tb.faults", "run", "--test", "vecadd", "-n", str(N), "--seed", str(SEED), "--sim", "verilator",
            "--target", "u_ctrl,u_sched", "--batch", "2"]  # fmt: skip
TOOLS = {"munged": "munge", "slurmctld": "slurm-wlm", "slurmd": "slurm-wlm", "sinfo": "slurm-wlm", "sbatch": "slurm-wlm", "scancel": "slurm-wlm"}


def tool(name: str) -> str | None:
    """The program's path; the daemons live in /usr/sbin, which a user's PATH may lack (Debian's does)."""
    return shutil.which(name, path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def node_hardware() -> tuple[int, int]:
    """CPUs and memory (MiB) as slurmd itself finds them: a node configured with more is refused (state INVAL)."""
    out = subprocess.run([str(tool("slurmd")), "-C"], capture_output=True, text=True, timeout=30).stdout
    cpus = re.search(r"\bCPUs=(\d+)", out)
    mem = re.search(r"\bRealMemory=(\d+)", out)
    assert cpus and mem, f"slurmd -C gave no CPUs/RealMemory: {out!r}"
    return int(cpus.group(1)), int(mem.group(1))


def slurm_conf(folder: Path, host: str, munge_socket: Path) -> str:
    cpus, mem = node_hardware()
    user = pwd.getpwuid(os.geteuid()).pw_name
    return f"""\
ClusterName=tbtest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={munge_socket}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc={folder}/jobcomp.txt
ReturnToService=2
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool
SlurmctldPidFile={folder}/slurmctld.pid
SlurmdPidFile={folder}/slurmd.pid
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem} State=UNKNOWN
PartitionName={PARTITION} Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


class Slurm:
    """munged, slurmctld and slurmd of one configuration, each in its own process group."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.conf = folder / "slurm.conf"
        self.procs: list[subprocess.Popen] = []

    def env(self) -> dict[str, str]:
        return {**env(), "SLURM_CONF": str(self.conf)}

    def start(self, args: list[str], log: str) -> None:
        with (self.folder / log).open("w") as out:
            self.procs.append(subprocess.Popen(args, env=self.env(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True))

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-1500:]}" for p in sorted(self.folder.glob("*.log")))

    def node_state(self) -> str:
        r = subprocess.run([str(tool("sinfo")), "-h", "-N", "-o", "%T"], env=self.env(), capture_output=True, text=True, timeout=30)
        return r.stdout.strip()

    def stop(self) -> None:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run([str(tool("scancel")), "--partition", PARTITION], env=self.env(), capture_output=True, timeout=30)
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(10)
        # slurmstepd and the job's processes leave slurmd's process group; they carry this SLURM_CONF
        for p in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                if p.environ().get("SLURM_CONF") == str(self.conf):
                    p.kill()


@pytest.fixture
def slurm(tmp_path: Path) -> Iterator[Slurm]:
    missing = sorted({pkg for name, pkg in TOOLS.items() if tool(name) is None})
    if missing:
        pytest.fail(f"{', '.join(missing)} not installed: run bash scripts/setup.sh (apt-get install slurm-wlm munge)", pytrace=False)
    s = Slurm(tmp_path)
    (tmp_path / "state").mkdir()
    (tmp_path / "spool").mkdir()
    munge = tmp_path / "munge"
    munge.mkdir(mode=0o700)
    key = munge / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o600)
    sock = munge / "munge.sock"
    s.conf.write_text(slurm_conf(tmp_path, socket.gethostname().split(".")[0], sock), encoding="utf-8")
    try:
        # --force: munged refuses a socket folder that only its owner can enter, unless told it is meant
        s.start([str(tool("munged")), "--foreground", "--force", f"--key-file={key}", f"--socket={sock}", f"--pid-file={munge}/munged.pid",
                 f"--seed-file={munge}/seed", f"--log-file={munge}/munged.log"], "munged.log")  # fmt: skip
        t0 = time.monotonic()
        while not sock.exists():
            assert time.monotonic() - t0 < 30, f"munged made no socket in 30 s\n{s.logs()}"
            time.sleep(0.1)
        s.start([str(tool("slurmctld")), "-D", "-i"], "slurmctld.log")
        s.start([str(tool("slurmd")), "-D"], "slurmd.log")
        t0 = time.monotonic()
        while (state := s.node_state()) != "idle":
            assert time.monotonic() - t0 < 60, f"the node is {state!r}, not idle, after 60 s\n{s.logs()}"
            time.sleep(0.5)
        yield s
    finally:
        s.stop()


def test_campaign_through_slurm(slurm: Slurm, tmp_path: Path) -> None:
    embedded = tmp_path / "embedded.sqlite"
    r = subprocess.run([PY, *CAMPAIGN, "--jobs", "2", "--db", str(embedded)], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert len(rows(embedded)) == N and wall_faults(embedded) == N

    config = tmp_path / "slurm.toml"
    config.write_text(f'cores = 1\nmemory = "1GB"\nwalltime = "00:10:00"\nqueue = "{PARTITION}"\n', encoding="utf-8")
    db = tmp_path / "slurm.sqlite"
    before = set(ROOT.glob("slurm-*.out"))
    t0 = time.time()
    r = subprocess.run([PY, *CAMPAIGN, "--jobs", str(JOBS), "--cluster", "slurm", "--cluster-config", str(config), "--db", str(db)],
                       cwd=ROOT, env=slurm.env(), capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:] + slurm.logs()
    assert rows(db) == rows(embedded)
    assert wall_faults(db) == N

    # SLURM's record: the workers ran as batch jobs of this partition, cancelled when the campaign closed its cluster
    record = (tmp_path / "jobcomp.txt").read_text(encoding="utf-8")
    jobs = [dict(re.findall(r"(\w+)=(\S*)", line)) for line in record.splitlines()]
    workers = [j for j in jobs if j.get("Name") == "dask-worker"]
    assert len(workers) >= JOBS, record
    assert all(j["Partition"] == PARTITION and j["JobState"] in ("CANCELLED", "COMPLETED") for j in workers), record
    # each job's output in build/faults/jobs: the worker it started registered with the campaign's scheduler
    for j in workers:
        log = ROOT / "build" / "faults" / "jobs" / f"dask-worker-{j['JobId']}.err"
        assert log.exists() and log.stat().st_mtime >= t0, f"no output of job {j['JobId']} in {log.parent}"
        assert "Registered to" in log.read_text(errors="replace"), log.read_text(errors="replace")[-2000:]
    assert set(ROOT.glob("slurm-*.out")) == before, "a job wrote its output into the checkout's root"
