"""The global/local memory agent: serves the DUT's memory port (rtl/README.md, "Memory port").

cocotb-bus components do the pin work: `MemRequestMonitor` drives `mem_req_ready` (back-pressure)
and turns each valid/ready handshake into a `MemRequest`, `MemResponseDriver` drives load data back
after its latency. `MemoryPort` (used by the rtl adapter's BFM, tb/adapters/rtl.py) ties them
to `TbMemory`, the testbench's own global and local memory, and hands every accepted request to a
callback (the environment's store monitor: the scoreboard checks stores where they leave the SM).
`TbMemory`, `MemRequest` and `Cycles` are not tied to the RTL's pins: other adapters may use them.

Latency (1..max_latency cycles) and back-pressure (ready with probability ready_p, tb/config.py) are drawn from
the test's seeded random generator. Each load response is due its own latency after its request
(`ResponseSchedule`), so a later request with a short latency overtakes an earlier one: the port's
contract (rtl/README.md, "Memory port": tagged responses "may come back in any order"). The port
takes one response a cycle, so a due cycle already taken moves to the next free one.
`mem_order="request"` (tb/config.py) keeps the older schedule, responses in request order
(`due = max(cycle + latency, last_due + 1)`), from the same draws. Python does not wake every cycle
(TOOLCHAIN.md): the monitor sleeps on a rising `mem_req_valid` while the port is idle and through a
request's refused cycles in one wait, the driver until its next due response or until a new one
falls due before it.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from cocotb import simulator
from cocotb.simtime import convert
from cocotb.triggers import ClockCycles, First, ReadOnly, RisingEdge
from cocotb_bus.drivers import BusDriver
from cocotb_bus.monitors import BusMonitor


class MemoryFault(AssertionError):
    """The DUT addressed memory the test did not give it (`req`: the request, when known)."""

    def __init__(self, message: str, req: MemRequest | None = None, addr: int | None = None) -> None:
        super().__init__(message)
        self.req = req
        self.addr = addr  # the first enabled byte outside memory


LINE_BYTES = 64  # a memory-port request addresses one aligned line of this many bytes (rtl/README.md, "Memory port")
_ALL_BYTES = (1 << LINE_BYTES) - 1  # a request's byte enables, every byte
_ALL_BITS = (1 << 8 * LINE_BYTES) - 1  # its store data


def binstr_reader(handle) -> Callable[[], str]:
    """The signal's value as the simulator's binary string (MSB first; x/z as letters), for both
    monitors (this one and tb/commit_agent.py, whose INTERNALS lists the cocotb internal it uses).

    Read through cocotb's GPI handle and converted by int(s, 2), which raises on x/z:
    `handle.value` builds a LogicArray first, which cost about 17 us for each of the
    1,024-4,096-bit lane vectors of the commit port and several for the 512-bit store data of a
    memory request (issue 19)."""
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
    a later load with a short latency overtakes an earlier one (rtl/README.md, "Memory port": any
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
        placed there starts with zeroed local memory, as in the golden model (README, "Model decisions")."""
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


class Cycles:
    """Cycle numbers from simulation time (the clock is a gpi clock Python does not follow)."""

    def __init__(self, period_ns: int) -> None:
        self.period_ns = period_ns
        self._steps: int | None = None  # simulator steps a cycle, known once the simulator runs

    def now(self) -> int:
        # in raw simulator steps, one integer division: get_sim_time("ns") converts through
        # fractions on every call, a few microseconds per commit record (and the import at module
        # level: a `from ... import` statement here cost about 1 us a commit record); the GPI's
        # own (high, low) pair, as cocotb's get_sim_time("step") reads it, without its argument
        # checks (once per commit record and per memory request)
        if self._steps is None:
            self._steps = convert(self.period_ns, "ns", to="step")
        high, low = simulator.get_sim_time()
        return (high << 32 | low) // self._steps


