"""The pyuvm environment of the lock-step testbench, one piece of code for every DUT.

    LockstepTest (uvm_test)     configuration from ConfigDB ("config": tb/config.py)
    `-- SmEnv
        |-- loader          uvm_sequencer of the load and launch sequences (tb/sequences.py)
        |-- driver          LoadDriver: each item through the DUT's BFM (tb/dut.py, tb/adapters/)
        |-- monitor         DutMonitor: the BFM's DutCommit records --commit_ap-->, stores --store_ap-->
        |-- scoreboard      golden model stepped per DUT commit, field-by-field compare --ap--> subscribers
        `-- subscribers     e.g. coverage (anything with an analysis_export)

The test ends on the DUT's done, on the first failure, on an error the DUT signals, or when no
commit arrives for `watchdog` cycles; X/Z on a commit field, memory faults and end-of-test
differences are reported the same way for every DUT.
"""

from __future__ import annotations

import cProfile
import gc
import json
import os
import time
from dataclasses import replace
from pathlib import Path

import cocotb
import numpy as np
from cocotb.triggers import Event, First, ReadOnly, Timer, current_gpi_trigger
from pyuvm import ConfigDB, uvm_analysis_port, uvm_component, uvm_env, uvm_sequencer, uvm_test

from golden.errors import ModelError
from golden.g80.profile import PROFILES, Profile
from golden.g80.sm import SM
from golden.g80.state import WARP

from .adapters import adapter
from .config import CONFIG_KEY, LockstepConfig
from .dut import DutBfm, DutCommit, DutSink, UnknownValue
from .kernels import load_kernel
from .mem_agent import Cycles, MemoryFault, MemRequest
from .report import FailureReport, FieldDiff
from .scoreboard import Scoreboard, Verdict
from .sequences import LaunchSequence, LoadDriver, LoadSequence
from .trace import TraceRecorder

PERIOD_NS = 10


class DutMonitor(uvm_component):
    """Publishes what the DUT's BFM observes: commits on `commit_ap`, memory-interface stores on `store_ap`."""

    def __init__(self, name: str, parent, on_error, on_warp_done) -> None:
        super().__init__(name, parent)
        self.on_error, self.on_warp_done = on_error, on_warp_done

    def build_phase(self) -> None:
        self.commit_ap = uvm_analysis_port("commit_ap", self)
        self.store_ap = uvm_analysis_port("store_ap", self)

    def sink(self) -> DutSink:
        return DutSink(self._commit, self._store, self.on_error)

    def _commit(self, record: DutCommit) -> None:
        try:
            self.commit_ap.write(record)
            if record.commit.done:
                self.on_warp_done(record.commit.warp)
        except Exception as exc:  # reported through the test's verdict, not lost in a monitor's task
            self.on_error(exc)

    def _store(self, req: MemRequest) -> None:
        try:
            self.store_ap.write(req)
        except Exception as exc:
            self.on_error(exc)


