"""cocotb: run the program the core loads (+imem/+ilen/+dmem, written by tb/lg/harness.py) until a
commit record says done, recording every commit record and frame-buffer event.

Writes JSON to the file named by LG_TRACE: {"commits": [...], "fb": [...], "finished": bool,
"cycles": n}. Started by tb/lg/harness.py, never by hand. LG_MAX_CYCLES bounds the run (a core
that never finishes ends with finished = false).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from tb.lg.harness import COMMIT_FIELDS

# cycles run after done: the frame-buffer port is registered, so its last event trails the record
TAIL_CYCLES = 4


def read(sig: Any) -> int:
    """The signal's value as an unsigned int (a one-bit signal's value is a Logic, a wider one's a LogicArray)."""
    v = sig.value
    return int(v) if len(sig) == 1 else v.to_unsigned()


@cocotb.test()
async def run_program(dut: Any) -> None:
    out = Path(os.environ["LG_TRACE"])
    max_cycles = int(os.environ.get("LG_MAX_CYCLES", "2000000"))
    cocotb.start_soon(Clock(dut.clk, 2, unit="step", impl="gpi").start())  # in C: Python is not woken per clock
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    commit = [(name, getattr(dut, f"cm_{name}")) for name in COMMIT_FIELDS]
    valid, fb_we, fb_clear, fb_draw = dut.cm_valid, dut.fb_we, dut.fb_clear, dut.fb_draw
    commits: list[dict[str, int]] = []
    fb: list[list] = []
    finished, cycles, tail = False, 0, TAIL_CYCLES
    while cycles < max_cycles and tail > 0:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycles += 1
        if finished:
            tail -= 1
        if read(fb_we):
            fb.append(["write", read(dut.fb_addr), read(dut.fb_data)])
        if read(fb_clear):
            fb.append(["clear"])
        if read(fb_draw):
            fb.append(["draw"])
        if read(valid):
            record = {name: read(sig) for name, sig in commit}
            commits.append(record)
            finished = finished or bool(record["done"])
    out.write_text(json.dumps({"commits": commits, "fb": fb, "finished": finished, "cycles": cycles}), encoding="utf-8")
