"""The commit agent: reads the DUT's commit port (DESIGN.md section 4, docs/design/rtl.md, "Ports") into records.

`CommitMonitor` (a bus monitor, tb/bus.py) wakes when `commit_packed` (every field but the lane vectors, side
by side) changes, which each record does, samples while `commit_valid` is 1 (on Verilator at
once, in a function registered on the trigger; elsewhere in the read-only phase; a lane vector
only while its write enable is 1), checks that none of the fields it read is X or Z, and hands an `RtlCommit` to its callback: the rtl adapter (tb/adapters/rtl.py), which turns it into the golden model's `Commit`.

Order against the RTL's `error` (docs/design/commit-record.md, "Order of records"): a record and an
error can land at the same clock edge. On Verilator the record is
taken in the value-change callbacks, which cocotb's Verilator loop runs before any read-only
callback, so before the test looks at `error`; on Icarus both wait for the read-only phase, in the
order their value changes came, so the test calls `settle()` there first: it takes the record of
this time step if the monitor has not yet.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import make_dataclass
from typing import ClassVar

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge, ValueChange

from golden.g80.hw import COMMIT_FIELDS, MAX_PARTS, WARP_SIZE, commit_field_names, commit_packed_fields, commit_qualified

from .bus import BusMonitor
from .dut import UnknownValue
from .mem_agent import Armed, Cycles, binstr_reader

# commit port fields after the `commit_` prefix, in port order (golden/g80/hw.py, from which the RTL's
# port declarations are generated too)
FIELDS = commit_field_names()


# One record of the commit port: the cycle it was sampled in, then FIELDS in port order, each an
# int. Made from golden/g80/hw.py's COMMIT_FIELDS, the description the RTL's port is generated from, so
# the record, the port and the model's field list cannot drift apart. Slotted: one is built per
# commit, positionally, by the monitor.
RtlCommit = make_dataclass("RtlCommit", [("cycle", int), *((name, int) for name in FIELDS)], slots=True)
RtlCommit.__doc__ = "One record of the commit port: `cycle`, then the fields of golden/g80/hw.py COMMIT_FIELDS in port order."


# fields that carry meaning only while their write enable is 1 (don't-care otherwise, like a bus's data)
QUALIFIED = commit_qualified()


# commit_packed (golden/g80/hw.py commit_packed_fields): (name, bit offset, mask) of each narrow field, the first at bit 0
PACKED = []
_offset = 0
for _f in commit_packed_fields():
    PACKED.append((_f.name, _offset, (1 << _f.width) - 1))
    _offset += _f.width
PACKED_WIDTH = _offset
# the wide fields (lane vectors), each with the write enable that qualifies it (None: read on every record)
WIDE = [(name, next((we for we, fields in QUALIFIED.items() if name in fields), None)) for name in FIELDS if name not in {n for n, _, _ in PACKED}]

# What must be driven when (the X/Z check). A qualified field carries meaning while its write
# enable is 1 (QUALIFIED); a lane vector of parts ("part k of lane i" in golden/g80/hw.py: MAX_PARTS
# parts of 32 lanes x 32 bits, one per register of a 64/128-bit access) carries meaning in its
# first parts only, as many as a narrow field of the same record says: `gpr_count` registers
# written, `mem_size` bytes per lane stored (over 4 bytes: one part per 32 bits). Those parts are
# read and checked, whole (every lane: an undriven lane is a failure even where the compare masks
# it, DESIGN.md section 4); the parts beyond are don't-care, like a field whose enable is 0. The
# rtl adapter (tb/adapters/rtl.py) converts the same parts.
PART_BITS = WARP_SIZE * 32


def gpr_parts(count: int) -> int:
    """Parts of `commit_gpr_data` that carry meaning: one per register written (`gpr_count`)."""
    return min(count, MAX_PARTS)


def mem_parts(size: int) -> int:
    """Parts of `commit_mem_data` that carry meaning for a store of `size` bytes per lane (golden/g80/commit.py
    splits a wider store into 32-bit records the same way)."""
    return min((size + 3) // 4, MAX_PARTS) if size > 4 else 1


# multi-part field -> (the narrow field that counts its parts, the count)
PARTS: dict[str, tuple[str, Callable[[int], int]]] = {"gpr_data": ("gpr_count", gpr_parts), "mem_data": ("mem_size", mem_parts)}
_MULTI = {f.name for f in COMMIT_FIELDS if f.width == MAX_PARTS * PART_BITS and f.doc.startswith("part k")}
if set(PARTS) != _MULTI:  # a new multi-part field in golden/g80/hw.py needs its rule here (import time: a build cannot miss it)
    raise ImportError(f"tb/commit_agent.py PARTS covers {sorted(PARTS)}, golden/g80/hw.py COMMIT_FIELDS has multi-part fields {sorted(_MULTI)}")


def _packed_decoder() -> Callable[[int], list[int]]:
    """A function from the integer value of `commit_packed` to the record's fields in FIELDS order
    (the wide fields 0). Generated as one list display of shifts and masks, as `dataclasses`
    generates its methods: a loop over the 25 or so fields cost several microseconds a commit,
    one of the largest items of a lock-step run's per-commit cost."""
    at = {name: (off, mask) for name, off, mask in PACKED}
    items = ", ".join(f"w >> {at[name][0]} & {at[name][1]:#x}" if name in at else "0" for name in FIELDS)
    namespace: dict[str, object] = {}
    exec(f"def decode(w):\n    return [{items}]\n", namespace)  # the text is built above from golden/g80/hw.py, no outside input
    return namespace["decode"]  # type: ignore[return-value]


