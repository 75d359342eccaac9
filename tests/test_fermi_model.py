"""The Fermi model's integer, predicate, move and memory families, the launch and the records.

Expected values come from Python integers and numpy written from PTX's definitions and seed 003's
flag definitions, never from the model."""

from __future__ import annotations

import numpy as np
import pytest
from fermi_build import ins, place, run_lanes, words

from golden.fermi.model import Machine

M32 = 0xFFFFFFFF
rng = np.random.default_rng(20)
EDGE = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, M32, 0xFFFFFFFE, 0x12345678, 0xDEADBEEF]


def values(n: int = 32) -> list[int]:
    """Edge values first, then random ones."""
    return (EDGE + [int(v) for v in rng.integers(0, 1 << 32, n, dtype=np.uint64)])[:n]


def s32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def flags(r: int, carry: bool = False, ovf: bool = False) -> int:
    """Seed 003: Z bit 0, S bit 1, C bit 2, O bit 3."""
    r &= M32
    return (r == 0) | (r >> 31) << 1 | int(carry) << 2 | int(ovf) << 3


A, B, C = values(), values()[::-1], values()[5:] + values()[:5]


def check(body: list, expect, a=A, b=B, c=C) -> None:
    got, _ = run_lanes(body, a, b, c)
    want = [expect(x & M32, y & M32, z & M32) & M32 for x, y, z in zip(a, b, c, strict=True)]
    assert [int(v) for v in got] == want


# -- IADD and the adder ----------------------------------------------------------------------------


def test_iadd_plain_and_negated() -> None:
    check([ins("IADD", "R4", "R1", "R2")], lambda a, b, c: a + b)
    check([ins("IADD", "R4", "R1", "-R2")], lambda a, b, c: a - b)
    check([ins("IADD", "R4", "-R1", "R2")], lambda a, b, c: b - a)
    check([ins("IADD", "R4", "R1", "0x7")], lambda a, b, c: a + 7)


def test_iadd_po_is_plus_one() -> None:
    check([ins("IADD", "R4", "R1", "R2", mods=("PO",))], lambda a, b, c: a + b + 1)


def test_iadd_sat_clamps_the_signed_sum() -> None:
    check([ins("IADD", "R4", "R1", "R2", mods=("SAT",))], lambda a, b, c: max(-(1 << 31), min((1 << 31) - 1, s32(a) + s32(b))))
    check([ins("IADD", "R4", "R1", "-R2", mods=("SAT",))], lambda a, b, c: max(-(1 << 31), min((1 << 31) - 1, s32(a) - s32(b))))


def test_iadd_cc_flags_add_and_subtract() -> None:
    def add_flags(a: int, b: int, c: int) -> int:
        s = a + b
        return flags(s, s >> 32 != 0, not -(1 << 31) <= s32(a) + s32(b) < 1 << 31)

    def sub_flags(a: int, b: int, c: int) -> int:
        s = a + (~b & M32) + 1  # the adder: a + ~b + 1, its carry out is "no borrow"
        return flags(s, s >> 32 != 0, not -(1 << 31) <= s32(a) - s32(b) < 1 << 31)

    body = [ins("IADD", "R5.CC", "R1", "R2"), ins("P2R", "R4", "CC", "RZ", "0xf")]
    got, _ = run_lanes(body, A, B, C)
    assert [int(v) >> 12 for v in got] == [add_flags(a, b, 0) for a, b in zip(A, B, strict=True)]
    body = [ins("IADD", "R5.CC", "R1", "-R2"), ins("P2R", "R4", "CC", "RZ", "0xf")]
    got, _ = run_lanes(body, A, B, C)
    assert [int(v) >> 12 for v in got] == [sub_flags(a, b, 0) for a, b in zip(A, B, strict=True)]


def test_iadd_x_chains_a_64_bit_add() -> None:
    # (c:a) + (c:b) as a 64-bit sum: low word with .CC, high word with .X (PTX add.cc / addc)
    body = [ins("IADD", "R5.CC", "R1", "R2"), ins("IADD", "R4", "R3", "R3", mods=("X",))]
    check(body, lambda a, b, c: ((c << 32 | a) + (c << 32 | b)) >> 32)
    body = [ins("IADD", "R5.CC", "R1", "-R2"), ins("IADD", "R4", "R3", "-R3", mods=("X",))]
    check(body, lambda a, b, c: ((c << 32 | a) - (c << 32 | b)) >> 32)


def test_iscadd() -> None:
    check([ins("ISCADD", "R4", "R1", "R2", "0x5")], lambda a, b, c: (a << 5) + b)
    check([ins("ISCADD", "R4", "R1", "-R2", "0x3")], lambda a, b, c: (a << 3) - b)


