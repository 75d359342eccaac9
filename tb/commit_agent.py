"""The commit agent: reads the DUT's commit port (DESIGN.md section 4, rtl/README.md) into records.

`CommitMonitor` (cocotb-bus) wakes on a rising `commit_valid` and then once per clock while it
stays high (back-to-back commits), samples every field in the read-only phase, checks that none
is X or Z (fields qualified by a write enable only while it is 1), and hands an `RtlCommit` to `CommitAgent`, whose analysis port the scoreboard reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from cocotb.triggers import ReadOnly, RisingEdge
from cocotb_bus.monitors import BusMonitor
from mem_agent import Cycles
from pyuvm import uvm_analysis_port, uvm_component

from golden.hw import commit_field_names, commit_qualified

# commit port fields after the `commit_` prefix, in port order (golden/hw.py, from which the RTL's
# port declarations are generated too)
FIELDS = commit_field_names()


@dataclass
class RtlCommit:
    """One record of the commit port: the cycle, then FIELDS in order (tests/test_rtl_constants.py checks)."""

    cycle: int
    cta: int
    warp: int
    seq: int
    pc: int
    insn: int
    long: int
    active: int
    exec: int
    gpr_we: int
    gpr_reg: int
    gpr_half: int
    gpr_count: int
    gpr_data: int
    cc_we: int
    cc_reg: int
    cc_data: int
    a_we: int
    a_reg: int
    a_data: int
    mem_we: int
    mem_space: int
    mem_size: int
    mem_lanes: int
    mem_addr: int
    mem_data: int
    next_pc: int
    next_mask: int
    done: int
    barrier: int
    unimpl: int


# fields that carry meaning only while their write enable is 1 (don't-care otherwise, like a bus's data)
QUALIFIED = commit_qualified()


class UnknownValue(AssertionError):
    """X or Z on a field of a valid commit record."""

    def __init__(self, cycle: int, fields: list[str], where: str, warp: int | None = None, pc: int | None = None, cta: int | None = None) -> None:
        self.cycle, self.fields, self.warp, self.pc, self.cta = cycle, fields, warp, pc, cta
        super().__init__(f"cycle {cycle}: X/Z on commit port field(s) {', '.join('commit_' + f for f in fields)} ({where})")


class CommitMonitor(BusMonitor):
    _signals: ClassVar[list[str]] = ["valid", *FIELDS]

    def __init__(self, dut, clock, cycles: Cycles, callback: Callable[[RtlCommit], None], on_error: Callable[[Exception], None]) -> None:
        self.cycles = cycles
        self.on_error = on_error
        super().__init__(dut, "commit", clock, callback=callback)

    def _sample(self) -> RtlCommit:
        values = {}
        unknown = []
        for name in FIELDS:
            # int() raises on X/Z like is_resolvable, which would build a Logic object per bit of
            # the 1024-4096-bit lane vectors: that check took 85% of a lock-step run's time
            try:
                values[name] = int(getattr(self.bus, name).value)
            except ValueError:
                unknown.append(name)
                values[name] = 0
        for we, fields in QUALIFIED.items():
            if values[we] == 0 and we not in unknown:
                for name in fields:
                    if name in unknown:
                        unknown.remove(name)
        cycle = self.cycles.now()
        if unknown:
            known = {k: None if k in unknown else values[k] for k in ("warp", "pc", "cta")}
            where = f"warp {known['warp']} PC {known['pc']:#06x}" if None not in (known["warp"], known["pc"]) else "warp/PC unknown"
            raise UnknownValue(cycle, unknown, where, **known)
        return RtlCommit(cycle=cycle, **values)

    async def _monitor_recv(self) -> None:
        valid = self.bus.valid
        try:
            while True:
                await RisingEdge(valid)
                await ReadOnly()
                while True:
                    if not valid.value.is_resolvable:
                        raise UnknownValue(self.cycles.now(), ["valid"], "between commits")
                    if not int(valid.value):
                        break
                    self._recv(self._sample())
                    await RisingEdge(self.clock)
                    await ReadOnly()
        except Exception as exc:  # reported through the test's verdict, not lost in a background task
            self.on_error(exc)


class CommitAgent(uvm_component):
    """Publishes every record of the commit port on `ap`."""

    def __init__(self, name: str, parent, dut, cycles: Cycles, on_error: Callable[[Exception], None]) -> None:
        super().__init__(name, parent)
        self.dut, self.cycles, self.on_error = dut, cycles, on_error

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)

    def start(self) -> None:
        self.monitor = CommitMonitor(self.dut, self.dut.clk, self.cycles, self._publish, self.on_error)

    def _publish(self, record: RtlCommit) -> None:
        try:
            self.ap.write(record)
        except Exception as exc:
            self.on_error(exc)
