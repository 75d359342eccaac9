"""cocotb: run a program on sm_top in lock-step with the golden model.

The RTL leads: for every commit record on the commit port the golden model executes the next
instruction of the same warp (SM.step) and the two records are compared field by field
(DESIGN.md sections 4-6). Environment: PROGRAM (path to a programs/*.sass), SEED, MAX_LATENCY.
"""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, ReadOnly, RisingEdge, Timer, ValueChange

from golden.profile import G80
from golden.program import load_program
from golden.run import build
from golden.sm import SM

WATCHDOG = int(os.environ.get("WATCHDOG_CYCLES", "200000"))


def lanes(value: int, mask: int, width: int = 32) -> list[int]:
    m = (1 << width) - 1
    return [(value >> (width * i)) & m if mask >> i & 1 else 0 for i in range(32)]


class Mismatch(AssertionError):
    pass


class Memory:
    """The testbench's global and local memories, serving the DUT's memory port."""

    def __init__(self, image: np.ndarray, local_bytes: int, threads: int) -> None:
        self.glob = image.copy()
        self.local = np.zeros(max(local_bytes * threads, 4), np.uint8)

    def access(self, local: bool, addr: int, be: int, we: bool, data: int) -> int:
        mem = self.local if local else self.glob
        if addr + 4 > mem.size:
            raise Mismatch(f"DUT accessed {'local' if local else 'global'} memory at {addr:#x}, beyond {mem.size:#x}")
        if we:
            for k in range(4):
                if be >> k & 1:
                    mem[addr + k] = (data >> (8 * k)) & 0xFF
            return 0
        return int.from_bytes(mem[addr : addr + 4].tobytes(), "little")


async def serve_memory(dut, mem: Memory, rng: random.Random, max_latency: int, ready_p: float) -> None:
    """Accept requests (with random back-pressure) and answer loads after a random latency.

    The handshake is sampled in the read-only phase before each clock edge (what the DUT sees at
    that edge); outputs change right after the edge. Python sleeps while nothing is pending.
    """
    pending: deque[tuple[int, int, int]] = deque()  # (due cycle, tag, data)
    cycle = 0
    ready = 0
    dut.mem_req_ready.value = 0
    dut.mem_rsp_valid.value = 0
    sampled = False
    while True:
        if not sampled:
            await ReadOnly()
        sampled = False
        requested = int(dut.mem_req_valid.value)
        fire = ready and requested
        if fire:
            req = (bool(int(dut.mem_req_local.value)), int(dut.mem_req_addr.value), int(dut.mem_req_be.value),
                   bool(int(dut.mem_req_we.value)), int(dut.mem_req_wdata.value), int(dut.mem_req_tag.value))  # fmt: skip
        await RisingEdge(dut.clk)
        cycle += 1
        if fire:
            local, addr, be, we, wdata, tag = req
            data = mem.access(local, addr, be, we, wdata)
            if not we:
                due = max(cycle + rng.randint(1, max_latency), pending[-1][0] + 1 if pending else 0)
                pending.append((due, tag, data))
        if pending and pending[0][0] <= cycle:
            _, tag, data = pending.popleft()
            dut.mem_rsp_valid.value = 1
            dut.mem_rsp_tag.value = tag
            dut.mem_rsp_data.value = data
        else:
            dut.mem_rsp_valid.value = 0
        ready = 1 if rng.random() < ready_p else 0
        dut.mem_req_ready.value = ready
        if not pending and not requested:
            # idle: let a response just driven be seen (not ready meanwhile: that edge is not
            # sampled), then sleep until the next request
            ready = 0
            dut.mem_req_ready.value = 0
            await RisingEdge(dut.clk)
            cycle += 1
            dut.mem_rsp_valid.value = 0
            await ReadOnly()
            if int(dut.mem_req_valid.value):
                sampled = True  # already in the read-only phase: sample this request now
            else:
                await RisingEdge(dut.mem_req_valid)


