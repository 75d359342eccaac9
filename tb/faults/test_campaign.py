"""cocotb test module of a fault campaign: many faults in one simulation (tb/faults/campaign.py starts it).

A new simulator process per fault would spend most of its time starting (building the model,
loading the VPI library, elaborating); here one process runs every fault of its shard in a loop.
Each fault is one pyuvm test (`FaultRun`, the lock-step test of tb/sm_env.py) run by
`uvm_root().run_test`: reset, load, launch, and at the planned kernel cycle the fault goes in
through a cocotb handle (a VPI deposit, which Verilator's `--public-flat-rw` build and Icarus both
honour). The lock-step scoreboard stops the test at the first divergence (or the RTL's error, or
the watchdog); a fault without one runs to the end, where the final memory is compared. The BFM's
tasks are then stopped, the outcome classified (tb/faults/classify.py) and written to the
campaign's log, which the task of tb/faults/campaign.py hands back to the one writer of the database.

Fault models: `seu` flips the bit once, between two clock edges. `stuck0`/`stuck1` hold it from
the injection cycle to the end of the run: Verilator cannot force a signal over VPI (cocotb issue
3831), so the testbench deposits the stuck value again right after every rising edge (ReadWrite
phase, before the monitors sample in ReadOnly), on both simulators alike. Within a clock period
a flip-flop's output is then the stuck value wherever it is sampled; the price is waking Python
once per cycle for the fault's duration (the campaign report gives the faults per minute).

A memory word that no reset clears (register file, shared memory) would carry the flipped bit
into the next fault's run: after each run the word is written back to its value before the
injection when it still holds the faulty value.

Early stop (SEU): a fault whose run has converged back to the fault-free run cannot change its
classification any more; its run stops there as masked instead of simulating to the end. Each
shard first runs the program fault-free in its own process and records, at checkpoints spread over
the run (kernel cycles, mid-period, read-only phase): the value of every faulted word of the
shard, every word of the small state (flip-flops and arrays under LARGE words: pipeline
registers, warp table, SIMT stacks, ...), the number of commits compared and a digest of every
memory request served so far (address, data, cycle: with the seeded latency generator it fixes
the testbench's memory and its pending responses). A faulty run, at each checkpoint after its
injection, compares its faulted word first (one read; a flip still present or propagated into it
ends the check) and then the rest; all equal means the DUT, the testbench and the golden model are
in the fault-free run's state at that cycle, so the rest of the run is the fault-free one. The
large arrays (register file, flag and address registers, shared, constant and instruction memory)
are not re-read but for the faulted word: during a kernel they are written only by instructions
whose results the scoreboard compares at commit, so a divergent write into them fails the run
before it can converge. `stop: verify` checks that argument by experiment: the criterion is
evaluated and its cycle recorded, but the run goes on to the end (every such fault must end
masked, tests/test_faults.py), which also gives the saving against running every fault to
completion. Stuck-at faults never stop early: the held bit can differ again later.

Memory words (the fast engine, `ENGINE=fast`, the default on Verilator): most of the SM's state
bits are words of its large arrays (constant, shared and instruction memory), and most of those
words are never touched by a given kernel, yet each such fault cost a whole lock-step run. The
recording run also samples, twice a cycle, the index of every access of each large array whose
indices tb/faults/memreads.py could turn into expressions of signals (reads and writes alike,
enabled or not), and keeps the last kernel cycle at which each faulted word was selected. A fault
in a word that no access selects from its injection cycle on (SEU or stuck-at) cannot reach any
other state, output or the testbench: its run is the fault-free run with one stored bit different
(which the checkpoints, comparing the faulted word, never find converged), so its row is written
without simulating it: masked, the reference's cycles and commits, no early stop. A word that is
selected after the injection is simulated as by the cocotb engine, from reset. tests/test_faults_fast.py
runs one campaign both ways and compares the rows.
"""

from __future__ import annotations

import contextlib
import cProfile
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import ReadOnly, ReadWrite, RisingEdge, Timer
from pyuvm import ConfigDB, uvm_root

