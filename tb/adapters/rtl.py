"""The `rtl` DUT: the Verilog SM of rtl/ (top level sm_top, files in rtl/sm.f) on Icarus or Verilator.

Its pins (docs/design/rtl.md, "Ports"): the configuration bus loads the program, constant banks,
launch registers and parameters; the memory port is served by the testbench (`MemoryPort`,
tb/mem_agent.py: random latency and back-pressure); the commit port (`CommitMonitor`,
tb/commit_agent.py) gives one record per warp-instruction, turned here into the golden model's
`Commit` (`to_dut_commit`).
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

import numpy as np
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, ValueChange

from golden.g80.commit import Commit, MemWrite, RegWrite
from golden.g80.hw import CfgSel, GprHalf, LaunchReg, MemSpace, error_message

from ..bus import BusDriver
from ..commit_agent import CommitMonitor, RtlCommit, gpr_parts, mem_parts
from ..config import LockstepConfig
from ..dut import DutAdapter, DutBfm, DutCommit, DutEnd, DutSink, LaunchConfig
from ..mem_agent import Cycles, MemoryPort, TbMemory
from ..runner import SM_FILE_LIST, build, read_file_list, run, wave_file

SPACES = {s: s.name.lower() for s in MemSpace}  # commit_mem_space -> the model's space name
HALVES = {GprHalf.FULL: None, GprHalf.LOW: "L", GprHalf.HIGH: "H"}  # commit_gpr_half -> the model's half
TOPLEVEL = "sm_top"

# -- commit port -> Commit ----------------------------------------------------------------------------

_BITS = np.arange(32, dtype=np.uint64)


@lru_cache(maxsize=4096)
def _keep(mask: int) -> np.ndarray:
    """0/1 per lane of a 32-bit lane mask, to zero the lanes outside it (cached: masks recur; never written to)."""
    return ((np.uint64(mask) >> _BITS) & np.uint64(1)).astype(np.uint32)


_PART = (1 << 1024) - 1  # one part of a lane vector: 32 lanes of 32 bits
_ALL_LANES = 0xFFFFFFFF


def _part(value: int, k: int) -> np.ndarray:
    """Part k (32 lanes of 32 bits, lane i at bit 1024k + 32i) of a packed lane vector. One part
    at a time from bytes: reshaping all four parts and taking one cost about 5 us a record."""
    return np.frombuffer(((value >> (1024 * k)) & _PART).to_bytes(128, "little"), "<u4")


def _narrow(value: int, width: int, keep: np.ndarray) -> np.ndarray:
    """32 lanes of `width` bits (4: flags, 16: address registers) from a packed lane vector, the
    lanes outside `keep` zeroed. Through bytes and numpy: a Python loop over the lanes cost about
    5 us a record."""
    raw = np.frombuffer(value.to_bytes(4 * width, "little"), np.uint8)
    if width == 4:  # two lanes a byte, the lower lane in the low nibble
        lanes = np.empty(32, np.uint32)
        lanes[0::2], lanes[1::2] = raw & 0xF, raw >> 4
    else:
        lanes = raw.view("<u2").astype(np.uint32)
    return lanes * keep


def to_dut_commit(r: RtlCommit) -> DutCommit:
    """The commit-port record as the golden model's record (docs/design/rtl.md, "Ports")."""
    keep = _keep(r.exec)
    c = Commit(r.cta, r.warp, r.seq, r.pc, r.insn if r.long else r.insn & 0xFFFFFFFF, 8 if r.long else 4, r.active, r.exec,
               r.next_pc, r.next_mask, bool(r.done), barrier=bool(r.barrier))  # fmt: skip
    if r.gpr_we:  # only the parts written (most writes: one of four)
        half = HALVES.get(r.gpr_half, "?")
        count = r.gpr_count
        if count == 1:  # most writes: one register, its data the low 1,024 bits (no list comprehension: about 1 us a record)
            if r.exec == _ALL_LANES:  # every lane kept: no multiply by the lane mask (about 1 us); writable like its product
                data = np.frombuffer(bytearray((r.gpr_data & _PART).to_bytes(128, "little")), "<u4")
            else:
                data = _part(r.gpr_data, 0) * keep
            c.gpr = [RegWrite("gpr", r.gpr_reg, data, half)]
        else:
            # the parts the monitor read and X-checked (commit_agent.PARTS); a count over 4 names registers without data
            c.gpr = [RegWrite("gpr", r.gpr_reg + k, _part(r.gpr_data, k) * keep if k < gpr_parts(count) else np.zeros(32, np.uint32), half)
                     for k in range(count)]  # fmt: skip
    if r.cc_we:
        c.cc = [RegWrite("cc", r.cc_reg, _narrow(r.cc_data, 4, keep))]
    if r.a_we:
        c.addr = [RegWrite("addr", r.a_reg, _narrow(r.a_data, 16, keep))]
    if r.mem_we:
        space = SPACES.get(r.mem_space, f"space {r.mem_space}")
        size = r.mem_size
        parts = (size + 3) // 4 if size > 4 else 1  # one record per 32-bit part, as the model's (the monitor read mem_parts(size) of them)
        lanes = _keep(r.mem_lanes)
        addr = _part(r.mem_addr, 0) * lanes
        c.mem = [MemWrite(space, min(size, 4), r.mem_lanes, (addr + np.uint32(4 * k)) * lanes, _part(r.mem_data, k) * lanes if k < mem_parts(size) else np.zeros(32, np.uint32))
                 for k in range(parts)]  # fmt: skip
    return DutCommit(r.cycle, c, unimplemented=bool(r.unimpl))


