"""The commit agent: reads the DUT's commit port (DESIGN.md section 4, rtl/README.md) into records.

`CommitMonitor` (cocotb-bus) wakes on a rising `commit_valid` and then once per clock while it
stays high (back-to-back commits), samples every field in the read-only phase, checks that none
is X or Z (fields qualified by a write enable only while it is 1), and hands an `RtlCommit` to its
callback: the rtl adapter (tb/adapters/rtl.py), which turns it into the golden model's `Commit`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from cocotb.triggers import ReadOnly, RisingEdge
from cocotb_bus.monitors import BusMonitor

from .dut import UnknownValue
from .mem_agent import Cycles

# commit port fields after the `commit_` prefix, in rtl/README.md order
FIELDS = (
    "cta", "warp", "seq", "pc", "insn", "long", "active", "exec",
    "gpr_we", "gpr_reg", "gpr_half", "gpr_count", "gpr_data",
    "cc_we", "cc_reg", "cc_data", "a_we", "a_reg", "a_data",
    "mem_we", "mem_space", "mem_size", "mem_lanes", "mem_addr", "mem_data",
    "next_pc", "next_mask", "done", "barrier", "unimpl",
)  # fmt: skip


@dataclass
class RtlCommit:
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
QUALIFIED = {
    "gpr_we": ("gpr_reg", "gpr_half", "gpr_count", "gpr_data"),
    "cc_we": ("cc_reg", "cc_data"),
    "a_we": ("a_reg", "a_data"),
    "mem_we": ("mem_space", "mem_size", "mem_lanes", "mem_addr", "mem_data"),
}


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