from tb.config import CONFIG_KEY, LockstepConfig
from tb.faults.classify import classify
from tb.faults.db import Fault
from tb.faults.memreads import LARGE, compiled
from tb.kernels import keep_programs
from tb.sm_env import PERIOD_NS, LockstepTest

INJECT_NS = 3  # into the clock period: away from both edges (rising edges at multiples of PERIOD_NS)
CHECK_NS = 7  # checkpoints: later in the period than the injection, away from the edges too


_SCOPES: dict[str, dict[str, object]] = {}  # GHDL scope path -> its children by name


def site_handle(dut, path: str, word: int | None):
    """The cocotb handle of `path` under the top level ('u_sched.w_pc', 'lanes[0].u_alu.x'), element `word` of an array."""
    h = dut
    if "(" in path:
        # GHDL names a generate block's iteration gloop(3), and cocotb's look-up by name does not
        # find what is below one: each scope is searched the way walk_signals found it, by
        # iteration (once per scope and process)
        scope = ""
        for part in path.split("."):
            if scope not in _SCOPES:
                _SCOPES[scope] = {c._name: c for c in h}
            h = _SCOPES[scope].get(part)
            if h is None:
                raise AttributeError(f"no {part} on the way to {path}")
            scope = f"{scope}.{part}"
        return h[word] if word is not None else h
    for part in path.split("."):
        if part.endswith("]") and "[" in part:  # a generate block's iteration as Verilator names it: lanes[0]
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


def _word(path: str, word: int, words: dict[str, int], low: dict[str, int]) -> int | None:
    return low.get(path, 0) + word if words.get(path, 1) > 1 else None


def _reader(handle) -> Callable[[], str]:
    """The raw read of a signal's bits as a string, the simulator's call behind `handle.value`. A
    recording run reads every word of the small state at each of its checkpoints (some 2,400 words
    at 8 SPs, 64 times); building a LogicArray for each read and printing it again cost three times
    the read itself, the largest part of a task's fixed cost on a short kernel. The recorded and
    the compared values are both read this way, so they are the same strings for the same bits."""
    return handle._handle.get_signal_val_binstr


class Checkpoints:
    """The fault-free state at checkpoint cycles, recorded in the shard's own process, and the
    comparison of a faulty run with it (module docstring, "Early stop")."""

    def __init__(self, dut, cycles: list[int], words: dict[str, int], low: dict[str, int], watched: list[tuple[str, int]]) -> None:
        self.cycles = cycles
        self.small = []  # (path, handles): every word of the small state, flip-flops first (a propagated flip shows there soonest)
        for path in sorted((p for p, n in words.items() if n < LARGE), key=lambda p: (words[p], p)):
            handle = site_handle(dut, path, None)
            self.small.append((path, [handle] if words[path] == 1 else [handle[low.get(path, 0) + i] for i in range(words[path])]))
        self.reads = [_reader(h) for _, hs in self.small for h in hs]  # the same words, flat, in the same order
        self.watched = {(path, w): _reader(site_handle(dut, path, _word(path, w, words, low))) for path, w in watched}
        self.reference: dict[int, tuple[dict[tuple[str, int], str], list[str], tuple[int, str]]] = {}

    def _small(self) -> list[str]:
        return [read() for read in self.reads]

    def record(self, cycle: int, tb: tuple[int, str]) -> None:
        self.reference[cycle] = ({k: read() for k, read in self.watched.items()}, self._small(), tb)

    def same(self, cycle: int, faulted: tuple[str, int], tb: tuple[int, str]) -> bool:
        watched, small, ref_tb = self.reference[cycle]
        if self.watched[faulted]() != watched[faulted] or tb != ref_tb:
            return False
        return all(read() == v for read, v in zip(self.reads, small, strict=True))

    def keep_final(self) -> None:
        """The small state at the end of the fault-free run: where every run after a full fault-free one starts from."""
        self.final = self._small()

    def restore(self) -> int:
        """Back to the fault-free final state after a run that did not end like the fault-free one
        (diverged, or stopped early): flip-flops that no reset clears keep their value into the next
        run, and a leftover difference there would keep that run from ever matching a checkpoint."""
        changed = 0
        handles = (h for _, hs in self.small for h in hs)
        for h, read, v in zip(handles, self.reads, self.final, strict=True):
            if read() != v and set(v) <= {"0", "1"}:
                h.value = int(v, 2)
                changed += 1
        return changed


