"""cocotb test module of a fault campaign: many faults in one simulation (tb/faults/campaign.py starts it).

A new simulator process per fault would spend most of its time starting (building the model,
loading the VPI library, elaborating); here one process runs every fault of its shard in a loop.
Each fault is one pyuvm test (`FaultRun`, the lock-step test of tb/sm_env.py) run by
`uvm_root().run_test`: reset, load, launch, and at the planned kernel cycle the fault goes in
through a cocotb handle (a VPI deposit, which Verilator's `--public-flat-rw` build and Icarus both
honour). The lock-step scoreboard stops the test at the first divergence (or the RTL's error, or
the watchdog); a fault without one runs to the end, where the final memory is compared. The BFM's
tasks are then stopped, the outcome classified (tb/faults/classify.py) and written to the
campaign's database.

Fault models: `seu` flips the bit once, between two clock edges. `stuck0`/`stuck1` hold it from
the injection cycle to the end of the run: Verilator cannot force a signal over VPI (cocotb issue
3831), so the testbench deposits the stuck value again right after every rising edge (ReadWrite
phase, before the monitors sample in ReadOnly), on both simulators alike. Within a clock period
a flip-flop's output is then the stuck value wherever it is sampled; the price is waking Python
once per cycle for the fault's duration (the campaign report gives the faults per minute).

A memory word that no reset clears (register file, shared memory) would carry the flipped bit
into the next fault's run: after each run the word is written back to its value before the
injection when it still holds the faulty value.
"""

from __future__ import annotations

import contextlib
import json
import time
import warnings
from pathlib import Path
from typing import ClassVar

import cocotb
from cocotb.triggers import ReadWrite, RisingEdge, Timer
from pyuvm import ConfigDB, uvm_root

from tb.config import CONFIG_KEY, LockstepConfig
from tb.faults.classify import classify
from tb.faults.db import CampaignDB, Fault
from tb.sm_env import PERIOD_NS, LockstepTest

warnings.filterwarnings("ignore", message=r".*kill\(\)` is deprecated")  # cocotb-bus' Monitor.kill on cocotb 2
INJECT_NS = 3  # into the clock period: away from both edges (rising edges at multiples of PERIOD_NS)


def site_handle(dut, path: str, word: int | None):
    """The cocotb handle of `path` under the top level ('u_sched.w_pc', 'lanes[0].u_alu.x'), element `word` of an array."""
    h = dut
    for part in path.split("."):
        if part.endswith("]") and "[" in part:
            name, index = part[:-1].split("[")
            h = getattr(h, name)[int(index)]
        else:
            h = getattr(h, part)
    return h[word] if word is not None else h


def _flip(value, bit: int, stuck: int | None):
    """The word with `bit` flipped (stuck None) or set to `stuck`; a word with X/Z bits (Icarus) as a string."""
    try:
        v = int(value)
    except ValueError:
        s = list(str(value))
        i = len(s) - 1 - bit
        s[i] = ("1" if s[i] == "0" else "0" if s[i] == "1" else s[i]) if stuck is None else str(stuck)
        return "".join(s), str(value)
    if stuck is None:
        return v ^ (1 << bit), v
    return (v | (1 << bit)) if stuck else (v & ~(1 << bit)), v