class SmEnv(uvm_env):
    def __init__(self, name: str, parent, dut, model: SM, verdict: Verdict) -> None:
        super().__init__(name, parent)
        self.dut, self.model, self.verdict = dut, model, verdict
        self.subscribers: list = []

    def build_phase(self) -> None:
        self.config: LockstepConfig = ConfigDB().get(self, "", CONFIG_KEY)
        self.cycles = Cycles(PERIOD_NS)
        dut_adapter = adapter(self.config.dut)
        self.bfm: DutBfm = dut_adapter.bfm(self.dut, self.config, self.cycles)
        self.loader = uvm_sequencer("loader", self)
        self.driver = LoadDriver("driver", self, self.bfm)
        self.monitor = DutMonitor("monitor", self, self.error, self.warp_done)
        self.scoreboard = Scoreboard("scoreboard", self, self.model, self.verdict, self.config.max_mismatches, check_stores=self.bfm.observes_stores,
                                     waivers=dut_adapter.waivers(self.config))  # fmt: skip
        # the DUT's commit trace: kept for a trace file, and in a free-running run the scoreboard's only source
        self.recorder = TraceRecorder("recorder", self) if self.config.trace or not self.config.lockstep else None

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.loader.seq_item_export)
        if self.recorder is not None:
            self.monitor.commit_ap.connect(self.recorder.commit_export)
            self.monitor.store_ap.connect(self.recorder.store_export)
        if self.config.lockstep:
            self.monitor.commit_ap.connect(self.scoreboard.analysis_export)
            self.monitor.store_ap.connect(self.scoreboard.port_export)
        for sub in self.subscribers:
            self.scoreboard.ap.connect(sub.analysis_export)

    def catch_up(self) -> None:
        """Free-running: step the model through the commits recorded so far and compare them (the
        same scoreboard and reports as lock-step). Called whenever the model's state is needed: a
        DUT error, the hang watchdog, the end of the run. Lock-step runs are never behind."""
        if not self.config.lockstep and self.recorder is not None:
            self.recorder.feed(self.scoreboard)

    def warp_done(self, warp: int) -> None:
        """The DUT committed a warp's last instruction. Where the testbench serves local memory it
        zeroes that warp slot's threads, so that the block placed there next starts with zeroed
        local memory like the model's (docs/design/architecture.md, "Semantics: one model, two profiles"); the RTL places a round's blocks
        only when every warp of the previous round is done, so no request of the next block
        precedes this commit."""
        mem = self.bfm.tb_memory
        if mem is not None:
            mem.clear_local(warp * WARP, WARP)

    def error(self, exc: Exception) -> None:
        """A failure raised inside a monitor's task (they run outside the test's own code).

        A memory fault is judged in the read-only phase of its time step, after the commit records
        of the same clock edge (the memory port takes the request at an edge, where a parked load's
        record may land too): a wrong record there is the run's first failure, as at a DUT error."""
        in_read_only = isinstance(current_gpi_trigger(), ReadOnly)
        if isinstance(exc, MemoryFault) and not in_read_only:
            cocotb.start_soon(self._error_in_read_only(exc))
            return
        if in_read_only:
            self.bfm.settle()
        self.catch_up()  # a mismatch before the error is the run's first failure, as in lock-step
        if self.verdict.report is not None:  # the first failure stands; it has ended the run
            return
        if isinstance(exc, UnknownValue):
            block = self.scoreboard.block_of(exc.warp) if exc.warp is not None else None
            self.verdict.fail(FailureReport("x_or_z", str(exc), cycle=exc.cycle, cta=exc.cta, block=block, warp=exc.warp, pc=exc.pc,
                                            text=self._text(exc.pc), history=self.scoreboard.history_of(exc.warp)))  # fmt: skip
        elif isinstance(exc, MemoryFault):
            req = exc.req
            # the RTL's tag (docs/design/rtl.md, "Ports"): lane in bits 4:0, part 6:5; bit 13 marks a
            # coalesced line, whose bits 4:0 are only its first lane
            coalesced = req is not None and bool(req.tag >> 13 & 1)
            lane = None if req is None or coalesced else req.tag & 0x1F
            word = (exc.addr if exc.addr is not None else req.addr if req is not None else 0) & ~3
            why = self.scoreboard.explain_memory_fault(req.local, word, lane) if req is not None else {}
            message = str(exc) + (f" (request tag {req.tag:#x}: {'a coalesced line from lane' if coalesced else 'lane'} {req.tag & 0x1F}, "
                                  f"part {req.tag >> 5 & 3})" if req is not None else "")
            self.verdict.fail(FailureReport("memory_fault", message, cycle=self.cycles.now(), **why))
        else:
            self.verdict.fail(FailureReport("testbench", f"{type(exc).__name__}: {exc}", cycle=self.cycles.now()))

    async def _error_in_read_only(self, exc: Exception) -> None:
        await ReadOnly()
        self.error(exc)

    def _text(self, pc: int | None) -> str:
        """Disassembly of the instruction at pc, for a report that has no model commit to quote."""
        if pc is None:
            return ""
        try:
            return self.model.plan(pc).text
        except ModelError:
            return ""


def run_profile(cfg: LockstepConfig) -> Profile:
    """The golden model's profile of a run (also that of a replayed trace, tb/trace.py)."""
    profile = PROFILES[cfg.profile]
    if cfg.dut == "flexgrip" and profile.fpu_sync_lanes:  # its FPUs run NUM_SP lanes together (golden/g80/execute._fg_fadd_sync)
        profile = replace(profile, fpu_sync_lanes=cfg.num_sp)
    return profile