class Accesses:
    """When the fault-free run selected the faulted words of the large arrays (module docstring,
    "Memory words"): the last kernel cycle at which an access of the array indexed each such word."""

    def __init__(self, dut, expressions: dict[str, list], watched: dict[str, set[int]]) -> None:
        self.expressions = {path: es for path, es in expressions.items() if path in watched}
        self.watched = watched
        # each array's indices in one compiled function, and every signal they read, read once a sample
        self.indices = {path: compiled(es) for path, es in self.expressions.items()}
        leaves = sorted({leaf for _, used in self.indices.values() for leaf in used})
        self.reads = {path: _reader(site_handle(dut, path, None)) for path in leaves}
        self.last: dict[str, dict[int, int]] = {path: {} for path in self.expressions}
        self.first = None  # the first kernel cycle sampled in both of its phases: earlier injections are simulated

    def sample(self, cycle: int) -> None:
        values = {path: int(read(), 2) for path, read in self.reads.items()}  # Verilator: no x/z bits
        for path, (indices, used) in self.indices.items():
            last = self.last[path]
            for index in self.watched[path].intersection(indices([values[leaf] for leaf in used])):
                last[index] = cycle

    def untouched(self, path: str, index: int, cycle: int) -> bool:
        """No access selected word `index` of `path` at kernel cycle `cycle` or later."""
        if path not in self.expressions or self.first is None or cycle < self.first:
            return False
        return self.last[path].get(index, -1) < cycle


