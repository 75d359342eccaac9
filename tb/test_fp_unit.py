"""cocotb: rtl/sm1_fp_alu.v against the silicon FP vectors (FP_SFU.md sections 1-8) and golden.g80.arith.fp.

`vectors` runs every FP line of the files of the unit configuration (tb/config.py `UnitConfig`, +tb_unit=PATH; default
testdata/vectors/fp32.txt) through the unit, with the modes golden.g80.vectors.fp_operation reads from
the line (the fields of the instruction golden check-vectors runs: fadd/fadd.sat/fmul rn|rz,
fmad/fmad.sat, fmin, fmax, fset with its 4-bit condition, fslct, f2i to u32/s32/u16/s16 with
rni..rzi and abs/neg, i2f from u8..s32 with rn..rz, f2f mov/sat/rni..rzi) and compares result and
flags exactly. Lines of other ops (int, SFU) are counted,
not run; an FP line that does not parse is an error naming file:line. The summary goes to the
configuration's `result` as JSON {"unit", "passed", "failed", "other_lines", "failures" (the first 50), "lines", "seconds"}.

`random_against_model` compares `random` (default 5000) random operations, seed `seed`, with
golden.g80.arith.fp and the source modifiers golden/g80/execute.py applies: every op with random modifiers,
and the modes the vector files cannot express (f16 sources and destinations, 8/16-bit integer
sources, i2f abs/neg/sat, f2f abs/neg/sat with rounding, the ignored FMUL .sat and FMAD rounding).
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
from cocotb.triggers import Timer

from golden.g80.arith import fp
from golden.g80.hw import FpOp
from golden.g80.vectors import FP_OPS, Vector, fp_operation, read_vectors
from tb.config import UnitConfig
from tb.vector_tally import Tally

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_VECTORS = ROOT / "testdata" / "vectors" / "fp32.txt"

OP = {op.name.lower(): int(op) for op in FpOp}  # sm1_fp_alu's op codes (golden/g80/hw.py)
RND = {"rn": 0, "rm": 1, "rp": 2, "rz": 3}  # the unit's rnd input (the instruction's rounding field)
F2I_DST = {"u32": (0, 1), "s32": (1, 1), "u16": (0, 0), "s16": (1, 0)}  # (sgn, wide)
# I2F source type = the srct field (ISA.md 4.3): 8-bit types have two encodings (from a half / a full register)
I2F_SRC = {"u16": (0,), "u32": (1,), "u8": (2, 3), "s16": (4,), "s32": (5,), "s8": (6, 7)}
HALF_SRC_TYPES = (0, 2, 4, 6)  # read from a half register: the operand is 16 bits

DEFAULTS = {
    "op": 0, "rnd": 0, "sat": 0, "rint": 0, "cond": 0, "wide": 1, "src32": 1, "sgn": 0, "src_type": 0,
    "abs_a": 0, "neg_a": 0, "abs_b": 0, "neg_b": 0, "neg_c": 0, "a": 0, "b": 0, "c": 0,
}  # fmt: skip


def inputs_of(v: Vector) -> dict[str, int] | None:
    """The unit's inputs for one vector line (its fields as golden.g80.vectors.fp_operation names them);
    None for a line of another unit; ValueError naming file:line for an FP line that does not fit."""
    if v.op not in FP_OPS:
        return None
    o = fp_operation(v)
    if o.op in ("fadd", "fmul"):
        return {"op": OP[o.op], "rnd": RND[o.rnd], "sat": int(o.sat), "a": o.a, "b": o.b}
    if o.op == "fmad":
        # the rounding column is ignored by the chip (checkvec does not encode it either); rnd is driven
        # anyway so that a unit that used it would fail
        return {"op": OP["fmad"], "rnd": RND[o.rnd], "sat": int(o.sat), "a": o.a, "b": o.b, "c": o.c}
    if o.op in ("fmin", "fmax"):
        return {"op": OP[o.op], "a": o.a, "b": o.b}
    if o.op == "fset":
        return {"op": OP["fset"], "cond": o.cond, "a": o.a, "b": o.b}
    if o.op == "fslct":
        return {"op": OP["fslct"], "a": o.a, "b": o.b, "c": o.c}
    if o.op == "f2i":
        sgn, wide = F2I_DST[o.dst]
        return {"op": OP["f2i"], "sgn": sgn, "wide": wide, "rnd": RND[o.rnd], "abs_a": int(o.abs_a), "neg_a": int(o.neg_a), "a": o.a}
    if o.op == "i2f":
        codes = I2F_SRC[o.src]
        src_type = codes[v.line % len(codes)]  # both encodings of the 8-bit types get exercised
        x = o.a & 0xFFFF if src_type in HALF_SRC_TYPES else o.a  # checkvec reads these from R1L: the execute stage hands the unit the half
        return {"op": OP["i2f"], "src_type": src_type, "rnd": RND[o.rnd], "a": x}
    return {"op": OP["f2f"], "rnd": RND[o.rnd], "rint": int(o.rint), "sat": int(o.sat), "a": o.a}


class Driver:
    """Drives the unit, writing only the inputs that change (neighbouring lines share op and modes)."""

    def __init__(self, dut) -> None:
        self.handles = {name: getattr(dut, name) for name in DEFAULTS}
        self.res = dut.res
        self.flags = dut.flags
        self.state: dict[str, int] = {}

    async def __call__(self, inputs: dict[str, int]) -> tuple[int, int]:
        for name, value in {**DEFAULTS, **inputs}.items():
            if self.state.get(name) != value:
                self.handles[name].value = value
                self.state[name] = value
        await Timer(1, "ns")
        return int(self.res.value), int(self.flags.value)


def describe(inputs: dict[str, int]) -> str:
    return " ".join(f"{k}={v:x}" for k, v in inputs.items())


@cocotb.test()
async def vectors(dut) -> None:
    """Every FP line of the configured vector files: exact result and flags."""
    config = UnitConfig.from_plusargs(cocotb.plusargs)
    drive = Driver(dut)
    paths = config.vector_paths(DEFAULT_VECTORS)
    tally = Tally("fp")
    for path in paths:
        for v in read_vectors(path):
            inputs = inputs_of(v)
            if inputs is None:
                tally.other += 1
                continue
            tally.lines += 1
            res, flags = await drive(inputs)
            if res == v.result and flags == (v.flags or 0):
                tally.passed += 1
            else:
                tally.fail(f"{v.where()}: {v.text} -> got {res:08x} {flags:x}")
    tally.finish(config.result)
    t = tally
    dut._log.info("%d FP lines in %.2f s: %.0f lines/s; %d failed, %d other lines", t.lines, t.seconds, t.lines / max(t.seconds, 1e-9), t.failed, t.other)
    assert t.passed > 0, f"no FP line ran (files: {', '.join(map(str, paths))})"
    assert t.failed == 0, f"{t.failed} of {t.lines} FP lines differ:\n" + "\n".join(t.failures[:20])


# ----------------------------------------------------------------------------------------------
# random operations against the golden model


def _mod(x: int, abs_: int, neg: int, sign: int = 0x80000000) -> int:
    """golden/g80/execute.py fsrc: |..| clears the sign bit, then - flips it (bit 15 for an f16 source)."""
    if abs_:
        x &= ~sign
    if neg:
        x ^= sign
    return x & 0xFFFFFFFF


def model_of(i: dict[str, int]) -> tuple[int, int]:
    """Expected (res, flags) of the unit's inputs: golden.g80.arith.fp called the way golden/g80/execute.py calls it."""
    x = {**DEFAULTS, **i}
    op = x["op"]
    a = _mod(x["a"], x["abs_a"], x["neg_a"])
    b = _mod(x["b"], x["abs_b"], x["neg_b"])
    c = x["c"] ^ (0x80000000 if x["neg_c"] else 0)
    two = fp.RZ if x["rnd"] == 3 else fp.RN  # FADD/FMUL: rounding field 3 = rz, anything else rn
    if op == OP["fadd"]:
        r, f = fp.fadd(a, b, two, bool(x["sat"]))
    elif op == OP["fmul"]:
        r, f = fp.fmul(a, b, two)  # .sat is ignored on G80
    elif op == OP["fmad"]:
        r, f = fp.fmad(a, b, c, bool(x["sat"]))
    elif op in (OP["fmin"], OP["fmax"]):
        r, f = (fp.fmin if op == OP["fmin"] else fp.fmax)(a, b)
    elif op == OP["fset"]:
        r, f = fp.fset(x["cond"], a, b)
    elif op == OP["fslct"]:
        r, f = fp.fslct(x["a"], x["b"], c)  # src1/src2 pass raw
    elif op == OP["f2i"]:
        f16 = not x["src32"]
        src = _mod(x["a"] & 0xFFFF, x["abs_a"], x["neg_a"], 0x8000) if f16 else a
        r, f = fp.f2i(src, bool(x["sgn"]), 32 if x["wide"] else 16, x["rnd"], src_f16=f16)
    elif op == OP["i2f"]:
        t = x["src_type"]
        bits = 8 if t & 2 else (32 if t & 1 else 16)
        r, f = fp.i2f(x["a"], bool(t & 4), bits, x["rnd"], dst_f16=not x["wide"], sat=bool(x["sat"]), abs_=bool(x["abs_a"]), neg=bool(x["neg_a"]))
    elif op == OP["f2f"]:
        f16 = not x["src32"]
        src = _mod(x["a"] & 0xFFFF, x["abs_a"], x["neg_a"], 0x8000) if f16 else a
        r, f = fp.f2f(src, x["rnd"], bool(x["rint"]), bool(x["sat"]), src_f16=f16, dst_f16=not x["wide"])
    else:
        raise ValueError(f"no model for op {op}")
    return int(r), int(f)


