"""cocotb: rtl/sm1_int_alu.v against the silicon integer vectors (ISA.md section 3) and the golden model.

`int_vectors` drives every line of testdata/vectors/int.txt (or the files of the unit configuration, tb/config.py
`UnitConfig`, passed as +tb_unit=PATH) through the ALU;
`directed` covers what the vector file cannot show (I2I into a full register, PASS, undefined
MAD kinds, shift-count edges); `random_against_golden` compares random operands and fields with
golden.g80.arith.intops (G80 profile).
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
from cocotb.triggers import Timer

import golden
from golden.g80.arith import intops
from golden.g80.hw import AluOp
from golden.g80.vectors import I2I_SRC_CODES, Vector, int_operation, read_vectors
from tb.config import UnitConfig

OP = {op.name.lower(): int(op) for op in AluOp}  # sm1_int_alu's op codes (golden/g80/hw.py)
DST_BITS = (8, 16, 32)

DEFAULTS = {
    "op": 0, "addop": 0, "wide": 1, "sgn": 0, "sat": 0, "s1": 0, "s2": 0, "kind": 0, "cond": 0, "lop": 0, "not1": 0, "not2": 0,
    "src_type": 0, "dst_bits": 0, "dst_full": 0, "abs_": 0, "neg": 0, "a": 0, "b": 0, "c": 0, "cin": 0,
}  # fmt: skip


def vector_paths() -> list[Path]:
    default = Path(golden.__file__).resolve().parents[1] / "testdata" / "vectors" / "int.txt"
    return UnitConfig.from_plusargs(cocotb.plusargs).vector_paths(default)


def inputs_of(v: Vector) -> dict[str, int]:
    """The ALU inputs for one vector line (its fields named by golden.g80.vectors.int_operation)."""
    o = int_operation(v)
    wide = int(o.width == 32)
    common = {"a": o.a, "b": o.b}
    if o.op == "iadd":
        return {"op": OP["add"], "addop": o.addop_code, "wide": wide, "sat": int(o.sat), "cin": o.cin, **common}
    if o.op == "imul16":
        return {"op": OP["mul16"], "s1": int(o.signed), "s2": int(o.signed_b), **common}
    if o.op == "imul24":
        return {"op": OP["mul24"], "sgn": int(o.signed), "s2": int(o.hi), **common}
    if o.op == "imad":
        return {"op": OP["mad"], "kind": o.kind_code, "addop": o.addop_code, "c": o.c, "cin": o.cin, **common}
    if o.op == "isad":
        return {"op": OP["sad"], "wide": wide, "sgn": int(o.signed), "c": o.c, **common}
    if o.op == "iset":
        return {"op": OP["set"], "wide": wide, "sgn": int(o.signed), "cond": o.cond, **common}
    if o.op in ("imin", "imax", "shl", "shr"):
        return {"op": OP[o.op.removeprefix("i")], "wide": wide, "sgn": int(o.signed), **common}
    if o.op == "logic":
        return {"op": OP["lop"], "lop": o.lop_code, "wide": wide, "not1": int(o.not1), "not2": int(o.not2), **common}
    codes = I2I_SRC_CODES[o.src]  # i2i
    # The vectors print 8-bit results in 16-bit form (dst_full = 0). dst_full changes nothing for
    # the other destinations, so it alternates there to show that; so do u8/s8's two encodings.
    full = v.line & 1 if o.dst != "s8" else 0
    return {"op": OP["i2i"], "src_type": codes[v.line % len(codes)], "dst_bits": DST_BITS.index(o.dst_bits), "sgn": int(o.dst[0] == "s"),
            "dst_full": full, "abs_": int(o.abs_), "neg": int(o.neg), "a": o.a}  # fmt: skip


async def drive(dut, inputs: dict[str, int]) -> tuple[int, int]:
    for name, value in {**DEFAULTS, **inputs}.items():
        getattr(dut, name).value = value
    await Timer(1, "ns")
    return int(dut.res.value), int(dut.flags.value)


def describe(inputs: dict[str, int]) -> str:
    return " ".join(f"{k}={v:x}" for k, v in inputs.items())


def golden_of(i: dict[str, int]) -> tuple[int, int]:
    """Expected (res, flags) of the ALU inputs from golden.g80.arith.intops (G80 silicon)."""
    x = {**DEFAULTS, **i}
    op, width, a, b, c = x["op"], 32 if x["wide"] else 16, x["a"], x["b"], x["c"]
    if op == OP["add"]:
        r, f = intops.iadd(x["addop"], width, bool(x["sat"]), a, b, x["cin"])
    elif op == OP["mul16"]:
        r, f = intops.imul16(bool(x["s1"]), bool(x["s2"]), a, b)
    elif op == OP["mul24"]:
        r, f = intops.imul24(bool(x["sgn"]), bool(x["s2"]), a, b)
    elif op == OP["mad"]:
        r, f = intops.imad(x["kind"], x["addop"], a, b, c, x["cin"])
    elif op == OP["sad"]:
        r, f = intops.isad(bool(x["sgn"]), width, a, b, c)
    elif op == OP["set"]:
        r, f = intops.iset(bool(x["sgn"]), width, x["cond"], a, b)
    elif op in (OP["min"], OP["max"]):
        r, f = intops.iminmax(op == OP["min"], bool(x["sgn"]), width, a, b)
    elif op == OP["shl"]:
        r, f = intops.shl(width, a, b)
    elif op == OP["shr"]:
        r, f = intops.shr(bool(x["sgn"]), width, a, b)
    elif op == OP["lop"]:
        r, f = intops.logic(x["lop"], width, bool(x["not1"]), bool(x["not2"]), a, b)
    elif op == OP["i2i"]:
        bits = DST_BITS[min(x["dst_bits"], 2)]
        r, f = intops.i2i(bool(x["sgn"]), bits, x["src_type"], bool(x["abs_"]), bool(x["neg"]), a)
        r = int(r)
        if bits == 8 and x["dst_full"] and x["sgn"] and r & 0x8000:
            r |= 0xFFFF0000  # an 8-bit result in a full register is extended to 32 bits (S unchanged)
    elif op == OP["pass"]:
        return b, (b >> 31 & 1) << 1 | int(b == 0)
    else:
        raise ValueError(f"no golden for op {op}")
    return int(r), int(f)


@cocotb.test()
async def int_vectors(dut) -> None:
    """Every line of the silicon vector file: exact result and flags."""
    paths = vector_paths()
    mismatches: list[str] = []
    count = 0
    for v in (v for path in paths for v in read_vectors(path)):
        inputs = inputs_of(v)
        res, flags = await drive(dut, inputs)
        count += 1
        if res != v.result or flags != (v.flags or 0):
            mismatches.append(f"{v.where()}: {v.text}\n    got {res:08x} {flags:x} ({describe(inputs)})")
    files = ", ".join(map(str, paths))
    dut._log.info("%d vectors from %s, %d mismatches", count, files, len(mismatches))
    assert count > 0, f"no vectors in {files}"
    assert not mismatches, f"{len(mismatches)} of {count} vectors differ:\n" + "\n".join(mismatches[:20])


# (inputs, expected result, expected flags) for what the vector file does not show.
DIRECTED: list[tuple[dict[str, int], int, int]] = [
    # I2I.S8.S32 of 0x80000000 into a full register: clamped to -128, sign-extended to 32 bits
    ({"op": OP["i2i"], "src_type": 5, "dst_bits": 0, "sgn": 1, "dst_full": 1, "a": 0x80000000}, 0xFFFFFF80, 0x2),
    ({"op": OP["i2i"], "src_type": 5, "dst_bits": 0, "sgn": 1, "dst_full": 0, "a": 0x80000000}, 0x0000FF80, 0x2),
    ({"op": OP["i2i"], "src_type": 1, "dst_bits": 0, "sgn": 1, "dst_full": 1, "a": 0x00001234}, 0x0000007F, 0x0),
    ({"op": OP["i2i"], "src_type": 6, "dst_bits": 0, "sgn": 0, "dst_full": 1, "a": 0x000000FF}, 0x00000000, 0x1),
    ({"op": OP["i2i"], "src_type": 4, "dst_bits": 0, "sgn": 1, "dst_full": 1, "neg": 1, "a": 0x00000005}, 0xFFFFFFFB, 0x2),
    ({"op": OP["i2i"], "src_type": 5, "dst_bits": 2, "sgn": 1, "neg": 1, "a": 0x80000000}, 0x7FFFFFFF, 0x0),  # ISA.md 3.9
    ({"op": OP["i2i"], "src_type": 5, "dst_bits": 2, "sgn": 0, "abs_": 1, "a": 0x80000000}, 0x80000000, 0x2),
    ({"op": OP["i2i"], "src_type": 1, "dst_bits": 1, "sgn": 0, "dst_full": 1, "a": 0x00012345}, 0x0000FFFF, 0x2),
    ({"op": OP["i2i"], "src_type": 1, "dst_bits": 2, "sgn": 1, "neg": 1, "a": 0xFFFFFFFF}, 0x80000000, 0x2),
    # PASS: result = b, flags from b as 32 bits
    ({"op": OP["pass"], "a": 0x12345678, "b": 0x80000000}, 0x80000000, 0x2),
    ({"op": OP["pass"], "a": 0xFFFFFFFF, "b": 0x00000000}, 0x00000000, 0x1),
    ({"op": OP["pass"], "b": 0x00008000, "wide": 0}, 0x00008000, 0x0),
    # shift counts: 16-bit uses only the low 16 bits of the count; counts >= width
    ({"op": OP["shl"], "wide": 0, "a": 0x4001, "b": 0x00010001}, 0x00008002, 0xA),
    ({"op": OP["shr"], "wide": 0, "sgn": 1, "a": 0x8000, "b": 0x00000010}, 0x0000FFFF, 0x2),
    ({"op": OP["shr"], "wide": 1, "sgn": 1, "a": 0x80000000, "b": 0x00000020}, 0xFFFFFFFF, 0x2),
    ({"op": OP["shl"], "wide": 1, "a": 0xFFFFFFFF, "b": 0x00000001}, 0xFFFFFFFE, 0x6),
    ({"op": OP["shl"], "wide": 1, "a": 0x00000001, "b": 0x00000020}, 0x00000000, 0x1),
    ({"op": OP["shr"], "wide": 1, "sgn": 0, "a": 0x80000001, "b": 0x00000001}, 0x40000000, 0xC),
]


@cocotb.test()
async def directed(dut) -> None:
    mismatches = []
    for inputs, want_res, want_flags in DIRECTED:
        inputs = {k: v & 0xFFFFFFFF for k, v in inputs.items()}
        res, flags = await drive(dut, inputs)
        if (res, flags) != (want_res, want_flags):
            mismatches.append(f"{describe(inputs)}: got {res:08x} {flags:x}, expected {want_res:08x} {want_flags:x}")
    # MAD kinds 9..15 behave like u24 (ISA.md 3.3)
    rng = random.Random(3)
    for kind in range(9, 16):
        for _ in range(20):
            i = {"op": OP["mad"], "kind": kind, "addop": rng.randrange(4), "a": rng.getrandbits(32), "b": rng.getrandbits(32),
                 "c": rng.getrandbits(32), "cin": rng.getrandbits(1)}  # fmt: skip
            want = golden_of({**i, "kind": 3})
            got = await drive(dut, i)
            if got != want:
                mismatches.append(f"{describe(i)}: got {got[0]:08x} {got[1]:x}, expected (as u24) {want[0]:08x} {want[1]:x}")
    assert not mismatches, "\n".join(mismatches[:20])


EDGES = (0, 1, 2, 0xF, 0x10, 0x1F, 0x20, 0x21, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFF, 0x800000, 0xFFFFFF,
         0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFF0000, 0xFFFFFF80, 0xFFFFFFFE, 0xFFFFFFFF)  # fmt: skip


def _operand(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.35:
        return rng.choice(EDGES)
    if r < 0.5:
        return rng.choice(EDGES) ^ (1 << rng.randrange(32))
    if r < 0.6:
        return rng.randrange(0x40)  # small: shift counts
    return rng.getrandbits(32)


@cocotb.test()
async def random_against_golden(dut) -> None:
    """Random fields and operands per op, compared with golden.g80.arith.intops."""
    config = UnitConfig.from_plusargs(cocotb.plusargs)
    rng = random.Random(config.seed)
    mismatches = []
    ops = list(OP.values())
    for _ in range(3000 if config.random is None else config.random):
        i = {
            "op": rng.choice(ops), "addop": rng.randrange(4), "wide": rng.getrandbits(1), "sgn": rng.getrandbits(1), "sat": rng.getrandbits(1),
            "s1": rng.getrandbits(1), "s2": rng.getrandbits(1), "kind": rng.randrange(9), "cond": rng.randrange(8), "lop": rng.randrange(4),
            "not1": rng.getrandbits(1), "not2": rng.getrandbits(1), "src_type": rng.randrange(8), "dst_bits": rng.randrange(3),
            "dst_full": rng.getrandbits(1), "abs_": rng.getrandbits(1), "neg": rng.getrandbits(1),
            "a": _operand(rng), "b": _operand(rng), "c": _operand(rng), "cin": rng.getrandbits(1),
        }  # fmt: skip
        want = golden_of(i)
        got = await drive(dut, i)
        if got != want:
            mismatches.append(f"{describe(i)}: got {got[0]:08x} {got[1]:x}, expected {want[0]:08x} {want[1]:x}")
    assert not mismatches, f"{len(mismatches)} differ:\n" + "\n".join(mismatches[:20])
