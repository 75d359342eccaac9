"""Mutation campaign (`make mutants`, `python -m tb.mutation`): how many generated RTL mutants the
programs detect.

    run     mutants from rtl/ (mutate.py; N drawn with SEED out of every candidate), one
            Verilator build with all of them, a reference pass (id 0: the instrumented design must
            pass every program), then every mutant against the directed programs (programs/*.sass,
            programs/kernels/*.sass) and the random tier (randgen programs, RANDOM="preset:count,..."),
            stopping at the first failing program (test_mutation.py); then each survivor and each kill
            again alone in a fresh process on every program (confirm); the report last. Resumes: a
            mutant with an outcome in results.jsonl is not run again (remove the folder to start over).
    report  the report of a campaign folder: killed / survived / equivalent per module, the score,
            every survivor (file, line, change, key)

A mutant is `killed` when a program fails on it (a lock-step mismatch, an RTL error, a hang; a
simulator that dies or stops making progress inside it counts too, and is named so), `survived`
when every program passes, and `equivalent` when it survived and tb/mutation/equivalent.toml gives
its key with the reason it cannot change behaviour. The score is killed / (mutants - equivalent).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
import tomllib
import uuid
from pathlib import Path

from golden.errors import BadSetting, OneLineParser, UserError, guarded

from ..cluster import BATCH_MOST, Task, batches, check_cluster, run_tasks
from ..lockstep import LockstepRun
from ..runner import ROOT, SM_FILE_LIST, FileList, build, read_file_list, run
from . import mutate

OUT = ROOT / "build" / "mutants"
EQUIVALENT = Path(__file__).with_name("equivalent.toml")
DEFINE = "SM_MUTANTS"  # a define nothing reads: the instrumented build gets a build folder of its own
TEST_MODULE = "tb.mutation.test_mutation"
DEFAULT_RANDOM = "ci:5,default:5,fp:3,memory:3"
WATCHDOG = 20_000  # cycles without a commit: a hang (the programs' longest gap is far below)


def directed_programs() -> list[Path]:
    """programs/*.sass, programs/kernels/*.sass and programs/bad/*.sass: a bad program is run for its
    error (the reference pass records how the unmutated RTL stops; a mutant is killed by it when the
    RTL stops otherwise, or not at all)."""
    root = ROOT / "programs"
    return sorted(root.glob("*.sass")) + sorted((root / "kernels").glob("*.sass")) + sorted((root / "bad").glob("*.sass"))


def rtl_digest() -> str:
    """A digest of the RTL the mutants are drawn from (every source and include of rtl/sm.f): a
    campaign folder whose digest differs holds verdicts about another design."""
    files = read_file_list(SM_FILE_LIST)
    paths = sorted(set(files.sources) | {p for d in files.includes for p in d.glob("*.v*")})
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def random_programs(spec: str, out: Path) -> list[Path]:
    """randgen programs: "preset:count,..." (seeds 1..count of each preset)."""
    from randgen.config import load
    from randgen.run import write_program

    paths = []
    for item in filter(None, (x.strip() for x in spec.split(","))):
        preset, _, count = item.partition(":")
        try:
            n = int(count)
        except ValueError:
            raise ValueError(f"RANDOM={spec!r}: {item!r} is not preset:count") from None
        name, cfg = load(preset)
        paths += [write_program(seed, cfg, name, out) for seed in range(1, n + 1)]
    return paths


def _name(out: Path, p: Path) -> str:
    return p.stem if p.parent.name not in ("kernels", "bad") else f"{p.parent.name}/{p.stem}"


# the parts of a failure report that say how and where the RTL stopped, not when: a mutant that
# only changes timing does not kill by reaching the same error at another cycle. Not `model_says`:
# whether the scoreboard has compared the commit just before an RTL error when the error stops the
# run depends on the runs before it in the same process (bad/trap run twice: the second one's
# model is still at PC 0), so what the model says there is no property of the design.
OUTCOME_FIELDS = ("kind", "block", "cta", "warp", "pc", "text", "message")
# outcomes that depend on timing: a bad program that ends so is not used (the reference pass fails)
TIMING_KINDS = ("hang", "x_or_z")


def outcome(report: dict | None) -> dict | None:
    """How a run ended: None when it passed, else the fields of OUTCOME_FIELDS of its report (a
    message's leading `cycle N:`, the simulation time, left out)."""
    if report is None:
        return None
    out = {k: report.get(k) for k in OUTCOME_FIELDS}
    out["message"] = re.sub(r"^cycle \d+: ", "", out["message"] or "")
    return out


def expects_error(name: str) -> bool:
    """A program of programs/bad: it must stop the RTL as the reference run stops it."""
    return name.startswith("bad/")


def _program_configs(out: Path, programs: list[Path]) -> list[dict]:
    configs = []
    (out / "configs").mkdir(parents=True, exist_ok=True)
    for p in programs:
        name = _name(out, p)
        seed = int(p.stem.rsplit("_s", 1)[1]) if p.parent == out / "programs" else 1
        r = LockstepRun(str(p), "verilator", 8, seed, defines=(DEFINE,), watchdog=WATCHDOG, out=out / "runs")
        path = r.config().write(out / "configs" / f"{name.replace('/', '-')}.json")
        configs.append({"name": name, "config": str(path)})
    return configs


def _files(out: Path) -> FileList:
    data = json.loads((out / "design.json").read_text(encoding="utf-8"))
    return FileList(tuple(Path(p) for p in data["sources"]), tuple(Path(p) for p in data["includes"]))


def prepare(out: Path, n: int, seed: int, random_spec: str) -> dict:
    """Mutants, instrumented sources, programs and their configurations (once per folder)."""
    meta_path = out / "campaign.json"
    digest = rtl_digest()
    if meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            theirs = (meta["n"], meta["seed"])
        except (ValueError, KeyError, TypeError) as exc:
            raise UserError(f"{meta_path} is not a readable mutation campaign state ({type(exc).__name__}: {exc}): "
                            f"remove {out} to start the campaign again, or choose another folder (-o; make mutants BUILD=)") from None  # fmt: skip
        if theirs != (n, seed):
            differ = ", ".join(f"{k}={a}, not {b}" for k, a, b in (("MUTANTS_N", theirs[0], n), ("MUTANTS_SEED", theirs[1], seed)) if a != b)
            raise BadSetting(f"{out} holds another mutation campaign ({differ}): resume it with 'make mutants MUTANTS_N={theirs[0]} "
                             f"MUTANTS_SEED={theirs[1]}', or start this one in another folder (-o; make mutants BUILD=) or after removing {out}")  # fmt: skip
        if meta.get("rtl") != digest:
            return _redraw(out, meta, digest, random_spec)
        programs = directed_programs() + random_programs(random_spec, out / "programs")
        if meta["random"] != random_spec or [p["name"] for p in meta["programs"]] != [_name(out, p) for p in programs]:
            # another random tier, or new directed programs, for the mutants still to run (the report says which)
            meta.update(random=random_spec, programs=_program_configs(out, programs), directed=len(directed_programs()))
            meta_path.write_text(json.dumps(meta, indent=1), encoding="utf-8")
        return meta
    out.mkdir(parents=True, exist_ok=True)
    return _draw(out, n, seed, digest, random_spec)


def _draw(out: Path, n: int, seed: int, digest: str, random_spec: str) -> dict:
    """Draw and instrument the mutants of the RTL as it is, write the campaign's metadata."""
    meta_path = out / "campaign.json"
    t0 = time.perf_counter()
    cands = mutate.candidates()
    mutants, files, dropped = mutate.generate(out / "rtl", n, seed)
    (out / "design.json").write_text(
        json.dumps({"sources": [str(p) for p in files.sources], "includes": [str(p) for p in files.includes]}), encoding="utf-8"
    )
    (out / "mutants.json").write_text(json.dumps([m.to_dict() for m in mutants], indent=1), encoding="utf-8")
    programs = directed_programs() + random_programs(random_spec, out / "programs")
    configs = _program_configs(out, programs)
    meta = {"n": n, "seed": seed, "rtl": digest, "random": random_spec, "candidates": len(cands), "mutants": len(mutants), "dropped": dropped,
            "programs": configs, "directed": len(directed_programs()), "generate_s": round(time.perf_counter() - t0, 1)}  # fmt: skip
    meta_path.write_text(json.dumps(meta, indent=1), encoding="utf-8")
    return meta


def _redraw(out: Path, meta: dict, digest: str, random_spec: str) -> dict:
    """The RTL changed since the folder's campaign: the mutants are drawn again from the new sources
    (the draw ranks candidates by key, so those whose statement did not change are mostly drawn
    again, and vanished keys are replaced by the next ones of the same ranking). No verdict of the old
    design is taken over as a verdict (another module's change can make a mutant's kill go away):
    the old results move to `previous/` and only tell the new run which program killed a key there,
    to try it first; every mutant, and the reference pass, run again on the new RTL."""
    prev = out / "previous"
    prev.mkdir(exist_ok=True)
    old = {m["id"]: m["key"] for m in json.loads((out / "mutants.json").read_text(encoding="utf-8"))} if (out / "mutants.json").exists() else {}
    hints = json.loads((prev / "hints.json").read_text(encoding="utf-8")) if (prev / "hints.json").exists() else {}
    for v in _read(out / "results.jsonl"):
        if v.get("status") == "killed" and v.get("program") and v.get("mutant") in old:
            hints[old[v["mutant"]]] = v["program"]
    (prev / "hints.json").write_text(json.dumps(hints, indent=1), encoding="utf-8")
    tag = meta.get("rtl", "old")
    for name in ("results.jsonl", "reference.jsonl", "mutants.json", "campaign.json"):
        if (out / name).exists():
            (out / name).rename(prev / f"{tag}.{name}")
    for log in out.glob("shard*.jsonl"):
        log.rename(prev / f"{tag}.{log.name}")
    new = _draw(out, meta["n"], meta["seed"], digest, random_spec)
    keys = {m["key"] for m in json.loads((out / "mutants.json").read_text(encoding="utf-8"))}
    kept = len(keys & set(old.values()))
    new.update(previous_rtl=tag, kept_keys=kept)
    (out / "campaign.json").write_text(json.dumps(new, indent=1), encoding="utf-8")
    print(f"mutants: the RTL changed since the campaign in {out} ({tag} -> {digest}): drawn again, {kept} of {len(keys)} keys as before; "
          f"the old results are in {prev}, every mutant runs again", flush=True)  # fmt: skip
    return new


def spawn(folder: Path, job: dict, stall_s: float) -> tuple[int, bool]:
    """One simulator process running test_mutation.py on `job` (its design: sim, sources, includes,
    parameters, defines), in `folder`; killed (its process group) when the job's log stops growing
    for stall_s. Returns (exit code, stalled)."""
    folder = folder.resolve()  # the simulator runs inside it
    folder.mkdir(parents=True, exist_ok=True)
    job_path = folder / "job.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    log = Path(job["log"])
    with open(folder / "sim.log", "w") as simlog:
        proc = subprocess.Popen([sys.executable, "-m", "tb.mutation", "shard", str(job_path)], stdout=simlog, stderr=subprocess.STDOUT, cwd=ROOT,
                                start_new_session=True)  # fmt: skip
        last_size, last_change = -1, time.monotonic()
        while proc.poll() is None:
            time.sleep(1)
            size = log.stat().st_size if log.exists() else 0
            if size != last_size:
                last_size, last_change = size, time.monotonic()
            elif time.monotonic() - last_change > stall_s:
                os.killpg(proc.pid, signal.SIGKILL)  # our own child's group: the simulator under it
                proc.wait()
                return proc.returncode, True
    return proc.returncode, False


def design(sim: str, files: FileList, parameters: tuple[tuple[str, object], ...] = (), defines: tuple[str, ...] = ()) -> dict:
    """The part of a job that names the design to simulate."""
    return {"sim": sim, "sources": [str(p) for p in files.sources], "includes": [str(p) for p in files.includes], "parameters": [list(x) for x in parameters],
            "defines": list(defines)}  # fmt: skip


def shard_main(job_path: Path) -> int:
    """Inside the spawned process: the cocotb module on the job's design, in the job's folder."""
    job = json.loads(job_path.read_text(encoding="utf-8"))
    files = FileList(tuple(Path(p) for p in job["sources"]), tuple(Path(p) for p in job["includes"]))
    parameters = tuple((k, v) for k, v in job["parameters"])
    run(job["sim"], mutate.TOPLEVEL, files, TEST_MODULE, parameters, test_dir=job_path.parent, defines=tuple(job["defines"]),
        plusargs=(f"+mutation_job={job_path}",))  # fmt: skip
    return 0


def _read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    out = []
    for i, x in enumerate(lines):
        try:
            out.append(json.loads(x))
        except ValueError:
            if i == len(lines) - 1:  # the line an interrupted process was writing: that mutant runs again
                break
            raise UserError(f"{path}:{i + 1} is not a JSON record: remove {path.parent} to start the campaign again") from None
    return out


def reference(out: Path, meta: dict, quiet: bool) -> dict[str, float]:
    log = out / "reference.jsonl"
    names = {p["name"] for p in meta["programs"]}
    # the programs not passed yet (all of them the first time), and those whose text changed since
    digests = {p["name"]: program_digest(p) for p in meta["programs"]}
    done = {x["reference"]: x.get("digest") for x in _read(log)}
    missing = [{**p, "digest": digests[p["name"]]} for p in meta["programs"] if done.get(p["name"], "") != digests[p["name"]]]
    if missing:
        if not quiet:
            print(f"mutants: reference pass, {len(missing)} programs on the instrumented design (id 0)", flush=True)
        spawn(out / "reference", {**design("verilator", _files(out), (), (DEFINE,)), "reference": True, "programs": missing, "log": str(log)}, 900)
    lines = {x["reference"]: x for x in _read(log) if x["reference"] in names}  # the last line of each program
    for name, x in lines.items():  # a bad program must stop the RTL (or the model: a runaway loop), and not by timing
        if expects_error(name):
            x["passed"] = x["outcome"] is not None and x["outcome"]["kind"] not in TIMING_KINDS
    bad = [x for x in lines.values() if not x["passed"]]
    if len(lines) != len(meta["programs"]) or bad:
        what = (
            f"{bad[0]['reference']}: {bad[0]['message'] or 'it ran to the end'}" if bad else f"{len(lines)} of {len(meta['programs'])} programs ran"
        )
        raise RuntimeError(f"the reference pass (no mutant) fails: {what} (see {out / 'reference'})")
    return {x["reference"]: x["wall_s"] for x in lines.values()}


def program_digest(program: dict) -> str:
    """A digest of a program's text (the configuration names the file; it is read at each run)."""
    path = Path(json.loads(Path(program["config"]).read_text(encoding="utf-8"))["program"])
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def expected_outcomes(out: Path) -> dict[str, dict]:
    """How the unmutated RTL stops on each program of programs/bad (the reference pass's record)."""
    return {x["reference"]: outcome(x["outcome"]) for x in _read(out / "reference.jsonl") if expects_error(x["reference"]) and x["outcome"]}


def tried(verdict: dict, programs: dict[str, str]) -> list[str]:
    """The programs a mutant has run in their present text: a verdict records the digest of each
    program it ran (`seen`); one whose text changed since counts as not tried (a verdict without
    digests, from before they were recorded, keeps every name)."""
    seen = verdict.get("seen", {})
    return [n for n in verdict.get("tried", []) if seen.get(n, programs.get(n)) == programs.get(n)]


def to_run(verdict: dict | None, retry: bool, programs: dict[str, str]) -> bool:
    """Whether a mutant runs (again): when it has no outcome; in a retry pass also when it is
    unresolved, or survived without having tried every program in its present text (directed
    programs added or changed since). `programs`: name -> digest."""
    if verdict is None:
        return True
    return retry and (verdict["status"] == "unresolved" or (verdict["status"] == "survived" and not set(programs) <= set(tried(verdict, programs))))


def _programs(meta: dict) -> tuple[list[dict], dict[str, str]]:
    """The campaign's programs, each with the digest of its present text, and name -> digest."""
    programs = [{**p, "digest": program_digest(p)} for p in meta["programs"]]
    return programs, {p["name"]: p["digest"] for p in programs}


def _kill_counts(verdicts: dict[int, dict], mutants: dict[int, dict]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Kills per program, and per module and program (test_mutation.py tries the best killers first)."""
    kills: dict[str, int] = {}
    module_kills: dict[str, dict[str, int]] = {}
    for v in verdicts.values():
        if v.get("program"):
            kills[v["program"]] = kills.get(v["program"], 0) + 1
            local = module_kills.setdefault(mutants[v["mutant"]]["module"], {})
            local[v["program"]] = local.get(v["program"], 0) + 1
    return kills, module_kills


def _stall_s(walls: dict[str, float]) -> float:
    """Seconds without progress after which a simulator process counts as stalled: three times every program's reference time."""
    return 3 * sum(walls.values()) + 120


def _died_inside(mutant: int, code: int, stalled: bool) -> dict:
    """The verdict of a mutant inside which the simulator died or stalled: killed by it, and named so."""
    why = "stall" if stalled else f"crash (exit {code})"
    return {"mutant": mutant, "status": "killed", "program": None, "kind": why, "runs": 0, "wall_s": 0,
            "message": f"the simulator {'stopped making progress' if stalled else 'died'} inside this mutant"}  # fmt: skip


def execute(out: Path, meta: dict, walls: dict[str, float], jobs: int, quiet: bool, budget: float | None = None, retry: bool = False,
            cluster: str = "", cluster_config: Path | None = None) -> None:  # fmt: skip
    """Every mutant without an outcome, in tasks of the engine (tb/cluster.py: JOBS workers of an
    embedded cluster, or CLUSTER's), each one simulator process (mutants dealt out in turn); a
    process that dies or stalls inside a mutant is replaced by a new one for the rest.
    With `budget` (seconds of reference time per mutant) mutants that outlast it are left
    `unresolved`; with `retry` the unresolved ones run again, on the programs they have not tried."""
    results = out / "results.jsonl"
    stall = _stall_s(walls)
    _recover(out)
    attempt = len(list(out.glob("shard*_0.jsonl")))  # new log names after an interrupted campaign
    retried: set[int] = set()  # a retry pass runs each unresolved mutant once
    while True:
        verdicts = {x["mutant"]: x for x in _read(results) if "mutant" in x}
        todo = [m["id"] for m in json.loads((out / "mutants.json").read_text(encoding="utf-8"))]
        random.Random(meta["seed"]).shuffle(todo)  # in a random order: what is done at any time is a fair sample
        eq = equivalents()  # argued equivalent: a retry would only spend time on it
        keys = {m["id"]: m["key"] for m in json.loads((out / "mutants.json").read_text(encoding="utf-8"))}
        programs, digests = _programs(meta)
        names = set(digests)
        pending = [k for k in todo if to_run(verdicts.get(k), retry and k not in retried and keys[k] not in eq, digests)]
        skip = {str(k): tried(verdicts[k], digests) for k in pending if k in verdicts}
        seen = {str(k): {n: digests[n] for n in skip[str(k)] if n in digests} for k in pending if k in verdicts}
        if not pending:
            return
        mutants = {m["id"]: m for m in json.loads((out / "mutants.json").read_text(encoding="utf-8"))}
        kills, module_kills = _kill_counts(verdicts, mutants)
        n = max(1, min(jobs, len(pending)))
        if not quiet:
            print(f"mutants: {len(verdicts)} done, {len(pending)} to run ({-(-len(pending) // BATCH_MOST) if len(pending) > n * BATCH_MOST else n} "
                  f"processes, round {attempt})", flush=True)  # fmt: skip
        expected = expected_outcomes(out)
        hints_path = out / "previous" / "hints.json"
        old_kills = json.loads(hints_path.read_text(encoding="utf-8")) if hints_path.exists() else {}
        hints = {str(k): old_kills[keys[k]] for k in pending if keys[k] in old_kills and old_kills[keys[k]] in names}
        # tasks of at most BATCH_MOST mutants, dealt out in turn: one per worker while that holds them
        # all (with the same JOBS, the same processes run the same mutants in the same order)
        n = max(n, -(-len(pending) // BATCH_MOST))
        tags = [f"shard{attempt}_{k}" for k in range(n)]
        work = [Task(_shard_task, (out / tag, {**design("verilator", _files(out), (), (DEFINE,)), "programs": programs, "mutants": pending[k::n],
                                               "log": str(out / f"{tag}.jsonl"), "kills": kills, "walls": walls, "budget_s": budget, "skip": skip,
                                               "modules": {str(i): mutants[i]["module"] for i in pending[k::n]}, "module_kills": module_kills,
                                               "expected": expected, "hints": hints}, stall), len(pending[k::n]), tag)
                for k, tag in enumerate(tags)]  # fmt: skip
        ran = 0

        def take(_: int, result: tuple[int, bool, list[dict]], skip: dict = skip, seen: dict = seen) -> None:
            """One process's verdicts into results.jsonl, written here alone, as its task comes back."""
            nonlocal ran
            code, stalled, lines = result
            with results.open("a", encoding="utf-8") as f:
                for x in lines:
                    if "mutant" in x:
                        x["tried"] = skip.get(str(x["mutant"]), []) + x.get("tried", [])
                        x["seen"] = {**seen.get(str(x["mutant"]), {}), **x.get("seen", {})}
                        x["runs"] = len(x["tried"])
                        retried.add(x["mutant"])
                        ran += 1
                        f.write(json.dumps(x) + "\n")
                        if not quiet:
                            by = f" by {x['program']}" if x.get("program") else ""
                            print(f"  mutant {x['mutant']}: {x['status']}{by} ({x['runs']} runs, {x['wall_s']} s)", flush=True)
                started = [x["start"] for x in lines if "start" in x]
                finished = {x["mutant"] for x in lines if "mutant" in x}
                hanging = [m for m in started if m not in finished]
                if hanging:  # the process died or stalled inside this mutant
                    ran += 1
                    f.write(json.dumps(_died_inside(hanging[0], code, stalled)) + "\n")

        run_tasks(work, take, jobs, cluster, cluster_config, label="mutants", unit="mutant", quiet=quiet)
        if not ran:
            raise RuntimeError(f"round {attempt} of the mutation processes ran no mutant; see {out / tags[0] / 'sim.log'}")
        attempt += 1


def confirm(out: Path, meta: dict, walls: dict[str, float], quiet: bool, jobs: int = 1, cluster: str = "", cluster_config: Path | None = None) -> int:
    """The confirming pass: verdicts that the runs before a mutant can decide run again ALONE, each
    in a fresh simulator process (the simulator's initial state), on every program. In a shared
    process a mutant starts from what the runs before it left: a dropped assignment in a
    combinational block is a latch under its id, which keeps the value of the previous id's last
    evaluation. So a survivor may only have met a lucky value (the decoder's `carry_reg = longf`
    dropped survives after a 64-bit instruction left the latch at 1; `iadd` kills it from 0), and
    a kill of a `drop` mutant may come from an unlucky one (the decoder's `units = {9'd0, field}`
    dropped, killed by cf_guard_self after a short-form constant set `units`, passes it alone).
    Other kinds too: a stuck output (sm_top's `u_mem.ld_we[15]` stuck at 1) was killed by
    cf_barrier in a shared process and passes it alone (state that reset does not clear, left by
    the runs before). So every survivor and every kill runs here (the killing program first: a
    kill that repeats costs one program and a process start). A verdict is final once it says `"alone": true` (with `before`, the shared
    process's status and program); the report counts an unconfirmed survivor as not resolved. A
    verdict without that mark is confirmed on resume. Returns how
    many mutants it ran."""
    results = out / "results.jsonl"
    verdicts = {x["mutant"]: x for x in _read(results) if "mutant" in x}
    mutants = {m["id"]: m for m in json.loads((out / "mutants.json").read_text(encoding="utf-8"))}
    eq = equivalents()  # argued equivalent: the argument does not depend on a run
    programs, digests = _programs(meta)
    todo = [k for k, v in sorted(verdicts.items()) if needs_confirming(v, digests) and mutants[k]["key"] not in eq]
    if not todo:
        return 0
    if not quiet:
        print(f"mutants: confirming pass, {len(todo)} mutant(s) each alone in a fresh process (survivors, kills)", flush=True)
    kills, _ = _kill_counts(verdicts, mutants)  # no module order: the killing program goes first (hints)
    stall = _stall_s(walls)
    expected = expected_outcomes(out)

    def job(k: int) -> tuple[int, dict, dict]:
        before = {"status": verdicts[k]["status"], "program": verdicts[k].get("program"), "runs": verdicts[k].get("runs")}
        hints = {str(k): before["program"]} if before["program"] else {}
        return k, before, {**design("verilator", _files(out), (), (DEFINE,)), "programs": programs, "mutants": [k], "log": str(out / f"alone_{k}.jsonl"),
                           "kills": kills, "walls": walls, "budget_s": None, "skip": {}, "modules": {str(k): mutants[k]["module"]}, "module_kills": {},
                           "expected": expected, "hints": hints}  # fmt: skip

    def take(_: int, result: list[tuple[int, dict, int, bool, list[dict]]]) -> None:
        for k, before, code, stalled, lines in result:
            done = [x for x in lines if x.get("mutant") == k]
            if done:
                x = done[-1]
            elif any(x.get("start") == k for x in lines):  # the simulator died or stalled inside it
                x = _died_inside(k, code, stalled)
            else:
                raise RuntimeError(f"the confirming process of mutant {k} ran nothing; see {out / f'alone_{k}' / 'sim.log'}")
            x.update(alone=True, before=before)
            with results.open("a", encoding="utf-8") as f:
                f.write(json.dumps(x) + "\n")
            if not quiet:
                by = f" by {x['program']}" if x.get("program") else ""
                was = f"{before['status']} by {before['program']}" if before["program"] else before["status"]
                print(f"  mutant {k} alone: {x['status']}{by} ({x['runs']} runs, {x['wall_s']} s; shared process: {was})", flush=True)

    # each mutant alone in a process of its own; a task runs several one after the other, except in
    # this process, where each verdict is kept as soon as it is known
    parts = [[k] for k in todo] if jobs <= 1 and not cluster else batches(todo, max(1, jobs))
    tasks = [Task(_alone_task, (out, [job(k) for k in part], stall), len(part), f"alone_{part[0]}") for part in parts]
    run_tasks(tasks, take, jobs, cluster, cluster_config, label="mutants", unit="mutant", quiet=quiet)
    return len(todo)


def _shard_task(folder: Path, job: dict, stall: float) -> tuple[int, bool, list[dict]]:
    """One task of `execute`: a simulator process on the job's mutants; its exit, whether it
    stalled, and its log's records. A log left by an attempt whose worker was lost is moved aside
    (`_recover` still reads it on resume), so the records come from this attempt alone."""
    log = Path(job["log"])
    if log.exists():
        log.rename(log.with_name(f"{log.stem}.lost-{uuid.uuid4().hex[:8]}.jsonl"))
    code, stalled = spawn(folder, job, stall)
    return code, stalled, _read(log)


def _alone_task(out: Path, jobs: list[tuple[int, dict, dict]], stall: float) -> list[tuple[int, dict, int, bool, list[dict]]]:
    """One task of `confirm`: each mutant in a fresh simulator process, one after the other."""
    done = []
    for k, before, job in jobs:
        log = Path(job["log"])
        log.unlink(missing_ok=True)  # an interrupted confirmation starts over: it must cover every program in one process
        code, stalled = spawn(out / f"alone_{k}", job, stall)
        done.append((k, before, code, stalled, _read(log)))
    return done


def needs_confirming(verdict: dict, programs: dict[str, str]) -> bool:
    """Not confirmed alone yet, and either a survivor of every program in its present text or a
    kill by a program (confirm; a simulator that died inside the mutant is not rerun)."""
    if verdict.get("alone"):
        return False
    if verdict["status"] == "killed":
        return verdict.get("program") is not None
    return verdict["status"] == "survived" and set(programs) <= set(tried(verdict, programs))


def _recover(out: Path) -> None:
    """Verdicts that processes of an interrupted campaign wrote to their logs, into results.jsonl."""
    results = out / "results.jsonl"
    known = {(x["mutant"], x["status"]) for x in _read(results) if "mutant" in x}
    with results.open("a", encoding="utf-8") as f:
        for log in sorted(out.glob("shard*.jsonl")):
            for x in _read(log):
                if "mutant" in x and (x["mutant"], x["status"]) not in known:
                    known.add((x["mutant"], x["status"]))
                    f.write(json.dumps(x) + "\n")


def equivalents() -> dict[str, str]:
    if not EQUIVALENT.exists():
        return {}
    data = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8"))
    return {k: v["reason"] for k, v in data.items()}


def report(out: Path) -> str:
    """Markdown: per module killed / survived / equivalent and the score; survivors listed."""
    mutants = {m["id"]: m for m in json.loads((out / "mutants.json").read_text(encoding="utf-8"))}
    verdicts = {x["mutant"]: x for x in _read(out / "results.jsonl")}
    meta = json.loads((out / "campaign.json").read_text(encoding="utf-8"))
    eq = equivalents()
    rows: dict[str, dict[str, int]] = {}
    survivors, killers = [], {}
    unconfirmed = 0
    for mid, m in mutants.items():
        v = verdicts.get(mid)
        status = "pending" if v is None else v["status"]
        if status in ("survived", "unresolved") and m["key"] in eq:  # cannot be killed: no need to run it everywhere
            status = "equivalent"
        elif status == "survived" and not v.get("alone"):  # not final until it survived alone (confirm): not resolved yet
            status = "unresolved"
            unconfirmed += 1
        r = rows.setdefault(m["module"], {"mutants": 0, "killed": 0, "survived": 0, "equivalent": 0, "unresolved": 0, "pending": 0})
        r["mutants"] += 1
        r[status] += 1
        if status == "survived":
            survivors.append(m)
        if status == "equivalent":
            m = {**m, "reason": eq[m["key"]]}
        if v and v.get("program"):
            killers[v["program"]] = killers.get(v["program"], 0) + 1
    total = {k: sum(r[k] for r in rows.values()) for k in ("mutants", "killed", "survived", "equivalent", "unresolved", "pending")}

    def score(r: dict[str, int]) -> str:
        """killed / (mutants - equivalent), over the mutants with an outcome (unresolved: the quick pass only)."""
        base = r["mutants"] - r["equivalent"] - r["pending"] - r["unresolved"]
        return f"{100 * r['killed'] / base:.1f}%" if base else "-"

    lines = [f"# Mutation score ({meta['mutants']} mutants of {meta['candidates']} candidates, seed {meta['seed']}; "
             f"{meta['directed']} directed + {len(meta['programs']) - meta['directed']} random programs)", "",
             "| module | mutants | killed | survived | equivalent | unresolved | pending | score |", "|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name in sorted(rows):
        r = rows[name]
        lines.append(
            f"| {name} | {r['mutants']} | {r['killed']} | {r['survived']} | {r['equivalent']} | {r['unresolved']} | {r['pending']} | {score(r)} |"
        )
    lines.append(
        f"| **all** | {total['mutants']} | {total['killed']} | {total['survived']} | {total['equivalent']} | {total['unresolved']} | {total['pending']} "
        f"| **{score(total)}** |"
    )
    base = total["mutants"] - total["equivalent"] - total["pending"]
    if total["unresolved"] and base:
        lines += ["", f"unresolved: not killed within the per-mutant time budget of the passes, not run on every program, or a survivor not yet "
                      f"confirmed alone; the score leaves them out. "
                      f"Counting them as survivors: {100 * total['killed'] / base:.1f}%"]  # fmt: skip
    alone = [v for v in verdicts.values() if v.get("alone")]
    was_survivor = [v for v in alone if v.get("before", {}).get("status", "survived") != "killed"]
    was_killed = [v for v in alone if v.get("before", {}).get("status") == "killed"]
    confirming = {
        "survivors": len(was_survivor),
        "survivors_killed": sum(v["status"] == "killed" for v in was_survivor),
        "kills": len(was_killed),
        "kills_same_program": sum(v["status"] == "killed" and v.get("program") == v["before"]["program"] for v in was_killed),
        "kills_other_program": sum(v["status"] == "killed" and v.get("program") != v["before"]["program"] for v in was_killed),
        "kills_survived": sum(v["status"] == "survived" for v in was_killed),
    }
    lines += ["", f"Confirming pass (alone, each in a fresh simulator process, on every program): survivors of the shared processes "
                  f"{confirming['survivors']}, killed alone {confirming['survivors_killed']}; kills {confirming['kills']}, "
                  f"killed alone by the same program {confirming['kills_same_program']}, by another {confirming['kills_other_program']}, "
                  f"survived alone {confirming['kills_survived']}"]  # fmt: skip
    if unconfirmed:
        lines.append(
            f"{unconfirmed} survivor(s) of the shared processes not yet confirmed alone: counted unresolved (`make mutants` runs the confirming pass)"
        )
    kinds: dict[str, int] = {}
    for v in verdicts.values():
        if v["status"] == "killed":
            kinds[v["kind"] or "?"] = kinds.get(v["kind"] or "?", 0) + 1
    lines += ["", "Killed by: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda x: -x[1]))]
    # the shared processes' count where the verdict was confirmed alone (which runs the killing program first)
    runs = [v.get("before", {}).get("runs") or v["runs"] for v in verdicts.values() if v["status"] == "killed" and v["runs"]]
    if runs:
        lines.append(
            f"Programs run per killed mutant (in the shared processes where known): mean {sum(runs) / len(runs):.1f}, median {sorted(runs)[len(runs) // 2]}, max {max(runs)}"
        )
    lines.append("Top killing programs: " + ", ".join(f"{p} {n}" for p, n in sorted(killers.items(), key=lambda x: -x[1])[:10]))
    if meta.get("sessions"):
        ss = meta["sessions"]
        lines.append(f"Time: {len(ss)} session(s) of `make mutants`, wall {sum(x['wall_s'] for x in ss):.0f} s, "
                     f"CPU {sum(x['cpu_s'] for x in ss):.0f} s (the campaign and its simulator processes, builds included)")  # fmt: skip
    if meta.get("dropped"):
        lines.append(f"Left out (did not compile): {len(meta['dropped'])}")
    lines += ["", "## Survivors", "", "| id | where | module | change | key |", "|---:|---|---|---|---|"]
    for m in survivors:
        lines.append(f"| {m['id']} | {m['file']}:{m['line']} | {m['module']} | {m['kind']} `{m['original']}` -> `{m['mutated']}` | `{m['key']}` |")
    eqs = [m for m in mutants.values() if m["key"] in eq and verdicts.get(m["id"], {}).get("status") in ("survived", "unresolved")]
    if eqs:
        lines += ["", "## Equivalent (tb/mutation/equivalent.toml)", ""]
        lines += [f"- {m['id']} {m['file']}:{m['line']} {m['kind']} `{m['original']}` -> `{m['mutated']}`: {eq[m['key']]}" for m in eqs]
    stale = sorted(set(eq) - {m["key"] for m in mutants.values()})
    if stale:
        lines += ["", f"Keys of equivalent.toml not among this campaign's mutants (not drawn, or the RTL changed): {len(stale)}"]
    text = "\n".join(lines) + "\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    (out / "summary.json").write_text(json.dumps({"modules": rows, "total": total, "score": score(total), "survivors": [m["id"] for m in survivors],
                                                   "confirming": confirming}, indent=1),
                                      encoding="utf-8")  # fmt: skip
    return text


def run_campaign(
    out: Path,
    n: int,
    seed: int,
    random_spec: str,
    jobs: int = 1,
    quick: float = 0,
    second: bool = True,
    second_budget: float = 0,
    quiet: bool = False,
    cluster: str = "",
    cluster_config: Path | None = None,
) -> str:
    t0 = time.perf_counter()
    check_cluster(cluster, cluster_config, jobs)  # a bad CLUSTER, JOBS or CLUSTER_CONFIG before the draw and the build
    meta = prepare(out, n, seed, random_spec)
    if not quiet:
        print(f"mutants: {meta['mutants']} of {meta['candidates']} candidates, {len(meta['programs'])} programs; building", flush=True)
    build("verilator", mutate.TOPLEVEL, _files(out), (), False, (DEFINE,))
    walls = reference(out, meta, quiet)
    if quick:  # every mutant on the programs that fit in `quick` seconds first, then the rest of the unresolved ones
        execute(out, meta, walls, jobs, quiet, quick, cluster=cluster, cluster_config=cluster_config)
    if second:
        execute(out, meta, walls, jobs, quiet, second_budget or None, retry=True, cluster=cluster, cluster_config=cluster_config)
    confirm(out, meta, walls, quiet, jobs, cluster, cluster_config)
    # the time of this session (a resumed campaign adds one): wall, and CPU of this process and the
    # simulator processes it waited for (builds included)
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    meta = json.loads((out / "campaign.json").read_text(encoding="utf-8"))
    meta.setdefault("sessions", []).append({"wall_s": round(time.perf_counter() - t0, 1),
                                            "cpu_s": round(own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime, 1)})  # fmt: skip
    (out / "campaign.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    text = report(out)
    if not quiet:
        print(text)
        print(f"mutants: {time.perf_counter() - t0:.0f} s; report {out / 'report.md'}")
    return text


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    p = OneLineParser(prog="python -m tb.mutation", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("-n", type=int, default=300, help="mutants drawn from the candidates (0: all)")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--random", default=DEFAULT_RANDOM, help='random tier: "preset:count,..."')
    r.add_argument("-o", "--out", type=Path, default=OUT)
    r.add_argument("--jobs", type=int, default=1, help="workers of the embedded Dask cluster (simulator processes at once; 1: in this process), "
                   "or workers asked of a batch system (tb/cluster.py)")
    r.add_argument("--cluster", default="", help="empty: embedded; tcp://host:port: a running Dask scheduler; slurm, lsf, sge or pbs: workers "
                   "through dask-jobqueue (docs/guides/cluster.md)")
    r.add_argument("--cluster-config", type=Path, help="the TOML file of the batch system's options (cores, memory, walltime, queue, ...)")
    r.add_argument("--quick", type=float, default=60, help="first pass: each mutant on the programs that fit in this many seconds (0: no first pass)")
    r.add_argument("--no-second-pass", action="store_true", help="leave the mutants the quick pass did not resolve unresolved")
    r.add_argument("--second-budget", type=float, default=0, help="second pass: at most this many seconds of programs per mutant (0: all of them)")
    rep = sub.add_parser("report")
    rep.add_argument("out", type=Path, nargs="?", default=OUT)
    c = sub.add_parser("candidates", help="count the candidates per module and kind")
    c.add_argument("--list", action="store_true")
    s = sub.add_parser("shard", help=argparse.SUPPRESS)
    s.add_argument("job", type=Path)
    return p


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    a = p.parse_args(argv)
    return guarded("mutants", lambda: _main(a), lambda: f"the mutants that finished are kept in {a.out}; run the same command again to resume")


def _main(a: argparse.Namespace) -> int:
    try:
        if a.cmd == "run":
            run_campaign(a.out.resolve(), a.n, a.seed, a.random, a.jobs, a.quick, second=not a.no_second_pass, second_budget=a.second_budget,
                         cluster=a.cluster, cluster_config=a.cluster_config)  # fmt: skip
        elif a.cmd == "report":
            print(report(a.out))
        elif a.cmd == "shard":
            return shard_main(a.job)
        else:
            cands = mutate.candidates()
            table: dict[str, dict[str, int]] = {}
            for x in cands:
                table.setdefault(x.module, {}).setdefault(x.kind, 0)
                table[x.module][x.kind] += 1
                if a.list:
                    print(f"{x.file}:{x.line} {x.kind} {x.original!r} -> {x.mutated!r} {x.key}")
            for mod, kinds in sorted(table.items()):
                print(f"{mod:14s} " + " ".join(f"{k} {kinds.get(k, 0)}" for k in mutate.KINDS))
            print(f"total {len(cands)}")
    except UserError:
        raise
    except ValueError as exc:
        raise UserError(str(exc)) from None
    except RuntimeError as exc:
        raise UserError(str(exc), 1) from None
    return 0