F32_EDGES = (
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x00800001, 0x3F800000, 0xBF800000,
    0x3F7FFFFF, 0x3F000000, 0x3FC00000, 0xBFC00000, 0x40200000, 0x40400000, 0x4B000000, 0x4B7FFFFF, 0x4AFFFFFF,
    0x4F000000, 0xCF000000, 0x4F800000, 0x4EFFFFFF, 0x46FFFE00, 0x47000000, 0xC7000000, 0x477FFF00, 0x477FFF80,
    0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x7FFFFFFF,
    0x33000000, 0x33800000, 0x387FC000, 0x38800000, 0x2F000000, 0x2F800000, 0x1F800000, 0x5F800000,
)  # fmt: skip
F16_EDGES = (0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3800, 0x3E00, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFFFF, 0x7C01)
INT_EDGES = (0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0xFFFFFF, 0x1000000, 0x1000001, 0x1FFFFFF, 0x7FFFFFFF,
             0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFF80, 0xFFFF8000, 0x3FFFFFE0, 0x3FFFFFFF, 0xC000001F, 0x7FFFFFE0)  # fmt: skip


def _f32(rng: random.Random, lo: int = 100, hi: int = 160) -> int:
    r = rng.random()
    if r < 0.3:
        return rng.choice(F32_EDGES)
    if r < 0.4:
        return rng.choice(F32_EDGES) ^ rng.getrandbits(3)  # neighbours of the edges
    if r < 0.75:  # exponents where operands interact (alignment, cancellation, integers, the f16 range)
        return rng.getrandbits(1) << 31 | rng.randrange(lo, hi) << 23 | rng.getrandbits(23)
    return rng.getrandbits(32)


