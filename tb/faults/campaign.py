"""Fault-injection campaigns on the RTL (`make faults`, `python -m tb.faults`).

    run      the fault-free reference run (cycles, commits; it checks the final memory against the
             golden model), the fault sites of TARGET (tb/faults/sites.py, from the design), the
             plan of N faults (seeded: site by its share of the state bits, then word, bit and
             injection cycle uniform over the reference run), written to the campaign's database,
             then the faults without an outcome as Dask tasks of 20-200 faults, each in one
             simulator process (JOBS workers of an embedded cluster, this process itself for
             JOBS=1, or the cluster CLUSTER names: tb/cluster.py), written by this process alone
             as they come back, and the
             HTML report (tb/faults/report.py); ENGINE=fast (the default on Verilator) classifies
             a fault in a large-memory word that nothing selects after its injection without
             simulating it (tb/faults/test_campaign.py, "Memory words")
    report   the HTML report of a database
    rerun    one fault of a database again, alone, with waveforms (the command the report prints)
    sites    state bits per unit (and the sites of TARGET)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from dataclasses import astuple, dataclass, fields, replace
from pathlib import Path

from golden.errors import FAILURE, BadSetting, OneLineParser, UserError, guarded

from ..adapters import check_setup
from ..adapters.rtl import TOPLEVEL, RtlAdapter
from ..cluster import KINDS, check_reachable, check_spec, read_config
from ..config import LockstepConfig
from ..lockstep import LockstepRun
from ..runner import ROOT, SM_FILE_LIST, failure_messages, read_file_list, run, wave_file
from .db import LOCK_WAIT_S, CampaignDB, Fault
from .memreads import LARGE, index_expressions
from .sites import Site, enumerate_sites, select, units_of

MODELS = ("seu", "stuck0", "stuck1")
STOPS = ("early", "verify", "off")
ENGINES = ("cocotb", "fast")  # fast: the cocotb engine with the memory-word shortcut (tb/faults/test_campaign.py, "Memory words")
BATCH_MIN, BATCH_MAX = 20, 200  # faults per task (batch_size)
CHEAP_MAX = 2000  # faults per task in all with the fast engine (split)
TEST_MODULE = "tb.faults.test_campaign"


@dataclass(frozen=True)
class Campaign:
    test: str = "vecadd"
    n: int = 100
    sim: str = "verilator"
    model: str = "seu"
    target: str = "*"
    seed: int = 1
    num_sp: int = 8
    jobs: int = 1
    db: Path | None = None
    stop: str = "early"
    dut: str = "rtl"  # rtl (Verilator or Icarus) | flexgrip (FlexGripPlus under GHDL, tb/faults/vhdl_sites.py)
    cluster: str = ""  # tb/cluster.py: empty (embedded), tcp://host:port, slurm, lsf, sge, pbs
    cluster_config: Path | None = None  # the TOML file of a batch system's options
    batch: int = 0  # faults per task; 0: batch_size's choice
    engine: str = ""  # ENGINES; empty: default_engine's choice

    def __post_init__(self) -> None:
        # the simulator runs in a folder of its own, where a path relative to here would name nothing
        if self.db is not None and not self.db.is_absolute():
            object.__setattr__(self, "db", self.db.resolve())

    @property
    def lockstep(self) -> LockstepRun:
        if self.dut == "flexgrip":  # checked against the model's flexgrip profile, as `make sim DUT=flexgrip`
            return LockstepRun(self.test, self.sim, self.num_sp, seed=self.seed, dut="flexgrip", profile="flexgrip")
        # full visibility: a fault is a VPI deposit on any state bit of the design
        return LockstepRun(self.test, self.sim, self.num_sp, seed=self.seed, visibility="full")

    @property
    def folder(self) -> Path:
        if self.db is not None:
            return self.db.parent
        target = "all" if self.target in ("", "*") else "".join(c if c.isalnum() or c in "._-" else "_" for c in self.target)
        if len(target) > 32:  # a long pattern list: its start and a digest
            target = f"{target[:24]}_{hashlib.sha1(self.target.encode()).hexdigest()[:7]}"
        return ROOT / "build" / "faults" / f"{'flexgrip_' if self.dut == 'flexgrip' else ''}{self.lockstep.name}_{self.sim}_sp{self.num_sp}_{self.model}_{target}_s{self.seed}{'' if self.stop == default_stop(self.dut) else '_' + self.stop}"

    @property
    def db_path(self) -> Path:
        return self.db if self.db is not None else self.folder / "campaign.sqlite"

    @property
    def engine_used(self) -> str:
        return self.engine or default_engine(self.dut, self.sim)

    def command(self) -> str:
        target = f" TARGET='{self.target}'" if self.target not in ("", "*") else ""
        stop = f" STOP={self.stop}" if self.stop != default_stop(self.dut) else ""
        dut = " DUT=flexgrip" if self.dut == "flexgrip" else ""
        return f"make faults TEST={self.lockstep.make_test}{dut} N={self.n} SIM={self.sim} MODEL={self.model}{target} SEED={self.seed}{stop}"


def default_engine(dut: str, sim: str) -> str:
    """The fast engine where it applies (the RTL under Verilator), the cocotb engine elsewhere."""
    return "fast" if dut == "rtl" and sim == "verilator" else "cocotb"


def check_engine(engine: str, dut: str, sim: str) -> None:
    if engine and engine not in ENGINES:
        raise BadSetting(f"ENGINE={engine!r}: one of {', '.join(ENGINES)} (or leave it empty for the default)")
    if engine == "fast" and (dut != "rtl" or sim != "verilator"):
        where = "DUT=flexgrip" if dut != "rtl" else f"SIM={sim}"
        raise BadSetting(f"ENGINE=fast: the RTL under Verilator only (its index expressions come from Verilator's netlist), not {where}: "
                         "leave ENGINE empty or set ENGINE=cocotb")  # fmt: skip


def default_stop(dut: str) -> str:
    """The early stop's argument (tb/faults/test_campaign.py) is made for the RTL: off for FlexGripPlus."""
    return "off" if dut == "flexgrip" else "early"


