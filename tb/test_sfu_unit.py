"""cocotb: rtl/sm1_sfu.v against the silicon SFU vectors (FP_SFU.md sections 9-12) and golden.g80.arith.sfu.

`vectors` runs every SFU line of the files of the unit configuration (tb/config.py `UnitConfig`, +tb_unit=PATH; default
testdata/vectors/sfu.txt) through the unit: rcp/rsqrt/lg2 lines once, presin/preex2 lines once for
the pre-op and once per follow-up (SIN and COS, or EX2 / EX2.SAT) on the line's code, as golden
check-vectors runs them as instruction pairs (golden.g80.vectors.sfu_operation reads the line). Lines
of other ops are counted, not run. One check is one value compared; the summary goes to the configuration's `result` as JSON
{"unit", "passed", "failed", "other_lines", "failures" (the first 50), "lines", "seconds"}.

`random_against_model` compares `random` (default 4000) random operations, seed `seed`, with
golden.g80.arith.sfu: random op, modifiers and .SAT, inputs mixing special values, denormals, exponent
edges of each op, raw bits and real RRO codes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cocotb
import numpy as np
from cocotb.triggers import Timer

from golden.g80.arith import sfu
from golden.g80.hw import SfuOp
from golden.g80.vectors import SFU_OPS, Vector, read_vectors, sfu_operation
from tb.config import UnitConfig
from tb.vector_tally import Tally

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_VECTORS = ROOT / "testdata" / "vectors" / "sfu.txt"

# the vector files' op names -> sm1_sfu's op codes (golden/g80/hw.py)
OP = {"rcp": SfuOp.RCP, "presin": SfuOp.PRESIN, "rsqrt": SfuOp.RSQ, "lg2": SfuOp.LG2, "sin": SfuOp.SIN, "cos": SfuOp.COS,
      "ex2": SfuOp.EX2, "preex2": SfuOp.PREEX2}  # fmt: skip
CODE_OPS = ("sin", "cos", "ex2")  # take a raw RRO code: the unit must ignore abs/neg


@dataclass(frozen=True)
class Check:
    name: str  # rcp ... preex2, sin, cos, ex2, ex2.sat
    x: int
    want: int


def _op_sat(name: str) -> tuple[int, int]:
    return (OP["ex2"], 1) if name == "ex2.sat" else (OP[name], 0)


def checks_of(v: Vector) -> list[Check]:
    """The unit checks of one SFU line; ValueError naming file:line for a line that does not fit."""
    o = sfu_operation(v)
    # the follow-ups run on the line's code (as the RRO result feeds SIN/COS/EX2), so a wrong
    # pre-op in the RTL does not hide or fake the follow-up results
    return [Check(o.op, o.x, o.result)] + [Check(name, o.result, want) for name, want in o.follow_ups]


class Driver:
    """Drives the unit's inputs, writing op/modifiers only when they change (most lines share them)."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.state: dict[str, int] = {}

    async def __call__(self, op: int, x: int, abs_: int = 0, neg: int = 0, sat: int = 0) -> int:
        for name, value in (("op", op), ("abs_", abs_), ("neg", neg), ("sat", sat)):
            if self.state.get(name) != value:
                getattr(self.dut, name).value = value
                self.state[name] = value
        self.dut.a.value = x
        await Timer(1, "ns")
        return int(self.dut.res.value)


@cocotb.test()
async def vectors(dut) -> None:
    """Every SFU line of the configured vector files, both stages of the pre-op lines."""
    config = UnitConfig.from_plusargs(cocotb.plusargs)
    drive = Driver(dut)
    paths = config.vector_paths(DEFAULT_VECTORS)
    tally = Tally("sfu")
    for path in paths:
        for v in read_vectors(path):
            if v.op not in SFU_OPS:
                tally.other += 1
                continue
            tally.lines += 1
            for c in checks_of(v):
                op, sat = _op_sat(c.name)
                got = await drive(op, c.x, sat=sat)
                if got == c.want:
                    tally.passed += 1
                else:
                    tally.fail(f"{v.where()}: {v.text} -> got {c.name} {got:08x}, expected {c.want:08x}")
    tally.finish(config.result)
    t, checks = tally, tally.passed + tally.failed
    dut._log.info("%d SFU lines (%d checks) in %.2f s: %.0f lines/s, %.0f checks/s; %d failed, %d other lines",
                  t.lines, checks, t.seconds, t.lines / max(t.seconds, 1e-9), checks / max(t.seconds, 1e-9), t.failed, t.other)  # fmt: skip
    assert t.passed > 0, f"no SFU check ran (files: {', '.join(map(str, paths))})"
    assert t.failed == 0, f"{t.failed} of {checks} SFU checks differ:\n" + "\n".join(t.failures[:20])


# ----------------------------------------------------------------------------------------------
# random operations against the golden model

