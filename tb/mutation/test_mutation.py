"""cocotb test module of a mutation campaign: many mutants, many programs, one simulator process.

Started by tb/mutation/campaign.py on the instrumented build (tb/mutation/mutate.py), never by
hand (nor randgen's batches: `python -m randgen batch`, the plain RTL, every program once). The job (a JSON file named by `+mutation_job=PATH`) lists the programs (a lock-step
configuration each) and the mutant ids. For each mutant the id goes into `sm_top.mut_sel` (a VPI
deposit, before the reset of each run) and the programs run in lock-step one after the other
(tb/faults/test_campaign.py's run loop: reset, load, launch, compare) until the first one that
fails: the mutant is killed there. A mutant that every program passes survived. A program of
programs/bad (its name starts with `bad/`) passes when the RTL stops as the reference run (id 0)
stopped (same kind of error, block, warp, PC, message and what the model says there; the job's
`expected`), and kills a mutant that lets it run to the end or stops it otherwise.

Programs that killed mutants are tried first for the next ones (kills of mutants of the same
module, then kills, then their time), so a killed mutant usually costs one or two programs. With a budget (the campaign's quick pass) a
mutant stops after the programs that fit in it (by their reference time) and is `unresolved`;
the second pass runs it on the programs it has not tried (`skip`). After a kill the killing program runs once more
with id 0: when the unmutated design fails it too, state left by the mutant would spoil the runs
after it, and this process stops (the campaign starts a new one for the remaining mutants).

Each outcome is one JSON line of the job's log; a `start` line goes first, so that a simulator
that dies inside a mutant (a combinational loop that does not settle) names it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cocotb
from cocotb.triggers import Timer

from tb.config import LockstepConfig
from tb.faults.test_campaign import FaultRun, run_one
from tb.mutation.campaign import outcome


async def run_program(dut, config: LockstepConfig, mutant: int) -> dict:
    if mutant or hasattr(dut, "mut_sel"):  # the plain RTL (randgen's batches) has no mutant id
        dut.mut_sel.value = mutant
        await Timer(1, "ns")
    FaultRun.config_obj = config
    return await run_one(None)


@cocotb.test()
async def mutation(dut) -> None:
    job = json.loads(Path(cocotb.plusargs["mutation_job"]).read_text(encoding="utf-8"))
    programs = [(p["name"], LockstepConfig.read(Path(p["config"]))) for p in job["programs"]]
    # the reference outcome of each program of programs/bad (None, i.e. pass, for every other one)
    expected: dict[str, dict | None] = dict(job.get("expected", {}))
    digests = {p["name"]: p.get("digest") for p in job["programs"]}  # each program's text (campaign.program_digest)
    hints: dict[str, str] = dict(job.get("hints", {}))  # mutant id -> the program that killed its key on an earlier RTL
    kills: dict[str, int] = dict(job.get("kills", {}))
    walls: dict[str, float] = dict(job.get("walls", {}))
    modules: dict[str, str] = dict(job.get("modules", {}))  # mutant id -> its module
    module_kills: dict[str, dict[str, int]] = {m: dict(k) for m, k in job.get("module_kills", {}).items()}
    log = Path(job["log"])
    with log.open("a", encoding="utf-8") as out:

        def write(record: dict) -> None:
            out.write(json.dumps(record) + "\n")
            out.flush()

        if job.get("reference"):  # id 0 on every program: the instrumented design must pass them all (also randgen's batches)
            for name, config in programs:
                r = await run_program(dut, config, 0)
                rep = r["report"]
                # a bad program's outcome is recorded; the campaign judges it (campaign.reference)
                write({"reference": name, "passed": rep is None, "wall_s": r["wall_s"], "cycles": r["cycles"], "commits": r["commits"],
                       "message": rep["message"] if rep else None, "outcome": outcome(rep), "digest": digests[name]})  # fmt: skip
                if rep is not None and job.get("stop"):
                    return
            return
        for mutant in job["mutants"]:
            write({"start": mutant})
            t0 = time.perf_counter()
            skip = set(job.get("skip", {}).get(str(mutant), []))
            module = modules.get(str(mutant), "")
            local = module_kills.setdefault(module, {})
            hint = hints.get(str(mutant))
            order = sorted(
                (p for p in programs if p[0] not in skip),
                key=lambda p: (p[0] != hint, -local.get(p[0], 0), -kills.get(p[0], 0), walls.get(p[0], 0.0), p[0]),
            )
            verdict: dict = {"mutant": mutant, "status": "survived", "runs": 0, "tried": [], "seen": {}}
            budget = job.get("budget_s")
            for name, config in order:
                if budget is not None and sum(walls.get(n, 0.0) for n in verdict["tried"]) + walls.get(name, 0.0) > budget and verdict["tried"]:
                    verdict["status"] = "unresolved"  # the quick pass's time is up: the rest in the second pass
                    break
                r = await run_program(dut, config, mutant)
                verdict["runs"] += 1
                verdict["tried"].append(name)
                verdict["seen"][name] = digests.get(name)  # the text it ran (campaign.tried)
                rep = r["report"]
                want = expected.get(name)
                if outcome(rep) != want:  # a failure, or a bad program that does not stop the RTL as it did unmutated
                    kills[name] = kills.get(name, 0) + 1
                    local[name] = local.get(name, 0) + 1
                    if rep is None:  # only a bad program gets here: the RTL ran it to the end
                        assert want is not None
                        rep = {"kind": "missed_error", "message": f"the RTL did not stop; unmutated it stops with {want['kind']}: {want['message']}"}
                    elif want is not None:
                        verdict["outcome"] = outcome(rep)  # how it stopped instead
                        rep = {**rep, "kind": f"other_{rep['kind']}" if rep["kind"] == want["kind"] else rep["kind"]}
                    fields = sorted({d["field"].split("[")[0] for d in rep.get("diffs") or []})
                    verdict.update(status="killed", program=name, kind=rep.get("kind"), fields=fields, message=(rep.get("message") or "")[:300])
                    break
            verdict["wall_s"] = round(time.perf_counter() - t0, 2)
            if verdict["status"] == "killed":
                control = await run_program(dut, dict(order)[verdict["program"]], 0)
                verdict["control_passed"] = outcome(control["report"]) == expected.get(verdict["program"])
            write(verdict)
            if not verdict.get("control_passed", True):
                return  # state left by the mutant: a fresh process for the rest (module docstring)