def compare(dut, model: SM, history: deque) -> int:
    """Compare the DUT's commit record with the model's next instruction of the same warp."""
    if all(w.done for w in model.warps) and not model._start_round():
        raise Mismatch("the RTL commits after the model finished every block")
    warp = model.warps[int(dut.commit_warp.value)]
    pc = int(dut.commit_pc.value)
    where = f"warp {warp.wid} PC {pc:#06x}"
    if int(dut.commit_unimpl.value):
        raise Mismatch(f"{where}: the RTL does not implement {model.plan(pc).text}")
    got_seq = int(dut.commit_seq.value)
    plan = model.plan(pc)
    if plan.insn.form.name == "S2R" and plan.insn.fields["sreg"] == 1:
        # the clock cannot be known by the model: take the RTL's values (DESIGN.md 5), marked synchronised
        model.sync_clock = lanes(int(dut.commit_gpr_data.value), 0xFFFFFFFF)
    c = model.step(warp)
    assert c is not None
    text = c.text
    history.append((warp.wid, pc, text))
    problems = []

    def check(name: str, got: object, want: object) -> None:
        if got != want:
            problems.append(f"{name}: rtl {got!r} model {want!r}")

    check("pc", pc, c.pc)
    check("seq", got_seq, c.seq)
    check("active_mask", int(dut.commit_active.value), c.active_mask)
    check("exec_mask", int(dut.commit_exec.value), c.exec_mask)
    exe = c.exec_mask
    gprs = [w for w in c.gpr]
    if int(dut.commit_gpr_we.value) or gprs:
        data = int(dut.commit_gpr_data.value)
        count = int(dut.commit_gpr_count.value)
        half = ("", "L", "H")[int(dut.commit_gpr_half.value)] or None
        rtl = [(int(dut.commit_gpr_reg.value) + k, half, lanes(data >> (1024 * k), exe)) for k in range(count)] if int(dut.commit_gpr_we.value) else []
        want = [(w.index, w.half, [int(x) for x in w.values]) for w in gprs]
        check("gpr", rtl, want)
    if int(dut.commit_cc_we.value) or c.cc:
        rtl = [(int(dut.commit_cc_reg.value), lanes(int(dut.commit_cc_data.value), exe, 4))] if int(dut.commit_cc_we.value) else []
        check("cc", rtl, [(w.index, [int(x) for x in w.values]) for w in c.cc])
    if int(dut.commit_a_we.value) or c.addr:
        rtl = [(int(dut.commit_a_reg.value), lanes(int(dut.commit_a_data.value), exe, 16))] if int(dut.commit_a_we.value) else []
        check("addr", rtl, [(w.index, [int(x) for x in w.values]) for w in c.addr[-1:]])
    if int(dut.commit_mem_we.value) or c.mem:
        space = ("shared", "global", "local")[int(dut.commit_mem_space.value)]
        m = int(dut.commit_mem_lanes.value)
        rtl = [(space, int(dut.commit_mem_size.value), m, lanes(int(dut.commit_mem_addr.value), m))] if int(dut.commit_mem_we.value) else []
        want = [(w.space, w.size if len(c.mem) == 1 else 4 * len(c.mem), w.lanes, [int(x) for x in w.addr]) for w in c.mem[:1]]
        check("mem", rtl, want)
    check("next_pc", int(dut.commit_next_pc.value), c.next_pc)
    check("next_mask", int(dut.commit_next_mask.value), c.next_mask)
    check("done", bool(int(dut.commit_done.value)), c.done)
    if problems:
        last = "\n".join(f"    warp {w} {p:04x}  {t}" for w, p, t in list(history)[-8:])
        raise Mismatch(f"mismatch at {where}: {text}\n  " + "\n  ".join(problems) + f"\n  last instructions:\n{last}")
    return 1


@cocotb.test()
async def lockstep(dut) -> None:
    spec = load_program(os.environ["PROGRAM"])
    seed = int(os.environ.get("SEED", "1"))
    rng = random.Random(seed)
    model, gmem = build(spec, G80)
    mem = Memory(gmem.data, model.config.local_bytes, model.regs.shape[1])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst_n.value = 0
    dut.cfg_we.value = 0
    dut.start.value = 0
    dut.mem_req_ready.value = 0
    dut.mem_rsp_valid.value = 0
    await ClockCycles(dut.clk, 2)
    dut.rst_n.value = 1

    async def cfg(sel: int, addr: int, value: int) -> None:
        dut.cfg_we.value = 1
        dut.cfg_sel.value = sel
        dut.cfg_addr.value = addr
        dut.cfg_wdata.value = value & 0xFFFFFFFF
        await RisingEdge(dut.clk)

    for i, w in enumerate(spec.program.words):
        await cfg(0, i, w)
    for bank, offset, data in spec.consts:
        raw = np.frombuffer(data + b"\0" * (-len(data) % 4), "<u4")
        for k, word in enumerate(raw):
            await cfg(1, bank << 16 | (offset // 4 + k), int(word))
    params = spec.param_bytes(G80.param_slot_bytes_pointer)
    launch = [spec.grid[0], spec.grid[1], *spec.block, spec.registers, spec.shared, len(params), model.config.local_bytes]
    for k, value in enumerate(launch):
        await cfg(2, k, value)
    pwords = np.frombuffer(params + b"\0" * (-len(params) % 4), "<u4")
    for k, word in enumerate(pwords):
        await cfg(2, 16 + k, int(word))
    dut.cfg_we.value = 0
    dut.start.value = 1
    await RisingEdge(dut.clk)
    dut.start.value = 0

    cocotb.start_soon(serve_memory(dut, mem, rng, int(os.environ.get("MAX_LATENCY", "8")), float(os.environ.get("READY_P", "0.8"))))
    history: deque = deque(maxlen=8)
    commits = 0
    while True:
        edge = await First(RisingEdge(dut.commit_valid), RisingEdge(dut.done), ValueChange(dut.error), Timer(WATCHDOG * 10, "ns"))
        await Timer(1, "ns")
        if int(dut.error.value):
            raise Mismatch(f"RTL error {int(dut.error.value)} at PC {int(dut.error_pc.value):#06x} warp {int(dut.error_warp.value)}")
        if int(dut.commit_valid.value):
            commits += compare(dut, model, history)
            continue
        if int(dut.done.value):
            break
        if isinstance(edge, Timer):
            raise Mismatch(f"hang: no commit for {WATCHDOG} cycles; warps at " + model.last_pcs())
    # end of test: every block dispatched and every warp done on both sides, equal memory (DESIGN.md 5)
    assert model.next_block >= model.launch.num_blocks, "the RTL finished before the model ran every block"
    assert commits > 0, "no commit was compared"
    unfinished = [w.wid for w in model.warps if not w.done]
    assert not unfinished, f"the model has warps that did not finish: {unfinished}"
    assert np.array_equal(mem.glob, gmem.data), "final global memory differs between RTL and model"
    cycles = int(dut.cycle.value)
    dut._log.info(f"{commits} commits compared, {cycles} cycles")
    summary = os.environ.get("SUMMARY")
    if summary:
        with open(summary, "w", encoding="utf-8") as fh:
            fh.write(f"{commits} {cycles}\n")
