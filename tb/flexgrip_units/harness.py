"""FlexGripPlus's FPU and SFU under GHDL against golden.g80.arith.flexgrip_fp / flexgrip_sfu, bit for bit.

`run_ops(counts, seed)` draws operands (special values and random patterns), runs them in batches
of LANES through FlexGripPlus's own units (the VHDL in FLEXGRIP_DIR, unmodified: `fpu_single`
wrapped by fg_fpu_lanes.vhd, `sfu` by fg_sfu_lanes.vhd) with cocotb on GHDL, and compares every
lane with the Python model.
`unavailable()` says why it cannot run (no GHDL, no FlexGripPlus checkout), for tests to skip.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from golden.g80.arith import flexgrip_fp as ffp
from golden.g80.arith import flexgrip_rro as frro
from golden.g80.arith import flexgrip_sfu as fsfu
from golden.g80.arith import intops
from golden.g80.profile import FLEXGRIP

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
LANES = 32
GHDL_FLAGS = ["--std=08", "-frelaxed", "-fsynopsys"]


def flexgrip_dir() -> Path:
    return Path(os.environ.get("FLEXGRIP_DIR", ROOT.parent / "shared" / "flexgripplus")).resolve()


def rtl_dir() -> Path:
    return flexgrip_dir() / "FlexGripPlus_4.4" / "RTL"


def backend() -> str:
    """The GHDL back end the runs use: GHDL_BACKEND when set, else llvm when installed (about 7x
    faster than mcode on the SFU, whose VHDL re-evaluates its squarer's loops on every delta
    cycle), else Debian's default, mcode."""
    chosen = os.environ.get("GHDL_BACKEND")
    if chosen:
        return chosen
    return "llvm" if shutil.which("ghdl-llvm") else "mcode"


def unavailable() -> str | None:
    """None when the unit tests can run, else the reason they cannot."""
    if shutil.which("ghdl") is None:
        return "simulator ghdl not found (ghdl is not on PATH): run make setup, which installs it with apt-get"
    if not (rtl_dir() / "gpgpu_package.vhd").is_file():
        return f"FLEXGRIP_DIR={flexgrip_dir()} is not a FlexGripPlus checkout (no FlexGripPlus_4.4/RTL/gpgpu_package.vhd): set FLEXGRIP_DIR to a clone of Jerc007/Open-GPGPU-FlexGrip-"
    return None


def unit_sources(unit: str) -> list[Path]:
    """FlexGripPlus's files for one unit, in gpgpu_compile.tcl's order, then the project's wrapper."""
    rtl = rtl_dir()
    exe = rtl / "SMP" / "Pipeline" / "Execution"
    head = [rtl / "TB" / "configuration" / "pick_bench.vhd", rtl / "gpgpu_package.vhd"]
    if unit == "fpu":
        names = ("fpu_add_32", "fpu_conv_32", "fpu_exceptions_32", "fpu_fma_32", "fpu_mul_32", "fpu_round_32", "fpu_sub_32",
                 "fpu_set_32", "a_s", "divisor", "fpu_rcp_32", "fpu_top_32_new")  # fmt: skip
        return head + [exe / "FPU" / f"{n}.vhd" for n in names] + [HERE / "fg_fpu_lanes.vhd"]
    if unit == "sfu":
        sfu = exe / "SFU"
        qi = sfu / "Quadratic_Interpolator"
        luts = sorted((qi / "Single_LUTS").glob("LUT_C*.vhd"))
        return [*head, sfu / "Components" / "CLZ.vhd", sfu / "Components" / "SFU_Exceptions.vhd",
                sfu / "fused_accm_tree" / "Booth_PP.vhd", sfu / "fused_accm_tree" / "CSA_4_2.vhd",
                sfu / "fused_accm_tree" / "fused_accum_tree.vhd", *luts, qi / "squaring.vhd", qi / "ROM.vhd",
                qi / "Quadratic_Interpolator.vhd", sfu / "sfu.vhd", HERE / "fg_sfu_lanes.vhd"]  # fmt: skip
    if unit == "sp":
        sp = exe / "ScalarProcessor"
        names = ("shift_logic", "min_max", "boolean_functions", "compute_set_pred_i", "convert_int_int", "integer_add_subtract",
                 "integer_mult_24", "scalar_processor")  # fmt: skip
        return [*head, *[sp / f"{n}.vhd" for n in names], HERE / "fg_sp_lanes.vhd"]
    if unit == "rro":
        rro = exe / "RRO"
        comps = ("fp_leading_zeros_and_shift", "right_shifter", "add_sub", "multFP")
        return [*head, *[rro / "Components" / f"{n}.vhd" for n in comps], rro / "RRO_trig.vhd", rro / "rro.vhd",
                HERE / "fg_rro_lanes.vhd"]  # fmt: skip
    raise ValueError(f"unknown unit {unit!r}")