decode_packed = _packed_decoder()


def _sampler_factory(ints: bool = False) -> Callable[..., Callable[..., list[int]]]:
    """A factory of the monitor's fast sampler: from `commit_packed`'s binary string to the
    record's fields in FIELDS order, each lane vector read only while its write enable is 1 and of
    a multi-part one only the parts that carry meaning (PARTS; one register's data from
    `commit_gpr_data0`). Generated from WIDE/PARTS, as `_packed_decoder`: the same steps as a loop
    over the wide fields cost about 2 us a commit more. Raises ValueError when a string
    read holds X or Z (int() of a binary string); the monitor then samples field by field.

    With `ints` the readers return integers (`_vector_readers`, a two-state simulator: nothing can
    hold X or Z) and the sampler reads `commit_packed` itself: `make(decode, packed, gpr0, readers,
    counts)`, `sample()`; a multi-part field is masked to its parts instead of sliced."""
    if ints:
        lines = ["def make(decode, packed, gpr0, readers, counts):", "    def sample():", "        v = decode(packed())"]
    else:
        lines = ["def make(decode, gpr0, readers, counts):", "    def sample(text):", "        v = decode(int(text, 2))"]
    groups: dict[str | None, list[int]] = {}
    for k, (_name, we) in enumerate(WIDE):
        groups.setdefault(we, []).append(k)
    for we, ks in groups.items():
        pad = "        "
        if we is not None:
            lines.append(f"{pad}if v[{_INDEX[we]}]:")
            pad += "    "
        for k in ks:
            name = WIDE[k][0]
            i = _INDEX[name]
            if name not in PARTS:
                lines.append(f"{pad}v[{i}] = readers[{k}]()" if ints else f"{pad}v[{i}] = int(readers[{k}](), 2)")
                continue
            lines.append(f"{pad}n = counts[{k}](v[{_INDEX[PARTS[name][0]]}])")
            if name == "gpr_data":  # one register: its own 1,024-bit port, a quarter of the bits
                lines += [f"{pad}if n == 1:", f"{pad}    v[{i}] = {'gpr0()' if ints else 'int(gpr0(), 2)'}", f"{pad}elif n:"]
            else:
                lines.append(f"{pad}if n:")
            if ints:
                lines.append(f"{pad}    v[{i}] = readers[{k}]() & ((1 << n * {PART_BITS}) - 1)")
            else:
                lines.append(f"{pad}    v[{i}] = int(readers[{k}]()[-n * {PART_BITS}:], 2)")
    lines += ["        return v", "    return sample"]
    namespace: dict[str, object] = {}
    exec("\n".join(lines) + "\n", namespace)  # the text is built above from golden/g80/hw.py, no outside input
    return namespace["make"]  # type: ignore[return-value]


def unpack(text: str) -> tuple[dict[str, int], list[str]]:
    """The narrow fields of `commit_packed` from its binary string (MSB first), and the names of
    those holding X or Z (0 in the values)."""
    try:
        word = int(text, 2)
    except ValueError:  # X or Z somewhere: field by field
        values: dict[str, int] = {}
        unknown: list[str] = []
        for name, off, mask in PACKED:
            try:
                values[name] = int(text[len(text) - off - mask.bit_length() : len(text) - off], 2)
            except ValueError:
                unknown.append(name)
                values[name] = 0
        return values, unknown
    return {name: (word >> off) & mask for name, off, mask in PACKED}, []


