"""The commit monitor's X/Z check (tb/commit_agent.py), on synthetic port values, no simulator.

What must be driven when comes from the record's description (golden/g80/hw.py COMMIT_FIELDS, from
which the RTL's port is generated): a qualified field only while its write enable is 1; of the
lane vectors of parts ("part k of lane i at [1024*k + 32*i +: 32]") only the parts the record
counts: `gpr_count` registers, `mem_size` bytes per lane (one part per 32 bits over 4 bytes).
An undriven part that should be driven fails, naming the part; one beyond the count does not.
"""

from __future__ import annotations

import pytest

from golden.g80.hw import COMMIT_FIELDS, MAX_PARTS, WARP_SIZE, commit_packed_fields
from tb.commit_agent import CommitMonitor, RtlCommit
from tb.dut import UnknownValue

PART = WARP_SIZE * 32  # bits of one part
WIDTH = {f.name: f.width for f in COMMIT_FIELDS}


class _Cycles:
    def now(self) -> int:
        return 7


def _packed(values: dict[str, int]) -> str:
    """commit_packed as the simulator gives it (MSB first): the narrow fields side by side, the first at bit 0."""
    return "".join(format(values.get(f.name, 0), f"0{f.width}b") for f in reversed(commit_packed_fields()))


def _vector(parts: list[str | int]) -> str:
    """A 4-part lane vector, MSB first: each part a value (lane i = value + i) or "x" (undriven)."""
    out = []
    for p in reversed(parts + [0] * (MAX_PARTS - len(parts))):
        out.append("x" * PART if p == "x" else "".join(format(p + i, "032b") for i in reversed(range(WARP_SIZE))))
    return "".join(out)


def _monitor(narrow: dict[str, int], wide: dict[str, str]) -> CommitMonitor:
    mon = object.__new__(CommitMonitor)  # no simulator: the port's readers are plain strings
    mon.cycles = _Cycles()
    signals = {"packed": _packed(narrow), "valid": "1", **{f.name: "0" * f.width for f in COMMIT_FIELDS if f.width > 64}, **wide}
    signals["gpr_data0"] = signals["gpr_data"][-PART:]
    mon._bind(lambda name: lambda: signals[name])
    return mon


def _int_monitor(narrow: dict[str, int], wide: dict[str, int]) -> CommitMonitor:
    """A monitor on integer readers (a two-state simulator's, `CommitMonitor._bind_ints`)."""
    mon = _monitor(narrow, {name: format(v, f"0{WIDTH[name]}b") for name, v in wide.items()})
    signals = {"packed": int(_packed(narrow), 2), "valid": 1, **{f.name: 0 for f in COMMIT_FIELDS if f.width > 64}, **wide}
    signals["gpr_data0"] = signals["gpr_data"] & ((1 << PART) - 1)
    mon._bind_ints(lambda name: lambda: signals[name])
    return mon


def _lane0(value: int, k: int) -> int:
    return (value >> (PART * k)) & 0xFFFFFFFF


RECORD = {"warp": 3, "pc": 0x40, "seq": 9, "exec": 0xFFFFFFFF, "active": 0xFFFFFFFF}


@pytest.mark.parametrize(("count", "undriven"), [(1, [1, 2, 3]), (2, [2, 3]), (4, [])])
def test_register_parts_beyond_gpr_count_are_dont_care(count: int, undriven: list[int]) -> None:
    parts: list[str | int] = [0x100 * (k + 1) if k < count else "x" for k in range(MAX_PARTS)]
    mon = _monitor({**RECORD, "gpr_we": 1, "gpr_reg": 4, "gpr_count": count}, {"gpr_data": _vector(parts)})
    rec = mon._sample()
    assert isinstance(rec, RtlCommit) and rec.gpr_count == count and rec.cycle == 7
    assert [_lane0(rec.gpr_data, k) for k in range(count)] == [0x100 * (k + 1) for k in range(count)]
    assert [k for k in range(MAX_PARTS) if parts[k] == "x"] == undriven
    assert rec.gpr_data >> (PART * count) == 0  # the parts beyond are not read