class MemRequestMonitor(BusMonitor):
    """Accepts the DUT's requests: drives `mem_req_ready` (back-pressure) and turns each valid/ready
    handshake into a `MemRequest`.

    It does not poll the port every cycle. While no request is offered it sleeps on a rising
    `mem_req_valid`; for each request it draws how many cycles the port refuses it (a geometric
    count: ready with probability ready_p in each cycle the request is offered, as a per-cycle draw
    would give) and sleeps through them with `mem_req_ready` low in one wait; then it raises ready
    and samples the request at the edge that takes it. So it wakes once per request taken, once per
    refusal run and once per idle period. A request stays offered until it is taken (the port's
    valid/ready rule), so nothing changes on the pins while it sleeps."""

    _signals: ClassVar[list[str]] = ["valid", "ready", "we", "local", "addr", "be", "wdata", "tag"]

    def __init__(self, dut, clock, cycles: Cycles, callback, rng: random.Random, ready_p: float) -> None:
        self.cycles, self.rng, self.ready_p = cycles, rng, ready_p
        super().__init__(dut, "mem_req", clock, callback=callback)
        self.bus.ready.value = 0

    def _refusals(self) -> int:
        """Cycles a request is refused before the port takes it."""
        n = 0
        while self.rng.random() >= self.ready_p:
            n += 1
        return n

    async def _monitor_recv(self) -> None:
        bus = self.bus
        # the request's fields as the simulator's binary strings, converted by int(s, 2) (which
        # raises ValueError on X or Z, as int() of cocotb's value does)
        valid, local, addr, be, we, wdata, tag = (
            binstr_reader(getattr(bus, name)) for name in ("valid", "local", "addr", "be", "we", "wdata", "tag")
        )
        # writable phase, just after an edge: the refusals the next request will get
        wait = self._refusals()
        bus.ready.value = 1 if wait == 0 else 0
        while True:
            await ReadOnly()  # is a request offered at the coming edge?
            if not int(valid(), 2):
                await RisingEdge(bus.valid)  # just after the edge at which the DUT offers one
                if wait:
                    await ClockCycles(self.clock, wait)  # refused at the next `wait` edges
                    bus.ready.value = 1
                    wait = 0
                continue
            if wait:  # offered now and refused at this edge and the wait - 1 after it
                await RisingEdge(self.clock)
                if wait > 1:
                    await ClockCycles(self.clock, wait - 1)
                bus.ready.value = 1
                wait = 0
                continue
            req = MemRequest(
                self.cycles.now() + 1, bool(int(local(), 2)), int(addr(), 2), int(be(), 2), bool(int(we(), 2)), int(wdata(), 2), int(tag(), 2)
            )
            await RisingEdge(self.clock)  # taken at this edge
            wait = self._refusals()
            bus.ready.value = 1 if wait == 0 else 0
            self._recv(req)


class MemResponseDriver(BusDriver):
    """Drives load responses at their due cycles, earliest first, whatever order they were
    appended in: a pending heap instead of cocotb-bus's first-in first-out queue. It sleeps until
    the edge before the earliest due response; `append` wakes it when the new response falls due
    earlier than the one it waits for."""

    _signals: ClassVar[list[str]] = ["valid", "tag", "data"]

    def __init__(self, dut, clock, cycles: Cycles) -> None:
        self._heap: list[MemResponse] = []
        self._waiting_for: int | None = None  # due cycle the sleeping driver wakes for; None: none pending
        super().__init__(dut, "mem_rsp", clock)
        self.cycles = cycles
        self.bus.valid.value = 0

    def append(self, transaction: MemResponse, callback: Callable | None = None, event: object = None, **kwargs: object) -> None:  # type: ignore[override]
        heapq.heappush(self._heap, transaction)
        if self._waiting_for is None or transaction.due < self._waiting_for:
            self._pending.set()

    async def _send_thread(self) -> None:
        while True:
            if not self._heap:
                self._waiting_for = None
                self._pending.clear()
                await self._pending.wait()
                continue
            rsp = self._heap[0]
            wait = rsp.due - 1 - self.cycles.now()  # drive right after the edge before `due`
            if wait > 0:
                self._waiting_for = rsp.due
                self._pending.clear()
                await First(ClockCycles(self.clock, wait), self._pending.wait())
                continue  # the earliest response may have changed
            heapq.heappop(self._heap)
            self._waiting_for = None  # driving: any new response is due after this edge
            self.bus.valid.value = 1
            self.bus.tag.value = rsp.tag
            self.bus.data.value = rsp.data
            await RisingEdge(self.clock)
            self.bus.valid.value = 0  # a response due at the next edge overrides it in the same step


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
        self.driver = MemResponseDriver(self.dut, self.dut.clk, self.cycles)
        self.schedule = ResponseSchedule(self.rng, self.max_latency, self.schedule.order)
        self.monitor = MemRequestMonitor(self.dut, self.dut.clk, self.cycles, self._serve, self.rng, self.ready_p)

    def stop(self) -> None:
        """End the port's tasks (a fault campaign runs many tests in one simulation, tb/faults)."""
        self.monitor.kill()
        self.driver.kill()

    def _serve(self, req: MemRequest) -> None:
        self.requests += 1
        try:
            data = self.memory.access(req)
        except MemoryFault as exc:  # reported through the test's verdict, not lost in the monitor's task
            self.on_error(exc)
            return
        if not req.we:
            self.driver.append(MemResponse(self.schedule.due(req.cycle), req.tag, data))
        self.on_request(req)
