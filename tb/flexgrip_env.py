"""The lock-step test of FlexGripPlus (hdl/flexgrip/fg_top.vhd under GHDL) against the golden model.

    FlexgripTest (uvm_test)
    `-- FlexgripEnv
        |-- FlexgripLoader     drives FlexGripPlus's host ports the way its own testbench does:
        |                      instruction download, configuration registers, constant memory
        |                      bytes, then the block scheduler's enable (global memory comes from
        |                      global_mem.mif in the run directory, as in FlexGripPlus's TB)
        |-- FlexgripMonitor    the probe's commit port -> golden.commit.Commit --ap-->
        `-- FlexgripScoreboard steps the model (flexgrip profile) on the same warp and compares
                               (tb/flexgrip_commit.compare) --ap--> subscribers

A run ends on kernel_done, on the first failure, or when no commit arrives for WATCHDOG_CYCLES.
At the end the global memory is read back through the host port and compared with the model's.
Environment: PROGRAM, RESULT, WATCHDOG_CYCLES, MAX_MISMATCHES, NUM_SP, RERUN.
"""

from __future__ import annotations

import json
import os
from collections import deque
from pathlib import Path

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, Event, First, ReadOnly, RisingEdge, Timer
from flexgrip_commit import Probe, UnknownField, compare, to_commit
from flexgrip_load import FlexgripImage, flexgrip_image
from pyuvm import uvm_analysis_port, uvm_component, uvm_env, uvm_subscriber, uvm_test
from report import FailureReport, FieldDiff
from scoreboard import Verdict

from golden.commit import Commit
from golden.errors import ModelError
from golden.profile import FLEXGRIP

PERIOD_NS = 10
HISTORY = 8


class FlexgripLoader(uvm_component):
    def __init__(self, name: str, parent, dut) -> None:
        super().__init__(name, parent)
        self.dut = dut

    async def load(self, image: FlexgripImage) -> None:
        dut, clk = self.dut, self.dut.clk
        dut.sysmem_cntrl_en.value = 1
        for i, w in enumerate(image.words):
            dut.sysmem_addr.value = i
            dut.sysmem_wr_data.value = w
            dut.sysmem_wr_en.value = 1
            await RisingEdge(clk)
        dut.sysmem_wr_en.value = 0
        dut.sysmem_cntrl_en.value = 0
        dut.config_cntrl_en.value = 1
        for addr, value in image.config:
            dut.config_cs.value = 1
            dut.config_rw.value = 0
            dut.config_adr.value = addr
            dut.config_wr_data.value = value & 0xFFFFFFFF
            await RisingEdge(clk)
        dut.config_cs.value = 0
        dut.config_rw.value = 1
        dut.config_cntrl_en.value = 0
        dut.cmem_cntrl_en.value = 1
        for addr, byte in enumerate(image.cmem):
            if byte:
                dut.cmem_addr.value = addr
                dut.cmem_wr_data.value = byte
                dut.cmem_wr_en.value = 1
                await RisingEdge(clk)
        dut.cmem_wr_en.value = 0
        dut.cmem_cntrl_en.value = 0
        await RisingEdge(clk)

    async def start(self) -> None:
        self.dut.block_scheduler_en.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.block_scheduler_en.value = 0

    async def read_global(self, addrs: np.ndarray) -> np.ndarray:
        """Bytes of global memory through the host port (the RAM reads asynchronously)."""
        dut = self.dut
        dut.gmem_cntrl_en.value = 1
        dut.gmem_wr_en.value = 0
        out = np.zeros(len(addrs), np.int16)
        for k, a in enumerate(addrs.tolist()):
            dut.gmem_addr.value = a
            await Timer(1, "ns")
            try:
                out[k] = int(dut.gmem_rd_data.value)
            except ValueError:
                out[k] = -1  # U/X: never written and not in the image
        dut.gmem_cntrl_en.value = 0
        return out