@pytest.mark.parametrize(("count", "bad"), [(1, 0), (2, 1), (4, 3), (4, 0)])
def test_an_undriven_register_part_that_counts_fails_naming_it(count: int, bad: int) -> None:
    parts: list[str | int] = [0x100 * (k + 1) for k in range(MAX_PARTS)]
    parts[bad] = "x"
    mon = _monitor({**RECORD, "gpr_we": 1, "gpr_reg": 4, "gpr_count": count}, {"gpr_data": _vector(parts)})
    with pytest.raises(UnknownValue) as info:
        mon._sample()
    assert info.value.fields == [f"gpr_data (part {bad} of the {count} that carry meaning)"], info.value.fields
    assert (info.value.warp, info.value.pc) == (3, 0x40)
    assert "commit_gpr_data (part" in str(info.value)


@pytest.mark.parametrize(("size", "parts_meant"), [(1, 1), (4, 1), (8, 2), (16, 4)])
def test_store_data_parts_follow_mem_size(size: int, parts_meant: int) -> None:
    narrow = {**RECORD, "mem_we": 1, "mem_space": 1, "mem_size": size, "mem_lanes": 0xFFFFFFFF}
    # driven exactly as far as the size says: passes, whatever lies beyond
    ok = _monitor(narrow, {"mem_data": _vector([0x10 * (k + 1) if k < parts_meant else "x" for k in range(MAX_PARTS)]), "mem_addr": "0" * WIDTH["mem_addr"]})
    rec = ok._sample()
    assert [_lane0(rec.mem_data, k) for k in range(parts_meant)] == [0x10 * (k + 1) for k in range(parts_meant)]
    # the last part the size needs undriven: a failure naming it
    last = parts_meant - 1
    bad = _monitor(narrow, {"mem_data": _vector([0x10 if k != last else "x" for k in range(MAX_PARTS)]), "mem_addr": "0" * WIDTH["mem_addr"]})
    with pytest.raises(UnknownValue) as info:
        bad._sample()
    assert info.value.fields == [f"mem_data (part {last} of the {parts_meant} that carry meaning)"]


def test_qualified_fields_are_dont_care_while_their_enable_is_zero() -> None:
    mon = _monitor({**RECORD, "gpr_we": 0, "gpr_count": 4, "mem_we": 0, "mem_size": 16},
                   {"gpr_data": "x" * WIDTH["gpr_data"], "mem_data": "z" * WIDTH["mem_data"], "mem_addr": "x" * WIDTH["mem_addr"]})  # fmt: skip
    rec = mon._sample()
    assert (rec.gpr_data, rec.mem_data, rec.mem_addr) == (0, 0, 0)


def test_an_unknown_part_count_checks_every_part() -> None:
    """gpr_count itself undriven: which parts carry meaning is unknown, so all are checked (and the count is named)."""
    narrow = {**RECORD, "gpr_we": 1, "gpr_reg": 4, "gpr_count": 2}
    mon = _monitor(narrow, {"gpr_data": _vector([1, 2, 3, "x"])})
    text = mon._packed()
    count_at = sum(f.width for f in commit_packed_fields()[: [f.name for f in commit_packed_fields()].index("gpr_count")])
    broken = text[: len(text) - count_at - 1] + "x" + text[len(text) - count_at :]  # bit 0 of gpr_count
    mon._packed = lambda: broken
    with pytest.raises(UnknownValue) as info:
        mon._sample()
    assert info.value.fields == ["gpr_count", f"gpr_data (part 3 of the {MAX_PARTS} that carry meaning)"]


def test_the_cocotb_internals_the_monitor_relies_on_are_there() -> None:
    """tb/commit_agent.py INTERNALS: a cocotb upgrade that removes or changes them must fail here,
    not make every lock-step run silently slower (make bench's figures) or read values otherwise."""
    import inspect

    import cocotb.handle
    import cocotb.simulator
    import cocotb.triggers

    # the reader: the GPI object's binary string, which is what cocotb's own LogicArrayObject.get() reads
    assert callable(getattr(cocotb.simulator.sim_obj, "get_signal_val_binstr", None))
    assert "self._handle.get_signal_val_binstr()" in inspect.getsource(cocotb.handle.LogicArrayObject.get)
    assert "self._handle = handle" in inspect.getsource(cocotb.handle.SimHandleBase.__init__)
    # a plain function registered on a trigger, run when it fires, cancellable
    for trigger in (cocotb.triggers.ValueChange, cocotb.triggers.RisingEdge):
        register = getattr(trigger, "_register", None)
        assert callable(register), f"{trigger.__name__}._register is gone"
        assert list(inspect.signature(register).parameters) == ["self", "func"]
    source = inspect.getsource(cocotb.triggers.Trigger._register)
    assert "TriggerCallback(self, func)" in source and "self._prime()" in source
    from cocotb._base_triggers import TriggerCallback

    assert callable(TriggerCallback.cancel)
    # the name a handle's signal has for vpi_handle_by_name (_vector_readers)
    assert "self._path" in inspect.getsource(cocotb.handle.SimHandleBase.__init__)