# ---------------------------------------------------------------------------------------------
# operations: how the FPU is driven (opcode, subop, S32, abs_en, set_cond, rmode) and the model


@dataclass(frozen=True)
class Op:
    name: str
    opcode: int  # fg_fpu_lanes: 0 FADD, 1 FMUL, 2 FMAD, 3 CONV, 4 FSET
    arity: int
    model: Callable[[int, int, int], int | None]  # None: the VHDL's result is undefined (U)
    unit: str = "fpu"
    subop: int = 0
    s32: int = 0
    abs_en: int = 0
    cond: int = 0
    rmode: int = 0
    extra: int = 0  # scalar processor: bit 0 w32, bit 1 src3_neg, bit 2 saturate, bits 3.. the instruction marker
    compare: int = (1 << 36) - 1  # scalar processor: the bits of (flags << 32 | result) compared


def _ops() -> dict[str, Op]:
    ops: list[Op] = []
    for rm in range(4):
        ops.append(Op(f"fadd_rm{rm}", 0, 2, lambda a, b, c, rm=rm: ffp.fadd_bits(a, b, rm), rmode=rm))
        ops.append(Op(f"fmul_rm{rm}", 1, 2, lambda a, b, c, rm=rm: ffp.fmul_bits(a, b, rm), rmode=rm))
        ops.append(Op(f"fmad_rm{rm}", 2, 3, lambda a, b, c, rm=rm: ffp.fmad_bits(a, b, c, rm), rmode=rm))
    ops += [
        Op("f2u", 3, 1, lambda a, b, c: ffp.f2u_bits(a), subop=0b100, s32=0),
        Op("f2s", 3, 1, lambda a, b, c: ffp.f2s_bits(a), subop=0b100, s32=1),
        Op("u2f", 3, 1, lambda a, b, c: ffp.i2f_bits(a, False), subop=0b010, s32=0),
        Op("s2f", 3, 1, lambda a, b, c: ffp.i2f_bits(a, True), subop=0b010, s32=1),
        Op("fneg", 3, 1, lambda a, b, c: ffp.conv_bits(ffp.NEG, a), subop=0b111),
        Op("fabs", 3, 1, lambda a, b, c: ffp.conv_bits(ffp.ABSO, a), subop=0b110, abs_en=1),
        Op("fmov", 3, 1, lambda a, b, c: ffp.conv_bits(ffp.TRSFR, a), subop=0b110, abs_en=0),
    ]
    for cond in range(8):
        for ab in (0, 1):
            ops.append(Op(f"fset_c{cond}_abs{ab}", 4, 2, lambda a, b, c, cond=cond, ab=ab: ffp.fset_bits(cond, a, b, bool(ab)),
                          abs_en=ab, cond=cond))  # fmt: skip
    for name, selop in (("sin", fsfu.SIN), ("cos", fsfu.COS), ("rsq", fsfu.RSQ), ("lg2", fsfu.LG2), ("ex2", fsfu.EX2),
                        ("rcp", fsfu.RCP)):  # fmt: skip
        ops.append(Op(name, selop, 1, lambda a, b, c, selop=selop: fsfu.sfu_bits(a, selop), unit="sfu"))
    ops.append(Op("rro_sincos", 0, 1, lambda a, b, c: frro.rro_sincos_bits(a), unit="rro"))
    ops.append(Op("rro_ex2", 1, 1, lambda a, b, c: frro.rro_ex2_bits(a), unit="rro"))
    ops += _sp_ops()
    return {o.name: o for o in ops}


# scalar_processor: gpgpu_package's alu_opcode_type positions, and instr_marker_type's FULL_NORM
IADD, IADDC, ISUB, SET, MIN, MAX, SHL, SHR, AND_OP, OR_OP, XOR_OP, NEG_OP = range(12)
FLAGS_ZS = 0b0011 << 32  # non-adder ops: the pipeline writes C = O = 0 whatever the unit outputs


def _sext16(x: int) -> int:
    x &= 0xFFFF
    return x | 0xFFFF0000 if x & 0x8000 else x


def _pack(r: tuple[np.ndarray, np.ndarray]) -> int:
    return (int(np.asarray(r[1]).ravel()[0]) << 32) | int(np.asarray(r[0]).ravel()[0])