class FaultRun(LockstepTest):
    """The lock-step test with one fault injected (the fault and the settings are class attributes set before each run)."""

    config_obj: LockstepConfig
    fault: Fault | None = None
    words: ClassVar[dict[str, int]] = {}  # site path -> number of words (1: a vector, no index)
    low: ClassVar[dict[str, int]] = {}
    last: FaultRun | None = None
    checkpoints: Checkpoints | None = None
    accesses: Accesses | None = None  # the fast engine's memory-word shortcut (module docstring, "Memory words")
    recording = False  # the fault-free run of a shard that records the checkpoints
    stop_mode = "early"  # early: stop a converged run; verify: record where, run on to the end; off: no checkpoints

    def build_phase(self) -> None:
        ConfigDB().set(None, "*", CONFIG_KEY, FaultRun.config_obj)
        FaultRun.last = self
        self.injected: tuple | None = None
        self.stop_cycle: int | None = None
        self.requests = hashlib.blake2b(digest_size=16)
        super().build_phase()

    async def _until_end(self) -> None:
        port = getattr(self.env.bfm, "port", None)  # the RTL's memory port (tb/mem_agent.py); FlexGripPlus has none
        if port is not None:
            serve = port.on_request

            def logged(req) -> None:  # every served request, in order, with its cycle (the checkpoints' testbench digest)
                self.requests.update(repr(req).encode())
                serve(req)

            port.on_request = logged
        if self.fault is not None:
            self.injector = cocotb.start_soon(self._inject(self.fault))
        cp = self.checkpoints
        if cp is not None and self.stop_mode != "off" and (self.recording or (self.fault is not None and self.fault.model == "seu")):
            self.watcher = cocotb.start_soon(self._checkpoints(cp))
        if self.recording and self.accesses is not None:
            self.sampler = cocotb.start_soon(self._sample_accesses(self.accesses))
        await super()._until_end()

    async def _sample_accesses(self, acc: Accesses) -> None:
        """Sample the large arrays' indices twice a kernel cycle: after the rising edge (what the
        cycle's first half computes with) and after the testbench's drive in the middle of the cycle
        (what the next edge takes). Between those points nothing but the faults writes the design."""
        for cycle in range(self.ref_cycles + 1):
            sampled = 0
            for offset in (0, CHECK_NS):
                target = (self.start_cycle + cycle) * PERIOD_NS + offset
                now = get_sim_time("ns")
                if target < now:
                    continue  # passed before the sampling started: the cycle does not count as sampled
                if target > now:
                    await Timer(target - now, "ns")
                await ReadOnly()
                if self.verdict.report is not None:
                    return
                acc.sample(cycle)
                sampled += 1
            if acc.first is None and sampled == 2:
                acc.first = cycle

    def _tb_state(self) -> tuple[int, str]:
        return self.env.scoreboard.compared, self.requests.copy().hexdigest()

    async def _checkpoints(self, cp: Checkpoints) -> None:
        after = -1 if self.fault is None else self.fault.cycle
        for cycle in cp.cycles:
            if cycle <= after:
                continue
            target = (self.start_cycle + cycle) * PERIOD_NS + CHECK_NS
            now = get_sim_time("ns")
            if target > now:
                await Timer(target - now, "ns")
            await ReadOnly()
            if self.verdict.report is not None:
                return
            if self.recording:
                cp.record(cycle, self._tb_state())
                continue
            f = self.fault
            assert f is not None
            if cycle in cp.reference and cp.same(cycle, (f.site, f.word), self._tb_state()):
                self.stop_cycle = cycle
                if self.stop_mode == "early":
                    self.ended.set()  # _until_end returns; check_phase skips the end-of-test checks
                return

    @property
    def stopped_early(self) -> bool:
        return self.stop_cycle is not None and self.stop_mode == "early"

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
        if self.stopped_early:
            return  # the rest of the run is the fault-free one: nothing left to check
        with contextlib.suppress(AssertionError):  # the verdict's report is the outcome here, not a test failure
            super().check_phase()

    def outcome(self) -> dict:
        sb = self.env.scoreboard
        report = json.loads(self.verdict.report.to_json()) if self.verdict.report else None
        if report is not None and report.get("cycle") is not None:
            report["cycle"] -= self.start_cycle  # kernel cycles, like the injection's
        end = self.done_cycle if self.done_cycle is not None else self.env.cycles.now()
        cycles = end - self.start_cycle
        # a run stopped early is the fault-free run from its checkpoint on: the reference's cycle count
        return {"report": report, "cycles": self.ref_cycles if self.stopped_early else cycles, "simulated": cycles, "commits": sb.compared,
                "stopped": self.stop_cycle}  # fmt: skip

    ref_cycles = 0

    def cleanup(self) -> None:
        for task in (getattr(self, "injector", None), getattr(self, "watcher", None), getattr(self, "sampler", None)):
            if task is not None and not task.done():
                task.cancel()
        self.env.bfm.stop()
        if self.injected is not None and not self.stopped_early:  # a converged run holds the fault-free values already
            h, old, new = self.injected
            f = self.fault
            assert f is not None
            with contextlib.suppress(ValueError):  # X/Z in the word (Icarus): left as it is
                if f.model == "seu":
                    if int(h.value) == int(new):
                        h.value = old
                else:  # the stuck bit back to its value before the injection
                    h.value = _flip(h.value, f.bit, int(old) >> f.bit & 1)[0]


def walk_signals(dut) -> list[tuple[str, int]]:
    """(path under the top level, width) of every signal below the top level, through VPI iteration."""
    from cocotb.handle import HierarchyArrayObject, HierarchyObject, LogicArrayObject, LogicObject

    out: list[tuple[str, int]] = []
    stack = [(dut, "")]
    while stack:
        h, prefix = stack.pop()
        for c in h:
            path = f"{prefix}{c._name}"
            if isinstance(c, (HierarchyObject, HierarchyArrayObject)):
                stack.append((c, path + "."))
            elif isinstance(c, (LogicArrayObject, LogicObject)) and prefix:  # the top level's own ports are the testbench's
                out.append((path, len(c) if isinstance(c, LogicArrayObject) else 1))
    return sorted(out)


