"""golden.g80.arith.fp against testdata/vectors/fp32.txt, FP_SFU.md statements, and exact-rational
references written from the document's "mathematical equivalent" paragraphs (sections 2.2, 3, 4.3)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from conftest import TESTDATA

from golden.g80.arith import fp
from golden.g80.arith.fp import RM, RN, RP, RZ
from golden.g80.vectors import FP_OPS, Vector, fp_operation, read_vectors

FP32_TXT = TESTDATA / "vectors" / "fp32.txt"

MODES = {"rn": RN, "rm": RM, "rp": RP, "rz": RZ}
CNAN = 0x7FFFFFFF


def u32(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.uint32)


def one(result: tuple[np.ndarray, np.ndarray]) -> tuple[int, int]:
    """(result, flags) of a one-lane call as Python ints."""
    r, f = result
    assert r.dtype == np.uint32 and f.dtype == np.uint8
    return int(r[0]), int(f[0])


# ----------------------------------------------------------------------------------------------
# 1. the reference vectors


def _int_type(tok: str) -> tuple[bool, int]:
    """'s32' -> (signed, 32)."""
    return tok[0] == "s", int(tok[1:])


def run_vector(v: Vector) -> tuple[int, int]:
    """Apply one fp32.txt line (its fields as golden.g80.vectors names them) through the public API,
    modifiers done the way a caller does."""
    o = fp_operation(v)
    if o.op == "fadd":
        return one(fp.fadd(u32(o.a), u32(o.b), MODES[o.rnd], o.sat))
    if o.op == "fmul":
        return one(fp.fmul(u32(o.a), u32(o.b), MODES[o.rnd]))
    if o.op == "fmad":  # the rounding column is ignored by the hardware (FP_SFU.md 4)
        return one(fp.fmad(u32(o.a), u32(o.b), u32(o.c), o.sat))
    if o.op in ("fmin", "fmax"):
        return one(getattr(fp, o.op)(u32(o.a), u32(o.b)))
    if o.op == "fset":
        return one(fp.fset(o.cond, u32(o.a), u32(o.b)))
    if o.op == "fslct":
        return one(fp.fslct(u32(o.a), u32(o.b), u32(o.c)))
    if o.op == "f2i":  # abs then neg on the raw source bits (1.6)
        x = o.a & 0x7FFFFFFF if o.abs_a else o.a
        x ^= 0x80000000 if o.neg_a else 0
        return one(fp.f2i(u32(x), *_int_type(o.dst), MODES[o.rnd]))
    if o.op == "i2f":
        return one(fp.i2f(u32(o.a), *_int_type(o.src), MODES[o.rnd], sat=o.sat))
    return one(fp.f2f(u32(o.a), MODES[o.rnd], rint=o.rint, sat=o.sat))


@pytest.fixture(scope="module")
def fp32_vectors() -> list[Vector]:
    return list(read_vectors(FP32_TXT))


def test_fp32_ops_all_known(fp32_vectors: list[Vector]) -> None:
    unknown = sorted({v.op for v in fp32_vectors} - set(FP_OPS))
    assert not unknown, f"fp32.txt has ops this suite does not run: {unknown}"


@pytest.mark.parametrize("op", FP_OPS)
def test_fp32_vectors(op: str, fp32_vectors: list[Vector]) -> None:
    lines = [v for v in fp32_vectors if v.op == op]
    if not lines:
        pytest.skip(f"no {op} lines in fp32.txt")
    bad = []
    for v in lines:
        res, flags = run_vector(v)
        if res != v.result or (v.flags is not None and flags != v.flags):
            bad.append(f"{v.where()}: {v.text}  got {res:08x} {flags:x}")
    assert not bad, f"{len(bad)}/{len(lines)} {op} lines differ:\n" + "\n".join(bad[:20])


# ----------------------------------------------------------------------------------------------
# 2. directed tests: values stated in FP_SFU.md


def test_flags_nibble() -> None:
    # 1.4: positive non-zero (incl. +inf) 0, +-0 1, negative non-zero (incl. -inf) 2, NaN 3
    vals = u32(0x3F800000, 0x7F800000, 0x00000000, 0x80000000, 0xBF800000, 0xFF800000, 0x7FFFFFFF)
    assert fp.fp_flags(vals).tolist() == [0, 0, 1, 1, 2, 2, 3]


def test_denormal_inputs_are_signed_zeros() -> None:
    # 1.1: 0x807fffff behaves as -0; (-0) + (-0) = -0 (section 2.2, trap 5)
    assert one(fp.fadd(u32(0x807FFFFF), u32(0x80000000), RN)) == (0x80000000, 1)
    assert one(fp.fadd(u32(0x807FFFFF), u32(0x00000001), RN)) == (0x00000000, 1)
    assert one(fp.fmul(u32(0x807FFFFF), u32(0x3F800000), RN)) == (0x80000000, 1)  # sign sa xor sb


def test_canonical_nan() -> None:
    # 1.2 / trap 4: every NaN result is 0x7fffffff, payloads and signs are not propagated
    for nan in (0x7FC00000, 0xFFFFFFFF, 0x7F800001, 0xFF800BBB):
        assert one(fp.fadd(u32(nan), u32(0x3F800000), RN)) == (CNAN, 3)
        assert one(fp.fmul(u32(0x3F800000), u32(nan), RZ)) == (CNAN, 3)
        assert one(fp.fmad(u32(0), u32(0), u32(nan))) == (CNAN, 3)
    assert one(fp.fadd(u32(0x7F800000), u32(0xFF800000), RN)) == (CNAN, 3)  # inf - inf
    assert one(fp.fmul(u32(0xFF800000), u32(0x00000001), RN)) == (CNAN, 3)  # inf * 0 (denormal)


def test_fadd_exact_zero_is_plus_zero() -> None:
    # 2.2 / trap 5: x + (-x) = +0 in both RN and RZ
    for rnd in (RN, RZ):
        assert one(fp.fadd(u32(0x3FC00000), u32(0xBFC00000), rnd)) == (0x00000000, 1)
        assert one(fp.fadd(u32(0x80000000), u32(0x80000000), rnd)) == (0x80000000, 1)


def test_overflow_rn_inf_rz_maxf() -> None:
    # 1.3: overflow with RN gives +-inf, with RZ +-MAXF
    assert one(fp.fadd(u32(0x7F7FFFFF), u32(0x7F7FFFFF), RN)) == (0x7F800000, 0)
    assert one(fp.fadd(u32(0xFF7FFFFF), u32(0xFF7FFFFF), RZ)) == (0xFF7FFFFF, 2)
    assert one(fp.fmul(u32(0x7F000000), u32(0x40000000), RN)) == (0x7F800000, 0)
    assert one(fp.fmul(u32(0x7F000000), u32(0xC0000000), RZ)) == (0xFF7FFFFF, 2)


def test_fadd_fmul_reject_unspecified_modes() -> None:
    # 2 / 3 / trap 14: only RN and RZ are defined
    with pytest.raises(ValueError):
        fp.fadd(u32(0), u32(0), RM, False)
    with pytest.raises(ValueError):
        fp.fmul(u32(0), u32(0), RP)


def test_fmul_tininess_after_rounding() -> None:
    # 3: fmul(0x3f7ffffe, 0x00800001) = 0x00800000 in RN and 0 in RZ
    assert one(fp.fmul(u32(0x3F7FFFFE), u32(0x00800001), RN)) == (0x00800000, 0)
    assert one(fp.fmul(u32(0x3F7FFFFE), u32(0x00800001), RZ)) == (0x00000000, 1)


def test_fmad_truncated_product() -> None:
    # 4.4: fmad(1+2^-23, 1+2^-23, -1) = 2^-22 (the 2^-46 term is lost)
    assert one(fp.fmad(u32(0x3F800001), u32(0x3F800001), u32(0xBF800000))) == (0x34800000, 0)
    # 4.4: neither fused nor mul-then-add
    a, b, c = u32(0x3FCFBB3E), u32(0x3FA0B26C), u32(0xBFDEF2E0)
    assert one(fp.fmad(a, b, c)) == (0x3E9762F0, 0)
    assert one(fp.fadd(fp.fmul(a, b, RN)[0], c, RN)) == (0x3E9762F8, 0)


def test_fmad_underflow_rounds_at_denormal_precision() -> None:
    # 4.4: 2^-126 - 2^-150 <= |T + c| < 2^-126 rounds up to 2^-126, anything smaller is +-0.
    # T = (1.5 * 2^-75) * (-2^-74) = -3 * 2^-150 exactly; c = 2^-126 + 2^-149: T + c = 2^-126 - 2^-150
    assert one(fp.fmad(u32(0x1A400000), u32(0x9A800000), u32(0x00800001))) == (0x00800000, 0)
    assert one(fp.fmad(u32(0x9A400000), u32(0x9A800000), u32(0x80800001))) == (0x80800000, 2)
    # T = -2^-148: T + c = 2^-126 - 2^-149, a denormal -> +0 (sign of T + c)
    assert one(fp.fmad(u32(0x1A800000), u32(0x9A800000), u32(0x00800001))) == (0x00000000, 1)
    assert one(fp.fmad(u32(0x9A800000), u32(0x9A800000), u32(0x80800001))) == (0x80000000, 1)


def test_fmad_zero_operand_path() -> None:
    # 4.1 step 4: with c = +-0 the product is RN-rounded and underflows like fmul
    assert one(fp.fmad(u32(0x3F7FFFFE), u32(0x00800001), u32(0x00000000))) == (0x00800000, 0)
    assert one(fp.fmad(u32(0x3F800001), u32(0x3F800001), u32(0x80000000))) == (0x3F800002, 0)  # RN product
    # -0 only if the product is -0 and c is -0
    assert one(fp.fmad(u32(0x80000000), u32(0x3F800000), u32(0x80000000))) == (0x80000000, 1)
    assert one(fp.fmad(u32(0x80000000), u32(0x3F800000), u32(0x00000000))) == (0x00000000, 1)
    # a*b = 0: the result is c exactly
    assert one(fp.fmad(u32(0x00000001), u32(0x7F000000), u32(0xC0490FDB))) == (0xC0490FDB, 2)


def _operands(rng: np.random.Generator, n: int) -> np.ndarray:
    """f32 bit patterns of every class: each exponent 0..255 equally likely, significands uniform
    or at their extremes (0, all ones) a tenth of the time, both signs."""
    sign = rng.integers(0, 2, n, dtype=np.int64) << 31
    m = rng.integers(0, 1 << 23, n, dtype=np.int64)
    m = np.where(rng.random(n) < 0.1, np.where(rng.random(n) < 0.5, 0, (1 << 23) - 1), m)
    return sign | (rng.integers(0, 256, n, dtype=np.int64) << 23) | m


@pytest.mark.parametrize("addend", ["random", "cancelling", "close"])
def test_fmad_shortcut_agrees_with_the_datapath(addend: str) -> None:
    """golden's fmad computes normal operands with a normal result in float64 (fp._fmad_bits):
    it must give the bits FP_SFU.md 4.2's datapath gives (fp._fmad_datapath, which the tests
    above and the FP vectors check), on every operand class and exponent distance, and on
    addends that cancel the product or nearly (where rounding and the truncation matter most)."""
    rng = np.random.default_rng({"random": 1, "cancelling": 2, "close": 3}[addend])
    n = 200_000
    a, b, c = _operands(rng, n), _operands(rng, n), _operands(rng, n)
    if addend != "random":
        with np.errstate(all="ignore"):
            p = a.astype(np.uint32).view(np.float32).astype(np.float64) * b.astype(np.uint32).view(np.float32).astype(np.float64)
            near = (-p if addend == "cancelling" else p) * (1 + rng.integers(-(1 << 20), 1 << 20, n) * 2.0**-40) * 2.0 ** rng.integers(-35, 35, n)
            c = np.where(np.isfinite(near), near.astype(np.float32).view(np.uint32).astype(np.int64), c)
    got, want = fp._fmad_bits(a, b, c), fp._fmad_datapath(a, b, c)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [f"fmad({a[i]:#010x}, {b[i]:#010x}, {c[i]:#010x}) = {got[i]:#010x}, datapath {want[i]:#010x}" for i in bad[:5]]


def test_fmad_specials() -> None:
    # 4.1: inf * 0 -> NaN; inf*x + inf of the other sign -> NaN; c = inf -> c
    assert one(fp.fmad(u32(0x7F800000), u32(0x807FFFFF), u32(0x3F800000))) == (CNAN, 3)
    assert one(fp.fmad(u32(0x7F800000), u32(0xBF800000), u32(0x7F800000))) == (CNAN, 3)
    assert one(fp.fmad(u32(0x7F800000), u32(0xBF800000), u32(0xFF800000))) == (0xFF800000, 2)
    assert one(fp.fmad(u32(0x3F800000), u32(0x3F800000), u32(0xFF800000))) == (0xFF800000, 2)


def test_sat() -> None:
    # 1.5 / trap 7: NaN stays CNAN, negatives (incl. -0, -inf) -> +0, >= 1.0 (incl. +inf) -> 1.0
    assert one(fp.fadd(u32(0x7FC00000), u32(0), RN, True)) == (CNAN, 3)
    assert one(fp.fadd(u32(0xFF800000), u32(0), RN, True)) == (0x00000000, 1)
    assert one(fp.fadd(u32(0x80000000), u32(0x80000000), RN, True)) == (0x00000000, 1)
    assert one(fp.fadd(u32(0x7F800000), u32(0), RN, True)) == (0x3F800000, 0)
    assert one(fp.fadd(u32(0x3F000000), u32(0), RN, True)) == (0x3F000000, 0)
    assert one(fp.fmad(u32(0x40000000), u32(0x40000000), u32(0xBF800000), True)) == (0x3F800000, 0)


def test_fmin_fmax() -> None:
    # 5.1: -0 < +0; one NaN -> the other (flushed) operand; both NaN -> CNAN
    assert one(fp.fmax(u32(0x80000000), u32(0x00000000))) == (0x00000000, 1)
    assert one(fp.fmin(u32(0x00000000), u32(0x80000000))) == (0x80000000, 1)
    assert one(fp.fmax(u32(0x7FC00000), u32(0x807FFFFF))) == (0x80000000, 1)
    assert one(fp.fmin(u32(0x00000001), u32(0xFFC00000))) == (0x00000000, 1)
    assert one(fp.fmin(u32(0x7FC00000), u32(0xFFC00000))) == (CNAN, 3)
    assert one(fp.fmax(u32(0xFF800000), u32(0xC0000000))) == (0xC0000000, 2)
    assert one(fp.fmin(u32(0xFF800000), u32(0xC0000000))) == (0xFF800000, 2)
    assert one(fp.fmax(u32(0x7F800000), u32(0x7F7FFFFF))) == (0x7F800000, 0)


FSET_TABLE = {  # 5.2: name -> which relations are true, in the order (l, e, g, u)
    0: "never", 1: "l", 2: "e", 3: "le", 4: "g", 5: "lg", 6: "ge", 7: "lge",
    8: "u", 9: "lu", 10: "eu", 11: "leu", 12: "gu", 13: "lgu", 14: "geu", 15: "always",
}  # fmt: skip


@pytest.mark.parametrize("cond", range(16))
def test_fset_conditions(cond: int) -> None:
    name = FSET_TABLE[cond]
    cases = {  # relation letter -> (a, b)
        "l": (0xBF800000, 0x3F800000),
        "e": (0x80000000, 0x00000001),  # -0 == flushed +denormal
        "g": (0x7F800000, 0x7F7FFFFF),
        "u": (0x3F800000, 0x7FC00000),
    }
    for rel, (a, b) in cases.items():
        expect = name == "always" or (name != "never" and rel in name)
        assert one(fp.fset(cond, u32(a), u32(b))) == ((0xFFFFFFFF, 2) if expect else (0, 1)), (name, rel)


def test_fslct() -> None:
    # 5.3: c >= 0 (incl. +-0 and denormals) -> a, negative and NaN -> b; raw pass-through;
    # flags from the raw bits: 0x7fffffff -> 0, +-0 -> Z, bit 31 -> S
    a, b = 0x7FFFFFFF, 0x807FFFFF
    assert one(fp.fslct(u32(a), u32(b), u32(0x80000001))) == (a, 0)
    assert one(fp.fslct(u32(a), u32(b), u32(0x80000000))) == (a, 0)
    assert one(fp.fslct(u32(a), u32(b), u32(0x7FC00000))) == (b, 2)
    assert one(fp.fslct(u32(a), u32(b), u32(0xBF800000))) == (b, 2)
    assert one(fp.fslct(u32(0x80000000), u32(b), u32(0x3F800000))) == (0x80000000, 1)


@pytest.mark.parametrize(
    ("x", "signed", "bits", "rnd", "expect"),
    [
        (0x4F32D05E, True, 32, RZ, (0x7FFFFFFF, 0)),  # s32 of 3e9
        (0xCF32D05E, True, 32, RZ, (0x80000000, 2)),  # s32 of -3e9
        (0x7F800000, True, 32, RN, (0x7FFFFFFF, 0)),
        (0xFF800000, True, 32, RN, (0x80000000, 2)),
        (0xFF800000, False, 32, RN, (0x00000000, 1)),  # u32 of -inf
        (0xC71C4000, True, 16, RN, (0x8000, 2)),  # s16 of -40000: S from bit 15
        (0x4788B800, False, 16, RN, (0xFFFF, 2)),  # u16 of 70000
        (0xBF000000, True, 32, RM, (0xFFFFFFFF, 2)),  # s32.rmi of -0.5 = -1
        (0xBF000000, False, 32, RP, (0x00000000, 1)),  # u32.rpi of -0.5: negative -> 0
        (0xBE99999A, False, 32, RZ, (0x00000000, 1)),  # u32 of -0.3
        (0xFFC00000, True, 32, RN, (0x00000000, 1)),  # NaN -> 0, either sign
        (0x7FC00000, False, 16, RN, (0x00000000, 1)),
        (0x3FC00000, True, 32, RN, (2, 0)),  # 1.5 -> 2 (ties to even)
        (0x40200000, True, 32, RN, (2, 0)),  # 2.5 -> 2
        (0xC0200000, True, 32, RP, (0xFFFFFFFE, 2)),  # -2.5 rp -> -2
        (0x4F800000, False, 32, RN, (0xFFFFFFFF, 2)),  # 2^32 saturates u32
    ],
)
def test_f2i_examples(x: int, signed: bool, bits: int, rnd: int, expect: tuple[int, int]) -> None:
    # section 6 examples and trap 8
    assert one(fp.f2i(u32(x), signed, bits, rnd)) == expect


def test_i2f() -> None:
    # 7 / trap 9: i2f of 0 with neg is -0; rm rounds in the direction of the final sign
    assert one(fp.i2f(u32(0), True, 32, RN, neg=True)) == (0x80000000, 1)
    assert one(fp.i2f(u32(0), False, 32, RN, abs_=True, neg=True)) == (0x80000000, 1)
    assert one(fp.i2f(u32((-16777217) & 0xFFFFFFFF), True, 32, RM)) == (0xCB800001, 2)  # -16777218
    assert one(fp.i2f(u32((-16777217) & 0xFFFFFFFF), True, 32, RP)) == (0xCB800000, 2)  # -16777216
    assert one(fp.i2f(u32(0x80000000), True, 32, RN)) == (0xCF000000, 2)  # |-2^31| = 2^31
    assert one(fp.i2f(u32(0x80000000), True, 32, RN, abs_=True)) == (0x4F000000, 0)
    assert one(fp.i2f(u32(0xFFFFFFFF), False, 32, RZ)) == (0x4F7FFFFF, 0)
    assert one(fp.i2f(u32(0xFFFFFFFF), False, 32, RN)) == (0x4F800000, 0)
    # 8/16-bit sources use the low bits, extended per signedness
    assert one(fp.i2f(u32(0x123480), True, 8, RN)) == (0xC3000000, 2)  # -128
    assert one(fp.i2f(u32(0x123480), False, 8, RN)) == (0x43000000, 0)  # 128
    assert one(fp.i2f(u32(0xFFFF8000), True, 16, RN, neg=True)) == (0x47000000, 0)  # -(-32768)
    assert one(fp.i2f(u32(5), False, 32, RN, sat=True)) == (0x3F800000, 0)
    assert one(fp.i2f(u32(5), False, 32, RN, sat=True, neg=True)) == (0x00000000, 1)


@pytest.mark.parametrize(
    ("x", "rnd", "expect"),
    [  # section 8 / trap 10
        (0xBECCCCCD, RN, 0x80000000),  # rni(-0.4) = -0
        (0xBF333333, RP, 0x80000000),  # rpi(-0.7) = -0
        (0xBE4CCCCD, RM, 0xBF800000),  # rmi(-0.2) = -1.0
        (0x0DA24260, RP, 0x3F800000),  # rpi(1e-30) = 1.0
        (0xC079999A, RZ, 0xC0400000),  # rzi(-3.9) = -3.0
        (0x40200000, RN, 0x40000000),  # rni(2.5) = 2.0
        (0x40600000, RN, 0x40800000),  # rni(3.5) = 4.0
        (0x4B000001, RN, 0x4B000001),  # |x| >= 2^23: unchanged
        (0xFF800000, RZ, 0xFF800000),
        (0x80000001, RP, 0x80000000),  # denormal -> -0 first, then rint keeps the sign
    ],
)
def test_f2f_round_to_integer(x: int, rnd: int, expect: int) -> None:
    assert one(fp.f2f(u32(x), rnd, rint=True))[0] == expect


def test_f2f_mov_and_sat() -> None:
    # 8: x + (-0): NaN -> CNAN, denormal -> +-0, everything else unchanged; sat before rint
    assert one(fp.f2f(u32(0xFFC00001))) == (CNAN, 3)
    assert one(fp.f2f(u32(0x807FFFFF))) == (0x80000000, 1)
    assert one(fp.f2f(u32(0x00000000))) == (0x00000000, 1)
    assert one(fp.f2f(u32(0xC0490FDB))) == (0xC0490FDB, 2)
    assert one(fp.f2f(u32(0x3F400000), RN, rint=True, sat=True)) == (0x3F800000, 0)  # sat(0.75) then rni
    assert one(fp.f2f(u32(0xFF800000), sat=True)) == (0x00000000, 1)


# appendix A: f16 conversions


def test_f16_to_f32_examples() -> None:
    h = u32(0x7E00, 0xFC00, 0x7C00, 0x0001, 0x8000, 0x3C00, 0x03FF, 0x8200)
    r, f = fp.f16_to_f32(h)
    # NaN -> CNAN; +-inf; denormals kept (1 -> 2^-24, 0x3ff -> 1023 * 2^-24); +-0; 1.0
    assert r.tolist() == [CNAN, 0xFF800000, 0x7F800000, 0x33800000, 0x80000000, 0x3F800000, 0x387FC000, 0xB8000000]
    assert f.tolist() == [3, 2, 0, 0, 1, 0, 0, 2]


def test_f16_to_f32_all_exact() -> None:
    # every finite f16 converts exactly: compare with numpy's float16 (exact widening, not our code)
    h = np.arange(0x10000, dtype=np.uint32)
    r, _ = fp.f16_to_f32(h)
    as_f16 = h.astype(np.uint16).view(np.float16)
    finite = np.isfinite(as_f16)
    expect = as_f16[finite].astype(np.float32).view(np.uint32)
    assert np.array_equal(r[finite], expect)
    assert (r[np.isnan(as_f16)] == CNAN).all()


def test_f32_to_f16_examples() -> None:
    conv = fp.f32_to_f16
    assert one(conv(u32(0x7FC00000))) == (0x7FFF, 3)  # NaN -> 0x7fff
    assert one(conv(u32(0xFF800000))) == (0xFC00, 2)
    assert one(conv(u32(0x3F800000))) == (0x3C00, 0)
    # |x| < 2^-33 (E <= 93) -> +-0 regardless of the mode, even rp
    assert one(conv(u32(0x2E800000), RP)) == (0x0000, 1)
    assert one(conv(u32(0xAEFFFFFF), RM)) == (0x8000, 1)
    # just above: E = 94 (2^-33) rounds up to the smallest f16 denormal with rp
    assert one(conv(u32(0x2F000000), RP)) == (0x0001, 0)
    assert one(conv(u32(0x2F000000), RN)) == (0x0000, 1)
    # f16 denormals are produced: 2^-24 -> 0x0001, 2^-15 -> 0x0200
    assert one(conv(u32(0x33800000))) == (0x0001, 0)
    assert one(conv(u32(0x38000000))) == (0x0200, 0)
    # overflow: rn -> inf, rz -> 0x7bff, rp for + -> inf, rm for + -> 0x7bff, rm for - -> -inf
    assert one(conv(u32(0x477FF000), RN)) == (0x7C00, 0)  # 65520 rounds up past 65504
    assert one(conv(u32(0x47800000), RZ)) == (0x7BFF, 0)
    assert one(conv(u32(0x47800000), RP)) == (0x7C00, 0)
    assert one(conv(u32(0x47800000), RM)) == (0x7BFF, 0)
    assert one(conv(u32(0xC7800000), RM)) == (0xFC00, 2)
    assert one(conv(u32(0xC7800000), RP)) == (0xFBFF, 2)
    # a carry to 2^11 bumps the exponent: 2047.5 rn -> 2048
    assert one(conv(u32(0x44FFF000), RN)) == (0x6800, 0)


def test_f2f_f16_paths() -> None:
    # f16 source: exact widening, then x + (-0); f16 destination: converted in mode rnd
    assert one(fp.f2f(u32(0x0001), src_f16=True)) == (0x33800000, 0)
    assert one(fp.f2f(u32(0x3F801000), RP, dst_f16=True)) == (0x3C01, 0)
    assert one(fp.f2f(u32(0x3F801000), RZ, dst_f16=True)) == (0x3C00, 0)
    # with rint the value is first rounded to an integer in f32, then converted truncating
    assert one(fp.f2f(u32(0x3FC00000), RP, rint=True, dst_f16=True)) == (0x4000, 0)  # rpi(1.5) = 2
    # 4099.0 (f16 ulp 4 there): rn would give 4100 (0x6c01), the rint path truncates to 4096
    assert one(fp.f2f(u32(0x45801800), RN, rint=False, dst_f16=True)) == (0x6C01, 0)
    assert one(fp.f2f(u32(0x45801800), RN, rint=True, dst_f16=True)) == (0x6C00, 0)
    # f2i of an f16 source
    assert one(fp.f2i(u32(0xC500), True, 32, RN, src_f16=True)) == (0xFFFFFFFB, 2)  # -5.0


# ----------------------------------------------------------------------------------------------
# 3. exact-rational references from the "mathematical equivalent" statements (2.2, 3, 4.3)

MIN_NORMAL = Fraction(1, 2**126)
TWO128 = Fraction(2**128)


def _value(bits: int) -> Fraction:
    """Value of a finite f32 after FTZ (denormals -> 0)."""
    e = (bits >> 23) & 0xFF
    if e == 0:
        return Fraction(0)
    v = Fraction((bits & 0x7FFFFF) | 0x800000) * Fraction(2) ** (e - 150)
    return -v if bits >> 31 else v


def _round_sig(q: Fraction, mode: str, min_exp: int | None = None) -> Fraction:
    """Round |q| > 0 to 24 significant bits ('near' = nearest-even, 'trunc'), optionally never finer than 2^min_exp."""
    assert q > 0
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if q < Fraction(2) ** e:
        e -= 1
    k = e - 23
    if min_exp is not None:
        k = max(k, min_exp)
    scaled = q / Fraction(2) ** k
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if mode == "near" and (rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2)):
        n += 1
    return n * Fraction(2) ** k


def _encode(v: Fraction, overflow: int) -> int:
    """Encode an exactly representable normal |v| (or 0) with sign; callers handle range."""
    s = 0x80000000 if v < 0 else 0
    a = abs(v)
    if a == 0:
        return s
    if a >= TWO128:
        return s | overflow
    if a < MIN_NORMAL:
        return s
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if a < Fraction(2) ** e:
        e -= 1
    m = a / Fraction(2) ** (e - 23)
    assert m.denominator == 1
    return s | (e + 127) << 23 | (int(m) - 0x800000)


def ref_fadd(a: int, b: int, rnd: int) -> int:
    x, y = _value(a), _value(b)
    total = x + y
    if total == 0:
        return 0x80000000 if (a >> 31 and b >> 31) else 0
    r = _round_sig(abs(total), "near" if rnd == RN else "trunc")
    return _encode(r if total > 0 else -r, 0x7F800000 if rnd == RN else 0x7F7FFFFF)


def ref_fmul(a: int, b: int, rnd: int) -> int:
    p = _value(a) * _value(b)
    if p == 0:
        return (a ^ b) & 0x80000000
    r = _round_sig(abs(p), "near" if rnd == RN else "trunc")
    return _encode(r if p > 0 else -r, 0x7F800000 if rnd == RN else 0x7F7FFFFF)


def ref_fmad(a: int, b: int, c: int) -> int:
    if _value(a) == 0 or _value(b) == 0 or _value(c) == 0:
        return ref_fadd(ref_fmul(a, b, RN), c, RN)
    p = _value(a) * _value(b)
    t = _round_sig(abs(p), "trunc") * (1 if p > 0 else -1)
    total = t + _value(c)
    if total == 0:
        return 0
    r = _round_sig(abs(total), "near", min_exp=-149)  # gradual-underflow precision
    return _encode(r if total > 0 else -r, 0x7F800000)


def _finite_operands(rng: np.random.Generator, n: int, near: np.ndarray | None = None) -> np.ndarray:
    """Random finite f32 patterns, with exponents often close to `near`'s (cancellation, ties,
    tiny and huge results) and some denormals/zeros."""
    sign = rng.integers(0, 2, n, dtype=np.uint32) << 31
    if near is None:
        exp = rng.choice(np.array([1, 2, 60, 100, 120, 127, 128, 150, 200, 253, 254]), n) + rng.integers(-3, 4, n)
    else:
        exp = ((near >> 23) & 0xFF).astype(np.int64) + rng.integers(-26, 27, n)
    exp = np.clip(exp, 0, 254).astype(np.uint32)
    frac = rng.integers(0, 1 << 23, n, dtype=np.uint32)
    pick = rng.random(n)
    frac = np.where(pick < 0.15, frac & 0x7FFF00, np.where(pick < 0.25, 0x7FFFFF - (frac & 3), frac)).astype(np.uint32)
    return sign | (exp << 23) | frac


@pytest.mark.parametrize("seed", [1, 2])
def test_fadd_fmul_match_exact_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = _finite_operands(rng, 1500)
    b = _finite_operands(rng, 1500, near=a)
    for rnd in (RN, RZ):
        got_add = fp.fadd(a, b, rnd)[0].tolist()
        got_mul = fp.fmul(a, b, rnd)[0].tolist()
        for i, (x, y) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            assert got_add[i] == ref_fadd(x, y, rnd), (hex(x), hex(y), rnd)
            assert got_mul[i] == ref_fmul(x, y, rnd), (hex(x), hex(y), rnd)


@pytest.mark.parametrize("seed", [3, 4])
def test_fmad_matches_exact_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 1500
    a = _finite_operands(rng, n)
    # b chosen so that the product exponent lands anywhere from far below 2^-126 to overflow
    eb = np.clip(rng.integers(-40, 60, n) + 127 - ((a >> 23) & 0xFF).astype(np.int64) + 127, 1, 254).astype(np.uint32)
    b = (rng.integers(0, 2, n, dtype=np.uint32) << 31) | (eb << 23) | rng.integers(0, 1 << 23, n, dtype=np.uint32)
    prod = fp.fmul(a, b, RZ)[0]
    c = np.where(rng.random(n) < 0.4, prod ^ np.uint32(0x80000000), _finite_operands(rng, n, near=prod)).astype(np.uint32)
    got = fp.fmad(a, b, c)[0].tolist()
    for i, (x, y, z) in enumerate(zip(a.tolist(), b.tolist(), c.tolist(), strict=True)):
        assert got[i] == ref_fmad(x, y, z), (hex(x), hex(y), hex(z))


# ----------------------------------------------------------------------------------------------
# 4. vectorisation: many lanes at once == lane by lane; broadcasting and shapes


def _random_bits(rng: np.random.Generator, n: int) -> np.ndarray:
    specials = np.array([0, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0x7F7FFFFF], dtype=np.uint32)
    x = rng.integers(0, 1 << 32, n, dtype=np.uint32)
    return np.where(rng.random(n) < 0.2, rng.choice(specials, n), x).astype(np.uint32)


VECTOR_CASES: list[tuple[str, int, Callable[..., tuple[np.ndarray, np.ndarray]]]] = [
    ("fadd", 2, lambda a, b: fp.fadd(a, b, RN, False)),
    ("fadd.rz.sat", 2, lambda a, b: fp.fadd(a, b, RZ, True)),
    ("fmul", 2, lambda a, b: fp.fmul(a, b, RN)),
    ("fmad", 3, lambda a, b, c: fp.fmad(a, b, c, False)),
    ("fmin", 2, fp.fmin),
    ("fmax", 2, fp.fmax),
    ("fset.leu", 2, lambda a, b: fp.fset(11, a, b)),
    ("fslct", 3, fp.fslct),
    ("f2i.s16.rm", 1, lambda a: fp.f2i(a, True, 16, RM)),
    ("f2i.u32.rp", 1, lambda a: fp.f2i(a, False, 32, RP)),
    ("i2f.s32.rp", 1, lambda a: fp.i2f(a, True, 32, RP, neg=True)),
    ("i2f.f16", 1, lambda a: fp.i2f(a, False, 32, RN, dst_f16=True)),
    ("f2f.rmi", 1, lambda a: fp.f2f(a, RM, rint=True)),
    ("f2f.f16", 1, lambda a: fp.f2f(a, RP, dst_f16=True)),
]


@pytest.mark.parametrize(("name", "arity", "fn"), VECTOR_CASES, ids=[c[0] for c in VECTOR_CASES])
def test_vectorised_equals_lane_by_lane(name: str, arity: int, fn: Callable[..., tuple[np.ndarray, np.ndarray]]) -> None:
    rng = np.random.default_rng(99)
    args = [_random_bits(rng, 400) for _ in range(arity)]
    res, flags = fn(*args)
    assert res.shape == (400,) and res.dtype == np.uint32 and flags.dtype == np.uint8
    for i in range(400):
        r1, f1 = fn(*(x[i : i + 1] for x in args))
        assert (int(r1[0]), int(f1[0])) == (int(res[i]), int(flags[i])), (name, i)


def test_broadcast_and_shape() -> None:
    a = np.array([[0x3F800000, 0x40000000], [0xBF800000, 0x00000000]], dtype=np.uint32)
    r, f = fp.fadd(a, 0x3F800000, RN, False)
    assert r.shape == (2, 2) and f.shape == (2, 2)
    assert r.tolist() == [[0x40000000, 0x40400000], [0x00000000, 0x3F800000]]
    assert f.tolist() == [[0, 0], [1, 0]]