class FaultRun(LockstepTest):
    """The lock-step test with one fault injected (the fault and the settings are class attributes set before each run)."""

    config_obj: LockstepConfig
    fault: Fault | None = None
    words: ClassVar[dict[str, int]] = {}  # site path -> number of words (1: a vector, no index)
    low: ClassVar[dict[str, int]] = {}
    last: FaultRun | None = None

    def build_phase(self) -> None:
        ConfigDB().set(None, "*", CONFIG_KEY, FaultRun.config_obj)
        FaultRun.last = self
        self.injected: tuple | None = None
        super().build_phase()

    async def _until_end(self) -> None:
        if self.fault is not None:
            self.injector = cocotb.start_soon(self._inject(self.fault))
        await super()._until_end()

    async def _inject(self, f: Fault) -> None:
        now_ns = self.env.cycles.now() * PERIOD_NS
        target = (self.start_cycle + f.cycle) * PERIOD_NS + INJECT_NS
        if target > now_ns:
            await Timer(target - now_ns, "ns")
        word = self.low.get(f.site, 0) + f.word if self.words.get(f.site, 1) > 1 else None
        h = site_handle(self.dut, f.site, word)
        stuck = None if f.model == "seu" else int(f.model[-1])
        new, old = _flip(h.value, f.bit, stuck)
        h.value = new
        self.injected = (h, old, new)
        if stuck is None:
            return
        clk = self.dut.clk
        while True:  # stuck-at: deposit again after every edge, before anything samples (module docstring)
            await RisingEdge(clk)
            await ReadWrite()
            h.value = _flip(h.value, f.bit, stuck)[0]

    def check_phase(self) -> None:
        with contextlib.suppress(AssertionError):  # the verdict's report is the outcome here, not a test failure
            super().check_phase()

    def outcome(self) -> dict:
        sb = self.env.scoreboard
        report = json.loads(self.verdict.report.to_json()) if self.verdict.report else None
        if report is not None and report.get("cycle") is not None:
            report["cycle"] -= self.start_cycle  # kernel cycles, like the injection's
        end = self.done_cycle if self.done_cycle is not None else self.env.cycles.now()
        return {"report": report, "cycles": end - self.start_cycle, "commits": sb.compared}

    def cleanup(self) -> None:
        if getattr(self, "injector", None) is not None and not self.injector.done():
            self.injector.cancel()
        self.env.bfm.stop()
        if self.injected is not None:
            h, old, new = self.injected
            f = self.fault
            assert f is not None
            with contextlib.suppress(ValueError):  # X/Z in the word (Icarus): left as it is
                if f.model == "seu":
                    if int(h.value) == int(new):
                        h.value = old
                else:  # the stuck bit back to its value before the injection
                    h.value = _flip(h.value, f.bit, int(old) >> f.bit & 1)[0]


async def run_one(fault: Fault | None) -> dict:
    FaultRun.fault = fault
    t0 = time.perf_counter()
    await uvm_root().run_test(FaultRun)
    test = FaultRun.last
    assert test is not None
    out = test.outcome()
    await Timer(1, "ns")  # out of the read-only phase the run ended in: the cleanup writes
    test.cleanup()
    out["wall_s"] = time.perf_counter() - t0
    return out


@cocotb.test()
async def campaign(dut) -> None:
    job = json.loads(Path(cocotb.plusargs["faults_job"]).read_text(encoding="utf-8"))
    FaultRun.config_obj = LockstepConfig.read(Path(job["config"]))
    FaultRun.words, FaultRun.low = job["words"], job["low"]
    log = Path(job["log"])
    if job.get("reference"):  # the fault-free run: cycles, commits, final memory (compared by the run itself)
        out = await run_one(None)
        log.write_text(json.dumps(out) + "\n", encoding="utf-8")
        assert out["report"] is None, f"the fault-free reference run fails: {out['report']['message']}"
        return
    db = CampaignDB(Path(job["db"]))
    ref_cycles = int(db.meta()["ref_cycles"])
    faults = db.pending(job["shard"], job["shards"], job.get("ids"))
    with log.open("a", encoding="utf-8") as lines:
        for f in faults:
            out = await run_one(f)
            outcome, group, field = classify(out["report"], out["cycles"], ref_cycles)
            r = out["report"] or {}
            values = {"outcome": outcome, "grp": group, "field": field, "kind": r.get("kind"), "message": r.get("message"), "warp": r.get("warp"),
                      "pc": r.get("pc"), "insn": r.get("text"), "div_cycle": r.get("cycle"), "cycles": out["cycles"], "commits": out["commits"],
                      "wall_s": out["wall_s"], "shard": job["shard"]}  # fmt: skip
            lines.write(json.dumps({"id": f.id, **values}) + "\n")
            lines.flush()
            if job.get("record", True):
                db.record(f.id, **values)
        # the same process, fault-free, after every fault: a state the resets left behind would show here
        out = await run_one(None)
        lines.write(json.dumps({"control": True, "passed": out["report"] is None, "cycles": out["cycles"]}) + "\n")
        assert out["report"] is None, f"the fault-free control run after the faults fails: {out['report']['message']}"
    db.close()
