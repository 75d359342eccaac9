"""The design-under-test adapter interface: everything the lock-step testbench knows about one DUT.

The testbench (tb/sm_env.py: sequences, scoreboard, reports, coverage, hang watchdog, X/Z
policy, end-of-test checks) is one piece of code for every DUT. What differs between DUTs lives in
one adapter per DUT, chosen by name (`DUT=rtl|flexgrip`, tb/adapters/__init__.py):

- `DutAdapter` (host side, no simulator running): the HDL sources and how to build them, how to
  start the cocotb test on a simulator, where waveforms go;
- `DutBfm` (simulator side, made by `DutAdapter.bfm` inside the cocotb test): the pins. It loads
  a program (the load driver calls it once per sequence item, tb/sequences.py), launches it,
  serves or holds global/local memory, and turns what the DUT commits into `DutCommit` records:
  the golden model's own `golden.g80.commit.Commit` (DESIGN.md section 4) plus the cycle. The
  conversion from the DUT's signals to `Commit` is the adapter's; the scoreboard only ever sees
  `Commit` records.

The model of this split is pyuvm's TinyALU example: the BFM owns the signals, the pyuvm components
(driver, monitors, scoreboard) own the transactions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from golden.g80.commit import Commit

if TYPE_CHECKING:
    from .config import LockstepConfig
    from .mem_agent import Cycles, MemRequest, TbMemory


@dataclass
class DutCommit:
    """One warp-instruction as the DUT committed it, in the golden model's record format.

    `commit` follows golden/g80/commit.py: lane values of registers, flags, address registers and
    stores are 32-element arrays in which only the lanes of `exec_mask` are compared; a DUT
    without a field (say, no `seq` counter) copies nothing there and names the field in
    `unchecked` instead. `unimplemented` says the DUT reported the instruction as one it does not
    implement (the scoreboard reports that by name rather than as a mismatch)."""

    cycle: int
    commit: Commit
    unimplemented: bool = False
    unchecked: frozenset[str] = frozenset()  # Commit field names the DUT cannot produce (not compared)


class UnknownValue(AssertionError):
    """X, U or Z on a field of a valid commit record: a failure that names the fields (DESIGN.md
    section 4). A BFM raises it into `DutSink.error` with what it could read of warp, PC and CTA."""

    def __init__(self, cycle: int, fields: list[str], where: str, warp: int | None = None, pc: int | None = None, cta: int | None = None,
                 prefix: str = "commit_", port: str = "commit port") -> None:  # fmt: skip
        self.cycle, self.fields, self.warp, self.pc, self.cta = cycle, fields, warp, pc, cta
        super().__init__(f"cycle {cycle}: X/Z on {port} field(s) {', '.join(prefix + f for f in fields)} ({where})")


@dataclass
class DutEnd:
    """How the DUT stopped: `done` (every block finished) or an error it signals itself."""

    done: bool
    message: str = ""  # for an error: what the DUT reports, e.g. "the RTL stopped with error 2 (memory fault)"
    warp: int | None = None
    pc: int | None = None


@dataclass
class DutSink:
    """Where a BFM's monitors deliver what they observe (the environment's analysis ports)."""

    commit: Callable[[DutCommit], None]
    store: Callable[[MemRequest], None]  # stores seen at the DUT's global/local memory interface
    error: Callable[[Exception], None]  # a monitor's failure (X/Z, memory fault): ends the run with a report


@dataclass(frozen=True)
class LaunchConfig:
    """The launch registers of a kernel (docs/design/rtl.md, "Ports"; FlexGripPlus has the same set)."""

    grid: tuple[int, int]
    block: tuple[int, int, int]
    registers: int  # per thread
    shared: int  # user shared bytes after the header and the parameters
    param_bytes: int
    local_bytes: int  # per thread


class DutBfm(ABC):
    """The pins of one DUT inside the simulator. Made by `DutAdapter.bfm(dut, config, cycles)`.

    Call order (tb/sm_env.py): `reset`; the load items in sequence order (`load_instructions`,
    `load_constants` per bank image, `load_launch`, `load_params`, `load_global`); `start_monitors`;
    `launch`; then the test waits on `end_triggers` (with its watchdog) and in the read-only phase
    after each calls `settle` and asks `end_state`; at the end `read_global`. Every coroutine returns with the DUT
    ready for the next call. Errors seen by background monitors go to `DutSink.error`, never
    raised into the simulator's scheduler."""

    def __init__(self, dut: object, config: LockstepConfig, cycles: Cycles) -> None:
        self.dut, self.config, self.cycles = dut, config, cycles

    @abstractmethod
    async def reset(self) -> None:
        """Start the clock (a period of `cycles.period_ns`) and reset the DUT; load interfaces idle."""

    @abstractmethod
    async def load_instructions(self, words: list[int]) -> None:
        """Write the program: 32-bit instruction words from byte address 0 (word0 of a 64-bit instruction first)."""

    @abstractmethod
    async def load_constants(self, bank: int, offset: int, data: bytes) -> None:
        """Write `data` into constant bank `bank` from byte `offset` (a multiple of 4)."""

    @abstractmethod
    async def load_launch(self, launch: LaunchConfig) -> None:
        """Write the launch configuration (grid, block, registers, shared and local sizes)."""

    @abstractmethod
    async def load_params(self, params: bytes) -> None:
        """Write the kernel parameters (they land in shared memory after the 16-byte header)."""

    @abstractmethod
    async def load_global(self, image: np.ndarray, threads: int) -> None:
        """Give the DUT the initial global memory (uint8 bytes from address 0) and room for local
        memory of `threads` threads x `LaunchConfig.local_bytes` (served by the testbench, or
        written into the DUT's own memory)."""

    @abstractmethod
    def start_monitors(self, sink: DutSink) -> None:
        """Attach the commit monitor (and the memory servers/monitors) to the pins; from now on
        every commit reaches `sink.commit` as a DutCommit, in commit order."""

    @abstractmethod
    async def launch(self) -> None:
        """Start the kernel (the DUT's start pulse). Returns once the DUT has taken it."""

    @abstractmethod
    def end_triggers(self) -> list[object]:
        """cocotb triggers that fire when the DUT may have finished or stopped with an error."""

    @abstractmethod
    def end_state(self) -> DutEnd | None:
        """Read in the read-only phase: None while running, else how the DUT stopped."""

    def settle(self) -> None:
        """Called in the read-only phase before an error or the end is judged: deliver what the DUT
        committed up to and including this time step that the monitors have not delivered yet, so
        that a wrong record at the edge of a DUT error is compared before the error is reported.
        Default: the monitors deliver each record before the read-only phase."""
        return None

    async def drain(self) -> None:
        """After `end_state` said done: let what the DUT commits in that same cycle reach the monitors
        (return in the read-only phase). Default: nothing is in flight."""
        return None

    @abstractmethod
    async def read_global(self) -> np.ndarray:
        """The final global memory (uint8, at least as long as the initial image) to compare with the model's."""

    def stop(self) -> None:
        """End every task the BFM started (monitors, memory port), so that the next test of the
        same simulation (a fault campaign, tb/faults) starts from none. Default: nothing to end."""
        return None  # not abstract: a BFM whose tasks end with the test needs nothing here

    @property
    def memory_requests(self) -> int:
        """Requests the DUT made at its memory interface (reported in result.json; 0 when unknown)."""
        return 0

    @property
    def tb_memory(self) -> TbMemory | None:
        """The testbench's memory (tb/mem_agent.py) when it serves the DUT's global and local
        memory, else None. The environment then clears the local memory of a warp slot's threads
        when the warp finishes (every block starts with zeroed local memory, docs/design/architecture.md,
        "Semantics: one model, two profiles"), and reports name it as the source of a loaded value. A DUT that holds local
        memory itself must zero it at each block start on its own."""
        return None

    @property
    def observes_stores(self) -> bool:
        """Whether `DutSink.store` sees every global/local store at the memory interface; the
        scoreboard then checks those bytes against each commit's stores (tb/scoreboard.py)."""
        return False