def sites_of(config: LockstepConfig) -> tuple[Site, ...]:
    """The state sites of the configured DUT: the RTL's from Verilator's netlist, FlexGripPlus's from GHDL's VPI and its VHDL."""
    if config.dut != "flexgrip":
        return enumerate_sites(config.defines, RtlAdapter.parameters(config))
    from ..adapters.flexgrip import FlexgripAdapter, cores_of
    from ..adapters.flexgrip_build import TOP as FG_TOP
    from .vhdl_sites import read_design, state_sites

    cache = ROOT / "build" / "faults" / f"flexgrip_sp{cores_of(config)}_signals.json"
    if not cache.exists():
        folder = _mkdir(cache.with_suffix(""))
        path = config.write(folder / "config.json")
        log = folder / "signals.json"
        _simulate(config.sim, path, {"walk": True, "log": str(log)}, folder)
        if not log.exists():
            raise RuntimeError(f"GHDL's signal walk left no list (see {folder})")
        cache.write_text(log.read_text(encoding="utf-8"), encoding="utf-8")
    signals = [(p, int(w)) for p, w in json.loads(cache.read_text(encoding="utf-8"))]
    kept = state_sites(signals, read_design(FlexgripAdapter().sources()), FG_TOP)
    return tuple(Site(p, unit, width, 1, 0) for p, unit, width in kept)


def _config(c: Campaign, watchdog: int) -> LockstepConfig:
    return replace(c.lockstep.config(), watchdog=watchdog)


def _simulate(sim: str, config_path: Path, job: dict, test_dir: Path, waves: bool = False) -> Path:
    """One simulator process running tb/faults/test_campaign.py on `job` (a JSON file beside it)."""
    test_dir.mkdir(parents=True, exist_ok=True)
    job_path = test_dir / "job.json"
    job_path.write_text(json.dumps({**job, "config": str(config_path)}), encoding="utf-8")
    config = LockstepConfig.read(config_path)
    if config.dut == "flexgrip":
        from ..adapters.flexgrip import FlexgripAdapter

        return FlexgripAdapter().run_test(config, test_dir, waves, (f"+faults_job={job_path}",), test_module=TEST_MODULE)
    return run(sim, TOPLEVEL, read_file_list(SM_FILE_LIST), TEST_MODULE, RtlAdapter.parameters(config), waves=waves, test_dir=test_dir,
               defines=config.defines, plusargs=(f"+faults_job={job_path}",), visibility="full", rewrite_asserts=False)  # fmt: skip


