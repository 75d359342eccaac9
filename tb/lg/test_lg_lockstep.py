"""cocotb: the LG lock-step test. Started by tb/lg/lockstep.py (make sim ISA=lg), never by hand.

The DUT's ports are sampled at every clock edge by the generated top level's trace buffer
(tb/lg/harness.py `packed_top`): one entry per cycle with an event, handed over in batches. The
monitor wakes once per batch, reads it whole and gives each entry's events to the scoreboard
(tb/lg/scoreboard.py), which steps the golden model and compares: the frame-buffer event first,
then the commit, as they happened in that cycle. Each entry carries its cycle, so the report's
cycle and the hang and drain bounds are counted in clock cycles as before.

The run ends at the first failure, when the DUT has committed `done` and the frame buffer has
caught up, or when neither port moved for the hang bound. An X or Z on a valid commit's field,
on cm_valid itself or on a frame-buffer event's address or data ends it at once, naming the signal.
The outcome goes to the JSON file LG_RESULT: passed, commits compared, cycles, the report.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, ValueChange

from tb.lg.harness import CHUNK, COMMIT_FIELDS, COMMIT_WIDTHS, DEPTH, ENTRY_BITS, entry_layout
from tb.lg.program import load
from tb.lg.scoreboard import LgScoreboard, text_of
from tb.report import FailureReport

RESET_CYCLES = 3
MAT_BITS = COMMIT_WIDTHS["mat"]
_NOT_BINARY = re.compile("[^01]")
# after the done commit, the cycles the frame-buffer port gets to deliver what the model still
# expects (its writes are registered, so they trail the commit port)
DRAIN_CYCLES = 2000


def _x_report(cycle: int, name: str, value: str, pc: int | None = None, insn: int | None = None) -> FailureReport:
    if len(value) > 64:  # a wide bus (the matrix): which bits, not hundreds of characters
        bits = [len(value) - 1 - i for i, c in enumerate(value) if c not in "01"]
        value = f"X or Z in {len(bits)} of its {len(value)} bits (bits {min(bits)}..{max(bits)})"
    else:
        value = f"{value} (X or Z)"
    return FailureReport("x_or_z", f"{name} is {value} at cycle {cycle}: drive it to 0 or 1 (reset every register on the port's path)",
                         cycle=cycle, pc=pc, text=text_of(insn) if insn is not None else "")  # fmt: skip


def _resolve(bits: str, layout: dict[str, tuple[int, int]]) -> tuple[int, dict[str, str]]:
    """An entry with X or Z bits (its binary text, highest bit first): the value with those bits as
    0, and each signal that has one, with its text."""
    total, value, bad = len(bits), 0, {}
    for name, (lsb, width) in layout.items():
        text = bits[total - lsb - width : total - lsb]
        if set(text) - {"0", "1"}:
            bad[name] = text
            text = "".join(c if c in "01" else "0" for c in text)
        value |= int(text, 2) << lsb
    return value, bad


def _batch(bufs: list, count: int) -> str:
    """The text of a batch's first `count` entries (highest bit first), read from only the buses
    that hold them: a read costs more the wider it is, and most batches are not full."""
    used = (count + CHUNK - 1) // CHUNK
    return "".join(str(bufs[k].value) for k in reversed(range(used)))[-count * ENTRY_BITS :]


def _entries(text: str, count: int, layout: dict[str, tuple[int, int]]) -> list[tuple[int, dict[str, str]]]:
    """A batch's entries, first first, each as (value, signals with X or Z)."""
    if not _NOT_BINARY.search(text):
        n, mask = int(text, 2), (1 << ENTRY_BITS) - 1
        return [(n >> (i * ENTRY_BITS) & mask, {}) for i in range(count)]
    out = []
    for i in range(count):
        bits = text[len(text) - (i + 1) * ENTRY_BITS : len(text) - i * ENTRY_BITS]
        out.append(_resolve(bits, layout) if _NOT_BINARY.search(bits) else (int(bits, 2), {}))
    return out


def _first_x(n: int, bad: dict[str, str], layout: dict[str, tuple[int, int]]) -> str | None:
    """The first signal of an entry whose X or Z matters, in the order its events are taken: the
    frame-buffer strobes, a write's address and data, cm_valid, then a valid commit's fields in the
    port's order. X on a field no event uses (an idle write's address) does not matter."""
    for name in ("fb_we", "fb_clear", "fb_draw"):
        if name in bad:
            return name
    if n >> layout["fb_we"][0] & 1:
        for name in ("fb_addr", "fb_data"):
            if name in bad:
                return name
    if "cm_valid" in bad:
        return "cm_valid"
    if n >> layout["cm_valid"][0] & 1:
        return next((f"cm_{name}" for name in COMMIT_FIELDS if f"cm_{name}" in bad), None)
    return None