def _f16(rng: random.Random) -> int:
    h = rng.choice(F16_EDGES) if rng.random() < 0.35 else rng.getrandbits(16)
    return rng.getrandbits(16) << 16 | h if rng.random() < 0.2 else h  # the unit must ignore the high half


def _int(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.3:
        return rng.choice(INT_EDGES)
    if r < 0.55:
        return rng.getrandbits(rng.randrange(1, 33))
    return rng.getrandbits(32)


def _errata_int(rng: random.Random) -> int:
    """32-bit sources that reach the i2f -> f16 errata: a magnitude with bits 29..5 all ones, or high
    bits over a short low half (how many top bits are dropped depends on its leading zeros)."""
    if rng.random() < 0.4:
        return (0x3FFFFFE0 | rng.getrandbits(5) | rng.getrandbits(2) << 30) ^ (0xFFFFFFFF if rng.random() < 0.3 else 0)
    return rng.getrandbits(7) << 25 | rng.getrandbits(rng.randrange(1, 17))


def _fmad_operands(rng: random.Random, i: dict[str, int]) -> None:
    """Addends that make FMAD's sum cancel or fall below 2^-126 (the denormal-precision rounding)."""
    sign = 0x80000000 if i["neg_a"] else 0
    r = rng.random()
    if r < 0.2:  # a zero addend: the RN product, near underflow, and the fadd rule for the sign of a zero
        ea = rng.randrange(1, 127)
        i["a"] = rng.getrandbits(1) << 31 | ea << 23 | rng.getrandbits(23)
        i["b"] = rng.getrandbits(1) << 31 | max(1, 126 - ea + rng.randrange(-3, 4)) << 23 | rng.getrandbits(23)
        c = rng.choice((0x00000000, 0x80000000, 0x00000001, 0x807FFFFF))
    elif r < 0.6:  # c close to -(a*b)
        p, _ = fp.fmul(i["a"], i["b"])
        c = int(p) ^ 0x80000000 ^ sign
        if (c & 0x7F800000) not in (0, 0x7F800000):
            c = (c + rng.randrange(-40, 41)) & 0xFFFFFFFF
    else:  # a product of 2^-152..2^-147 (exact: b is a power of two) against an addend of the
        # opposite sign at or just above 2^-126; 2^-126 - (2^-151..2^-150) is in the band that rounds
        # up to 2^-126 at denormal precision but would flush at 24-bit precision
        s = rng.getrandbits(1) << 31
        band = rng.random() < 0.6
        i["a"] = s | (36 if band else rng.randrange(35, 40)) << 23 | rng.getrandbits(23)
        i["b"] = 0x21800000  # 2^-60
        c = (s ^ 0x80000000 ^ sign) | (0x00800000 if band else rng.choice((0x00800000, 0x01000000)) + rng.randrange(4))
    i["c"] = c ^ (0x80000000 if i["neg_c"] else 0)
    i["abs_a"] = i["abs_b"] = i["neg_b"] = 0


OP_WEIGHTS = {"fadd": 1.0, "fmul": 1.0, "fmad": 1.5, "fmin": 0.5, "fmax": 0.5, "fset": 1.0, "fslct": 0.5, "f2i": 1.5, "i2f": 2.0, "f2f": 2.0}


def random_inputs(rng: random.Random) -> dict[str, int]:
    name = rng.choices(list(OP_WEIGHTS), weights=list(OP_WEIGHTS.values()))[0]
    i = {"op": OP[name], "rnd": rng.randrange(4), "sat": rng.getrandbits(1), "abs_a": int(rng.random() < 0.3), "neg_a": int(rng.random() < 0.4),
         "abs_b": int(rng.random() < 0.3), "neg_b": int(rng.random() < 0.4), "neg_c": int(rng.random() < 0.4)}  # fmt: skip
    if name in ("fadd", "fmul", "fmad", "fmin", "fmax", "fset", "fslct"):
        i.update(a=_f32(rng), b=_f32(rng), c=_f32(rng), cond=rng.randrange(16))
        if name == "fadd" and rng.random() < 0.3:
            i["b"] = (i["a"] ^ 0x80000000) + rng.randrange(-3, 4) & 0xFFFFFFFF  # cancellation
        if name == "fmad" and rng.random() < 0.4:
            _fmad_operands(rng, i)
    elif name == "f2i":
        i.update(src32=int(rng.random() < 0.6), sgn=rng.getrandbits(1), wide=rng.getrandbits(1))
        i["a"] = _f32(rng, 110, 165) if i["src32"] else _f16(rng)
    elif name == "i2f":
        i.update(src_type=rng.randrange(8), wide=int(rng.random() < 0.4), a=_int(rng))
        if rng.random() < 0.25:
            i.update(src_type=rng.choice((1, 5)), wide=0, a=_errata_int(rng))
    else:
        i.update(src32=int(rng.random() < 0.6), wide=int(rng.random() < 0.5), rint=rng.getrandbits(1))
        i["a"] = _f32(rng, 90, 150) if i["src32"] else _f16(rng)  # 90..150 covers f16 denormals to overflow, fractions to integers
        if i["rint"] and not i["wide"] and i["src32"] and rng.random() < 0.7:
            # integers too long for the f16 significand (2^11..2^16): the conversion after rounding truncates
            i["a"] = rng.getrandbits(1) << 31 | rng.randrange(138, 143) << 23 | rng.getrandbits(23)
            i["sat"] = 0
    return i


@cocotb.test()
async def random_against_model(dut) -> None:
    """Random ops, modes, modifiers and operands, compared with golden.g80.arith.fp."""
    config = UnitConfig.from_plusargs(cocotb.plusargs)
    rng = random.Random(config.seed)
    drive = Driver(dut)
    mismatches: list[str] = []
    count = 5000 if config.random is None else config.random
    for _ in range(count):
        i = random_inputs(rng)
        want = model_of(i)
        got = await drive(i)
        if got != want:
            mismatches.append(f"{describe(i)}: got {got[0]:08x} {got[1]:x}, expected {want[0]:08x} {want[1]:x}")
    dut._log.info("%d random operations, %d mismatches", count, len(mismatches))
    assert not mismatches, f"{len(mismatches)} of {count} differ:\n" + "\n".join(mismatches[:20])