def plan(sites: list[Site], n: int, ref_cycles: int, model: str, seed: int) -> list[Fault]:
    """N faults: a site with probability proportional to its bits (every state bit equally likely),
    word and bit uniform within it, the injection cycle uniform over the reference run (stuck-at
    faults too: from that cycle on)."""
    rng = random.Random(seed)
    weights = [s.bits for s in sites]
    chosen = rng.choices(sites, weights=weights, k=n)
    return [Fault(i, s.path, s.unit, rng.randrange(s.words), rng.randrange(s.width), rng.randrange(ref_cycles), model) for i, s in enumerate(chosen)]


def _shapes(sites: tuple[Site, ...]) -> tuple[dict[str, int], dict[str, int]]:
    return {s.path: s.words for s in sites}, {s.path: s.low for s in sites}


def reference(c: Campaign) -> dict:
    """The fault-free run in the campaign's own test module (the same process setup as the faults)."""
    folder = c.folder / "reference"
    config = _config(c, 200_000)
    path = config.write(_mkdir(folder) / "config.json")
    words, low = _shapes(sites_of(config))
    log = folder / "reference.jsonl"
    t0 = time.perf_counter()
    results = _simulate(c.sim, path, {"reference": True, "log": str(log), "words": words, "low": low}, folder)
    wall = time.perf_counter() - t0
    failures = failure_messages(results) if results.exists() else ["no results (simulator crashed?)"]
    if failures or not log.exists():
        raise RuntimeError(f"the fault-free reference run of {c.test} fails: {failures[0] if failures else 'no outcome'} (see {folder})")
    out = json.loads(log.read_text(encoding="utf-8"))
    return {"ref_cycles": out["cycles"], "ref_commits": out["commits"], "ref_wall_s": out["wall_s"], "ref_process_s": wall}


def _mkdir(p: Path) -> Path:
    p.mkdir(parents=True, exist_ok=True)
    return p


def prepare(c: Campaign, faults: list[Fault] | None = None, quiet: bool = True) -> dict:
    """The campaign's database with its reference run, sites and plan (`faults`, or N drawn with
    the seed), unless it has them already; returns its settings. Tests pass their own faults."""
    if c.model not in MODELS:
        raise BadSetting(f"MODEL={c.model!r}: one of {', '.join(MODELS)}")
    if c.n < 1:
        raise BadSetting(f"N={c.n}: at least one fault")
    if c.stop not in STOPS:
        raise BadSetting(f"STOP={c.stop!r}: one of {', '.join(STOPS)}")
    if c.dut == "flexgrip" and c.stop != "off":
        raise BadSetting("DUT=flexgrip: STOP=off (the early stop's argument is made for the RTL, tb/faults/test_campaign.py)")
    check_spec(c.cluster)
    if c.cluster in KINDS:
        read_config(c.cluster_config, c.cluster)  # a bad file is told before the build and the reference run
    if c.batch < 0:
        raise BadSetting(f"--batch {c.batch}: a number of faults per task, or 0 for the default")
    check_engine(c.engine, c.dut, c.sim)
    check_setup(c.dut, c.sim)
    check_reachable(c.cluster)
    if not c.lockstep.path.exists():
        raise BadSetting(f"TEST={c.test}: no program {c.lockstep.path} (TEST is a name of programs/ or a path to a .sass program)")
    # the database before the build: a corrupt, locked or foreign one is reported at once
    db = CampaignDB(c.db_path, timeout=LOCK_WAIT_S)
    meta = db.meta()
    if meta:
        differ = other_campaign(meta, c)
        if differ:
            db.close()
            raise BadSetting(f"DB={c.db_path} holds another campaign ({', '.join(differ)}): resume it with '{meta['command']} DB={c.db_path}', "
                             f"or start this one with another DB= path")  # fmt: skip
    db.close()
    c.lockstep.build()
    db = CampaignDB(c.db_path)
    if not meta:
        # the sites first: a TARGET that matches nothing is reported before the reference run
        chosen = select(sites_of(_config(c, 0)), c.target)
        if not quiet:
            print(f"faults: reference run of {c.test} on {c.sim}", flush=True)
        ref = reference(c)
        units = units_of(chosen)
        # a hang: no commit for the whole reference run's length (at least 2000 cycles)
        watchdog = max(2000, ref["ref_cycles"])
        # the settings last: a database with settings has its whole plan, whenever the first start was interrupted
        db.set_units(units)
        db.plan(faults if faults is not None else plan(chosen, c.n, ref["ref_cycles"], c.model, c.seed))
        db.set_meta(test=c.test, program=str(c.lockstep.path), sim=c.sim, model=c.model, target=c.target, seed=c.seed, n=c.n, num_sp=c.num_sp,
                    command=c.command(), watchdog=watchdog, stop=c.stop, dut=c.dut, state_bits=sum(s.bits for s in chosen), **ref)  # fmt: skip
        meta = db.meta()
    db.close()
    return meta


