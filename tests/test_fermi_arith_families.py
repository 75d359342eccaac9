"""The Fermi model's families that call golden.fermi.arith: multiply, shifts, bit fields, FP and
conversions. Each routine's operand reading, modifier choice and write-back is checked against
numpy or Python integers computed from PTX's definitions, not against arith's own answers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from fermi_build import ins, run_lanes

M32 = 0xFFFFFFFF
rng = np.random.default_rng(31)
EDGE = [0, 1, 2, 31, 32, 0x7FFFFFFF, 0x80000000, 0x80000001, M32, 0xFFFFFFFE, 0x12345678, 0xDEADBEEF]


def values(n: int = 32) -> list[int]:
    return (EDGE + [int(v) for v in rng.integers(0, 1 << 32, n, dtype=np.uint64)])[:n]


def s32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v >> 31 else v


A, B, C = values(), values()[::-1], values()[7:] + values()[:7]


def check(body: list, expect, a=A, b=B, c=C) -> None:
    got, _ = run_lanes(body, a, b, c)
    want = [expect(x & M32, y & M32, z & M32) & M32 for x, y, z in zip(a, b, c, strict=True)]
    assert [int(v) for v in got] == want


def f32(v: int) -> float:
    return float(np.array([v], dtype=np.uint32).view(np.float32)[0])


def bits(x: float) -> int:
    return int(np.array([x], dtype=np.float32).view(np.uint32)[0])


# -- integer ---------------------------------------------------------------------------------------


def test_imul_types_and_hi() -> None:
    check([ins("IMUL", "R4", "R1", "R2")], lambda a, b, c: s32(a) * s32(b))
    check([ins("IMUL", "R4", "R1", "R2", mods=("U32", "U32", "HI"))], lambda a, b, c: (a * b) >> 32)
    check([ins("IMUL", "R4", "R1", "R2", mods=("HI",))], lambda a, b, c: (s32(a) * s32(b)) >> 32)
    check([ins("IMUL", "R4", "R1", "R2", mods=("U32", "S32", "HI"))], lambda a, b, c: (a * s32(b)) >> 32)


def test_imad() -> None:
    check([ins("IMAD", "R4", "R1", "R2", "R3", mods=("U32", "U32"))], lambda a, b, c: a * b + c)
    check([ins("IMAD", "R4", "R1", "R2", "-R3")], lambda a, b, c: s32(a) * s32(b) - s32(c))
    check([ins("IMAD", "R4", "R1", "R2", "R3", mods=("U32", "U32", "HI"))], lambda a, b, c: ((a * b) >> 32) + c)


def test_shifts_clamp_or_wrap() -> None:
    n = [k % 40 for k in range(32)]  # amounts past 31 included
    check([ins("SHL", "R4", "R1", "R2")], lambda a, b, c: a << b if b < 32 else 0, b=n)
    check([ins("SHL", "R4", "R1", "R2", mods=("W",))], lambda a, b, c: a << (b & 31), b=n)
    check([ins("SHR", "R4", "R1", "R2", mods=("U32",))], lambda a, b, c: a >> b if b < 32 else 0, b=n)
    check([ins("SHR", "R4", "R1", "R2")], lambda a, b, c: s32(a) >> min(b, 31), b=n)


def test_bfe_bfi() -> None:
    pl = [(k * 3 % 32) | ((k * 5 % 17) << 8) for k in range(32)]  # pos | len << 8

    def bfe_u(a: int, p: int, c: int) -> int:
        pos, ln = p & 0xFF, p >> 8 & 0xFF
        return (a >> pos) & ((1 << ln) - 1) if pos < 32 else 0

    def bfe_s(a: int, p: int, c: int) -> int:
        pos, ln = p & 0xFF, p >> 8 & 0xFF
        if ln == 0:
            return 0
        v = (a >> pos) & ((1 << ln) - 1)
        top = min(pos + ln, 32) - 1 - pos  # the sign is the last extracted bit that exists
        return v - (1 << (top + 1)) if v >> top & 1 else v

    check([ins("BFE", "R4", "R1", "R2", mods=("U32",))], bfe_u, b=pl)
    check([ins("BFE", "R4", "R1", "R2")], bfe_s, b=pl)

    def bfi(a: int, p: int, base: int) -> int:
        pos, ln = p & 0xFF, p >> 8 & 0xFF
        m = ((1 << ln) - 1) << pos
        return (base & ~m) | ((a << pos) & m)

    check([ins("BFI", "R4", "R1", "R2", "R3")], bfi, b=pl)


def test_prmt_default_mode() -> None:
    sel = [int(v) & 0xFFFF for v in rng.integers(0, 1 << 16, 32)]

    def prmt(a: int, s: int, b: int) -> int:
        pool = (b << 32 | a).to_bytes(8, "little")
        out = 0
        for k in range(4):
            nib = s >> (4 * k) & 0xF
            byte = pool[nib & 7]
            if nib & 8:
                byte = 0xFF if byte & 0x80 else 0
            out |= byte << (8 * k)
        return out

    check([ins("PRMT", "R4", "R1", "R2", "R3")], prmt, b=sel)


def test_popc_flo_isad() -> None:
    check([ins("POPC", "R4", "R1", "R2")], lambda a, b, c: bin(a & b).count("1"))
    check([ins("POPC", "R4", "R1", "~R2")], lambda a, b, c: bin(a & ~b & M32).count("1"))

    def flo_u(a: int, b: int, c: int) -> int:
        return a.bit_length() - 1 if a else M32

    def flo_s(a: int, b: int, c: int) -> int:
        v = ~a & M32 if a >> 31 else a
        return v.bit_length() - 1 if v else M32

    check([ins("FLO", "R4", "R1", mods=("U32",))], flo_u)
    check([ins("FLO", "R4", "R1")], flo_s)
    check([ins("ISAD", "R4", "R1", "R2", "R3")], lambda a, b, c: abs(s32(a) - s32(b)) + c)
    check([ins("ISAD", "R4", "R1", "R2", "R3", mods=("U32",))], lambda a, b, c: abs(a - b) + c)


# -- floating point --------------------------------------------------------------------------------


def floats(n: int = 32, mant: int = 12) -> list[int]:
    """Random finite binary32 patterns with short mantissas (a product is exact in binary64)."""
    sign = rng.integers(0, 2, n)
    exp = rng.integers(100, 150, n)
    man = rng.integers(0, 1 << mant, n) << (23 - mant)
    return [int(s) << 31 | int(e) << 23 | int(m) for s, e, m in zip(sign, exp, man, strict=True)]


FA, FB, FC = floats(), floats(), floats()


def round_f32(q: Fraction) -> float:
    """The binary32 nearest the exact value q, ties to even (checked against both neighbours of the
    candidate, so a double rounding through binary64 cannot slip in)."""
    f = np.float32(float(q))
    cands = [np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))]
    best = min(cands, key=lambda v: (abs(Fraction(float(v)) - q), bits(float(v)) & 1))
    return float(best)


def fcheck(body: list, expect, a=FA, b=FB, c=FC) -> None:
    got, _ = run_lanes(body, a, b, c)
    want = [bits(expect(np.float64(f32(x)), np.float64(f32(y)), np.float64(f32(z)))) for x, y, z in zip(a, b, c, strict=True)]
    assert [int(v) for v in got] == want


def test_fadd_fmul_ffma_round_to_nearest() -> None:
    fcheck([ins("FADD", "R4", "R1", "R2")], lambda a, b, c: round_f32(Fraction(a) + Fraction(b)))
    fcheck([ins("FADD", "R4", "R1", "-R2")], lambda a, b, c: round_f32(Fraction(a) - Fraction(b)))
    fcheck([ins("FADD", "R4", "|R1|", "R2")], lambda a, b, c: round_f32(abs(Fraction(a)) + Fraction(b)))
    fcheck([ins("FMUL", "R4", "R1", "R2")], lambda a, b, c: a * b)
    fcheck([ins("FFMA", "R4", "R1", "R2", "R3")], lambda a, b, c: round_f32(Fraction(a) * Fraction(b) + Fraction(c)))
    fcheck([ins("FFMA", "R4", "R1", "-R2", "R3")], lambda a, b, c: round_f32(-Fraction(a) * Fraction(b) + Fraction(c)))


def test_fadd_sat_clamps_to_unit_interval() -> None:
    fcheck([ins("FADD", "R4", "R1", "R2", mods=("SAT",))], lambda a, b, c: min(max(round_f32(Fraction(a) + Fraction(b)), 0.0), 1.0))


def test_fsetp_ordered_and_unordered() -> None:
    nan = 0x7FC00000
    a = [*FA[:28], nan, nan, FA[0], FA[1]]
    b = [*FB[:28], FB[0], nan, nan, FA[1]]
    for cmp, f in (("LT", lambda x, y: x < y), ("GE", lambda x, y: x >= y), ("NE", lambda x, y: x != y and x == x and y == y),
                   ("NEU", lambda x, y: x != y), ("NAN", lambda x, y: x != x or y != y)):  # fmt: skip
        body = [ins("FSETP", "P0", "PT", "R1", "R2", "PT", mods=(cmp, "AND")), ins("SEL", "R4", "0x1", "RZ", "P0")]
        check(body, lambda x, y, z, f=f: int(f(f32(x), f32(y))), a=a, b=b)


def test_fmnmx_returns_the_number_beside_a_nan() -> None:
    a = [*FA[:30], 2143289344, FA[0]]
    b = [*FB[:30], FB[0], 2143289344]
    fcheck([ins("FMNMX", "R4", "R1", "R2", "PT")], lambda x, y, z: np.fmin(x, y), a=a, b=b)
    fcheck([ins("FMNMX", "R4", "R1", "R2", "!PT")], lambda x, y, z: np.fmax(x, y), a=a, b=b)


def test_conversions() -> None:
    ints = values()
    check([ins("I2F", "R4", "R1", mods=("F32", "S32"))], lambda a, b, c: bits(np.float32(s32(a))), a=ints)
    check([ins("I2F", "R4", "R1", mods=("F32", "U32"))], lambda a, b, c: bits(np.float32(a)), a=ints)
    fl = [bits(v) for v in rng.uniform(-3e9, 3e9, 32).astype(np.float32)]

    def f2i(a: int, b: int, c: int) -> int:
        v = int(np.trunc(np.float64(f32(a))))
        return max(-(1 << 31), min((1 << 31) - 1, v))

    check([ins("F2I", "R4", "R1", mods=("S32", "F32", "TRUNC"))], f2i, a=fl)
    check([ins("F2I", "R4", "R1", mods=("S32", "F32", "FLOOR"))], lambda a, b, c: max(-(1 << 31), min((1 << 31) - 1, int(np.floor(f32(a))))), a=fl)


def test_f2i_without_a_rounding_modifier_rounds_to_nearest_even() -> None:
    """The empty spelling of F2I's rounding field is envytools' rni (TRUNC is rzi): ties go to the
    even integer, as numpy's rint rounds them."""
    ties = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 2.75, -2.75, 0.25]
    fl = [bits(np.float32(v)) for v in [*ties, *rng.uniform(-100, 100, 32 - len(ties))]]
    check([ins("F2I", "R4", "R1", mods=("S32", "F32"))], lambda a, b, c: int(np.rint(f32(a))), a=fl)


