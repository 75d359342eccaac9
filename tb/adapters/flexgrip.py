"""The `flexgrip` DUT: FlexGripPlus 4.4 (VHDL, read from FLEXGRIP_DIR) under GHDL.

Host side (tb/adapters/flexgrip_build.py): FlexGripPlus's own file list and order, our top
hdl/flexgrip/fg_top.vhd, a generated pick_bench package for the SP count. The run directory gets
the memories' initialisation files: `global_mem.mif` holds the program's global image, as
FlexGripPlus's own testbench gives it (the other .mif files are empty).

Simulator side (`FlexgripBfm`): loads the program through FlexGripPlus's host ports the way its
testbench does (instruction words through the instruction memory port, configuration registers,
constant bytes through the constant memory port, the block scheduler's enable as the start), and
turns what the probe (tb/adapters/flexgrip_probe.py) sees into DutCommits. FlexGripPlus writes
global memory byte by byte: those bytes go to the scoreboard's memory-port check, and the final
global memory is read back through the host port.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, Timer

from golden.g80.state import FLEXGRIP_SM, Launch

from ..config import LockstepConfig
from ..dut import DutAdapter, DutBfm, DutCommit, DutEnd, DutSink, LaunchConfig
from ..mem_agent import Cycles, MemRequest
from .flexgrip_build import GHDL_FLAGS, TOP, WRAPPER, backend_env, build, flexgrip_dir, prepare_run, run_args, source_list, unlimited_stack
from .flexgrip_build import check_available as _checkout_and_ghdl
from .flexgrip_probe import Probe, to_commit

CONFIG_PARAMS = 0x20  # configuration register of parameter word 0
R2A_SOURCE_BITS = 6  # pipeline_decode.vhd, src1_i for R2A (ADDRESS_MEM): instruction_in(14 downto 9)
CONST_BYTES = 8 * 1024  # FlexGripPlus's constant memory: one flat space
READBACK_MAX = 64 * 1024  # global bytes read back through the host port (the rest: the probe's record of writes)
UNCHECKED = frozenset({"seq", "mem"})  # no sequence counter; stores are checked as bytes at the memory (observes_stores)


def cores_of(config: LockstepConfig) -> int:
    """The SP count: a bundle's own (its pick_bench), else NUM_SP."""
    if config.program.endswith(".txt"):
        import re

        m = re.search(r"CORES\(SPs\)=(\d+)", Path(config.program).read_text(encoding="utf-8"))
        if m:
            return int(m.group(1))
    return config.num_sp


def decode_departures(words: list[int], where: object) -> None:
    """NotRunnable naming the first instruction whose operand FlexGripPlus's decoder reads from fewer bits
    than G80 (FlexGripPlus 4.4, RTL/SMP/Pipeline/Decode/pipeline_decode.vhd), where what it reads instead
    depends on the warp layout of its register file, so the model cannot follow it.

    R2A An, Rk: the source register comes from bits 14:9, six of the field's seven bits, so Rk with k >= 64
    reads R(k-64): `R2A A2, R124` (zeroing an address register on G80) reads R60, not the zero
    register, which is another warp's register when a warp has fewer than 61 (nbody: warp 0's R60 is
    block 1's R12, so FlexGripPlus set $a2 = 0x100 + 0x10 lane). A shared-memory source (g [n]) is the
    waiver r2a_shared_source's."""
    from golden.g80.decoder import IllegalInstruction, decode_program
    from golden.g80.flexgrip_export import NotRunnable

    try:
        insns = decode_program(words)
    except IllegalInstruction:
        return  # the lock-step reports an illegal word where it is fetched
    for insn in insns:
        f = insn.fields
        if insn.form.name == "R2A" and not f.get("src1_s") and f["src1"] >> R2A_SOURCE_BITS:
            raise NotRunnable(f"{where}: {insn.text} at {insn.addr or 0:#06x}: FlexGripPlus 4.4 decodes R2A's source register from bits 14:9 "
                              f"(six bits, pipeline_decode.vhd src1_i for ADDRESS_MEM), so it reads R{f['src1'] & 63} where G80 reads "
                              f"R{f['src1']}{' (the zero register)' if f['src1'] == 124 else ''}")  # fmt: skip


def check_runnable(path: Path, cores: int | None = None) -> None:
    """Refuse up front, with the reason naming what does not fit, a program (.sass) or bundle (.txt) that
    FlexGripPlus cannot run as given: the loader's limits and its unimplemented instructions
    (golden.g80.flexgrip_export.flexgrip_image), then the decode departures above."""
    from golden.g80.flexgrip_export import flexgrip_image

    image = flexgrip_image(path, cores=cores)
    decode_departures(image.words, path)


