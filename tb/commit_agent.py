"""The commit agent: reads the DUT's commit port (DESIGN.md section 4, rtl/README.md) into records.

`CommitMonitor` (cocotb-bus) wakes on a rising `commit_valid` and then once per clock while it
stays high (back-to-back commits), samples the fields in the read-only phase (a field qualified
by a write enable only while that enable is 1), checks that none it read is X or Z, and hands an
`RtlCommit` to its callback: the rtl adapter (tb/adapters/rtl.py), which turns it into the golden model's `Commit`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from cocotb.triggers import ReadOnly, RisingEdge
from cocotb_bus.monitors import BusMonitor

from golden.hw import commit_field_names, commit_qualified

from .dut import UnknownValue
from .mem_agent import Cycles

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


# the write enables, and the fields read on every record (the enables among them)
ENABLES = tuple(QUALIFIED)
UNQUALIFIED = tuple(name for name in FIELDS if not any(name in fields for fields in QUALIFIED.values()))


def _reader(handle) -> Callable[[], int]:
    """A function returning the signal's value as an int, raising ValueError on X or Z.

    It reads the simulator's binary string through cocotb's GPI handle and converts it with
    int(s, 2): `handle.value` builds a LogicArray first, which cost about 17 us for each of the
    1,024-4,096-bit lane vectors (issue 19); int() of the string raises on x/z like
    `is_resolvable` would."""
    binstr = handle._handle.get_signal_val_binstr  # cocotb's own reader of LogicArrayObject.get()

    def read() -> int:
        return int(binstr(), 2)

    return read


class CommitMonitor(BusMonitor):
    _signals: ClassVar[list[str]] = ["valid", *FIELDS]

    def __init__(self, dut, clock, cycles: Cycles, callback: Callable[[RtlCommit], None], on_error: Callable[[Exception], None]) -> None:
        self.cycles = cycles
        self.on_error = on_error
        super().__init__(dut, "commit", clock, callback=callback)
        self._read = {name: _reader(getattr(self.bus, name)) for name in FIELDS}
        self._always = [(name, self._read[name]) for name in UNQUALIFIED]
        self._qualified = [(we, [(name, self._read[name]) for name in fields]) for we, fields in QUALIFIED.items()]

    def _sample(self) -> RtlCommit:
        """The record on the port. A field qualified by a write enable is read only while its enable
        is 1 (or X: then it is read to be named too); otherwise it is 0, as don't-care. Most
        records write one register, so most of the wide lane vectors are never read."""
        values: dict[str, int] = {}
        unknown: list[str] = []
        for name, read in self._always:
            try:
                values[name] = read()
            except ValueError:  # X or Z
                unknown.append(name)
                values[name] = 0
        for we, fields in self._qualified:
            if values[we] == 0 and we not in unknown:
                for name, _ in fields:
                    values[name] = 0
                continue
            for name, read in fields:
                try:
                    values[name] = read()
                except ValueError:
                    unknown.append(name)
                    values[name] = 0
        cycle = self.cycles.now()
        if unknown:
            known = {k: None if k in unknown else values[k] for k in ("warp", "pc", "cta")}
            where = f"warp {known['warp']} PC {known['pc']:#06x}" if None not in (known["warp"], known["pc"]) else "warp/PC unknown"
            raise UnknownValue(cycle, [n for n in FIELDS if n in unknown], where, **known)
        return RtlCommit(cycle, **values)

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