def test_double_precision_on_register_pairs() -> None:
    # R6:R7 = (double)a, R8:R9 = (double)b via F2F; DADD/DMUL/DFMA; back to float for the store
    da, db = np.float64(1) / 3, np.float64(2) / 7
    pa = int(np.array([da]).view(np.uint64)[0])
    pb = int(np.array([db]).view(np.uint64)[0])
    lo = [pa & M32] * 32
    hi = [pa >> 32] * 32
    body = [ins("MOV", "R6", "R1"), ins("MOV", "R7", "R2"), ins("MOV", "R8", "R3"), ins("MOV", "R9", "R3"),
            ins("MOV", "R8", hex(pb & M32)), ins("MOV", "R9", hex(pb >> 32)),
            ins("DFMA", "R12", "R6", "R8", "R6"), ins("DADD", "R14", "R12", "-R8"), ins("DMUL", "R16", "R14", "R14"),
            ins("F2F", "R4", "R16", mods=("F32", "F64"))]  # fmt: skip
    got, _ = run_lanes(body, lo, hi, [0] * 32)
    fma = float(Fraction(da) * Fraction(db) + Fraction(da))  # DFMA rounds once: the exact sum, rounded
    d = fma - db
    want = bits(np.float32(d * d))
    assert [int(v) for v in got] == [want] * 32