@pytest.mark.parametrize("width", [1, 32, 313, 1024])
def test_the_vector_reader_takes_the_aval_words(width: int) -> None:
    """tb/commit_agent._vector_reader on a stand-in for vpi_get_value that fills a vpiVectorVal as
    IEEE 1800-2017 38.34 lays it out (s_vpi_vecval pairs, the least significant 32 bits first, aval
    the value and bval the X/Z bits, 0 on a two-state simulator); read twice (the buffer in place),
    then from a buffer that has moved."""
    import ctypes
    import random

    from tb.commit_agent import _VPI_VECTOR_VAL, _vector_reader

    rng = random.Random(width)
    words = (width + 31) // 32
    buffers = [(ctypes.c_uint32 * (2 * words))(), (ctypes.c_uint32 * (2 * words))()]
    state = {"value": 0, "buffer": 0, "calls": 0}

    def get_value(handle: ctypes.c_void_p, at: object) -> None:
        assert handle.value == 0x1234
        value = at._obj  # type: ignore[attr-defined]  # ctypes.byref's object
        assert value.format == _VPI_VECTOR_VAL
        buf = buffers[state["buffer"]]
        for k in range(words):
            buf[2 * k], buf[2 * k + 1] = (state["value"] >> (32 * k)) & 0xFFFFFFFF, 0
        value.vector = ctypes.addressof(buf)
        state["calls"] += 1

    read = _vector_reader(get_value, 0x1234, width)  # type: ignore[arg-type]
    for buffer in (0, 0, 1):
        state["value"], state["buffer"] = rng.getrandbits(width), buffer
        assert read() == state["value"]
    assert state["calls"] == 3


@pytest.mark.parametrize("ints", [False, True], ids=["strings", "integers"])
@pytest.mark.parametrize("seed", range(20))
def test_a_clean_record_reads_back_field_for_field(seed: int, ints: bool) -> None:
    """Random clean port values (every field driven, no X): the sampled record holds each narrow
    field as driven and, of each lane vector, exactly what its enable and count say carries
    meaning: all of a single-part vector while its enable is 1, the first `gpr_count` (0 to 4) or
    `mem_size` parts of a multi-part one, 0 otherwise. Covers every branch of the generated fast
    sampler (tb/commit_agent._sampler_factory) against the port description of golden/g80/hw.py, on
    binary strings (Icarus) and on integers (Verilator, `_vector_readers`)."""
    import random

    rng = random.Random(seed)
    narrow = {f.name: rng.getrandbits(f.width) for f in commit_packed_fields()}
    for we in ("gpr_we", "cc_we", "a_we", "mem_we"):
        narrow[we] = rng.randrange(2)
    narrow["gpr_count"] = rng.randrange(MAX_PARTS + 1)
    narrow["mem_size"] = rng.choice([1, 2, 4, 8, 16])
    wide = {f.name: rng.getrandbits(f.width) for f in COMMIT_FIELDS if f.name not in narrow}
    mon = _int_monitor(narrow, wide) if ints else _monitor(narrow, {name: format(v, f"0{WIDTH[name]}b") for name, v in wide.items()})
    rec = mon._sample()
    for name, v in narrow.items():
        assert getattr(rec, name) == v, name
    mem_parts = narrow["mem_size"] // 4 if narrow["mem_size"] > 4 else 1
    expect = {
        "gpr_data": wide["gpr_data"] & ((1 << PART * narrow["gpr_count"]) - 1) if narrow["gpr_we"] else 0,
        "cc_data": wide["cc_data"] if narrow["cc_we"] else 0,
        "a_data": wide["a_data"] if narrow["a_we"] else 0,
        "mem_addr": wide["mem_addr"] if narrow["mem_we"] else 0,
        "mem_data": wide["mem_data"] & ((1 << PART * mem_parts) - 1) if narrow["mem_we"] else 0,
    }
    assert set(expect) == set(wide)  # a new lane vector in golden/g80/hw.py needs its rule here
    for name, v in expect.items():
        assert getattr(rec, name) == v, name
