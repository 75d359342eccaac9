"""The Fermi model's memory families, generic addressing, atomics, faults and commit records.

Expected memory contents are built with numpy from the inputs; expected records are written out
by hand from the definitions in golden/fermi/commit.py."""

from __future__ import annotations

import numpy as np
import pytest
from fermi_build import ins, place, words

from golden.fermi.commit import CCWrite, FermiCommit, MemWrite, PredWrite, RegWrite
from golden.fermi.model import FermiError, Machine
from golden.fermi.profile import SM20
from golden.isa.record import differences, fields_of

M32 = 0xFFFFFFFF
SW, LW = SM20.shared_window, SM20.local_window
TID = [ins("S2R", "R0", "SR_TID.X"), ins("ISCADD", "R11", "R0", "RZ", "0x2")]
rng = np.random.default_rng(7)


def launch(prog: list, mem: bytes, block: int = 32, shared: int = 0x200, const: dict | None = None) -> Machine:
    m = Machine()
    m.launch(place(prog), block=block, global_mem=mem, shared_size=shared, const=const or {})
    return m


def test_global_loads_of_every_size_and_sign() -> None:
    data = rng.integers(0, 256, 0x400, dtype=np.uint8)
    prog = [
        *TID,
        ins("LD", "R1", "[R0+0x40]", mods=("U8",)), ins("LD", "R2", "[R0+0x40]", mods=("S8",)),
        ins("ISCADD", "R12", "R0", "RZ", "0x1"),
        ins("LD", "R3", "[R12+0x80]", mods=("U16",)), ins("LD", "R4", "[R12+0x80]", mods=("S16",)),
        ins("ISCADD", "R13", "R0", "RZ", "0x4"),
        ins("LD", "R6", "[R13]", mods=("64",)), ins("LD", "R16", "[R13]", mods=("128",)),
        ins("ISCADD", "R14", "R0", "RZ", "0x6"),
        *[ins("ST", f"[R14+{hex(0x400 + 4 * k)}]", f"R{r}") for k, r in enumerate([1, 2, 3, 4, 6, 7, 16, 17])],
        ins("ST", "[R14+0x420]", "R18", mods=("64",)),
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, data.tobytes() + bytes(0x400), block=16)
    m.run()
    got = m.mem.glob[0x400:0x800].view("<u4").reshape(16, 16)
    b = data.astype(np.int64)
    h = data.view("<u2").astype(np.int64)
    w = data.view("<u4").astype(np.int64)
    for t in range(16):
        s8 = b[0x40 + t] - 256 * (b[0x40 + t] >= 128)
        s16 = h[0x40 + t] - 65536 * (h[0x40 + t] >= 32768)
        want = [b[0x40 + t], s8 & M32, h[0x40 + t], s16 & M32, w[4 * t], w[4 * t + 1], w[4 * t], w[4 * t + 1]]
        assert [int(v) for v in got[t, :8]] == want, t
        # the 64-bit store of R18:R19 (words 2, 3 of the 128-bit load)
        assert [int(v) for v in got[t, 8:10]] == [w[4 * t + 2], w[4 * t + 3]]


def test_e_takes_a_64_bit_address_pair() -> None:
    prog = [*TID, ins("MOV", "R2", "R11"), ins("MOV", "R3", "RZ"), ins("MOV", "R4", "R0"),
            ins("IADD", "R4", "R4", "0x100"), ins("ST", "[R2+0x80]", "R4", mods=("E",)),
            ins("LD", "R5", "[R2+0x80]", mods=("E",)), ins("ST", "[R2+0x100]", "R5", mods=("E",)), ins("EXIT")]  # fmt: skip
    m = launch(prog, bytes(0x200))
    m.run()
    assert [int(v) for v in m.mem.glob[0x100:0x180].view("<u4")] == [t + 0x100 for t in range(32)]
    # a high word that is not 0 points far outside global memory: a fault, on one line
    prog[3] = ins("MOV", "R3", "0x1")
    m = launch(prog, bytes(0x200))
    with pytest.raises(FermiError, match=r"^CTA 0 warp 0 pc 0x30 \(ST\.E\): global access of 4 byte\(s\) at 0x100000080 is outside"):
        m.run()