def _sp_ops() -> list[Op]:
    """The integer operations the `flexgrip` profile's switches shape (golden.g80.arith.intops under
    FLEXGRIP), with the scalar processor driven as pipeline_execute drives it. 16-bit forms get
    their operands sign-extended, as FlexGripPlus's read stage delivers them; their result is
    compared on its low half (a 16-bit write), their flags as the unit gives them."""
    ops: list[Op] = []
    low16 = (0xF << 32) | 0xFFFF
    for width in (32, 16):
        w32 = int(width == 32)
        mask = (1 << 36) - 1 if width == 32 else low16

        def arg(x: int, width: int = width) -> np.ndarray:  # one-lane arrays: numpy scalars warn on wrapping
            return np.array([x if width == 32 else x & 0xFFFF], np.uint32)

        for sat in (0, 1):
            for name, aop, opcode, neg in (("add", 0, IADD, 0), ("sub", 1, IADD, 1), ("subr", 2, ISUB, 0), ("addc", 3, IADDC, 0)):
                ops.append(Op(f"i{name}{width}{'_sat' if sat else ''}", opcode, 2,
                              lambda a, b, c, aop=aop, sat=sat, arg=arg, width=width: _pack(intops.iadd(
                                  aop, width, bool(sat), arg(a), arg(b), np.array([c & 1], np.uint32) if aop == 3 else None, FLEXGRIP)),
                              unit="sp", extra=w32 | (neg << 1) | (sat << 2), compare=mask))  # fmt: skip
        for signed in (0, 1):
            for cond in range(8):
                ops.append(Op(f"iset{width}_{'s' if signed else 'u'}{cond}", SET, 2,
                              lambda a, b, c, signed=signed, cond=cond, arg=arg, width=width: _pack(intops.iset(
                                  bool(signed), width, cond, arg(a), arg(b), FLEXGRIP)),
                              unit="sp", s32=signed, cond=cond, extra=w32, compare=mask & ~(0xC << 32)))  # fmt: skip
            for name, opcode, is_min in (("min", MIN, True), ("max", MAX, False)):
                ops.append(Op(f"i{name}{width}_{'s' if signed else 'u'}", opcode, 2,
                              lambda a, b, c, signed=signed, is_min=is_min, arg=arg, width=width: _pack(intops.iminmax(
                                  is_min, bool(signed), width, arg(a), arg(b), FLEXGRIP)),
                              unit="sp", s32=signed, extra=w32, compare=mask & ~(0xC << 32)))  # fmt: skip
            ops.append(Op(f"shr{width}_{'s' if signed else 'u'}", SHR, 2,
                          lambda a, b, c, signed=signed, arg=arg, width=width: _pack(intops.shr(
                              bool(signed), width, arg(a), np.array([b], np.uint32), FLEXGRIP)),
                          unit="sp", s32=signed, extra=w32, compare=mask & ~(0xC << 32)))  # fmt: skip
        ops.append(Op(f"shl{width}", SHL, 2, lambda a, b, c, arg=arg, width=width: _pack(intops.shl(width, arg(a), np.array([b], np.uint32), FLEXGRIP)),
                      unit="sp", extra=w32, compare=mask & ~(0xC << 32)))  # fmt: skip
        for name, opcode, lop in (("and", AND_OP, 0), ("or", OR_OP, 1), ("xor", XOR_OP, 2), ("pass_b", NEG_OP, 3)):
            ops.append(Op(f"lop_{name}{width}", opcode, 2,
                          lambda a, b, c, lop=lop, arg=arg, width=width: _pack(intops.logic(
                              lop, width, False, False, arg(a), arg(b), FLEXGRIP)),
                          unit="sp", extra=w32, compare=mask & ~(0xC << 32)))  # fmt: skip
    return ops


OPS = _ops()

SPECIALS = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00800000, 0x80800000,
            0x3F800000, 0xBF800000, 0x3F800001, 0x3FFFFFFF, 0x40000000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F000000, 0x7E800000,
            0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FFFFFFF, 0x7FA00000, 0x3F000000, 0xBF000000,
            0xBF400000, 0x3F400000, 0x4F000000, 0xCF000000, 0x4F800000, 0x4EFFFFFF, 0xCEFFFFFF, 0x5F800000, 0x33800000,
            0x34000000, 0x0C000000, 0x1F800000, 0x20000000, 0x7FFFFFFF & 0x4B7FFFFF, 0x4B800000, 0xFFFFFFFF, 0x7FFFFF80,
            0x80000000 | 0x4B000000]  # fmt: skip