class DutAdapter(ABC):
    """One design under test, host side. Adapters are looked up by name: tb.adapters.adapter(name)."""

    name: ClassVar[str]  # "rtl", "flexgrip": the DUT= value
    simulators: ClassVar[tuple[str, ...]]  # the cocotb simulators it runs on, default first
    hdl_toplevel: ClassVar[str]

    @abstractmethod
    def sources(self) -> list[Path]:
        """The HDL files of the DUT in compile order (for builds, lint and fault sites)."""

    def check_available(self, sim: str) -> None:
        """Raise a golden.errors.UserError naming what is missing (the simulator `sim`, a checkout
        of the DUT's sources) before anything is built; the default checks an Icarus or Verilator
        install."""
        from .runner import _environment

        _environment(sim)

    @abstractmethod
    def build(self, config: LockstepConfig, waves: bool = False) -> Path:
        """Build (or reuse) the simulation model for this configuration; returns its build directory.
        Runs in the host process; builds are cached per simulator and parameter set."""

    @abstractmethod
    def run_test(self, config: LockstepConfig, test_dir: Path, waves: bool, plusargs: tuple[str, ...]) -> Path:
        """Run the cocotb test module `tb.test_sm` on the built model in `test_dir` with `plusargs`
        (the serialized configuration travels as one of them); returns the cocotb results XML path."""

    @abstractmethod
    def wave_file(self, config: LockstepConfig, test_dir: Path) -> Path:
        """Where a run with waves leaves its waveform file."""

    @abstractmethod
    def bfm(self, dut: object, config: LockstepConfig, cycles: Cycles) -> DutBfm:
        """The simulator-side BFM for `cocotb.top` (called inside the cocotb test)."""

    def waivers(self, config: LockstepConfig) -> tuple:
        """Known behaviours of this DUT whose mismatches are waived (tb/scoreboard.Waiver; the
        FlexGripPlus findings of golden/g80/flexgrip_findings.py). Default: none."""
        return ()

    def rerun_options(self, config: LockstepConfig) -> list[str]:
        """Extra `make sim` variables that reproduce this run (the default DUT adds none)."""
        return [] if self.name == "rtl" else [f"DUT={self.name}"]
