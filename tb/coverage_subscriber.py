"""Functional coverage in the testbench: a pyuvm subscriber on the scoreboard's analysis port.

It samples the golden model's record of every commit the scoreboard compared equal (so what is
counted is what the RTL really did) into the ISA model (with the warp's SIMT stack depth) and the
architectural crosses (with the kind of the warp's top stack entry at issue), and, on the RTL,
starts the micro-architecture sampler (tb/coverage_uarch.py). At the end of a passing run it
saves PATH (ISA), PATH.cross.json and PATH.uarch.json; `make coverage` merges them with the
golden-model runs.

The micro-architecture counts are checked against counts made here from other sources, per run
(UarchCoverage.checks, shown in the report): commit records the scoreboard compared (the commit
monitor's cycles give the gaps), SFU/RRO commits x passes per instruction (the SFU sub-steps),
control commits (one X_CTRL cycle each), global/local access commits (one X_PASS -> X_MEM each)
and the memory agent's accepted requests.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cocotb
from pyuvm import ConfigDB, uvm_subscriber

from golden.coverage.uarch import EXEC, GAPS, MEM, SCHED, UarchCoverage, bucket_gap, sfu_steps
from golden.g80.coverage import Coverage, CrossCoverage
from golden.g80.coverage_sample import plan_word

from .config import CONFIG_KEY, LockstepConfig
from .scoreboard import Compared


def sibling(path: Path, kind: str) -> Path:
    """NAME.json -> NAME.KIND.json (the cross and micro-architecture files beside the ISA one)."""
    return path.with_name(f"{path.stem}.{kind}.json")


class CoverageSubscriber(uvm_subscriber):
    def __init__(self, name: str, parent, path: Path, run: str) -> None:
        super().__init__(name, parent)
        self.path = path
        self.coverage = Coverage(run)
        self.cross = CrossCoverage(run)
        self.uarch: UarchCoverage | None = None
        self.monitor = None
        self._top: dict[int, str | None] = {}
        self._last_cycle: int | None = None
        self.gaps: Counter = Counter()
        self.commits = 0
        self.families: Counter = Counter()
        self._family: dict[int, str] = {}

    def start_of_simulation_phase(self) -> None:
        config: LockstepConfig = ConfigDB().get(self, "", CONFIG_KEY)
        self.num_sp = config.num_sp
        if config.dut == "rtl":  # the table of tb/coverage_uarch.py names the Verilog SM's signals
            from .coverage_uarch import UarchMonitor

            self.uarch = UarchCoverage(config.coverage_run)
            self.monitor = UarchMonitor(cocotb.top)
            self._task = cocotb.start_soon(self.monitor.run())

    def write(self, item: Compared) -> None:
        c = item.model
        self.coverage.sample(c, item.stack_depth)
        self.cross.sample(c, item.stack_depth, self._top.get(c.warp))
        model = getattr(self.get_parent(), "model", None)  # the test's golden SM: the warp's stack after this step
        if model is not None:
            stack = model.warps[c.warp].stack
            self._top[c.warp] = stack[-1].kind if stack else None
        # independent counts for the micro-architecture checks: the commit monitor's cycles, the forms
        self.commits += 1
        cycle = item.dut.cycle
        if self._last_cycle is not None:
            self.gaps[bucket_gap(cycle - self._last_cycle)] += 1
        self._last_cycle = cycle
        fam = self._family.get(c.insn)
        if fam is None:
            form = plan_word(c.insn, c.size).insn.form
            fam = self._family[c.insn] = "sfu unit" if form.unit == "sfu" else form.family
        self.families[fam] += 1

    def report_phase(self) -> None:  # reached only when the run passed (check_phase raises otherwise)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.coverage.save(self.path)
        self.cross.save(sibling(self.path, "cross"))
        if self.uarch is not None and self.monitor is not None:
            self._task.cancel()
            u, mon = self.uarch, self.monitor
            mon.finish(u)
            if mon.enabled(SCHED, "commit gap"):
                u.check("commit records (commit_valid cycles vs records compared)", mon.commits, self.commits)
                for name in GAPS:
                    u.check(f"commit gap {name} (VPI vs commit record cycles)", u.count(f"{SCHED}/commit gap/{name}"), self.gaps[name])
            if mon.enabled(EXEC, "SFU sub-step"):
                passes = 32 // self.num_sp
                for k in range(sfu_steps()):
                    u.check(f"SFU sub-step {k} cycles (VPI vs SFU/RRO commits x 32/NUM_SP passes)",
                            u.count(f"{EXEC}/SFU sub-step/sub-step {k}"), self.families["sfu unit"] * passes)  # fmt: skip
            if mon.enabled(EXEC, "state"):
                # a control instruction spends exactly one cycle in X_CTRL; a global/local access goes X_PASS -> X_MEM once
                u.check("X_CTRL cycles (VPI vs control commits)", u.count(f"{EXEC}/state/X_CTRL"), self.families["control"])
                u.check("X_PASS -> X_MEM (VPI vs global/local access commits)", u.count(f"{EXEC}/transition/X_PASS -> X_MEM"),
                        sum(self.families[f] for f in ("gld", "gst", "lld", "lst")))  # fmt: skip
            bfm = getattr(getattr(self.get_parent(), "env", None), "bfm", None)
            if mon.enabled(MEM, "back-pressure wait") and bfm is not None:
                u.check("memory requests accepted (VPI vs the memory agent)", mon.requests, bfm.memory_requests)
            u.save(sibling(self.path, "uarch"))