def test_shared_and_local_spaces_and_the_generic_windows() -> None:
    # STS to shared[tid], STL to local[8] of each thread; generic LD through the windows reads them back
    prog = [
        *TID,
        ins("IADD", "R1", "R0", "0x500"), ins("STS", "[R11]", "R1"),
        ins("IADD", "R2", "R0", "0x700"), ins("STL", "[RZ+0x8]", "R2"),
        ins("IADD", "R3", "R11", hex(SW)), ins("LD", "R4", "[R3]"),
        ins("MOV", "R5", hex(LW)), ins("LD", "R6", "[R5+0x8]"),
        ins("LDL", "R7", "[RZ+0x8]"), ins("LDS", "R8", "[R11]"),
        # a generic store into the shared window, read back with LDS
        ins("IADD", "R9", "R0", "0x900"), ins("ST", "[R3+0x80]", "R9"), ins("LDS", "R10", "[R11+0x80]"),
        ins("ISCADD", "R12", "R0", "RZ", "0x5"),
        *[ins("ST", f"[R12+{hex(4 * k)}]", f"R{r}") for k, r in enumerate([4, 6, 7, 8, 10])],
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, bytes(32 * 32))
    recs = m.run()
    got = m.mem.glob.view("<u4").reshape(32, 8)
    for t in range(32):
        assert [int(v) for v in got[t, :5]] == [0x500 + t, 0x700 + t, 0x700 + t, 0x500 + t, 0x900 + t]
    st = next(r for r in recs if r.text == "ST" and r.pc == 0x68)
    assert [(w.space, w.size, w.lanes) for w in st.mem] == [("shared", 4, M32)]
    assert [int(a) for a in st.mem[0].addr] == [0x80 + 4 * t for t in range(32)]
    stl = recs[5]
    assert stl.mem[0].space == "local" and [int(a) for a in stl.mem[0].addr] == [8] * 32


def test_local_memory_is_per_thread() -> None:
    prog = [*TID, ins("STL", "[RZ]", "R0"), ins("LDL", "R1", "[RZ]"), ins("ST", "[R11]", "R1"), ins("EXIT")]
    m = launch(prog, bytes(0x100), block=32)
    m.run()
    assert [int(v) for v in m.mem.glob[:0x80].view("<u4")] == list(range(32))


def test_ldc_with_a_register_offset_and_launch_constants() -> None:
    table = [0x1000 + 3 * k for k in range(64)]
    prog = [*TID, ins("LDC", "R1", "c[0x3][R11+0x10]"), ins("IADD", "R1", "R1", "c[0x0][0x20]"),
            ins("ST", "[R11]", "R1"), ins("EXIT")]  # fmt: skip
    m = Machine()
    m.launch(place(prog), block=32, global_mem=bytes(0x80), const={3: words(table)}, params=words([0x50000]))
    m.run()
    assert [int(v) for v in m.mem.glob[:0x80].view("<u4")] == [table[4 + t] + 0x50000 for t in range(32)]