class FlexgripBfm(DutBfm):
    def __init__(self, dut, config: LockstepConfig, cycles: Cycles) -> None:
        super().__init__(dut, config, cycles)
        self.cores = cores_of(config)
        self.const_owner: dict[int, int] = {}
        self.image: np.ndarray | None = None
        self.written: dict[int, int] = {}  # global bytes written, as the probe saw them
        self.requests = 0

    async def reset(self) -> None:
        dut = self.dut
        self.cycles.start_clock(dut.clk)
        for name in ("block_scheduler_en", "gmem_cntrl_en", "cmem_cntrl_en", "sysmem_cntrl_en", "config_cntrl_en", "config_cs", "gmem_wr_en",
                     "cmem_wr_en", "sysmem_wr_en", "config_adr", "config_wr_data", "gmem_addr", "gmem_wr_data", "cmem_addr", "cmem_wr_data",
                     "sysmem_addr", "sysmem_wr_data"):  # fmt: skip
            getattr(dut, name).value = 0
        dut.config_rw.value = 1
        dut.reset.value = 1
        await ClockCycles(dut.clk, 3)
        dut.reset.value = 0
        await RisingEdge(dut.clk)

    async def load_instructions(self, words: list[int]) -> None:
        dut = self.dut
        dut.sysmem_cntrl_en.value = 1
        for i, w in enumerate(words):
            dut.sysmem_addr.value = i
            dut.sysmem_wr_data.value = w
            dut.sysmem_wr_en.value = 1
            await RisingEdge(dut.clk)
        dut.sysmem_wr_en.value = 0
        dut.sysmem_cntrl_en.value = 0

    async def load_constants(self, bank: int, offset: int, data: bytes) -> None:
        """FlexGripPlus's constant memory is flat (the bank of c[bank][off] is ignored): banks that
        would overlap cannot be loaded."""
        dut = self.dut
        for k in range(len(data)):
            if self.const_owner.setdefault(offset + k, bank) != bank:
                raise ValueError(f"constant banks {self.const_owner[offset + k]} and {bank} both use byte {offset + k:#x}: FlexGripPlus's constant memory is one flat space")
        if offset + len(data) > CONST_BYTES:
            raise ValueError(f"constant bytes up to {offset + len(data):#x}; FlexGripPlus has {CONST_BYTES}")
        dut.cmem_cntrl_en.value = 1
        for k, byte in enumerate(data):
            dut.cmem_addr.value = offset + k
            dut.cmem_wr_data.value = byte
            dut.cmem_wr_en.value = 1
            await RisingEdge(dut.clk)
        dut.cmem_wr_en.value = 0
        dut.cmem_cntrl_en.value = 0

    async def _config(self, regs: list[tuple[int, int]]) -> None:
        dut = self.dut
        dut.config_cntrl_en.value = 1
        for addr, value in regs:
            dut.config_cs.value = 1
            dut.config_rw.value = 0
            dut.config_adr.value = addr
            dut.config_wr_data.value = value & 0xFFFFFFFF
            await RisingEdge(dut.clk)
        dut.config_cs.value = 0
        dut.config_rw.value = 1
        dut.config_cntrl_en.value = 0

    async def load_launch(self, launch: LaunchConfig) -> None:
        # blocks per round: FlexGripPlus takes min(this, blocks left); the model's rule for its SM
        per_round = Launch(launch.grid, launch.block, launch.registers, launch.shared).blocks_per_round(FLEXGRIP_SM)
        await self._config([(5, launch.block[0]), (6, launch.block[1]), (7, launch.block[2]), (8, launch.grid[0]), (9, launch.grid[1]),
                            (1, launch.registers), (2, launch.shared), (0, min(8, per_round)), (4, 0)])  # fmt: skip

    async def load_params(self, params: bytes) -> None:
        words = [int(w) for w in np.frombuffer(params + b"\0" * (-len(params) % 4), "<u4")]
        await self._config([(3, len(words)), *((CONFIG_PARAMS + i, w) for i, w in enumerate(words))])

    async def load_global(self, image: np.ndarray, threads: int) -> None:
        # the image is in global_mem.mif, which FlexGripPlus's global memory read at time 0 (run_test wrote it)
        self.image = np.array(image, np.uint8)

    def start_monitors(self, sink: DutSink) -> None:
        self.probe = Probe(self.dut, self.cores)
        self.sink = sink
        self.monitor_task = cocotb.start_soon(self._monitor())

    def stop(self) -> None:
        """End the monitor (a fault campaign runs many tests in one simulation, tb/faults)."""
        task = getattr(self, "monitor_task", None)
        if task is not None and not task.done():
            task.cancel()

    async def _monitor(self) -> None:
        clk, seq = self.dut.clk, 0
        try:
            while True:
                await RisingEdge(clk)
                await ReadOnly()
                raw = self.probe.sample(self.cycles.now())
                if raw is None:
                    continue
                for shared, addr, byte in raw.mem:
                    if not shared:
                        self.written[addr] = byte
                        self.requests += 1
                        self.sink.store(MemRequest(raw.cycle, False, addr & ~3, 1 << (addr & 3), True, byte << (8 * (addr & 3)), 0))
                seq += 1
                self.sink.commit(DutCommit(raw.cycle, to_commit(raw, seq), unchecked=UNCHECKED))
        except Exception as exc:  # reported through the test's verdict
            self.sink.error(exc)

    async def launch(self) -> None:
        self.dut.block_scheduler_en.value = 1
        await RisingEdge(self.dut.clk)
        self.dut.block_scheduler_en.value = 0

    def end_triggers(self) -> list[object]:
        return [RisingEdge(self.dut.kernel_done)]

    def end_state(self) -> DutEnd | None:
        return DutEnd(True) if str(self.dut.kernel_done.value) == "1" else None

    async def drain(self) -> None:
        await RisingEdge(self.dut.clk)
        await ReadOnly()

    async def read_global(self) -> np.ndarray:
        """The image with the bytes the probe saw written, and the part that holds data (at most
        READBACK_MAX bytes) read back through the host port (FlexGripPlus's RAM reads asynchronously)."""
        assert self.image is not None
        out = self.image.copy()
        for a, v in self.written.items():
            if a < out.size:
                out[a] = v
        dut = self.dut
        await Timer(1, "ns")
        dut.gmem_cntrl_en.value = 1
        # the bytes that can differ: the image's data and what the probe saw written (a bundle's image is
        # all of FlexGripPlus's 256 KiB, mostly zeros nobody touches)
        nonzero = np.flatnonzero(self.image)
        span = max(int(nonzero[-1]) + 1 if nonzero.size else 0, max(self.written, default=-1) + 1)
        # a store past the image (a wrapped or wrong address) is the memory-port check's to report; the
        # final comparison covers the model's global memory, which the image spans
        for a in range(min(span, READBACK_MAX, out.size)):
            dut.gmem_addr.value = a
            await Timer(1, "ns")
            with contextlib.suppress(ValueError):  # U: a byte nobody defined, kept as the probe saw it
                out[a] = int(dut.gmem_rd_data.value)
        dut.gmem_cntrl_en.value = 0
        return out

    @property
    def memory_requests(self) -> int:
        return self.requests

    @property
    def observes_stores(self) -> bool:
        return True


