"""The pyuvm environment of the lock-step testbench.

    SmEnv
    |-- LoaderAgent     configuration bus: instruction words, constant banks, launch registers; start
    |-- MemoryAgent     global/local memory port: cocotb-bus monitor + response driver + back-pressure
    |-- CommitAgent     commit port monitor (X/Z checks) --ap--> Scoreboard
    |-- Scoreboard      golden model stepped per RTL commit, field-by-field compare --ap--> subscribers
    `-- subscribers     e.g. coverage (anything with an analysis_export)

`LockstepTest` runs one program (environment variables, see tb/test_sm.py) and ends on `done`, on
the first failure, on an RTL error, or when no commit arrives for WATCHDOG_CYCLES cycles.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import ClassVar

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Event, First, ReadOnly, RisingEdge, Timer, ValueChange
from cocotb_bus.drivers import BusDriver
from commit_agent import CommitAgent, UnknownValue
from kernels import Kernel, load_kernel
from mem_agent import Cycles, MemoryAgent, MemoryFault, TbMemory
from pyuvm import uvm_component, uvm_env, uvm_test
from report import FailureReport, FieldDiff
from scoreboard import Scoreboard, Verdict

from golden.errors import ModelError
from golden.hw import error_message
from golden.memory import Memory
from golden.profile import PROFILES
from golden.sm import SM

PERIOD_NS = 10
CFG_IMEM, CFG_CMEM, CFG_LAUNCH = 0, 1, 2


class CfgDriver(BusDriver):
    _signals: ClassVar[list[str]] = ["we", "sel", "addr", "wdata"]

    async def _driver_send(self, transaction: tuple[int, int, int], sync: bool = True, **kwargs: object) -> None:
        sel, addr, value = transaction
        self.bus.we.value = 1
        self.bus.sel.value = sel
        self.bus.addr.value = addr
        self.bus.wdata.value = value & 0xFFFFFFFF
        await RisingEdge(self.clock)
        self.bus.we.value = 0


class LoaderAgent(uvm_component):
    """Loads a program through the configuration bus and launches it (rtl/README.md, "Ports")."""

    def __init__(self, name: str, parent, dut) -> None:
        super().__init__(name, parent)
        self.dut = dut

    async def load(self, kernel: Kernel) -> None:
        dut = self.dut
        driver = CfgDriver(dut, "cfg", dut.clk)
        for i, w in enumerate(kernel.words):
            await driver.send((CFG_IMEM, i, w))
        for bank, offset, data in kernel.consts:
            for k, word in enumerate(_words(data)):
                await driver.send((CFG_CMEM, bank << 16 | (offset // 4 + k), word))
        for k, value in enumerate(kernel.launch):
            await driver.send((CFG_LAUNCH, k, value))
        for k, word in enumerate(_words(kernel.params)):
            await driver.send((CFG_LAUNCH, 16 + k, word))

    async def start(self) -> None:
        self.dut.start.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.start.value = 0


def _words(data: bytes) -> list[int]:
    return [int(w) for w in np.frombuffer(data + b"\0" * (-len(data) % 4), "<u4")]


class SmEnv(uvm_env):
    def __init__(self, name: str, parent, dut, model: SM, gmem: Memory, verdict: Verdict, settings: dict) -> None:
        super().__init__(name, parent)
        self.dut, self.model, self.gmem, self.verdict, self.settings = dut, model, gmem, verdict, settings
        self.subscribers: list = []

    def build_phase(self) -> None:
        s = self.settings
        self.cycles = Cycles(PERIOD_NS)
        self.memory = TbMemory(self.gmem.data, self.model.config.local_bytes, self.model.regs.shape[1])
        self.loader = LoaderAgent("loader", self, self.dut)
        self.mem_agent = MemoryAgent("mem_agent", self, self.dut, self.memory, random.Random(s["seed"]), s["max_latency"], s["ready_p"], self.cycles,
                                     self.error)  # fmt: skip
        self.commit_agent = CommitAgent("commit_agent", self, self.dut, self.cycles, self.error)
        self.scoreboard = Scoreboard("scoreboard", self, self.model, self.verdict, s["max_mismatches"])

    def connect_phase(self) -> None:
        self.commit_agent.ap.connect(self.scoreboard.analysis_export)
        self.mem_agent.ap.connect(self.scoreboard.port_export)
        for sub in self.subscribers:
            self.scoreboard.ap.connect(sub.analysis_export)

    def error(self, exc: Exception) -> None:
        """A failure raised inside an agent's monitor task (they run outside the test's own code)."""
        if isinstance(exc, UnknownValue):
            history = list(self.scoreboard.history.get(exc.warp, [])) if exc.warp is not None else []
            self.verdict.fail(FailureReport("x_or_z", str(exc), cycle=exc.cycle, cta=exc.cta, warp=exc.warp, pc=exc.pc, text=self._text(exc.pc),
                                            history=history))  # fmt: skip
        elif isinstance(exc, MemoryFault):
            self.verdict.fail(FailureReport("memory_fault", str(exc), cycle=self.cycles.now()))
        else:
            self.verdict.fail(FailureReport("testbench", f"{type(exc).__name__}: {exc}", cycle=self.cycles.now()))

    def _text(self, pc: int | None) -> str:
        """Disassembly of the instruction at pc, for a report that has no model commit to quote."""
        if pc is None:
            return ""
        try:
            return self.model.plan(pc).text
        except ModelError:
            return ""


class LockstepTest(uvm_test):
    """Run PROGRAM on the DUT in lock-step with the golden model."""

    def build_phase(self) -> None:
        self.dut = cocotb.top
        env = os.environ
        self.program = Path(env["PROGRAM"])
        self.settings = {
            "seed": int(env.get("SEED", "1")),
            "max_latency": int(env.get("MAX_LATENCY", "8")),
            "ready_p": float(env.get("READY_P", "0.8")),
            "max_mismatches": int(env.get("MAX_MISMATCHES", "1")),
            "watchdog": int(env.get("WATCHDOG_CYCLES", "200000")),
        }
        self.profile = PROFILES[env.get("PROFILE", "g80")]
        self.kernel = load_kernel(self.program, self.profile)
        self.model, self.gmem = self.kernel.model, self.kernel.gmem
        self.ended = Event()
        context = {"test": self.program.stem, "seed": self.settings["seed"], "simulator": env.get("SIM", cocotb.SIM_NAME.lower()),
                   "num_sp": int(env.get("NUM_SP", "8")), "profile": self.profile.name,
                   "rerun": env.get("RERUN", "")}  # fmt: skip
        self.verdict = Verdict(context, self.ended.set)
        self.env = SmEnv("env", self, self.dut, self.model, self.gmem, self.verdict, self.settings)
        self.env.subscribers.extend(self.extra_subscribers())

    def extra_subscribers(self) -> list:
        path = os.environ.get("FUNC_COVERAGE")
        if not path:
            return []
        from coverage_subscriber import CoverageSubscriber

        run = f"rtl:{self.program.stem}:{os.environ.get('SIM', '')}:sp{os.environ.get('NUM_SP', '8')}:s{self.settings['seed']}"
        return [CoverageSubscriber("coverage", self, Path(path), run)]

    async def run_phase(self) -> None:
        self.raise_objection()
        dut, env = self.dut, self.env
        cocotb.start_soon(Clock(dut.clk, PERIOD_NS, unit="ns", impl="gpi").start())  # in C: Python is not woken per clock
        dut.rst_n.value = 0
        dut.cfg_we.value = 0
        dut.start.value = 0
        dut.mem_req_ready.value = 0
        dut.mem_rsp_valid.value = 0
        await ClockCycles(dut.clk, 2)
        dut.rst_n.value = 1
        await env.loader.load(self.kernel)
        env.mem_agent.start()
        env.commit_agent.start()
        await env.loader.start()
        self.start_cycle = env.cycles.now()
        self.done_cycle = None
        await self._until_end()
        self.drop_objection()

    async def _until_end(self) -> None:
        dut, sb = self.dut, self.env.scoreboard
        watchdog = self.settings["watchdog"]
        seen = -1
        while self.verdict.report is None:
            ended = self.ended.wait()
            fired = await First(ended, RisingEdge(dut.done), ValueChange(dut.error), Timer(watchdog * PERIOD_NS, "ns"))
            if fired is ended or self.verdict.report is not None:
                return  # set from a monitor, already in the read-only phase
            await ReadOnly()
            if int(dut.error.value):
                code = int(dut.error.value)
                warp = int(dut.error_warp.value)
                self.verdict.fail(FailureReport("rtl_error", f"the RTL stopped with error {code} ({error_message(code)})",
                                                cycle=self.env.cycles.now(), warp=warp, pc=int(dut.error_pc.value),
                                                history=list(sb.history.get(warp, []))))  # fmt: skip
                return
            if int(dut.done.value):
                self.done_cycle = self.env.cycles.now()
                await RisingEdge(dut.clk)  # a commit in the same cycle as done is still being compared
                await ReadOnly()
                return
            if isinstance(fired, Timer):
                progress = sb.compared + self.verdict.mismatches
                if progress == seen:
                    self.verdict.fail(FailureReport("hang", f"no commit for {watchdog} cycles", cycle=self.env.cycles.now(), warps=self.model.last_pcs()))
                    return
                seen = progress

    def check_phase(self) -> None:
        sb, model, env = self.env.scoreboard, self.model, self.env
        if self.verdict.report is None:
            problems = []
            if model.next_block < model.launch.num_blocks:
                problems.append(FieldDiff("blocks", f"{model.launch.num_blocks} blocks run", f"done after {model.next_block}"))
            unfinished = [w.wid for w in model.warps if not w.done]
            if unfinished:
                problems.append(FieldDiff("warps done", "every warp finished", f"the model has unfinished warps {unfinished}"))
            diff = np.flatnonzero(env.memory.glob != self.gmem.data)
            if diff.size:
                a = int(diff[0])
                problems.append(FieldDiff("global memory", f"byte {a:#x} = {self.gmem.data[a]:#04x}", f"{env.memory.glob[a]:#04x} ({diff.size} bytes differ)"))
            if sb.compared == 0:
                problems.append(FieldDiff("commits", "at least one compared commit", "none"))
            if problems:
                self.verdict.fail(FailureReport("end_of_test", "end-of-test checks failed", cycle=env.cycles.now(), diffs=problems, warps=model.last_pcs()))
        # kernel cycles: from the start pulse to done (configuration loading excluded)
        cycles = self.done_cycle - self.start_cycle if self.done_cycle is not None else env.cycles.now() - self.start_cycle
        result = {"status": "fail" if self.verdict.report else "pass", "commits": sb.compared, "cycles": cycles,
                  "mem_requests": env.mem_agent.requests, "thread_instructions": int(model.thread_steps),
                  "report": json.loads(self.verdict.report.to_json()) if self.verdict.report else None}  # fmt: skip
        out = os.environ.get("RESULT")
        if out:
            Path(out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        if self.verdict.report:
            raise AssertionError("\n" + self.verdict.report.to_text())
        self.logger.info(f"{sb.compared} commits compared in lock-step, {cycles} cycles, {env.mem_agent.requests} memory requests")