@pytest.mark.parametrize("func", ["RCP", "RSQ", "EX2", "LG2", "SIN", "COS"])
def test_mufu_is_close_to_the_function(func: str) -> None:
    xs = [bits(v) for v in rng.uniform(0.5, 2.0, 32).astype(np.float32)]
    got, _ = run_lanes([ins("MUFU", "R4", "R1", mods=(func,))], xs)
    f = {"RCP": lambda v: 1 / v, "RSQ": lambda v: v**-0.5, "EX2": lambda v: 2**v, "LG2": np.log2, "SIN": np.sin, "COS": np.cos}[func]
    for x, g in zip(xs, got, strict=True):
        want = f(np.float64(f32(x)))
        assert abs(f32(int(g)) - want) <= 1e-5 * max(1.0, abs(want)), (func, f32(x))


def test_a_shared_memory_reduction_kernel() -> None:
    """Tree reduction of 128 values per CTA in shared memory, two CTAs: barriers inside a PBK loop,
    an SSY if inside it, the launch's ntid and parameters from c[0x0]."""
    from fermi_build import linked

    from golden.fermi.model import Machine

    def build(L: dict[str, int]) -> list:
        return [
            ins("S2R", "R0", "SR_TID.X"), ins("S2R", "R1", "SR_CTAID.X"), ins("MOV", "R2", "c[0x0][0x8]"),
            ins("IMAD", "R3", "R1", "R2", "R0", mods=("U32", "U32")),
            ins("ISCADD", "R4", "R3", "c[0x0][0x20]", "0x2"), ins("LD", "R5", "[R4]"),
            ins("ISCADD", "R6", "R0", "RZ", "0x2"), ins("STS", "[R6]", "R5"), ins("BAR", "RZ", "RZ", mods=("SYNC",)),
            ins("SHR", "R7", "R2", "0x1", mods=("U32",)),
            ins("PBK", f"@{L['end']:#x}"),
            "loop",
            ins("ISETP", "P0", "PT", "R7", "RZ", "PT", mods=("EQ", "AND")), ins("BRK", guard="P0"),
            ins("ISETP", "P1", "PT", "R0", "R7", "PT", mods=("LT", "U32", "AND")),
            ins("SSY", f"@{L['join']:#x}"), ins("BRA", f"@{L['skip']:#x}", guard="!P1"),
            ins("IADD", "R8", "R0", "R7"), ins("ISCADD", "R8", "R8", "RZ", "0x2"), ins("LDS", "R9", "[R8]"),
            ins("LDS", "R10", "[R6]"), ins("IADD", "R10", "R10", "R9"), ins("STS", "[R6]", "R10"),
            "skip", ins("NOP", mods=("S",)),
            "join", ins("BAR", "RZ", "RZ", mods=("SYNC",)), ins("SHR", "R7", "R7", "0x1", mods=("U32",)),
            ins("BRA", f"@{L['loop']:#x}"),
            "end",
            ins("ISETP", "P2", "PT", "R0", "RZ", "PT", mods=("EQ", "AND")), ins("EXIT", guard="!P2"),
            ins("LDS", "R11", "[RZ]"), ins("ISCADD", "R12", "R1", "c[0x0][0x24]", "0x2"), ins("ST", "[R12]", "R11"),
            ins("EXIT"),
        ]  # fmt: skip

    data = rng.integers(0, 1 << 20, 256, dtype=np.uint32)
    m = Machine()
    m.launch(linked(build), grid=2, block=128, global_mem=data.tobytes() + bytes(8), shared_size=512,
             params=np.array([0, 1024], dtype="<u4").tobytes())  # fmt: skip
    m.run()
    got = [int(v) for v in m.mem.glob[1024:1032].view("<u4")]
    assert got == [int(data[:128].sum()), int(data[128:].sum())]