class FlexgripAdapter(DutAdapter):
    name = "flexgrip"
    simulators = ("ghdl",)
    hdl_toplevel = TOP

    def sources(self) -> list[Path]:
        return [*source_list(flexgrip_dir()), WRAPPER]

    def check_available(self, sim: str) -> None:
        _checkout_and_ghdl()  # GHDL on PATH and a FlexGripPlus checkout at FLEXGRIP_DIR

    def build(self, config: LockstepConfig, waves: bool = False) -> Path:
        return build(cores_of(config))

    def run_test(self, config: LockstepConfig, test_dir: Path, waves: bool, plusargs: tuple[str, ...], test_module: str = "tb.test_sm") -> Path:
        """`test_module`: another cocotb module on the same run setup (tb/faults' campaign module)."""
        from cocotb_tools.runner import get_runner

        from golden.g80.flexgrip_export import mif
        from golden.g80.profile import PROFILES

        from ..kernels import load_kernel

        kernel = load_kernel(Path(config.program), PROFILES[config.profile])
        decode_departures(kernel.words, config.program)  # before any build: refused, with the instruction named
        build_dir = self.build(config)
        test_dir.mkdir(parents=True, exist_ok=True)
        (test_dir / "global_mem.mif").write_text(mif(bytes(kernel.gmem.data)))
        for name in ("constant_mem.mif", "system_mem.mif", "dummy.mif"):
            (test_dir / name).write_text("")
        unlimited_stack()
        prepare_run(build_dir, test_dir)
        with backend_env(), contextlib.suppress(SystemExit):  # a failed cocotb test: the outcome is in result.json
            get_runner("ghdl").test(hdl_toplevel=TOP, hdl_toplevel_lang="vhdl", test_module=test_module, build_dir=build_dir, test_dir=test_dir,
                                    test_args=[*GHDL_FLAGS, f"--workdir={build_dir}"], plusargs=[*run_args(), *plusargs],
                                    waves=waves, results_xml=str(test_dir / "results.xml"))  # fmt: skip
        return test_dir / "results.xml"

    def wave_file(self, config: LockstepConfig, test_dir: Path) -> Path:
        return test_dir / f"{TOP}.ghw"

    def bfm(self, dut, config: LockstepConfig, cycles: Cycles) -> FlexgripBfm:
        return FlexgripBfm(dut, config, cycles)

    def waivers(self, config: LockstepConfig) -> tuple:
        """The findings handled by a waiver (golden/g80/flexgrip_findings.py), unless WAIVE=none."""
        from golden.g80.flexgrip_findings import WAIVERS

        return () if config.extra.get("waive") == "none" else WAIVERS

    def rerun_options(self, config: LockstepConfig) -> list[str]:
        return ["DUT=flexgrip"]

