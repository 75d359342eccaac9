"""The global/local memory agent: serves the DUT's memory port (docs/design/rtl.md, "Ports").

Bus components (tb/bus.py) do the pin work: `MemRequestMonitor` drives `mem_req_ready` (back-pressure)
and turns each valid/ready handshake into a `MemRequest`, `MemResponseDriver` drives load data back
after its latency. `MemoryPort` (used by the rtl adapter's BFM, tb/adapters/rtl.py) ties them
to `TbMemory`, the testbench's own global and local memory, and hands every accepted request to a
callback (the environment's store monitor: the scoreboard checks stores where they leave the SM).
`TbMemory`, `MemRequest` and `Cycles` are not tied to the RTL's pins: other adapters may use them.

Latency (1..max_latency cycles) and back-pressure (ready with probability ready_p, tb/config.py) are drawn from
the test's seeded random generator. Each load response is due its own latency after its request
(`ResponseSchedule`), so a later request with a short latency overtakes an earlier one: the port's
contract (docs/design/rtl.md, "Ports": tagged responses, "in any order of requests"). The port
takes one response a cycle, so a due cycle already taken moves to the next free one.
`mem_order="request"` (tb/config.py) keeps the older schedule, responses in request order
(`due = max(cycle + latency, last_due + 1)`), from the same draws. Python does not wake every cycle
(TOOLCHAIN.md): both work in the middle of a cycle (the clock's falling edge), where the DUT's
registered request is stable and what they drive is sampled by the next rising edge, from timed
callbacks of the simulator rather than tasks; the monitor sleeps on a rising `mem_req_valid` while
the port is idle and through a request's refused cycles in one wait, the driver until its next due
response or until a new one falls due before it.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import cocotb
import numpy as np
from cocotb import simulator
from cocotb._base_triggers import TriggerCallback  # a registration's handle (Trigger._register, tb/commit_agent.py INTERNALS)
from cocotb.clock import Clock
from cocotb.simtime import convert
from cocotb.triggers import RisingEdge, Timer

from .bus import BusDriver, BusMonitor
from .dut import UnknownValue


class MemoryFault(AssertionError):
    """The DUT addressed memory the test did not give it (`req`: the request, when known)."""

    def __init__(self, message: str, req: MemRequest | None = None, addr: int | None = None) -> None:
        super().__init__(message)
        self.req = req
        self.addr = addr  # the first enabled byte outside memory


LINE_BYTES = 64  # a memory-port request addresses one aligned line of this many bytes (docs/design/rtl.md, "Ports")
_ALL_BYTES = (1 << LINE_BYTES) - 1  # a request's byte enables, every byte
_ALL_BITS = (1 << 8 * LINE_BYTES) - 1  # its store data


def binstr_reader(handle) -> Callable[[], str]:
    """The signal's value as the simulator's binary string (MSB first; x/z as letters), for both
    monitors (this one and tb/commit_agent.py, whose INTERNALS lists the cocotb internal it uses).

    Read through cocotb's GPI handle and converted by int(s, 2), which raises on x/z:
    `handle.value` builds a LogicArray first, which cost about 17 us for each of the
    1,024-4,096-bit lane vectors of the commit port and several for the 512-bit store data of a
    memory request."""
    return handle._handle.get_signal_val_binstr  # cocotb's own reader of LogicArrayObject.get()


@dataclass(frozen=True)
class MemRequest:
    """One accepted memory-port request: the line at byte `addr` (aligned to LINE_BYTES) of global
    memory, or of local memory laid out thread by thread (thread t's byte a at t * local_bytes + a);
    `be` enables its bytes, `wdata` holds a store's bytes in their lanes."""

    cycle: int
    local: bool
    addr: int
    be: int
    we: bool
    wdata: int
    tag: int


@dataclass(frozen=True, order=True)
class MemResponse:
    due: int  # cycle at whose clock edge the DUT samples it (responses sort by it: no two share one)
    tag: int
    data: int


MEM_ORDERS = ("any", "request")  # tb/config.py `mem_order`


class ResponseSchedule:
    """The due cycles of load responses. A response taken in cycle c is due at c + latency
    (latency drawn 1..max_latency from `rng`, one draw a load); the response port takes one a cycle,
    so a due cycle another response holds moves to the next free one. Order "any": nothing else, so
    a later load with a short latency overtakes an earlier one (docs/design/rtl.md, "Ports": any
    order). Order "request": no earlier than the previous response either, the testbench's older
    schedule, responses in request order (same draws, so the same seed gives the same latencies)."""

    def __init__(self, rng: random.Random, max_latency: int, order: str = "any") -> None:
        if order not in MEM_ORDERS:
            raise ValueError(f"memory response order {order!r}: one of {', '.join(MEM_ORDERS)}")
        if max_latency < 1:
            raise ValueError(f"max_latency {max_latency}: at least 1 cycle")
        self.rng, self.max_latency, self.order = rng, max_latency, order
        self.last_due = 0
        self._taken: set[int] = set()  # due cycles held, from the latest request's cycle on
        self._heap: list[int] = []  # the same, to forget the past ones cheaply

    def due(self, cycle: int) -> int:
        """The due cycle of the load response to a request taken in `cycle` (requests come in
        cycle order, so dues before it are no longer in the way)."""
        while self._heap and self._heap[0] <= cycle:
            self._taken.discard(heapq.heappop(self._heap))
        due = cycle + self.rng.randint(1, self.max_latency)
        if self.order == "request":
            due = max(due, self.last_due + 1)
        while due in self._taken:
            due += 1
        self._taken.add(due)
        heapq.heappush(self._heap, due)
        self.last_due = max(self.last_due, due)
        return due


class TbMemory:
    """Global memory (a copy of the program's initial image) and per-thread local memory."""

    def __init__(self, image: np.ndarray, local_bytes: int, threads: int) -> None:
        self.glob = image.copy()
        self.local_bytes = local_bytes
        self.local = np.zeros(max(local_bytes * threads, 4), np.uint8)

    def clear_local(self, first_thread: int, count: int) -> None:
        """Zero the local memory of thread slots first_thread..first_thread+count-1: the next block
        placed there starts with zeroed local memory, as in the golden model (docs/design/architecture.md,
        "Semantics: one model, two profiles")."""
        self.local[first_thread * self.local_bytes : (first_thread + count) * self.local_bytes] = 0

    def access(self, req: MemRequest) -> int:
        """Serve one request: a line of LINE_BYTES bytes at `req.addr`, of which `req.be` enables
        bytes (a load returns the whole line, bytes past the end of memory as 0; a store writes the
        enabled bytes). Only the enabled bytes must lie inside the memory."""
        mem = self.local if req.local else self.glob
        if req.be and req.addr + req.be.bit_length() > mem.size:  # the highest enabled byte lies outside: name the first that does
            first = next(req.addr + k for k in range(LINE_BYTES) if req.be >> k & 1 and req.addr + k >= mem.size)
            where = "local" if req.local else "global"
            raise MemoryFault(f"cycle {req.cycle}: DUT accessed {where} memory at {first:#x}, beyond {mem.size:#x}", req, first)
        if req.we:
            if not req.be:
                return 0
            # the enabled bytes through numpy (a Python loop over the 64 lanes cost about 10 us a request)
            n = min(LINE_BYTES, mem.size - req.addr)  # the enabled bytes all lie in the first n
            data = np.frombuffer((req.wdata & _ALL_BITS).to_bytes(LINE_BYTES, "little"), np.uint8)[:n]
            if req.be == _ALL_BYTES:
                mem[req.addr : req.addr + n] = data
            else:
                keep = np.unpackbits(np.frombuffer(req.be.to_bytes(LINE_BYTES // 8, "little"), np.uint8), bitorder="little")[:n].astype(bool)
                mem[req.addr : req.addr + n][keep] = data[keep]
            return 0
        end = min(req.addr + LINE_BYTES, mem.size)
        return int.from_bytes(mem[req.addr : end].tobytes(), "little") if end > req.addr else 0


def sim_steps() -> int:
    """The simulation time in simulator steps (the GPI's (high, low) pair, without cocotb's argument checks)."""
    high, low = simulator.get_sim_time()
    return high << 32 | low


_CLOCKS: dict[int, int] = {}  # clock signals running in this simulation -> the time each started (simulator steps)


class Cycles:
    """Cycle numbers from simulation time (the clock is a gpi clock Python does not follow): its
    rising edges at whole periods from `origin` (the time, in simulator steps, at which
    `start_clock` started it: cocotb's Clock starts high; 0 unless a campaign's first test waited
    before its reset, as the mutation campaign's sets its mutant 1 ns in), its falling edges half a
    period after them."""

    def __init__(self, period_ns: int) -> None:
        self.period_ns = period_ns
        self.origin = 0
        self._steps: int | None = None  # simulator steps a cycle, known once the simulator runs

    def start_clock(self, clk) -> None:
        """Run the gpi clock of this period on `clk`, once per simulation (a fault or mutation
        campaign resets and reruns in one process, tb/faults), and count cycles from its start."""
        if id(clk) not in _CLOCKS:
            _CLOCKS[id(clk)] = sim_steps()
            cocotb.start_soon(Clock(clk, self.period_ns, unit="ns", impl="gpi").start())  # in C: Python is not woken per clock
        self.origin = _CLOCKS[id(clk)]

    def steps(self) -> int:
        """Simulator steps a cycle."""
        if self._steps is None:
            self._steps = convert(self.period_ns, "ns", to="step")
        return self._steps

    def now(self) -> int:
        # in raw simulator steps, one integer division: get_sim_time("ns") converts through
        # fractions on every call, a few microseconds per commit record (and the import at module
        # level: a `from ... import` statement here cost about 1 us a commit record); the GPI's
        # own (high, low) pair, as cocotb's get_sim_time("step") reads it, without its argument
        # checks (once per commit record and per memory request)
        high, low = simulator.get_sim_time()
        return ((high << 32 | low) - self.origin) // (self._steps or self.steps())

    def at_middle(self, cycle: int, func: Callable[[], None]) -> TriggerCallback:
        """Call `func` at the falling clock edge of `cycle` (half a period after its rising edge;
        `cycle` is now or later, and the middle of the current cycle not yet reached): one timed
        callback of the simulator however far ahead, where awaiting `ClockCycles` resumes Python
        at every edge on the way. Returns the registration (`.cancel()`)."""
        steps, now = self._steps or self.steps(), sim_steps()
        ahead = self.origin + cycle * steps + steps // 2 - now
        if ahead <= 0:
            raise RuntimeError(f"the middle of cycle {cycle} is not ahead (simulation time {now} steps, {steps} a cycle from {self.origin})")
        return Timer(ahead, "step")._register(func)

    def next_middle(self) -> int:
        """The cycle whose middle (falling clock edge) comes next."""
        steps = self._steps or self.steps()
        t = sim_steps() - self.origin
        return t // steps + (t % steps >= steps // 2)

    def at_edge(self) -> bool:
        """Whether now is the time of a rising clock edge."""
        return (sim_steps() - self.origin) % (self._steps or self.steps()) == 0


class Armed:
    """A bus component (tb/bus.py) that runs as plain functions registered on triggers
    (`Trigger._register`, tb/commit_agent.py INTERNALS) rather than as a task: its pending
    registration is `_armed`, which `kill` cancels; once killed it registers nothing again."""

    _armed: TriggerCallback | None = None
    _killed = False
    on_error: Callable[[Exception], None]

    def _guarded(self, func: Callable[[], None]) -> Callable[[], None]:
        """`func` as a wake-up: its registration spent, its failures reported through the test's
        verdict (`on_error`; a callback's exception has no task to end), as `_explained` puts them."""

        def run() -> None:
            self._armed = None
            try:
                func()
            except Exception as exc:
                self.on_error(self._explained(exc))

        return run

    def _explained(self, exc: Exception) -> Exception:
        return exc

    def kill(self) -> None:
        self._killed = True
        if self._armed is not None:
            self._armed.cancel()
            self._armed = None
        super().kill()  # type: ignore[misc]  # the bus base's (tb/bus.py): its task, if any


_REQUEST_FIELDS = ("valid", "local", "addr", "be", "we", "wdata", "tag")  # what the monitor reads of a request, each as `_<name>`


class MemRequestMonitor(Armed, BusMonitor):
    """Accepts the DUT's requests: drives `mem_req_ready` (back-pressure) and turns each valid/ready
    handshake into a `MemRequest`.

    It works in the middle of a cycle, at the clock's falling edge: there the request the DUT
    offers (its outputs are registers, docs/design/rtl.md, "Ports") is the one the coming rising
    edge takes if `mem_req_ready` is 1, and a `ready` written there is what that edge samples. For
    each request it draws how many cycles the port refuses it (a geometric count: ready with
    probability ready_p in each cycle the request is offered, as a per-cycle draw would give),
    drives ready low through them and wakes once, at the middle of the last, to raise ready and
    take the request. So it wakes once per request taken (at the middle of the cycle before the edge
    that takes it, then at the middle of the next cycle for the request after it), once per refusal
    run and once per idle period (a rising `mem_req_valid`, then the middle of that cycle). It runs
    as plain functions registered on its triggers (Cycles.at_middle, a rising `mem_req_valid`), not
    as a task: resuming a task cost several microseconds a wake-up, and `ClockCycles` resumed it
    at every edge of a wait. Draws come in the same order as when it sampled in the
    read-only phase before each edge, so a seed gives the same run, cycle for cycle."""

    _signals: ClassVar[list[str]] = ["valid", "ready", "we", "local", "addr", "be", "wdata", "tag"]

    def __init__(self, dut, clock, cycles: Cycles, callback, rng: random.Random, ready_p: float, on_error: Callable[[Exception], None]) -> None:
        self.cycles, self.rng, self.ready_p, self.on_error = cycles, rng, ready_p, on_error
        super().__init__(dut, "mem_req", clock, callback=callback)
        self.bus.ready.value = 0
        self._ready = 0  # the value last written to mem_req_ready

    def _refusals(self) -> int:
        """Cycles a request is refused before the port takes it."""
        n = 0
        while self.rng.random() >= self.ready_p:
            n += 1
        return n

    def _set_ready(self, value: int) -> None:
        if value != self._ready:
            self._ready = value
            self.bus.ready.value = value

    async def _monitor_recv(self) -> None:
        # BusMonitor starts this as a task; it only arms the first callback: the refusals the first
        # request will get, then the next middle of a cycle (before the launch: no request yet).
        bus = self.bus
        # the request's fields as the simulator's binary strings, converted by int(s, 2) (which
        # raises ValueError on X or Z, as int() of cocotb's value does)
        self._valid, self._local, self._addr, self._be, self._we, self._wdata, self._tag = (binstr_reader(getattr(bus, n)) for n in _REQUEST_FIELDS)
        self._rose_trigger = RisingEdge(bus.valid)
        self._wait = self._refusals()
        self._set_ready(1 if self._wait == 0 else 0)
        self._after_take = False  # a request was taken at the last edge: ready for the next is still to be written
        # the wake-ups, each wrapped once (not per registration)
        self._on_middle, self._on_rose, self._on_last_refusal = map(self._guarded, (self._middle, self._rose, self._ready_and_take))
        self._arm(self.cycles.next_middle(), self._on_middle)

    def _arm(self, cycle: int, func: Callable[[], None]) -> None:
        if not self._killed:
            self._armed = self.cycles.at_middle(cycle, func)

    def _explained(self, exc: Exception) -> Exception:
        """A ValueError from int() of a binary string holding X or Z, as the fields that hold them."""
        if not isinstance(exc, ValueError):
            return exc
        bad = [name for name in _REQUEST_FIELDS if not set(getattr(self, f"_{name}")()) <= {"0", "1"}]
        return UnknownValue(self.cycles.now(), bad, "a request offered to the memory port", prefix="mem_req_", port="memory port") if bad else exc

    def _middle(self) -> None:
        """The middle of a cycle: is a request offered at the coming edge?"""
        if self._after_take:  # the request before was taken at the last edge: ready for this one
            self._after_take = False
            self._set_ready(1 if self._wait == 0 else 0)
        if not int(self._valid(), 2):  # idle: sleep until the DUT offers one, just after an edge
            if not self._killed:
                self._armed = self._rose_trigger._register(self._on_rose)
            return
        if self._wait:  # refused at the coming edge and the wait - 1 after it: take it at the middle of the last
            cycle, self._wait = self.cycles.now() + self._wait, 0
            self._arm(cycle, self._on_last_refusal)
            return
        self._take()

    def _rose(self) -> None:
        """mem_req_valid rose at this edge: the request is offered from the coming edge on."""
        if not self.cycles.at_edge():  # the agent samples mid-cycle: a request changing elsewhere would be missed
            raise RuntimeError(f"cycle {self.cycles.now()}: mem_req_valid rose between clock edges; the memory port's request "
                               "outputs must be registers (docs/design/rtl.md, \"Ports\")")  # fmt: skip
        self._arm(self.cycles.now(), self._on_middle)

    def _ready_and_take(self) -> None:
        self._set_ready(1)
        self._take()

    def _take(self) -> None:
        """The middle of a cycle, ready 1 and a request offered: the coming edge takes it."""
        cycle = self.cycles.now() + 1
        req = MemRequest(cycle, bool(int(self._local(), 2)), int(self._addr(), 2), int(self._be(), 2), bool(int(self._we(), 2)),
                         int(self._wdata(), 2), int(self._tag(), 2))  # fmt: skip
        self._wait = self._refusals()
        self._after_take = True
        self._arm(cycle, self._on_middle)
        self._recv(req)


class MemResponseDriver(Armed, BusDriver):
    """Drives load responses at their due cycles, earliest first, whatever order they were
    appended in: a pending heap instead of a first-in first-out queue. A response due
    at edge d is driven in the middle of cycle d - 1 (the falling clock edge) and cleared in the
    middle of cycle d unless another is due at d + 1. It wakes only there: one timed callback to
    the middle of the cycle before the earliest due response (Cycles.at_middle), re-armed when
    `append` brings an earlier one; plain functions, no task (see MemRequestMonitor)."""

    _signals: ClassVar[list[str]] = ["valid", "tag", "data"]

    def __init__(self, dut, clock, cycles: Cycles, on_error: Callable[[Exception], None]) -> None:
        self._heap: list[MemResponse] = []
        self._armed_for: int | None = None  # the edge whose response the armed wake-up drives; None: not armed
        self._driving = False  # mem_rsp_valid is 1 (a response for the last edge)
        self.on_error = on_error
        super().__init__(dut, "mem_rsp", clock)
        self.cycles = cycles
        self.bus.valid.value = 0
        self._on_middle = self._guarded(self._middle)

    def append(self, transaction: MemResponse) -> None:
        """Queue a response (driven from timed callbacks, no task)."""
        heapq.heappush(self._heap, transaction)
        if self._armed_for is None or transaction.due < self._armed_for:
            self._arm(transaction.due)

    def _arm(self, due: int) -> None:
        """Wake in the middle of the cycle before edge `due`."""
        if self._armed is not None:
            self._armed.cancel()
        self._armed, self._armed_for = None, None
        if not self._killed:
            self._armed, self._armed_for = self.cycles.at_middle(due - 1, self._on_middle), due

    def _middle(self) -> None:
        self._armed_for = None
        edge = self.cycles.now() + 1
        heap = self._heap
        if heap and heap[0].due == edge:  # due at the coming edge
            rsp = heapq.heappop(heap)
            bus = self.bus
            if not self._driving:
                bus.valid.value = 1
                self._driving = True
            bus.tag.value = rsp.tag
            bus.data.value = rsp.data
            self._arm(edge + 1)  # clear it, or drive the next, in the middle of the next cycle
            return
        if self._driving:
            self.bus.valid.value = 0
            self._driving = False
        if heap:
            self._arm(heap[0].due)


class MemoryPort:
    """Serves the RTL's memory port from `TbMemory`; `on_request` sees every accepted request."""

    def __init__(self, dut, memory: TbMemory, rng: random.Random, max_latency: int, ready_p: float, cycles: Cycles,
                 on_request: Callable[[MemRequest], None], on_error: Callable[[Exception], None], order: str = "any") -> None:  # fmt: skip
        self.dut, self.memory, self.rng, self.max_latency, self.ready_p, self.cycles = dut, memory, rng, max_latency, ready_p, cycles
        self.schedule = ResponseSchedule(rng, max_latency, order)  # checks the settings before the simulation starts
        self.on_request, self.on_error = on_request, on_error
        self.requests = 0

    def start(self) -> None:
        """Attach to the pins (after reset, once the configuration bus is done)."""
        self.driver = MemResponseDriver(self.dut, self.dut.clk, self.cycles, self.on_error)
        self.schedule = ResponseSchedule(self.rng, self.max_latency, self.schedule.order)
        self.monitor = MemRequestMonitor(self.dut, self.dut.clk, self.cycles, self._serve, self.rng, self.ready_p, self.on_error)

    def stop(self) -> None:
        """End the port's tasks (a fault campaign runs many tests in one simulation, tb/faults)."""
        self.monitor.kill()
        self.driver.kill()

    def _serve(self, req: MemRequest) -> None:
        self.requests += 1
        try:
            data = self.memory.access(req)
        except MemoryFault as exc:
            # reported through the test's verdict at the edge that takes the request (the monitor
            # serves it in the middle of the cycle before), so that the commit records of that
            # edge are compared first (docs/design/commit-record.md, "Order of records")
            fault = exc  # the name `exc` ends with the except clause
            RisingEdge(self.dut.clk)._register(lambda: self.on_error(fault))
            return
        if not req.we:
            self.driver.append(MemResponse(self.schedule.due(req.cycle), req.tag, data))
        self.on_request(req)