def round_dir(q: Fraction, mode: str) -> float:
    """The binary32 value q rounds to under RZ, RM or RP (among the neighbours of the nearest)."""
    f = np.float32(float(q))
    cands = [float(v) for v in (np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf)))]
    if mode == "RM":
        return max(v for v in cands if Fraction(v) <= q)
    if mode == "RP":
        return min(v for v in cands if Fraction(v) >= q)
    return max((v for v in cands if abs(Fraction(v)) <= abs(q)), key=abs)


@pytest.mark.parametrize("rnd", ["RZ", "RM", "RP"])
def test_directed_rounding_modifiers(rnd: str) -> None:
    fcheck([ins("FADD", "R4", "R1", "R2", mods=(rnd,))], lambda a, b, c: round_dir(Fraction(a) + Fraction(b), rnd))
    fcheck([ins("FFMA", "R4", "R1", "R2", "R3", mods=(rnd,))], lambda a, b, c: round_dir(Fraction(a) * Fraction(b) + Fraction(c), rnd))


def test_integer_conversions_saturate_or_wrap() -> None:
    check([ins("I2I", "R4", "R1", mods=("S8", "S32", "SAT"))], lambda a, b, c: max(-128, min(127, s32(a))))
    check([ins("I2I", "R4", "R1", mods=("U16", "S32"))], lambda a, b, c: a & 0xFFFF)
    check([ins("I2I", "R4", "R1", mods=("S32", "S8"))], lambda a, b, c: (a & 0xFF) - ((a & 0x80) << 1))
    check([ins("I2I", "R4", "-R1", mods=("S32", "S32"))], lambda a, b, c: -a)