def other_campaign(meta: dict, c: Campaign) -> list[str]:
    """The settings in which the campaign of a database differs from `c`, as `NAME=theirs, not ours`."""
    theirs = {"TEST": meta["test"], "DUT": meta.get("dut", "rtl"), "SIM": meta["sim"], "MODEL": meta["model"], "TARGET": meta["target"],
              "SEED": meta["seed"], "N": meta["n"], "NUM_SP": meta["num_sp"], "STOP": meta.get("stop", "early")}  # fmt: skip
    ours = {"TEST": c.test, "DUT": c.dut, "SIM": c.sim, "MODEL": c.model, "TARGET": c.target, "SEED": c.seed, "N": c.n, "NUM_SP": c.num_sp, "STOP": c.stop}
    return [f"{k}={theirs[k]}, not {ours[k]}" for k in ours if theirs[k] != ours[k]]


def batch_size(pending: int, workers: int, wanted: int = 0) -> int:
    """Faults per task: two tasks for every worker at least (a lost worker costs half its share,
    the last tasks end together), each long enough that the simulator's start and its fault-free
    runs stay small beside its faults (20 at least, 200 at most)."""
    if wanted > 0:
        return wanted
    return max(BATCH_MIN, min(BATCH_MAX, -(-pending // (2 * workers))))


def split(todo: list[Fault], workers: int, wanted: int = 0, cheap: frozenset[str] | None = None) -> list[list[Fault]]:
    """The faults of each task, in order: `wanted` a task, or batch_size's choice. With the fast
    engine (`cheap`: the arrays that have its memory-word shortcut), the sizes count the faults a
    task is likely to simulate: a fault in one of those arrays is most often classified without a
    simulation, at a small fraction of a simulated fault's cost, and counts for nothing; and one
    worker takes the job in one task per BATCH_MAX counted faults rather than two, since a short
    kernel's campaign is then mostly such faults and a second task only paid the simulator's start
    and its fault-free runs again (a third of a 400-fault vecadd campaign). A task holds at most
    CHEAP_MAX faults in all, since its recording run reads every faulted word at each checkpoint."""
    if wanted > 0 or cheap is None:
        size = batch_size(len(todo), workers, wanted)
        return [todo[i : i + size] for i in range(0, len(todo), size)]
    size = BATCH_MAX if workers == 1 else batch_size(sum(f.site not in cheap for f in todo), workers)
    out: list[list[Fault]] = [[]]
    counted = 0
    for f in todo:
        if counted >= size or len(out[-1]) >= CHEAP_MAX:
            out.append([])
            counted = 0
        out[-1].append(f)
        counted += f.site not in cheap
    return out


def _task(sim: str, config_path: str, job: dict, folder: str, faults: list[tuple]) -> dict:
    """One task of the engine: a batch of faults in ONE simulator process (a subprocess of the
    worker), which writes each outcome to its log; the outcomes go back to the client, the
    database's one writer. A process that stopped before the batch's end (state leaked into a run,
    a crash, FlexGripPlus's restart after a failed run) leaves the rest to a new process of the same
    task while each gets further; two processes in a row without an outcome end the task with what
    it has. Each process has a folder of its own: a task moved off a lost worker does not meet the
    simulator it left behind."""
    import uuid

    outcomes: list[dict] = []
    notes: list[str] = []
    left, tries, problem, test_dir = list(faults), 0, "", Path(folder)
    while left:
        test_dir = Path(folder) / f"shard{job['shard']}-{uuid.uuid4().hex[:8]}"
        log = test_dir / "shard.jsonl"
        results = _simulate(sim, Path(config_path), {**job, "faults": left, "log": str(log)}, test_dir)
        failures = failure_messages(results) if results.exists() else [f"no {results} (simulator crashed?)"]
        lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines() if x.endswith("}")] if log.exists() else []
        got = [x for x in lines if "outcome" in x]
        outcomes += got
        ids = {x["id"] for x in got}
        left = [f for f in left if f[0] not in ids]
        problem = failures[0] if failures else ""
        tries = 0 if got else tries + 1
        if not left or tries >= 2:
            break
        if problem:
            notes.append(f"task {job['shard']} stopped ({problem.splitlines()[0]}); {len(left)} of its faults go on in a new process")
    return {"shard": job["shard"], "outcomes": outcomes, "left": len(left), "problem": (problem or "no outcome") if left else "", "folder": str(test_dir),
            "notes": notes}  # fmt: skip


def execute(c: Campaign, meta: dict, quiet: bool = True) -> int:
    """Run the faults of the database without an outcome as tasks of the engine (tb/cluster.py's
    run_tasks), each a batch in one simulator process; this process alone writes the database, as
    the outcomes come back. Returns how many ran."""
    from ..cluster import Task, run_tasks

    db = CampaignDB(c.db_path)
    todo = db.pending()
    if not quiet:
        print(f"faults: {db.planned()} planned, {len(todo)} to run; reference {meta['ref_cycles']} cycles, {meta['ref_commits']} commits", flush=True)
    db.close()
    if not todo:
        return 0
    config = _config(c, int(meta["watchdog"]))
    path = config.write(_mkdir(c.folder) / "config.json")
    words, low = _shapes(sites_of(config))
    base = {"words": words, "low": low, "stop": c.stop, "ref_cycles": int(meta["ref_cycles"])}
    if c.engine_used == "fast":
        # the large arrays whose every access has an index the fault-free run can sample (tb/faults/memreads.py)
        found = index_expressions(config.defines, RtlAdapter.parameters(config), LARGE)
        base["accesses"] = {path: list(es) for path, es in found.items() if es is not None}
    problems: list[tuple[int, str, str]] = []
    used = {"workers": 1, "ran": 0}

    def tasks(workers: int) -> list[Task]:
        used["workers"] = workers
        cheap = frozenset(base["accesses"]) if "accesses" in base else None
        chunks = [[astuple(f) for f in chunk] for chunk in split(todo, workers, c.batch, cheap)]
        return [Task(_task, (c.sim, str(path), {**base, "shard": k}, str(c.folder), faults), len(faults), f"{k}-{faults[0][0]}")
                for k, faults in enumerate(chunks)]  # fmt: skip

    def take(_: int, out: dict) -> None:
        with db.con:  # a batch's outcomes in one transaction: all kept or none
            for values in out["outcomes"]:
                db.con.execute(f"UPDATE faults SET {', '.join(k + ' = ?' for k in values if k != 'id')} WHERE id = ?",
                               [*(v for k, v in values.items() if k != "id"), values["id"]])  # fmt: skip
        used["ran"] += len(out["outcomes"])
        if not quiet:
            for note in out["notes"]:
                print(f"faults: {note}", file=sys.stderr, flush=True)
        if out["left"]:
            problems.append((out["shard"], out["problem"], out["folder"]))

    t0 = time.perf_counter()
    db = CampaignDB(c.db_path)
    failed = ""
    try:
        # no simulator dies of a Ctrl-C in the middle of a fault: a cluster's worker processes ignore
        # the signal that the client answers (tb/cluster.py, open_client), and one job without a
        # cluster runs each task in a thread whose simulators never receive it (tb/cluster.py, shielded)
        run_tasks(tasks, take, max(1, min(c.jobs, len(todo))), c.cluster, c.cluster_config, label="faults", unit="fault", quiet=quiet, shield=True)
    except RuntimeError as exc:  # a task that failed every time it ran (tb/cluster.py, TRIES)
        failed = str(exc)
    finally:
        db.close()
    wall = time.perf_counter() - t0
    db = CampaignDB(c.db_path)
    now = db.meta()
    # faults per minute over the tasks' wall time (cluster start and simulator processes, reference-free)
    db.set_meta(campaign_wall_s=float(now.get("campaign_wall_s", 0.0)) + wall, jobs=used["workers"], wall_faults=int(now.get("wall_faults", 0)) + used["ran"])
    db.close()
    for k, msg, folder in problems:
        print(f"faults: task {k} stopped: {msg} (see {folder})", file=sys.stderr)
    if failed:
        raise RuntimeError(f"{failed}; the database keeps what was done (run the same command again to resume)")
    if problems:
        raise RuntimeError(f"{len(problems)} task(s) failed; the database keeps what was done (run the same command again to resume)")
    return used["ran"]


def run_campaign(c: Campaign, quiet: bool = False) -> Path:
    """Plan (once) and run a campaign, then write its report; returns the database path. Resumes an interrupted one."""
    meta = prepare(c, quiet=quiet)
    execute(c, meta, quiet=quiet)
    from .report import text_summary, write_report

    html = write_report(c.db_path)
    if not quiet:
        print(text_summary(c.db_path), flush=True)
        print(f"faults: report {html}", flush=True)
    return c.db_path


def rerun(db_path: Path, fault_id: int, waves: bool = True) -> dict:
    """One fault of a campaign again, alone, with waveforms; the database is not changed."""
    db_path = db_path.resolve()  # the simulator runs in its own folder: a relative path would name nothing there
    db = CampaignDB(db_path, timeout=LOCK_WAIT_S, create=False)
    meta = db.meta()
    recorded = db.get(fault_id)  # a clear error for an unknown id
    db.close()
    c = Campaign(meta["test"], meta["n"], meta["sim"], meta["model"], meta["target"], meta["seed"], meta["num_sp"], db=db_path,
                 stop=meta.get("stop", "early"), dut=meta.get("dut", "rtl"))  # fmt: skip
    folder = c.folder / f"rerun_{fault_id}"
    config = _config(c, int(meta["watchdog"]))
    path = config.write(_mkdir(folder) / "config.json")
    words, low = _shapes(sites_of(config))
    log = folder / "rerun.jsonl"
    log.unlink(missing_ok=True)
    fault = [recorded[f.name] for f in fields(Fault)]  # as a task hands its faults over (astuple of each)
    _simulate(c.sim, path, {"shard": 0, "faults": [fault], "ref_cycles": int(meta["ref_cycles"]), "log": str(log), "words": words, "low": low,
                            "stop": c.stop},
              folder, waves)  # fmt: skip
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    result = next((x for x in lines if x.get("id") == fault_id), None)
    if result is None:
        raise RuntimeError(f"the rerun of fault {fault_id} left no outcome (see {folder})")
    # a fault reruns exactly: same seeds, same injection cycle, nothing left over from other faults
    result["same_as_campaign"] = recorded["outcome"] is None or all(result[k] == recorded[k] for k in ("outcome", "field", "div_cycle", "cycles"))
    if waves:
        if c.dut == "flexgrip":
            from ..adapters.flexgrip import FlexgripAdapter

            result["wave_file"] = str(FlexgripAdapter().wave_file(config, folder))
        else:
            result["wave_file"] = str(wave_file(c.sim, TOPLEVEL, folder))
    return result


def shown_path(db_path: Path) -> str:
    """A database's path as reports and rerun commands print it: from the project's root when inside it."""
    try:
        return str(Path(db_path).resolve().relative_to(ROOT))
    except ValueError:
        return str(db_path)


def rerun_command(db_path: Path, fault_id: int) -> str:
    return f"make faults-rerun DB={shown_path(db_path)} ID={fault_id}"


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    p = OneLineParser(prog="python -m tb.faults", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="plan and run a campaign (resumes one with the same database)")
    r.add_argument("--test", default="vecadd")
    r.add_argument("-n", type=int, default=100)
    r.add_argument("--dut", default="rtl", choices=("rtl", "flexgrip"))
    r.add_argument("--sim", choices=("verilator", "icarus", "ghdl"), help="verilator for the RTL (or icarus), ghdl for FlexGripPlus")
    r.add_argument("--model", default="seu", choices=MODELS)
    r.add_argument("--target", default="*", help="hierarchy pattern (fnmatch) or unit: u_regfile, 'u_sched.w_*', '*'")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--num-sp", type=int, default=8)
    r.add_argument("--jobs", type=int, default=1, help="workers of the embedded cluster (simulator processes at once), or workers asked of a batch system "
                   "(each of its jobs holds `processes` of them, cores by default)")
    r.add_argument("--cluster", default="", help="empty: an embedded Dask cluster of JOBS workers; tcp://host:port: a running scheduler; "
                   "slurm, lsf, sge or pbs: workers started through dask-jobqueue (docs/guides/cluster.md)")
    r.add_argument("--cluster-config", type=Path, help="the TOML file of the batch system's options (cores, memory, walltime, queue, account, job_extra)")
    r.add_argument("--batch", type=int, default=0, help="faults per task (default: 20-200, from the campaign's size and the workers)")
    r.add_argument("--db", type=Path)
    r.add_argument("--engine", default="", help="fast (the default on the RTL under Verilator): the cocotb engine plus the memory-word shortcut; "
                   "cocotb: every fault simulated in lock-step (the only engine for Icarus and FlexGripPlus)")
    r.add_argument("--stop", choices=STOPS, help="early: a SEU run that has converged to the fault-free one stops as masked; "
                   "verify: record where it would stop but run to the end; off: no checkpoints (the default for FlexGripPlus)")  # fmt: skip
    rep = sub.add_parser("report", help="write the HTML report of a campaign database")
    rep.add_argument("db", type=Path)
    rr = sub.add_parser("rerun", help="rerun one fault alone with waveforms")
    rr.add_argument("db", type=Path)
    rr.add_argument("id", type=int)
    rr.add_argument("--no-waves", action="store_true")
    s = sub.add_parser("sites", help="state bits per unit")
    s.add_argument("--target", default="*")
    return p


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    a = p.parse_args(argv)
    sim = a.sim or ("ghdl" if a.dut == "flexgrip" else "verilator") if a.cmd == "run" else ""
    c = (Campaign(a.test, a.n, sim, a.model, a.target, a.seed, a.num_sp, a.jobs, a.db, a.stop or default_stop(a.dut), a.dut, a.cluster, a.cluster_config, a.batch,
                  a.engine)
         if a.cmd == "run" else None)  # fmt: skip
    return guarded("faults", lambda: _main(a, c), lambda: interrupted(c))


def interrupted(c: Campaign | None) -> str:
    """What an interrupted campaign kept (every fault that finished is in its database) and how to go on."""
    if c is None or not c.db_path.is_file():
        return "nothing kept; run the same command again"
    db = CampaignDB(c.db_path, timeout=LOCK_WAIT_S)
    done, planned = len(db.rows()), db.planned()
    db.close()
    return f"{done} of {planned} faults kept in {c.db_path}; run the same command again to resume"


def _main(a: argparse.Namespace, c: Campaign | None) -> int:
    try:
        if c is not None:
            run_campaign(c)
        elif a.cmd == "report":
            from .report import text_summary, write_report

            print(text_summary(a.db))
            print(write_report(a.db))
        elif a.cmd == "rerun":
            print(json.dumps(rerun(a.db, a.id, not a.no_waves), indent=1))
        else:
            chosen = select(enumerate_sites(), a.target)
            units: dict[str, list[Site]] = {}
            for site in chosen:
                units.setdefault(site.unit, []).append(site)
            for unit, ss in units.items():
                print(f"{unit:12s} {len(ss):4d} variables {sum(x.bits for x in ss):10d} bits")
            print(f"{'total':12s} {len(chosen):4d} variables {sum(x.bits for x in chosen):10d} bits")
    except UserError:
        raise
    except (ValueError, KeyError) as exc:
        raise UserError(str(exc).strip("'\"")) from None
    except RuntimeError as exc:
        raise UserError(str(exc), FAILURE) from None
    return 0