class FlexgripMonitor(uvm_component):
    def __init__(self, name: str, parent, dut, on_error) -> None:
        super().__init__(name, parent)
        self.dut, self.on_error = dut, on_error
        self.seq = 0
        self.start_time = 0

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)

    def cycle(self) -> int:
        return int(get_sim_time("ns") // PERIOD_NS)

    def start(self, cores: int) -> None:
        self.probe = Probe(self.dut, cores)
        cocotb.start_soon(self._run())

    async def _run(self) -> None:
        clk = self.dut.clk
        try:
            while True:
                await RisingEdge(clk)
                await ReadOnly()
                raw = self.probe.sample(self.cycle())
                if raw is not None:
                    self.seq += 1
                    self.ap.write((to_commit(raw, self.seq), raw.shmem_base, raw.cycle))
        except Exception as exc:
            self.on_error(exc)


class FlexgripScoreboard(uvm_subscriber):
    def __init__(self, name: str, parent, model, verdict: Verdict, max_mismatches: int) -> None:
        super().__init__(name, parent)
        self.model, self.verdict, self.max_mismatches = model, verdict, max_mismatches
        self.compared = 0
        self.history: dict[int, deque[str]] = {}

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)

    def write(self, item: tuple[Commit, int, int]) -> None:
        dut, shbase, cycle = item
        if self.verdict.report is not None and self.verdict.mismatches >= self.max_mismatches:
            return
        model = self.model
        try:
            if all(w.done for w in model.warps) and not model._start_round():
                self._fail("the FlexGripPlus commits after the model finished every block", dut, cycle)
                return
            if dut.warp >= len(model.warps):
                self._fail(f"FlexGripPlus commits for warp {dut.warp}, which the model has not placed (it has {len(model.warps)})", dut, cycle)
                return
            want = model.step(model.warps[dut.warp])
        except ModelError as exc:
            self._fail(f"the golden model cannot follow FlexGripPlus: {exc}", dut, cycle)
            return
        assert want is not None
        self.history.setdefault(dut.warp, deque(maxlen=HISTORY)).append(f"{want.pc:04x}  {want.text}")
        diffs = compare(want, dut, shbase)
        if diffs:
            self._fail(f"{', '.join(d.field for d in diffs)} differ{'s' if len(diffs) == 1 else ''}", dut, cycle, want.text, diffs)
            return
        self.compared += 1
        self.ap.write((want, dut))

    def _fail(self, message: str, dut: Commit, cycle: int, text: str = "", diffs: list[FieldDiff] | None = None) -> None:
        self.verdict.mismatches += 1
        report = FailureReport("mismatch", message, cycle=cycle, cta=dut.cta, warp=dut.warp, pc=dut.pc, text=text, diffs=diffs or [],
                               history=list(self.history.get(dut.warp, [])), mismatches=self.verdict.mismatches)  # fmt: skip
        if self.verdict.report is not None:
            self.verdict.report.mismatches = self.verdict.mismatches
            self.logger.error(report.to_text())
        if self.verdict.mismatches >= self.max_mismatches or self.verdict.report is None:
            self.verdict.fail(report)


class FlexgripEnv(uvm_env):
    def __init__(self, name: str, parent, dut, model, verdict: Verdict, settings: dict) -> None:
        super().__init__(name, parent)
        self.dut, self.model, self.verdict, self.settings = dut, model, verdict, settings

    def build_phase(self) -> None:
        s = self.settings
        self.loader = FlexgripLoader("loader", self, self.dut)
        self.monitor = FlexgripMonitor("monitor", self, self.dut, self.error)
        self.scoreboard = FlexgripScoreboard("scoreboard", self, self.model, self.verdict, s["max_mismatches"])

    def connect_phase(self) -> None:
        self.monitor.ap.connect(self.scoreboard.analysis_export)

    def error(self, exc: Exception) -> None:
        cycle = self.monitor.cycle()
        if isinstance(exc, UnknownField):
            history = list(self.scoreboard.history.get(exc.warp, [])) if exc.warp is not None else []
            self.verdict.fail(FailureReport("x_or_z", str(exc), cycle=exc.cycle, warp=exc.warp, pc=exc.pc, history=history))
        else:
            self.verdict.fail(FailureReport("testbench", f"{type(exc).__name__}: {exc}", cycle=cycle))