# -- compares, selects, logic ----------------------------------------------------------------------

CMPS = {"LT": lambda x, y: x < y, "EQ": lambda x, y: x == y, "LE": lambda x, y: x <= y, "GT": lambda x, y: x > y,
        "NE": lambda x, y: x != y, "GE": lambda x, y: x >= y}  # fmt: skip


@pytest.mark.parametrize("cmp", sorted(CMPS))
@pytest.mark.parametrize("unsigned", [False, True])
def test_isetp_both_destinations_and_logic(cmp: str, unsigned: bool) -> None:
    f = CMPS[cmp]
    key = (lambda v: v) if unsigned else s32
    mods = (cmp, "U32", "OR") if unsigned else (cmp, "OR")
    # P0 = (a cmp b) OR P1, P2 = !(a cmp b) OR P1, with P1 = (c < 0x80000000 unsigned): bit 31 of c clear
    body = [
        ins("ISETP", "P1", "PT", "R3", "0x80000000", "PT", mods=("LT", "U32", "AND")),
        ins("ISETP", "P0", "P2", "R1", "R2", "P1", mods=mods),
        ins("SEL", "R5", "0x1", "RZ", "P0"),
        ins("SEL", "R6", "0x2", "RZ", "P2"),
        ins("LOP", "R4", "R5", "R6", mods=("OR",)),
    ]

    def want(a: int, b: int, c: int) -> int:
        t, p1 = f(key(a), key(b)), c < 0x80000000
        return int(t or p1) | int((not t) or p1) << 1

    check(body, want)


def test_iset_and_bf() -> None:
    check([ins("ISET", "R4", "R1", "R2", "PT", mods=("LT", "AND"))], lambda a, b, c: M32 if s32(a) < s32(b) else 0)
    check([ins("ISET", "R4", "R1", "R2", "PT", mods=("GE", "U32", "AND", "BF"))], lambda a, b, c: 0x3F800000 if a >= b else 0)


def test_icmp_tests_the_third_operand_against_zero() -> None:
    check([ins("ICMP", "R4", "R1", "R2", "R3", mods=("LT",))], lambda a, b, c: a if s32(c) < 0 else b)
    check([ins("ICMP", "R4", "R1", "R2", "R3", mods=("GT", "U32"))], lambda a, b, c: a if c > 0 else b)


def test_imnmx_predicate_selects_min_or_max() -> None:
    check([ins("IMNMX", "R4", "R1", "R2", "PT")], lambda a, b, c: min(s32(a), s32(b)))
    check([ins("IMNMX", "R4", "R1", "R2", "!PT")], lambda a, b, c: max(s32(a), s32(b)))
    check([ins("IMNMX", "R4", "R1", "R2", "PT", mods=("U32",))], lambda a, b, c: min(a, b))


def test_lop_operations_and_inversion() -> None:
    check([ins("LOP", "R4", "R1", "R2", mods=("AND",))], lambda a, b, c: a & b)
    check([ins("LOP", "R4", "R1", "~R2", mods=("OR",))], lambda a, b, c: a | ~b)
    check([ins("LOP", "R4", "~R1", "R2", mods=("XOR",))], lambda a, b, c: ~a ^ b)
    check([ins("LOP", "R4", "R1", "~R2", mods=("PASS_B",))], lambda a, b, c: ~b)
    check([ins("LOP", "R4", "R1", "0xff00ff", mods=("AND",))], lambda a, b, c: a & 0xFF00FF)


def test_lop_cc_sets_zero_and_sign() -> None:
    body = [ins("LOP", "R5.CC", "R1", "R2", mods=("AND",)), ins("P2R", "R4", "CC", "RZ", "0xf")]
    check(body, lambda a, b, c: flags(a & b) << 12)


# -- predicates and moves --------------------------------------------------------------------------


LOGICS = {"AND": lambda x, y: x & y, "OR": lambda x, y: x | y, "XOR": lambda x, y: x ^ y}


@pytest.mark.parametrize("op1", sorted(LOGICS))
@pytest.mark.parametrize("op2", sorted(LOGICS))
def test_psetp_and_pset(op1: str, op2: str) -> None:
    # P0, P1, P4 = bits 0, 1, 4 of a (R2P); P2 = (P0 op1 P1) op2 P4, P3 = !(P0 op1 P1) op2 P4
    body = [ins("R2P", "PR", "R1", "0x13", ndst=1), ins("PSETP", "P2", "P3", "P0", "P1", "P4", mods=(op1, op2)),
            ins("P2R", "R4", "PR", "RZ", "0xc")]
    f, g = LOGICS[op1], LOGICS[op2]

    def want(a: int, b: int, c: int) -> int:
        p0, p1, p4 = a & 1, a >> 1 & 1, a >> 4 & 1
        t = f(p0, p1)
        return g(t, p4) << 2 | g(1 - t, p4) << 3

    check(body, want)