def _operand(rng: random.Random, near: int | None = None) -> int:
    k = rng.random()
    if k < 0.15:
        return rng.choice(SPECIALS)
    if k < 0.25:  # denormals
        return (rng.getrandbits(1) << 31) | rng.getrandbits(rng.randint(1, 23))
    if k < 0.35:  # large and small exponents
        return (rng.getrandbits(1) << 31) | (rng.choice([1, 2, 3, 100, 126, 127, 128, 150, 200, 252, 253, 254]) << 23) | rng.getrandbits(23)
    if near is not None and k < 0.65:  # close to the other operand: cancellation, equal exponents, rounding ties
        e = ((near >> 23) & 0xFF) + rng.randint(-2, 2)
        m = (near & 0x7FFFFF) ^ rng.getrandbits(rng.randint(0, 23))
        return (rng.getrandbits(1) << 31) | ((e & 0xFF) << 23) | m
    if k < 0.75:  # integers (conversions) and small magnitudes
        return rng.choice([rng.getrandbits(rng.randint(1, 32)), (-rng.getrandbits(rng.randint(1, 31))) & 0xFFFFFFFF])
    return rng.getrandbits(32)


def _sfu_operand(op: Op, rng: random.Random) -> int:
    k = rng.random()
    if k < 0.1:
        return rng.choice(SPECIALS)
    if op.name in ("sin", "cos", "ex2") and k < 0.6:
        # RRO-shaped inputs: small exponent fields (EX2: the integer part), quadrant bits (SIN/COS)
        return (rng.getrandbits(1) << 31) | (rng.getrandbits(8) << 23) | rng.getrandbits(23) if k < 0.3 else \
            (rng.getrandbits(1) << 31) | (rng.randint(0, 3) << 29) | rng.getrandbits(rng.randint(1, 29))
    if k < 0.7:  # ordinary positive floats, the exponent 127 (LG2's special path) often
        e = 127 if rng.random() < 0.3 else rng.randint(1, 254)
        return (e << 23) | rng.getrandbits(23)
    return rng.getrandbits(32)


def _int_operand(rng: random.Random) -> int:
    k = rng.random()
    if k < 0.3:
        return rng.choice([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x8000, 0x7FFF, 0xFFFF, 0x10000, 0xFFFF8000])
    if k < 0.6:
        return rng.getrandbits(rng.randint(1, 32))
    return rng.getrandbits(32)


def draw(op: Op, count: int, rng: random.Random) -> list[tuple[int, int, int]]:
    if op.unit == "sfu":
        return [(_sfu_operand(op, rng), 0, 0) for _ in range(count)]
    if op.unit == "sp":
        out = []
        for _ in range(count):
            a, b = _int_operand(rng), _int_operand(rng)
            if op.opcode in (SHL, SHR):
                b = rng.choice([rng.randint(0, 40), rng.getrandbits(32)])
            if op.extra & 1 == 0:  # 16-bit forms: sign-extended halves, as the read stage gives them
                a, b = _sext16(a), (_sext16(b) if op.opcode not in (SHL, SHR) else b)
            out.append((a, b, rng.getrandbits(1)))
        return out
    if op.unit == "rro":  # ordinary angles and exponents mostly, any pattern sometimes
        return [(_operand(rng) if rng.random() < 0.5 else
                 (rng.getrandbits(1) << 31) | (rng.randint(100, 150) << 23) | rng.getrandbits(23), 0, 0)
                for _ in range(count)]  # fmt: skip
    out = []
    for _ in range(count):
        a = _operand(rng)
        b = _operand(rng, a) if op.arity >= 2 else 0
        if op.arity == 3:
            if rng.random() < 0.3:  # c close to -(a*b): the FMA's cancellation paths
                c = ffp.fmul_bits(a, b, 0) ^ (rng.getrandbits(1) << 31) ^ rng.getrandbits(rng.randint(0, 8))
            else:
                c = _operand(rng, a)
        else:
            c = 0
        out.append((a, b, c))
    return out


# ---------------------------------------------------------------------------------------------
# GHDL


@dataclass
class Result:
    counts: dict[str, int] = field(default_factory=dict)
    mismatches: dict[str, list[str]] = field(default_factory=dict)

    def failed(self) -> int:
        return sum(len(v) for v in self.mismatches.values())