def _profiler() -> cProfile.Profile | None:
    """A running cProfile profiler when TB_CPROFILE names its output file, else None."""
    if not os.environ.get("TB_CPROFILE"):
        return None
    profiler = cProfile.Profile()
    profiler.enable()
    return profiler


class LockstepTest(uvm_test):
    """Run the configured program on the DUT in lock-step with the golden model."""

    def build_phase(self) -> None:
        self.dut = cocotb.top
        cfg: LockstepConfig = ConfigDB().get(self, "", CONFIG_KEY)
        self.config = cfg
        self.program = Path(cfg.program)
        self.profile = run_profile(cfg)
        self.kernel = load_kernel(self.program, self.profile)
        self.model, self.gmem = self.kernel.model, self.kernel.gmem
        self.ended = Event()
        context = {"test": self.program.stem, "seed": cfg.seed, "simulator": cfg.sim, "num_sp": cfg.num_sp, "profile": self.profile.name, "rerun": cfg.rerun,
                   "dut": "RTL" if cfg.dut == "rtl" else cfg.dut}  # fmt: skip
        self.verdict = Verdict(context, self.ended.set)
        self.env = SmEnv("env", self, self.dut, self.model, self.verdict)
        self.env.subscribers.extend(self.extra_subscribers())

    def extra_subscribers(self) -> list:
        if not self.config.coverage:
            return []
        from .coverage_subscriber import CoverageSubscriber

        return [CoverageSubscriber("coverage", self, Path(self.config.coverage), self.config.coverage_run)]

    async def run_phase(self) -> None:
        self.raise_objection()
        env = self.env
        bfm = env.bfm
        await bfm.reset()
        await LoadSequence("load", self.kernel).start(env.loader)
        env.scoreboard.tb_memory = bfm.tb_memory is not None
        bfm.start_monitors(env.monitor.sink())
        await LaunchSequence("launch").start(env.loader)
        self.start_cycle = env.cycles.now()
        self.done_cycle = None
        # what start-up built (modules, the program, the model) lives until the end: out of the
        # collector's sight during the run, so that its full collections walk only what the run
        # allocates; back in it afterwards, so that a campaign of many tests in one
        # simulation (tb/faults) can still free an earlier test's cycles. During the run only the
        # young generations are collected (the reference cycles of triggers and tasks die young):
        # a full collection walks everything the run keeps, which in a free-running run is the
        # whole commit trace, about a quarter of a free-running run's CPU time (make bench,
        # LOCKSTEP=0); what survives is collected after it
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(thresholds[0], thresholds[1], 1 << 30)  # the oldest generation's count never reached
        # TB_CPROFILE=FILE: cProfile of the run phase (the monitors' callbacks, the model, the
        # compares: everything Python does from the launch to the end), for finding the testbench's
        # own per-commit cost; the simulator's C++ time shows only inside the calls into it
        profiler = _profiler()
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            await self._until_end()
        finally:
            # the run is over: no monitor callback may outlive it (a timed callback of the memory
            # agent still pending when the simulation ended crashed Verilator, exit -11)
            bfm.stop()
            gc.unfreeze()
            gc.set_threshold(*thresholds)
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(os.environ["TB_CPROFILE"])
        # from the launch to the end: the simulation, and in lock-step the model and compares (wall, and
        # this process's CPU time, which simulator and Python share and a loaded machine does not inflate)
        self.run_s, self.run_cpu_s = time.perf_counter() - t0, time.process_time() - c0
        self.final_global = await bfm.read_global()
        if self.config.result:
            # the DUT's final global memory beside result.json: what it computed, for looking at outside
            # lock-step (e.g. the FlexGripPlus outputs tests/test_flexgrip_int.py keeps as reference data)
            np.asarray(self.final_global, np.uint8).tofile(Path(self.config.result).with_name("final_global.bin"))
        self.drop_objection()

    async def _until_end(self) -> None:
        bfm, sb = self.env.bfm, self.env.scoreboard
        watchdog = self.config.watchdog
        seen = -1
        while self.verdict.report is None:
            ended = self.ended.wait()
            fired = await First(ended, *bfm.end_triggers(), Timer(watchdog * PERIOD_NS, "ns"))
            if fired is ended or self.verdict.report is not None:
                return  # set from a monitor, already in the read-only phase
            await ReadOnly()
            # the records of this time step first (Icarus: the commit monitor's read-only wake-up may
            # come after this one), so that a wrong record at the edge of a DUT error is the failure
            bfm.settle()
            if self.verdict.report is not None:
                return
            end = bfm.end_state()
            if end is not None and not end.done:
                self.env.catch_up()  # free-running: the model's state is needed (a no-op in lock-step)
                if self.verdict.report is not None:
                    return
                self.verdict.fail(FailureReport("rtl_error", end.message, cycle=self.env.cycles.now(), warp=end.warp, pc=end.pc,
                                                **sb.explain_error(end.warp, end.pc)))  # fmt: skip
                return
            if end is not None:
                self.done_cycle = self.env.cycles.now()
                await bfm.drain()
                return
            if isinstance(fired, Timer):
                recorder = self.env.recorder
                progress = sb.compared + self.verdict.mismatches + (len(recorder.events) if recorder is not None else 0)
                if progress == seen:
                    self.env.catch_up()
                    if self.verdict.report is not None:
                        return
                    self.verdict.fail(FailureReport("hang", f"no commit for {watchdog} cycles", cycle=self.env.cycles.now(), warps=self.model.last_pcs()))
                    return
                seen = progress

    def check_phase(self) -> None:
        sb, model, env = self.env.scoreboard, self.model, self.env
        t0, c0 = time.perf_counter(), time.process_time()
        env.catch_up()  # free-running: the whole trace is compared here
        replay_s, replay_cpu_s = time.perf_counter() - t0, time.process_time() - c0
        if env.recorder is not None and self.config.trace:
            env.recorder.save(Path(self.config.trace), self.config, env.bfm.observes_stores, env.bfm.tb_memory is not None)
        if self.verdict.report is None:
            problems = []
            if model.next_block < model.launch.num_blocks:
                problems.append(FieldDiff("blocks", f"{model.launch.num_blocks} blocks run", f"done after {model.next_block}"))
            unfinished = [w.wid for w in model.warps if not w.done]
            if unfinished:
                problems.append(FieldDiff("warps done", "every warp finished", f"the model has unfinished warps {unfinished}"))
            final = self.final_global[: self.gmem.data.size]  # set by run_phase, which ends before check_phase
            diff = np.flatnonzero(final != self.gmem.data)
            if diff.size:
                a = int(diff[0])
                problems.append(FieldDiff("global memory", f"byte {a:#x} = {self.gmem.data[a]:#04x}", f"{final[a]:#04x} ({diff.size} bytes differ)"))
            if sb.compared == 0:
                problems.append(FieldDiff("commits", "at least one compared commit", "none"))
            if problems:
                self.verdict.fail(FailureReport("end_of_test", "end-of-test checks failed", cycle=env.cycles.now(), diffs=problems, warps=model.last_pcs()))
        # kernel cycles: from the start pulse to done (configuration loading excluded)
        cycles = self.done_cycle - self.start_cycle if self.done_cycle is not None else env.cycles.now() - self.start_cycle
        result = {"status": "fail" if self.verdict.report else "pass", "commits": sb.compared, "cycles": cycles,
                  "mem_requests": env.bfm.memory_requests, "thread_instructions": int(model.thread_steps), "waived": sb.waived,
                  "lockstep": self.config.lockstep, "run_s": getattr(self, "run_s", None), "run_cpu_s": getattr(self, "run_cpu_s", None),
                  "replay_s": replay_s, "replay_cpu_s": replay_cpu_s,
                  "report": json.loads(self.verdict.report.to_json()) if self.verdict.report else None}  # fmt: skip
        if self.config.result:
            Path(self.config.result).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        if self.verdict.report:
            raise AssertionError("\n" + self.verdict.report.to_text())
        self.logger.info(f"{sb.compared} commits compared in lock-step, {cycles} cycles, {env.bfm.memory_requests} memory requests")