def test_pset_values() -> None:
    body = [ins("R2P", "PR", "R1", "0x3", ndst=1), ins("PSET", "R4", "P0", "P1", "PT", mods=("OR", "AND"))]
    check(body, lambda a, b, c: M32 if a & 3 else 0)
    body = [ins("R2P", "PR", "R1", "0x3", ndst=1), ins("PSET", "R4", "P0", "P1", "PT", mods=("AND", "AND", "BF"))]
    check(body, lambda a, b, c: 0x3F800000 if a & 3 == 3 else 0)


def test_p2r_r2p_round_trip_and_merge() -> None:
    # R2P takes bits 0-6 of a into P0-P6 where the mask says; P2R merges them into b's other bits
    body = [ins("R2P", "PR", "R1", "0x55", ndst=1), ins("P2R", "R4", "PR", "R2", "0x55")]
    check(body, lambda a, b, c: (b & ~0x55) | (a & 0x55))


def test_csetp_tests_cc() -> None:
    # IADD.CC of a - b, then CSETP.LT: signed a < b from the flags (Tesla's LT: S != O)
    body = [ins("IADD", "R5.CC", "R1", "-R2"), ins("CSETP", "P0", "PT", "CC.LT", "PT", mods=("AND",)),
            ins("SEL", "R4", "0x1", "RZ", "P0")]  # fmt: skip
    check(body, lambda a, b, c: int(s32(a) < s32(b)))


def test_mov_and_mov32i() -> None:
    check([ins("MOV", "R4", "R3")], lambda a, b, c: c)
    check([ins("MOV", "R4", "0xcafef00d")], lambda a, b, c: 0xCAFEF00D)
    check([ins("MOV", "R4", "c[0x0][0x8]")], lambda a, b, c: 32)  # ntid.x of the launch


def test_rz_reads_zero_and_drops_writes() -> None:
    check([ins("IADD", "RZ", "R1", "R2"), ins("IADD", "R4", "RZ", "R1")], lambda a, b, c: a)


# -- special registers and the launch convention ---------------------------------------------------


def test_special_registers_and_launch_constants() -> None:
    prog = place([
        ins("S2R", "R0", "SR_TID.X"), ins("S2R", "R1", "SR_TID.Y"), ins("S2R", "R2", "SR_CTAID.X"),
        ins("S2R", "R3", "SR_LANEID"), ins("S2R", "R4", "SR_LTMASK"), ins("S2R", "R5", "SR_GEMASK"),
        ins("S2R", "R6", "SR42"), ins("S2R", "R7", "SR45"),
        ins("MOV", "R8", "c[0x0][0x8]"), ins("MOV", "R9", "c[0x0][0xc]"), ins("MOV", "R12", "c[0x0][0x14]"),
        ins("MOV", "R13", "c[0x0][0x24]"), ins("MOV", "R14", "c[0x1][0x100]"),
        # a row of 16 words per thread at 64 * (48 ctaid + 8 tid.y + tid.x)
        ins("ISCADD", "R16", "R1", "R0", "0x3"), ins("ISCADD", "R17", "R2", "R16", "0x5"),
        ins("ISCADD", "R16", "R2", "R17", "0x4"), ins("ISCADD", "R16", "R16", "RZ", "0x6"),
        *[ins("ST", f"[R16+{hex(4 * k)}]", f"R{r}") for k, r in enumerate([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14])],
        ins("EXIT"),
    ])  # fmt: skip
    m = Machine()
    m.launch(prog, grid=(2, 1, 1), block=(8, 6, 1), global_mem=bytes(2 * 48 * 64), params=words([0x11, 0x22]))
    m.run()
    out = m.mem.glob.view("<u4").reshape(96, 16)
    for cta in range(2):
        for y in range(6):
            for x in range(8):
                t = y * 8 + x
                lane = t % 32
                row = out[cta * 48 + t]
                want = [x, y, cta, lane, (1 << lane) - 1, M32 & ~((1 << lane) - 1), 6, 2, 8, 6, 2, 0x22, m.p.local_size]
                assert [int(v) for v in row[:13]] == want, (cta, t)




def test_the_design_page_lists_every_profile_switch_with_its_value() -> None:
    from pathlib import Path

    from golden.fermi.profile import SM20, FermiProfile

    page = (Path(__file__).resolve().parents[1] / "docs" / "design" / "fermi-model.md").read_text(encoding="utf-8")
    for name in FermiProfile.switches():
        v = getattr(SM20, name)
        shown = hex(v) if isinstance(v, int) and not isinstance(v, bool) else str(v)
        assert f"| `{name}` | `{shown}` |" in page, name