def run_ops(counts: dict[str, int], seed: int = 1, build_dir: Path | None = None) -> Result:
    """Run counts[name] operands of each named operation on the VHDL (one GHDL simulation per unit)
    and compare every result with the model."""
    reason = unavailable()
    if reason:
        raise RuntimeError(reason)
    build_dir = (build_dir or ROOT / "build" / "flexgrip_units").resolve() / backend()
    os.environ["GHDL_BACKEND"] = backend()  # /usr/bin/ghdl (Debian) runs ghdl-$GHDL_BACKEND
    rng = random.Random(seed)
    res = Result()
    for unit in ("fpu", "sfu", "rro", "sp"):
        batches: list[tuple[Op, list[tuple[int, int, int]]]] = []
        for name, count in counts.items():
            op = OPS[name]
            if op.unit != unit:
                continue
            vals = draw(op, count, rng)
            vals += [vals[-1]] * (-len(vals) % LANES)
            batches += [(op, vals[i:i + LANES]) for i in range(0, len(vals), LANES)]
        if batches:
            _run_unit(unit, batches, build_dir / unit, res)
    return res


def compare_saved(unit: str, unit_dir: Path, res: Result | None = None) -> Result:
    """Compare the batches a (possibly interrupted) run of `unit` wrote to unit_dir with the model:
    every batch that has a result line."""
    res = res or Result()
    keys = {(o.opcode, o.subop, o.s32, o.abs_en, o.cond, o.rmode, o.extra): o for o in OPS.values() if o.unit == unit}
    batches = []
    results = (unit_dir / "results.txt").read_text().splitlines()
    with open(unit_dir / "batches.txt") as f:
        for line, _ in zip(f, results, strict=False):
            fields = line.split()
            head = 6 if "," in fields[6] else 7  # files written before the scalar processor's `extra` field
            op = keys[(*(int(x) for x in fields[:6]), int(fields[6]) if head == 7 else 0)]
            batches.append((op, [tuple(int(v, 16) for v in t.split(",")) for t in fields[head:]]))
    _compare(batches, results, res)
    return res


def _compare(batches: list[tuple[Op, list[tuple[int, int, int]]]], lines: list[str], res: Result) -> None:
    for (op, vals), line in zip(batches, lines, strict=False):
        for (a, b, c), g in zip(vals, line.split(), strict=True):
            res.counts[op.name] = res.counts.get(op.name, 0) + 1
            want = op.model(a, b, c)
            if op.unit == "sp" and want is not None and g != "X":
                want, got = want & op.compare, int(g, 16) & op.compare
                g = f"{got:09x}"
            if (g == "X") != (want is None) or (want is not None and int(g, 16) != want):
                shown = "U" if want is None else f"{want:08x}"
                res.mismatches.setdefault(op.name, []).append(f"{op.name}({a:08x}, {b:08x}, {c:08x}): VHDL {g}, model {shown}")


def _run_unit(unit: str, batches: list[tuple[Op, list[tuple[int, int, int]]]], build_dir: Path, res: Result) -> None:
    from cocotb_tools.runner import get_runner

    build_dir.mkdir(parents=True, exist_ok=True)
    batch_file, result_file = build_dir / "batches.txt", build_dir / "results.txt"
    with open(batch_file, "w") as f:
        for op, vals in batches:
            f.write(f"{op.opcode} {op.subop} {op.s32} {op.abs_en} {op.cond} {op.rmode} {op.extra} "
                    + " ".join(f"{a:x},{b:x},{c:x}" for a, b, c in vals) + "\n")  # fmt: skip
    top = f"fg_{unit}_lanes"
    runner = get_runner("ghdl")
    runner.build(sources=unit_sources(unit), hdl_toplevel=top, build_dir=build_dir, build_args=GHDL_FLAGS, always=False)
    if result_file.exists():
        result_file.unlink()
    # package-qualified: a bare "test_sfu" could resolve to tests/test_sfu.py when pytest has put tests/ on sys.path
    runner.test(test_module=f"tb.flexgrip_units.test_{unit}", hdl_toplevel=top, build_dir=build_dir, test_dir=build_dir, test_args=GHDL_FLAGS,
                plusargs=["--ieee-asserts=disable"], extra_env={"FG_BATCHES": str(batch_file), "FG_RESULTS": str(result_file)})  # fmt: skip
    lines = result_file.read_text().splitlines() if result_file.exists() else []
    if len(lines) != len(batches):
        raise RuntimeError(f"GHDL run returned {len(lines)} of {len(batches)} batches (see {build_dir})")
    _compare(batches, lines, res)