class FlexgripTest(uvm_test):
    """Run PROGRAM on FlexGripPlus in lock-step with the golden model (flexgrip profile)."""

    def build_phase(self) -> None:
        env = os.environ
        self.dut = cocotb.top
        self.program = Path(env["PROGRAM"])
        self.settings = {
            "max_mismatches": int(env.get("MAX_MISMATCHES", "1")),
            "watchdog": int(env.get("WATCHDOG_CYCLES", "200000")),
        }
        self.image = flexgrip_image(self.program, FLEXGRIP, int(env.get("NUM_SP", "8")))
        self.model = self.image.model
        self.ended = Event()
        context = {"test": self.program.stem, "seed": 0, "simulator": "ghdl", "num_sp": int(env.get("NUM_SP", "8")), "profile": FLEXGRIP.name,
                   "rerun": env.get("RERUN", "")}  # fmt: skip
        self.verdict = Verdict(context, self.ended.set)
        self.env = FlexgripEnv("env", self, self.dut, self.model, self.verdict, self.settings)

    async def run_phase(self) -> None:
        self.raise_objection()
        dut, env = self.dut, self.env
        cocotb.start_soon(Clock(dut.clk, PERIOD_NS, unit="ns", impl="gpi").start())
        for name in ("block_scheduler_en", "gmem_cntrl_en", "cmem_cntrl_en", "sysmem_cntrl_en", "config_cntrl_en", "config_cs", "gmem_wr_en",
                     "cmem_wr_en", "sysmem_wr_en"):  # fmt: skip
            getattr(dut, name).value = 0
        dut.config_rw.value = 1
        for name in ("config_adr", "config_wr_data", "gmem_addr", "gmem_wr_data", "cmem_addr", "cmem_wr_data", "sysmem_addr", "sysmem_wr_data"):
            getattr(dut, name).value = 0
        dut.reset.value = 1
        await ClockCycles(dut.clk, 3)
        dut.reset.value = 0
        await RisingEdge(dut.clk)
        await env.loader.load(self.image)
        env.monitor.start(self.image.cores)
        await env.loader.start()
        self.start_cycle = env.monitor.cycle()
        self.done_cycle = None
        await self._until_end()
        self.final = None
        if self.verdict.report is None:
            await Timer(1, "ns")
            addrs = np.arange(self.image.readback, dtype=np.int64)
            self.final = await env.loader.read_global(addrs)
        self.drop_objection()

    async def _until_end(self) -> None:
        dut, sb = self.dut, self.env.scoreboard
        watchdog = self.settings["watchdog"]
        seen = -1
        while self.verdict.report is None:
            fired = await First(self.ended.wait(), RisingEdge(dut.kernel_done), Timer(watchdog * PERIOD_NS, "ns"))
            if self.verdict.report is not None:
                return
            if isinstance(fired, Timer):
                progress = sb.compared + self.verdict.mismatches
                if progress == seen:
                    self.verdict.fail(FailureReport("hang", f"no commit for {watchdog} cycles", cycle=self.env.monitor.cycle(), warps=self.model.last_pcs()))
                    return
                seen = progress
                continue
            await ReadOnly()
            if int(dut.kernel_done.value):
                self.done_cycle = self.env.monitor.cycle()
                await RisingEdge(dut.clk)
                return

    def check_phase(self) -> None:
        sb, model = self.env.scoreboard, self.model
        mem = {"compared": 0, "undefined": 0}
        if self.verdict.report is None:
            problems = []
            if model.next_block < model.launch.num_blocks:
                problems.append(FieldDiff("blocks", f"{model.launch.num_blocks} blocks run", f"kernel_done after {model.next_block}"))
            unfinished = [w.wid for w in model.warps if not w.done]
            if unfinished:
                problems.append(FieldDiff("warps done", "every warp finished", f"the model has unfinished warps {unfinished}"))
            want = self.image.gmem.data[: len(self.final)].astype(np.int16)
            undefined = self.final < 0
            mem = {"compared": int((~undefined).sum()), "undefined": int(undefined.sum())}
            diff = np.flatnonzero((self.final != want) & ~undefined)
            if diff.size:
                a = int(diff[0])
                problems.append(FieldDiff("global memory", f"byte {a:#x} = {int(want[a]):#04x}", f"{int(self.final[a]):#04x} ({diff.size} bytes differ)"))
            if sb.compared == 0:
                problems.append(FieldDiff("commits", "at least one compared commit", "none"))
            if problems:
                self.verdict.fail(FailureReport("end_of_test", "end-of-test checks failed", cycle=self.env.monitor.cycle(), diffs=problems,
                                                warps=model.last_pcs()))  # fmt: skip
        cycles = (self.done_cycle or self.env.monitor.cycle()) - self.start_cycle
        result = {"status": "fail" if self.verdict.report else "pass", "commits": sb.compared, "cycles": cycles,
                  "thread_instructions": int(model.thread_steps), "global_bytes": mem,
                  "report": json.loads(self.verdict.report.to_json()) if self.verdict.report else None}  # fmt: skip
        out = os.environ.get("RESULT")
        if out:
            Path(out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        if self.verdict.report:
            raise AssertionError("\n" + self.verdict.report.to_text())
        self.logger.info(f"{sb.compared} commits compared in lock-step, {cycles} cycles")