# -- the BFM ---------------------------------------------------------------------------------------------


class CfgDriver(BusDriver):
    """The configuration bus: one (select, address, value) write per clock."""

    _signals: ClassVar[list[str]] = ["we", "sel", "addr", "wdata"]

    async def _driver_send(self, transaction: tuple[int, int, int]) -> None:
        sel, addr, value = transaction
        self.bus.we.value = 1
        self.bus.sel.value = sel
        self.bus.addr.value = addr
        self.bus.wdata.value = value & 0xFFFFFFFF
        await RisingEdge(self.clock)
        self.bus.we.value = 0


def _words(data: bytes) -> list[int]:
    return [int(w) for w in np.frombuffer(data + b"\0" * (-len(data) % 4), "<u4")]


class RtlBfm(DutBfm):
    def __init__(self, dut, config: LockstepConfig, cycles: Cycles) -> None:
        super().__init__(dut, config, cycles)
        self.launch_config: LaunchConfig | None = None
        self.memory: TbMemory | None = None
        self.port: MemoryPort | None = None

    async def reset(self) -> None:
        dut = self.dut
        self.cycles.start_clock(dut.clk)  # cycle numbers and the memory agent's middle of a cycle count from its start
        dut.rst_n.value = 0
        dut.cfg_we.value = 0
        dut.start.value = 0
        dut.mem_req_ready.value = 0
        dut.mem_rsp_valid.value = 0
        await ClockCycles(dut.clk, 2)
        dut.rst_n.value = 1
        self.cfg = CfgDriver(dut, "cfg", dut.clk)

    async def load_instructions(self, words: list[int]) -> None:
        for i, w in enumerate(words):
            await self.cfg.send((CfgSel.IMEM, i, w))

    async def load_constants(self, bank: int, offset: int, data: bytes) -> None:
        for k, word in enumerate(_words(data)):
            await self.cfg.send((CfgSel.CMEM, bank << 16 | (offset // 4 + k), word))

    async def load_launch(self, launch: LaunchConfig) -> None:
        self.launch_config = launch
        regs = {LaunchReg.GRID_X: launch.grid[0], LaunchReg.GRID_Y: launch.grid[1], LaunchReg.BLOCK_X: launch.block[0],
                LaunchReg.BLOCK_Y: launch.block[1], LaunchReg.BLOCK_Z: launch.block[2], LaunchReg.REGISTERS: launch.registers,
                LaunchReg.SHARED: launch.shared, LaunchReg.PARAM_BYTES: launch.param_bytes, LaunchReg.LOCAL_BYTES: launch.local_bytes}  # fmt: skip
        for reg, value in regs.items():
            await self.cfg.send((CfgSel.LAUNCH, reg, value))

    async def load_params(self, params: bytes) -> None:
        for k, word in enumerate(_words(params)):
            await self.cfg.send((CfgSel.LAUNCH, LaunchReg.PARAMS + k, word))

    async def load_global(self, image: np.ndarray, threads: int) -> None:
        if self.launch_config is None:
            raise RuntimeError("the global memory item came before the launch configuration (local memory size unknown)")
        self.memory = TbMemory(image, self.launch_config.local_bytes, threads)  # served by the testbench, not loaded into the RTL

    def start_monitors(self, sink: DutSink) -> None:
        if self.memory is None:
            raise RuntimeError("start_monitors before the global memory item: nothing to serve")
        cfg = self.config
        self.port = MemoryPort(self.dut, self.memory, random.Random(cfg.seed), cfg.max_latency, cfg.ready_p, self.cycles, sink.store, sink.error,
                               cfg.mem_order)
        self.port.start()
        self.monitor = CommitMonitor(self.dut, self.dut.clk, self.cycles, lambda r: sink.commit(to_dut_commit(r)), sink.error)

    async def launch(self) -> None:
        self.dut.start.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.start.value = 0

    def end_triggers(self) -> list[object]:
        return [RisingEdge(self.dut.done), ValueChange(self.dut.error)]

    def end_state(self) -> DutEnd | None:
        dut = self.dut
        code = int(dut.error.value)
        if code:
            return DutEnd(False, f"the RTL stopped with error {code} ({error_message(code)})", int(dut.error_warp.value), int(dut.error_pc.value))
        if int(dut.done.value):
            return DutEnd(True)
        return None

    def settle(self) -> None:
        if getattr(self, "monitor", None) is not None:
            self.monitor.settle()

    async def drain(self) -> None:
        await RisingEdge(self.dut.clk)  # a commit in the same cycle as done is still being compared
        await ReadOnly()
        self.settle()

    async def read_global(self) -> np.ndarray:
        assert self.memory is not None
        return self.memory.glob

    def stop(self) -> None:
        if self.port is not None:
            self.port.stop()
        if getattr(self, "monitor", None) is not None:
            self.monitor.kill()

    @property
    def memory_requests(self) -> int:
        return self.port.requests if self.port is not None else 0

    @property
    def tb_memory(self) -> TbMemory | None:
        return self.memory

    @property
    def observes_stores(self) -> bool:
        return True


# -- host side -------------------------------------------------------------------------------------------


class RtlAdapter(DutAdapter):
    name = "rtl"
    simulators = ("verilator", "icarus")  # the first is make sim's default: Verilator is fast, Icarus has 4-state X
    hdl_toplevel = TOPLEVEL

    @staticmethod
    def parameters(config: LockstepConfig) -> tuple[tuple[str, object], ...]:
        return (("NUM_SP", config.num_sp),) if config.num_sp != 8 else ()

    def sources(self) -> list[Path]:
        return list(read_file_list(SM_FILE_LIST).sources)

    def build(self, config: LockstepConfig, waves: bool = False) -> Path:
        return build(config.sim, TOPLEVEL, read_file_list(SM_FILE_LIST), self.parameters(config), waves, config.defines, config.visibility)

    def run_test(self, config: LockstepConfig, test_dir: Path, waves: bool, plusargs: tuple[str, ...]) -> Path:
        return run(config.sim, TOPLEVEL, read_file_list(SM_FILE_LIST), "tb.test_sm", self.parameters(config), waves=waves, test_dir=test_dir,
                   defines=config.defines, plusargs=plusargs, visibility=config.visibility, rewrite_asserts=False)  # fmt: skip

    def wave_file(self, config: LockstepConfig, test_dir: Path) -> Path:
        return wave_file(config.sim, TOPLEVEL, test_dir)

    def bfm(self, dut, config: LockstepConfig, cycles: Cycles) -> RtlBfm:
        return RtlBfm(dut, config, cycles)