def drop_loggers(before: set[str]) -> int:
    """Forget the loggers of a finished test's components. pyuvm names each component's logger
    after the object's id, so every run adds a dozen loggers that nothing asks for again, and the
    logging module keeps them all; every setLevel (one per new component) walks every logger
    kept, so a test's construction grew slower with each fault before it in the process. Only
    the "uvm." loggers that appeared since `before` go; returns how many."""
    manager = logging.Logger.manager
    gone = {name: lg for name, lg in manager.loggerDict.items() if name.startswith("uvm.") and name not in before and isinstance(lg, logging.Logger)}
    for name in gone:
        del manager.loggerDict[name]
    loggers = set(gone.values())
    for holder in manager.loggerDict.values():
        if isinstance(holder, logging.PlaceHolder):  # the intermediate names keep their descendants too
            for lg in loggers & holder.loggerMap.keys():
                del holder.loggerMap[lg]
    return len(gone)


async def run_one(fault: Fault | None) -> dict:
    FaultRun.fault = fault
    t0 = time.perf_counter()
    before = set(logging.Logger.manager.loggerDict)
    await uvm_root().run_test(FaultRun)
    test = FaultRun.last
    assert test is not None
    out = test.outcome()
    await Timer(1, "ns")  # out of the read-only phase the run ended in: the cleanup writes
    test.cleanup()
    drop_loggers(before)
    out["wall_s"] = time.perf_counter() - t0
    return out