def test_atomics_in_lane_order() -> None:
    # every lane adds tid + 1 to one counter: the old values are prefix sums in lane order
    prog = [*TID, ins("IADD", "R1", "R0", "0x1"), ins("ATOM", "R2", "[RZ+0x200]", "R1", mods=("E", "ADD")),
            ins("ST", "[R11]", "R2"), ins("EXIT")]  # fmt: skip
    m = launch(prog, bytes(0x204))
    m.run()
    olds = [int(v) for v in m.mem.glob[:0x80].view("<u4")]
    assert olds == [t * (t + 1) // 2 for t in range(32)]
    assert int(m.mem.glob[0x200:0x204].view("<u4")[0]) == 32 * 33 // 2


@pytest.mark.parametrize(
    ("op", "t", "start", "b", "c", "want"),
    [
        ("MIN", "S32", 5, 0xFFFFFFFF, 0, 0xFFFFFFFF),
        ("MIN", "U32", 5, 0xFFFFFFFF, 0, 5),
        ("MAX", "S32", 5, 0xFFFFFFFF, 0, 5),
        ("INC", "U32", 7, 7, 0, 0),  # old >= b wraps to 0
        ("INC", "U32", 3, 7, 0, 4),
        ("DEC", "U32", 0, 9, 0, 9),  # old == 0 wraps to b
        ("DEC", "U32", 12, 9, 0, 9),  # old > b wraps to b
        ("DEC", "U32", 4, 9, 0, 3),
        ("AND", "U32", 0xF0F0, 0xFF00, 0, 0xF000),
        ("OR", "U32", 0xF0F0, 0xFF00, 0, 0xFFF0),
        ("XOR", "U32", 0xF0F0, 0xFF00, 0, 0x0FF0),
        ("EXCH", "U32", 0x1234, 0x5678, 0, 0x5678),
        ("CAS", "U32", 0x1234, 0x1234, 0x99, 0x99),
        ("CAS", "U32", 0x1234, 0x1235, 0x99, 0x1234),
    ],
)
def test_atomic_operations_follow_ptx(op: str, t: str, start: int, b: int, c: int, want: int) -> None:
    srcs = ["[RZ+0x10]", "R1"] + (["R2"] if op == "CAS" else [])
    prog = [ins("MOV", "R1", hex(b)), ins("MOV", "R2", hex(c)), ins("ATOM", "R3", *srcs, mods=(op, t)),
            ins("ST", "[RZ]", "R3"), ins("EXIT")]  # fmt: skip
    m = launch(prog, bytes(16) + words([start]), block=1)
    m.run()
    assert int(m.mem.glob[16:20].view("<u4")[0]) == want
    assert int(m.mem.glob[0:4].view("<u4")[0]) == start


def test_red_and_64_bit_atomics() -> None:
    prog = [ins("MOV", "R2", "0xffffffff"), ins("MOV", "R3", "0x0"), ins("RED", "[RZ+0x8]", "R2", mods=("E", "ADD", "64")),
            ins("EXIT")]  # fmt: skip
    m = launch(prog, bytes(8) + (1).to_bytes(8, "little"), block=4)
    m.run()
    assert int.from_bytes(m.mem.glob[8:16].tobytes(), "little") == 1 + 4 * 0xFFFFFFFF


def test_faults_are_one_line() -> None:
    m = launch([ins("LD", "R1", "[RZ+0x2]"), ins("EXIT")], bytes(16))
    with pytest.raises(FermiError, match=r"^CTA 0 warp 0 pc 0x0 \(LD\): global access of 4 byte\(s\) at 0x2 is not aligned to 4$"):
        m.run()
    m = launch([ins("LDS", "R1", "[RZ+0x200]"), ins("EXIT")], bytes(16))
    with pytest.raises(FermiError, match=r"shared access of 4 byte\(s\) at 0x200 is outside 0\.\.0x1ff"):
        m.run()
    m = launch([ins("IADD", "R1", "R2", "R3"), ins("LD", "R1", "[RZ+0x8]", mods=("64",)), ins("EXIT")], bytes(16))
    with pytest.raises(FermiError, match=r"R1 does not start an aligned group of 2 registers"):
        m.run()


def test_launch_errors_are_usage_errors() -> None:
    m = Machine()
    with pytest.raises(FermiError, match="block") as exc:
        m.launch(place([ins("EXIT")]), block=(32, 33, 1))
    assert exc.value.code == 2
    with pytest.raises(FermiError, match="family 'TEX'"):
        m.launch(place([ins("TEX", "R0", "R1")]))
    with pytest.raises(FermiError, match="step after every CTA finished"):
        Machine().step()


def test_commit_records_of_a_small_program() -> None:
    """Every compared field of each record, derived by hand from the definitions."""
    prog = [
        ins("S2R", "R0", "SR_LANEID"),                                 # 0x00
        ins("ISETP", "P0", "P1", "R0", "0x2", "PT", mods=("LT", "U32", "AND")),  # 0x08 lanes 0, 1
        ins("IADD", "R1.CC", "R0", "0xffffffff", guard="P0"),          # 0x10 lane0: 0xffffffff, lane1: 0
        ins("ST", "[RZ+0x10]", "R1", guard="P1"),                      # 0x18 lanes 2, 3: both store
        ins("EXIT"),                                                   # 0x20
    ]  # fmt: skip
    m = launch(prog, bytes(0x20), block=4)
    recs = m.run()
    assert len(recs) == 5

    def arr(vals: dict[int, int], dtype: type = np.uint32) -> np.ndarray:
        a = np.zeros(32, dtype=dtype)
        for k, v in vals.items():
            a[k] = v
        return a

    want = [
        FermiCommit(0, 0, 0, 0x00, 0x1000, 0x08, 0xF, 0xF, 0xF, False, regs=[RegWrite(0, 0xF, arr({0: 0, 1: 1, 2: 2, 3: 3}))]),
        FermiCommit(1, 0, 0, 0x08, 0x1001, 0x10, 0xF, 0xF, 0xF, False, preds=[PredWrite(0, 0xF, 0x3), PredWrite(1, 0xF, 0xC)]),
        FermiCommit(2, 0, 0, 0x10, 0x1002, 0x18, 0xF, 0x3, 0xF, False, regs=[RegWrite(1, 0x3, arr({0: M32, 1: 0}))]),
        FermiCommit(3, 0, 0, 0x18, 0x1003, 0x20, 0xF, 0xC, 0xF, False,
                    mem=[MemWrite("global", 4, 0xC, arr({2: 0x10, 3: 0x10}, np.uint64), arr({2: 0, 3: 0}))]),
        FermiCommit(4, 0, 0, 0x20, 0x1004, 0x28, 0xF, 0xF, 0, True),
    ]  # fmt: skip
    # lane 0: 0 + 0xffffffff = 0xffffffff, no carry: S; lane 1: 1 + 0xffffffff = 0 with a carry: Z, C
    want[2].cc = CCWrite(0x3, arr({0: 0b0010, 1: 0b0101}, np.uint8))
    for w, g in zip(want, recs, strict=True):
        assert differences(FermiCommit, w, g) == [], g
    assert {f.name for f in fields_of(FermiCommit) if not f.compared} == {"cta", "warp", "text"}


def test_wide_shared_and_local_accesses() -> None:
    # STS.128 of R4..R7 and STL.64 of R8:R9 per thread, read back with LDS.64 / LDL.128-sized pieces
    prog = [
        *TID,
        ins("IADD", "R4", "R0", "0x10"), ins("IADD", "R5", "R0", "0x20"), ins("IADD", "R6", "R0", "0x30"),
        ins("IADD", "R7", "R0", "0x40"), ins("ISCADD", "R12", "R0", "RZ", "0x4"),
        ins("STS", "[R12]", "R4", mods=("128",)), ins("LDS", "R14", "[R12+0x8]", mods=("64",)),
        ins("MOV", "R8", "R0"), ins("MOV", "R9", "0x77"), ins("STL", "[RZ+0xff8]", "R8", mods=("64",)),
        ins("LDL", "R16", "[RZ+0xff8]", mods=("64",)),
        ins("ISCADD", "R13", "R0", "RZ", "0x4"),
        ins("ST", "[R13]", "R14", mods=("64",)), ins("ST", "[R13+0x8]", "R16", mods=("64",)),
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, bytes(16 * 8), block=8, shared=0x80)
    recs = m.run()
    got = m.mem.glob.view("<u4").reshape(8, 4)
    for t in range(8):
        assert [int(v) for v in got[t]] == [t + 0x30, t + 0x40, t, 0x77]
    sts = recs[7]
    assert [(w.space, w.size) for w in sts.mem] == [("shared", 4)] * 4
    assert [int(w.addr[3]) for w in sts.mem] == [0x30, 0x34, 0x38, 0x3C]
    assert [int(w.data[3]) for w in sts.mem] == [0x13, 0x23, 0x33, 0x43]
    m = launch([ins("LDL", "R2", "[RZ+0x1000]"), ins("EXIT")], bytes(16))
    with pytest.raises(FermiError, match=r"local access of 4 byte\(s\) at 0x1000 is outside 0\.\.0xfff"):
        m.run()


def test_an_access_to_a_space_of_no_bytes_says_so() -> None:
    m = launch([ins("STS", "[RZ+0x10]", "RZ"), ins("EXIT")], bytes(16), shared=0)
    with pytest.raises(FermiError, match=r"^CTA 0 warp 0 pc 0x0 \(STS\): shared access of 4 byte\(s\) at 0x10: the launch gave shared memory no bytes"):
        m.run()