_INDEX = {name: i for i, name in enumerate(FIELDS)}  # a field's place in a record's value list
_make_sampler = _sampler_factory()
_make_int_sampler = _sampler_factory(ints=True)


def _unknown_parts(text: str, parts: int) -> list[int]:
    """The parts (0 first, from the LSB end of the binary string) among the first `parts` that hold X or Z."""
    n = len(text)
    return [k for k in range(parts) if not set(text[n - (k + 1) * PART_BITS : n - k * PART_BITS]) <= {"0", "1"}]


# vpi_user.h (IEEE 1800-2017 annex M): the value format and the property the vector readers use
_VPI_VECTOR_VAL = 9
_VPI_SIZE = 4


class _VpiValue(ctypes.Structure):
    """s_vpi_value of vpi_user.h: the format, then the value union, of which the readers use the
    `vector` member (a pointer to s_vpi_vecval {aval, bval} pairs, 32 bits each, least significant first)."""

    _fields_ = [("format", ctypes.c_int32), ("vector", ctypes.c_void_p)]


def _vector_reader(get_value: Callable[[ctypes.c_void_p, object], None], vpi: int, width: int) -> Callable[[], int]:
    """The signal's value as an integer, read as a vpiVectorVal (one 32-bit word per step in the
    simulator) and converted from the words' bytes: a binary string costs the simulator a step per
    bit, cocotb a toupper() per character and Python a parse per character, about 5 us a commit for
    the 1,024-bit `commit_gpr_data0`. The aval words only: on a two-state simulator
    every bval is 0. `get_value` is called without ctypes argument conversion (its arguments made
    once) and the words are read in place, through a view made again only when the simulator's
    buffer moves."""
    value = _VpiValue(_VPI_VECTOR_VAL, None)
    handle, at, words = ctypes.c_void_p(vpi), ctypes.byref(value), (width + 31) // 32
    view: list = [None, None]  # the buffer's address, the aval words there

    def read() -> int:
        get_value(handle, at)  # value.vector: the simulator's buffer of `words` pairs, until its next vpi_get_value
        address = value.vector
        if address != view[0]:
            view[0], view[1] = address, memoryview((ctypes.c_uint32 * (2 * words)).from_address(address)).cast("B").cast("I")[::2]
        return int.from_bytes(view[1].tobytes(), "little")

    return read


def _vector_readers(handles: dict[str, object]) -> dict[str, Callable[[], int]] | None:
    """Integer readers of cocotb `handles` (by name) through the simulator's own VPI, called with
    ctypes (cocotb 2.1 reads a vector only as a string); None when the simulator's VPI functions
    are not reachable or a reader does not give what cocotb's binary string gives now (checked for
    each signal once: another signal, or another layout of the value, is never used)."""
    try:
        lib = ctypes.CDLL(None)  # the simulator executable exports its VPI (cocotb's VPI library calls it there)
        by_name, get_value, get = lib.vpi_handle_by_name, lib.vpi_get_value, lib.vpi_get
    except (OSError, AttributeError):
        return None
    by_name.argtypes, by_name.restype = [ctypes.c_char_p, ctypes.c_void_p], ctypes.c_void_p
    get_value.restype = None  # called with ctypes objects only (_vector_reader): no argtypes to convert through
    get.argtypes, get.restype = [ctypes.c_int, ctypes.c_void_p], ctypes.c_int
    readers = {}
    for name, handle in handles.items():
        vpi = by_name(handle._path.encode(), None)  # type: ignore[attr-defined]
        if not vpi:
            return None
        read = _vector_reader(get_value, vpi, get(_VPI_SIZE, vpi))
        try:
            if read() != int(handle._handle.get_signal_val_binstr(), 2):  # type: ignore[attr-defined]
                return None
        except ValueError:  # X or Z: not a two-state simulator
            return None
        readers[name] = read
    return readers


# cocotb internals the monitor relies on, and why: cocotb 2.1 has no public way to read a signal's
# value without building a LogicArray (above), nor to run a plain function when a trigger fires
# (only `await trigger` in a task, about 5 us more a commit: _follow). cocotb is pinned
# (requirements.txt); tests/test_commit_monitor.py fails when an upgrade removes or changes either
# internal, so that the monitor never falls back to the slower path silently.
INTERNALS = (
    "cocotb.handle.SimHandleBase._handle -> cocotb.simulator.sim_obj.get_signal_val_binstr",
    "cocotb.triggers.Trigger._register",
    "cocotb.handle.SimHandleBase._path (the name for vpi_handle_by_name)",
)