@cocotb.test()
async def campaign(dut) -> None:
    job = json.loads(Path(cocotb.plusargs["faults_job"]).read_text(encoding="utf-8"))
    if job.get("walk"):  # the signals GHDL's VPI shows (tb/faults/vhdl_sites.py keeps the state among them)
        Path(job["log"]).write_text(json.dumps(walk_signals(dut)), encoding="utf-8")
        return
    FaultRun.config_obj = LockstepConfig.read(Path(job["config"]))
    keep_programs()  # every run of this process loads the same program: assembled once
    FaultRun.words, FaultRun.low = job["words"], job["low"]
    log = Path(job["log"])
    if job.get("reference"):  # the fault-free run: cycles, commits, final memory (compared by the run itself)
        out = await run_one(None)
        log.write_text(json.dumps(out) + "\n", encoding="utf-8")
        assert out["report"] is None, f"the fault-free reference run fails: {out['report']['message']}"
        return
    # a task of the campaign or a rerun: its faults given, its outcomes to its log alone (the campaign's
    # client is the database's one writer)
    ref_cycles = int(job["ref_cycles"])
    faults = [Fault(*f) for f in job["faults"]]
    FaultRun.stop_mode = job.get("stop", "early")
    # FlexGripPlus's reset leaves state behind (every run after a masked flip of its block
    # scheduler's counter ended at once): there every run starts from the fault-free run's final
    # state of every site
    restore_all = FaultRun.config_obj.dut == "flexgrip"
    FaultRun.ref_cycles = ref_cycles
    expressions = job.get("accesses") or {}  # the fast engine's arrays and their indices (tb/faults/memreads.py)
    ref_commits = None
    if faults and (FaultRun.stop_mode != "off" or restore_all or expressions):
        # this process's own fault-free run, recording the checkpoints (module docstring, "Early stop")
        step = max(1, ref_cycles // int(job.get("checkpoints", 64)))
        early = FaultRun.stop_mode != "off"
        watched = sorted({(f.site, f.word) for f in faults if f.model == "seu"}) if early else []
        cycles = list(range(step, ref_cycles, step)) if early else []
        FaultRun.checkpoints = Checkpoints(dut, cycles, FaultRun.words, FaultRun.low, watched)
        out = await run_one(None)  # first, so that the recorded run starts where the runs after a fault-free one start
        assert out["report"] is None, f"the fault-free warm-up run fails: {out['report']['message']}"
        if expressions:
            words: dict[str, set[int]] = {}
            for f in faults:
                if f.site in expressions:
                    words.setdefault(f.site, set()).add(FaultRun.low.get(f.site, 0) + f.word)
            # sampled only where this batch has a fault: a batch of flip-flop faults pays nothing for it
            FaultRun.accesses = Accesses(dut, expressions, words) if words else None
        if early or FaultRun.accesses is not None:
            FaultRun.recording = True
            out = await run_one(None)
            FaultRun.recording = False
            assert out["report"] is None, f"the fault-free recording run fails: {out['report']['message']}"
            ref_commits = out["commits"]
        FaultRun.checkpoints.keep_final()
        assert out["cycles"] == ref_cycles, f"the fault-free run took {out['cycles']} cycles, the reference {ref_cycles}"
    # TB_FAULTS_CPROFILE=FILE: cProfile of the faults' loop alone, in CPU time (a busy machine does not
    # lengthen it), and the loop's CPU time in FILE.cpu; TB_FAULTS_CPU=FILE: that CPU time alone
    # (scripts/profile_faults.py: where a fault's time goes). What the profile leaves of the loop's CPU
    # time is the simulator's own
    profiler = cProfile.Profile(time.process_time) if os.environ.get("TB_FAULTS_CPROFILE") else None
    cpu_file = os.environ.get("TB_FAULTS_CPU") or (os.environ["TB_FAULTS_CPROFILE"] + ".cpu" if profiler is not None else "")
    cpu0 = time.process_time()
    with log.open("a", encoding="utf-8") as lines:
        if profiler is not None:
            profiler.enable()
        for f in faults:
            acc = FaultRun.accesses
            if acc is not None and acc.untouched(f.site, FaultRun.low.get(f.site, 0) + f.word, f.cycle):
                # a memory word no access selects from the injection on: the fault-free run with one
                # stored bit different, to the end (module docstring, "Memory words"); nothing of it
                # is simulated after the injection cycle
                outcome, group, field = classify(None, ref_cycles, ref_cycles)
                values = {"outcome": outcome, "grp": group, "field": field, "kind": None, "message": None, "warp": None, "pc": None, "insn": None,
                          "div_cycle": None, "cycles": ref_cycles, "commits": ref_commits, "wall_s": 0.0, "shard": job["shard"], "stopped": None,
                          "simulated": f.cycle}  # fmt: skip
                lines.write(json.dumps({"id": f.id, **values}) + "\n")
                continue
            out = await run_one(f)
            r = out["report"] or {}
            if r.get("cycle") is not None and r["cycle"] < f.cycle:
                # wrong before the fault went in: state an earlier run left behind, not this fault. The
                # process stops without recording it; the campaign goes on in a new process (campaign.py)
                lines.write(json.dumps({"id": f.id, "leak": True, "div_cycle": r["cycle"], "message": r.get("message")}) + "\n")
                raise AssertionError(f"fault {f.id} failed at kernel cycle {r['cycle']}, before its injection at {f.cycle}: state left by an earlier run")
            if FaultRun.checkpoints is not None and (restore_all or out["report"] is not None or out["stopped"] is not None):
                await Timer(1, "ns")
                out["restored"] = FaultRun.checkpoints.restore()
            outcome, group, field = classify(out["report"], out["cycles"], ref_cycles)
            values = {"outcome": outcome, "grp": group, "field": field, "kind": r.get("kind"), "message": r.get("message"), "warp": r.get("warp"),
                      "pc": r.get("pc"), "insn": r.get("text"), "div_cycle": r.get("cycle"), "cycles": out["cycles"], "commits": out["commits"],
                      "wall_s": out["wall_s"], "shard": job["shard"], "stopped": out["stopped"], "simulated": out["simulated"]}  # fmt: skip
            lines.write(json.dumps({"id": f.id, **values}) + "\n")
            lines.flush()
            if restore_all and out["report"] is not None:
                # FlexGripPlus does not recover from a run stopped mid-kernel through its reset and
                # the visible sites (every later run hung): the next fault starts in a new process (campaign.py)
                lines.write(json.dumps({"restart": True, "after": f.id}) + "\n")
                return
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(os.environ["TB_FAULTS_CPROFILE"])
        if cpu_file:
            Path(cpu_file).write_text(f"{time.process_time() - cpu0}\n", encoding="utf-8")
        # the same process, fault-free, after every fault: a state the resets left behind would show here
        FaultRun.checkpoints = None
        out = await run_one(None)
        lines.write(json.dumps({"control": True, "passed": out["report"] is None, "cycles": out["cycles"]}) + "\n")
        assert out["report"] is None, f"the fault-free control run after the faults fails: {out['report']['message']}"