def test_widening_and_double_conversions() -> None:
    # F2F.F64.F32 is exact; I2F.F64.S32 is exact; the low and high words of each land in a pair
    body = [ins("F2F", "R6", "R1", mods=("F64", "F32")), ins("I2F", "R8", "R2", mods=("F64", "S32")),
            ins("DADD", "R12", "R6", "R8"), ins("MOV", "R4", "R13")]  # fmt: skip
    ints = values()

    def want(a: int, b: int, c: int) -> int:
        d = np.float64(f32(a)) + np.float64(s32(b))  # two exact binary64 values, one rounding
        return int(np.array([d]).view(np.uint64)[0]) >> 32

    check(body, want, a=FA, b=ints)


def test_dsetp_and_dmnmx_on_pairs() -> None:
    body = [ins("F2F", "R6", "R1", mods=("F64", "F32")), ins("F2F", "R8", "R2", mods=("F64", "F32")),
            ins("DSETP", "P0", "PT", "R6", "R8", "PT", mods=("GT", "AND")), ins("DMNMX", "R12", "R6", "R8", "!PT"),
            ins("F2F", "R5", "R12", mods=("F32", "F64")), ins("SEL", "R14", "0x1", "RZ", "P0"),
            ins("LOP", "R4", "R5", "R14", mods=("XOR",))]  # fmt: skip
    check(body, lambda a, b, c: bits(max(f32(a), f32(b))) ^ int(f32(a) > f32(b)), a=FA, b=FB)