# Simulators whose value-change callbacks run only once the whole time step has been evaluated
# (cocotb's Verilator main loop: eval_step, then the value callbacks), so that every commit field is
# final when commit_packed changes and the read-only phase need not be awaited (one wake-up a
# record instead of two). Icarus calls them as the nonblocking assignments land: there the monitor
# samples in the read-only phase.
_SETTLED_ON_CHANGE = ("verilator",)
# Two-state simulators: no field can hold X or Z, so the monitor reads integers through the
# simulator's VPI (`_vector_readers`) and leaves the X/Z check (`_sample_checked`) to the others.
_TWO_STATE = ("verilator",)


class CommitMonitor(Armed, BusMonitor):
    """Wakes when `commit_packed` changes (once per record: consecutive records differ in warp or
    sequence number; the commit registers hold their values between records), samples (on Icarus
    in the read-only phase, see _SETTLED_ON_CHANGE) and takes the record if `commit_valid` is 1:
    one or two wake-ups a record, where following `commit_valid` and the clock took four.

    The first record of a run is awaited on a rising `commit_valid` instead: the commit registers
    are not reset, so in a simulation that runs several tests (tb/faults, tb/mutation, randgen's
    batches) it may equal the previous run's last record field for field (programs/bad/trap run
    twice: its only record, MVI, with sequence number 0 both times), and `commit_packed` would
    not change."""

    _signals: ClassVar[list[str]] = ["valid", "packed", "gpr_data0", *FIELDS]

    def __init__(self, dut, clock, cycles: Cycles, callback: Callable[[RtlCommit], None], on_error: Callable[[Exception], None]) -> None:
        self.cycles = cycles
        self.on_error = on_error
        super().__init__(dut, "commit", clock, callback=callback)
        self._due = False  # Icarus: commit_packed changed in this time step, its record not yet taken (settle)
        self._deliver: Callable[[RtlCommit], None] = callback
        self._bind(lambda name: binstr_reader(getattr(self.bus, name)))
        if cocotb.SIM_NAME.lower().startswith(_TWO_STATE):
            vectors = _vector_readers({name: getattr(self.bus, name) for name in ("packed", "gpr_data0", *(name for name, _ in WIDE))})
            if vectors is None:
                self.log.warning("the simulator's VPI is not reachable through ctypes: the commit monitor reads strings, about 5 us more a commit")
            else:
                valid = self.bus.valid._handle.get_signal_val_long  # one bit as an integer (cocotb's own reader)
                self._bind_ints(lambda name: valid if name == "valid" else vectors[name])

    def _bind(self, reader: Callable[[str], Callable[[], str]]) -> None:
        """The readers of the port's signals (by name after `commit_`) as binary strings: the simulator's, or a unit test's."""
        self._ints: Callable[[], list[int]] | None = None  # _bind_ints
        self._one, self._zero = "1", "0"  # commit_valid as read
        self._packed = reader("packed")
        self._gpr0 = reader("gpr_data0")
        self._valid = reader("valid")
        self._wide = [(name, we, reader(name), PARTS.get(name)) for name, we in WIDE]
        self._fast = _make_sampler(decode_packed, self._gpr0, [read for _, _, read, _ in self._wide],
                                   [None if parts is None else parts[1] for _, _, _, parts in self._wide])  # fmt: skip

    def _bind_ints(self, reader: Callable[[str], Callable[[], int]]) -> None:
        """Readers that return integers (a two-state simulator, or a unit test's): the records are
        sampled by the integer sampler (`_sampler_factory(ints=True)`), no X/Z check."""
        self._valid = reader("valid")  # type: ignore[assignment]
        self._one, self._zero = 1, 0  # type: ignore[assignment]
        self._ints = _make_int_sampler(decode_packed, reader("packed"), reader("gpr_data0"), [reader(name) for name, _ in WIDE],
                                       [None if parts is None else parts[1] for _, _, _, parts in self._wide])  # fmt: skip

    def _sample(self) -> RtlCommit:
        """The record on the port: the narrow fields from one read of `commit_packed`; a lane vector
        only while its write enable is 1 (most records write one register: most lane vectors are
        never read), 0 otherwise, and of a multi-part one only the parts that carry meaning (PARTS;
        one register's data from `commit_gpr_data0`, a quarter of the bits). X or Z anywhere in what
        was read goes to `_sample_checked`. With integer readers (`_bind_ints`): those fields, unchecked."""
        if self._ints is not None:
            return RtlCommit(self.cycles.now(), *self._ints())
        packed = self._packed()
        try:
            values = self._fast(packed)  # _sampler_factory
        except ValueError:  # X or Z somewhere (int() of a binary string with x or z in it)
            return self._sample_checked(packed)
        return RtlCommit(self.cycles.now(), *values)

    def _sample_checked(self, packed: str) -> RtlCommit:
        """`_sample` field by field, for a record holding X or Z: 0 for each unknown field, and a
        failure naming them (a multi-part field with the parts that hold X or Z) unless they are
        qualified fields whose write enable is 0 (don't-care). A multi-part field whose part count
        is itself unknown is checked whole."""
        values, unknown = unpack(packed)
        detail: dict[str, str] = {}
        for name, we, read, parts in self._wide:
            if we is not None and values[we] == 0 and we not in unknown:
                values[name] = 0
                continue
            text = read()
            n = MAX_PARTS if parts is None or parts[0] in unknown else parts[1](values[parts[0]])
            if parts is not None:
                text = text[-n * PART_BITS :] if n else "0"
            try:
                values[name] = int(text, 2)
            except ValueError:
                unknown.append(name)
                values[name] = 0
                if parts is not None:
                    bad = _unknown_parts(text, n)
                    detail[name] = f" (part{'s' if len(bad) > 1 else ''} {', '.join(map(str, bad))} of the {n} that carry meaning)"
        for we, fields in QUALIFIED.items():  # don't-care while the enable is 0
            if values[we] == 0 and we not in unknown:
                unknown = [n for n in unknown if n not in fields]
        cycle = self.cycles.now()
        if unknown:
            known = {k: None if k in unknown else values[k] for k in ("warp", "pc", "cta")}
            where = f"warp {known['warp']} PC {known['pc']:#06x}" if None not in (known["warp"], known["pc"]) else "warp/PC unknown"
            raise UnknownValue(cycle, [n + detail.get(n, "") for n in FIELDS if n in unknown], where, **known)
        return RtlCommit(cycle, **values)

    def _take(self, deliver: Callable[[RtlCommit], None]) -> None:
        """The record on the port, if `commit_valid` says there is one."""
        v = self._valid()
        if v == self._one:
            deliver(self._sample())
        elif v != self._zero:
            raise UnknownValue(self.cycles.now(), ["valid"], "when the commit fields changed")

    async def _monitor_recv(self) -> None:
        changed = ValueChange(self.bus.packed)
        # the run's first record (class docstring); a port already valid (no record is expected
        # before the launch) is followed on its changes from the start
        first = changed if self._valid() == self._one else RisingEdge(self.bus.valid)
        # the callback straight, not BusMonitor._recv: one call fewer a record
        deliver = self._callbacks[0]
        self._deliver = deliver
        if cocotb.SIM_NAME.lower().startswith(_SETTLED_ON_CHANGE):
            if hasattr(changed, "_register"):
                self._follow(first, changed, deliver)
                return
            self.log.warning("cocotb has no Trigger._register (INTERNALS): the commit monitor runs as a task, about 5 us more a commit")
        try:
            await first
            while True:
                self._due = True
                await ReadOnly()
                if self._due:  # not yet taken by settle()
                    self._due = False
                    self._take(deliver)
                await changed
        except Exception as exc:  # reported through the test's verdict, not lost in a background task
            self.on_error(exc)

    def settle(self) -> None:
        """In the read-only phase: take the record of this time step now if it has not been taken
        yet (Icarus: the monitor's own read-only wake-up may come after the caller's), so that it
        is compared before the caller judges an error of the same step. A no-op on Verilator, where
        the record was taken in the value-change callbacks, before any read-only one."""
        if not self._due:
            return
        self._due = False
        try:
            self._take(self._deliver)
        except Exception as exc:  # as in _monitor_recv: through the test's verdict
            self.on_error(exc)

    def _follow(self, first, changed: ValueChange, deliver: Callable[[RtlCommit], None]) -> None:
        """Where the fields are final when commit_packed changes (_SETTLED_ON_CHANGE): a plain
        function on the trigger instead of a task awaiting it. cocotb runs it from the trigger's
        firing like a task's wake-up (its scheduler then runs whatever it set going: the end of
        the test on a failure), without resuming a coroutine per record: that cost about 5 us a
        commit. Trigger._register is cocotb's internal (cocotb is pinned,
        requirements.txt); without it the task above runs."""

        def fired() -> None:
            self._armed = None  # this registration is spent
            try:
                self._take(deliver)
            except Exception as exc:  # reported through the test's verdict; the monitor stops
                self.on_error(exc)
                return
            if not self._killed:
                self._armed = changed._register(fired)

        self._armed = first._register(fired)