MODEL: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "rcp": sfu.rcp, "rsqrt": sfu.rsqrt, "lg2": sfu.lg2, "presin": sfu.presin, "preex2": sfu.preex2,
    "sin": sfu.sin, "cos": sfu.cos, "ex2": sfu.ex2, "ex2.sat": lambda x: sfu.ex2(x, sat=True),
}  # fmt: skip

# f32 patterns where the datapath changes behaviour: zeros, denormals, infinities, NaNs, the
# largest/smallest normals, exact powers (rcp's carry, rsqrt's power-of-4 bypass, lg2's 1.0),
# presin's shift limits (E = 159/160, 167/168), preex2's 128 limit and underflow of ex2 (-126).
FLOAT_EDGES = (
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00400000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFFFFFFF,
    0x7F800001, 0xFF800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x80800000, 0x00800001, 0x7E800000, 0x7E800001,
    0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x40000000, 0x40800000, 0x3F000000, 0x3E800000, 0x3FC00000,
    0x4F7FFFFF, 0x4F800000, 0x50000000, 0x53800000, 0x53FFFFFF, 0x42FFFFFF, 0x43000000, 0xC3000000, 0xC2FC0000,
    0xC2FC0001, 0xC2FE0000, 0x3EFFFFFB, 0x40490FDB, 0xC0490FDB, 0x3FC90FDB, 0x34000000, 0x00FFFFFF, 0x7F000000,
)  # fmt: skip
# RRO codes: zero, the NaN/infinity codes, codes RRO never writes (K >= 0x82), the largest ex2
# exponents, quadrant boundaries and all-ones fractions.
CODE_EDGES = (
    0x00000000, 0x80000000, 0x40000000, 0xC0000000, 0x40800000, 0xC0800000, 0x41000000, 0x7FFFFFFF, 0xFFFFFFFF,
    0x3F800000, 0x3FFFFFFF, 0xBF800000, 0xBF7FFFFF, 0xBF800001, 0x3F000000, 0xBF000000, 0x3F7FFFFF, 0x00800000,
    0x01000000, 0x01800000, 0x007FFFFF, 0x00FFFFFF, 0x01FFFFFF, 0x00000001, 0x80000001, 0x00517CC1, 0x80517CC1,
)  # fmt: skip


def _float_input(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.25:
        return rng.choice(FLOAT_EDGES)
    if r < 0.35:
        return rng.choice(FLOAT_EDGES) ^ (1 << rng.randrange(23))  # one fraction bit off an edge
    if r < 0.75:  # ordinary magnitudes, either sign: the bulk of the table paths
        return rng.getrandbits(1) << 31 | rng.randrange(96, 170) << 23 | rng.getrandbits(23)
    return rng.getrandbits(32)


def _code_input(rng: random.Random, name: str) -> int:
    r = rng.random()
    if r < 0.2:
        return rng.choice(CODE_EDGES)
    if r < 0.7:  # what RRO really feeds these ops
        pre = sfu.preex2 if name.startswith("ex2") else sfu.presin
        return int(pre(np.array([_float_input(rng)], dtype=np.uint32))[0])
    return rng.getrandbits(32)


@cocotb.test()
async def random_against_model(dut) -> None:
    """Random op, modifiers and inputs against golden.g80.arith.sfu (abs/neg applied to f32 sources)."""
    config = UnitConfig.from_plusargs(cocotb.plusargs)
    count = 4000 if config.random is None else config.random
    seed = config.seed
    rng = random.Random(seed)
    names = list(MODEL)
    cases = []
    for _ in range(count):
        name = rng.choice(names)
        x = _code_input(rng, name) if name.split(".")[0] in CODE_OPS else _float_input(rng)
        cases.append((name, x, rng.getrandbits(1), rng.getrandbits(1)))
    # expected values, one model call per op: FP_SFU.md 1.6 on the f32 sources, raw codes otherwise
    want: list[int] = [0] * count
    for name in names:
        idx = [i for i, c in enumerate(cases) if c[0] == name]
        src = []
        for i in idx:
            _, x, abs_, neg = cases[i]
            if name.split(".")[0] not in CODE_OPS:
                x = (x & 0x7FFFFFFF if abs_ else x) ^ (neg << 31)
            src.append(x)
        for i, value in zip(idx, MODEL[name](np.array(src, dtype=np.uint32)).tolist(), strict=True):
            want[i] = value
    drive = Driver(dut)
    mismatches = []
    start = time.perf_counter()
    for (name, x, abs_, neg), expected in zip(cases, want, strict=True):
        op, sat = _op_sat(name)
        got = await drive(op, x, abs_, neg, sat)
        if got != expected:
            mismatches.append(f"{name} x={x:08x} abs={abs_} neg={neg}: got {got:08x}, expected {expected:08x}")
    seconds = time.perf_counter() - start
    rate = count / max(seconds, 1e-9)
    dut._log.info("seed %d: %d random operations in %.2f s (%.0f/s), %d mismatches", seed, count, seconds, rate, len(mismatches))
    assert count > 0
    assert not mismatches, f"{len(mismatches)} of {count} differ (seed {seed}):\n" + "\n".join(mismatches[:20])