@cocotb.test()
async def lockstep(dut) -> None:
    cfg = json.loads(Path(os.environ["LG_CONFIG"]).read_text(encoding="utf-8"))
    out_dir = Path(cfg["out_dir"])
    test = load(cfg["program"])
    hang = int(cfg["hang_cycles"])
    sb = LgScoreboard(test, cfg["context"], out_dir)
    # in simulator steps: the LG RTL has no `timescale, and Icarus then cannot represent a period in ns
    cocotb.start_soon(Clock(dut.clk, 2, unit="step", impl="gpi").start())  # in C: Python is not woken per clock
    dut.rst.value = 1
    for _ in range(RESET_CYCLES):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    layout = entry_layout()
    bufs = [getattr(dut, f"tr_buf{k}") for k in range(DEPTH // CHUNK)]
    if any(len(b) != CHUNK * ENTRY_BITS for b in bufs):
        raise RuntimeError("the lock-step top level's trace buffer differs from tb/lg/harness.py ENTRY: rebuild it")
    fb = [(layout[name][0], kind) for name, kind in (("fb_we", "write"), ("fb_clear", "clear"), ("fb_draw", "draw"))]
    fb_bits = sum(1 << lsb for lsb, _ in fb)
    (pc_lsb, _), (insn_lsb, _) = layout["cm_pc"], layout["cm_insn"]
    mat_bits = 1 << layout["cm_mat_we"][0] | 1 << layout["mat_x"][0]
    (a_lsb, a_w), (d_lsb, d_w), (v_lsb, _), (c_lsb, c_w) = layout["fb_addr"], layout["fb_data"], layout["cm_valid"], layout["cycle"]
    commit_slices = [(name, layout[f"cm_{name}"][0], (1 << layout[f"cm_{name}"][1]) - 1) for name in COMMIT_FIELDS if name != "mat"]
    seq, count, now, tr_mat = dut.tr_seq, dut.tr_count, dut.tr_now, dut.tr_mat
    cycle = last_event = 0
    settle_from = done_at = None
    finished = stop = False
    while not stop:
        await ValueChange(seq)
        await ReadOnly()
        k = count.value.to_unsigned()
        mats, m = "", 0  # the batch's matrices, read when its first one is taken
        for n, bad in _entries(_batch(bufs, k), k, layout) if k else ():
            cycle = n >> c_lsb & ((1 << c_w) - 1)
            last_event = cycle
            valid = n >> v_lsb & 1
            mat = None
            if valid and n & mat_bits:  # a matrix written (cm_mat_we), or one with X (mat_x, four-state)
                mats = mats or str(tr_mat.value)
                text = mats[len(mats) - (m + 1) * MAT_BITS : len(mats) - m * MAT_BITS]
                m += 1
                if _NOT_BINARY.search(text):
                    bad = {**bad, "cm_mat": text}
                else:
                    mat = int(text, 2)
            if bad:
                x = _first_x(n, bad, layout)
                if x is not None:
                    pc = None if not valid or "cm_pc" in bad else n >> pc_lsb & 0xFFFF
                    insn = None if not valid or "cm_insn" in bad else n >> insn_lsb & 0xFFFFFFFF
                    sb.fail(_x_report(cycle, x, bad[x], pc, insn))
                    stop = True
                    break
            # the frame-buffer port's event, then the commit, as they happened in that cycle
            if n & fb_bits:
                for lsb, kind in fb:
                    if n >> lsb & 1:
                        if kind == "write":
                            sb.fb_event(cycle, ("write", n >> a_lsb & ((1 << a_w) - 1), n >> d_lsb & ((1 << d_w) - 1)))
                        else:
                            sb.fb_event(cycle, (kind,))
            if valid:
                record = {name: n >> lsb & mask for name, lsb, mask in commit_slices}
                if mat is not None:
                    record["mat"] = mat
                sb.commit(cycle, record)
            if sb.failed:
                stop = True
                break
            if sb.frame_fail is not None:
                settle_from = cycle if settle_from is None else settle_from
                if sb.settled(cycle - settle_from + 1):
                    stop = True
                    break
                continue
            if sb.done:
                done_at = cycle if done_at is None else done_at
                if not sb.pending_fb():
                    finished = stop = True
                    break
        if stop:
            break
        # time without events: the frame buffer's drain, a frame mismatch's settling, the hang bound
        cycle = max(cycle, now.value.to_unsigned())
        if sb.frame_fail is not None:
            settle_from = cycle if settle_from is None else settle_from
            stop = sb.settled(cycle - settle_from + 1)
        elif sb.done:
            done_at = cycle if done_at is None else done_at
            finished = stop = not sb.pending_fb() or cycle - done_at + 1 > DRAIN_CYCLES
        elif cycle - last_event > hang:
            stop = True
    sb.end(cycle, finished or sb.done, hang)
    result = {"passed": sb.report is None, "commits": sb.commits, "cycles": cycle, "fb_writes": sb.fb_writes,
              "report": asdict(sb.report) if sb.report else None}  # fmt: skip
    Path(os.environ["LG_RESULT"]).write_text(json.dumps(result), encoding="utf-8")
