"""golden.g80.arith.intops against the shared integer vectors and the FlexGripPlus deviations.

1. Every line of testdata/vectors/int.txt (or the file named by $G80_INT_VECTORS), result and
   flags exact, one test per op; each group of lines that share their modifiers runs as one
   vectorised call, and a failure lists the first 20 mismatching lines.
2. Directed tests of each FlexGripPlus switch; the expected values are worked out by hand from
   ISA.md sections 3 and 9 and FLEXGRIPPLUS.md sections 4, 6 and 9 (see the comments).
3. Vectorisation: one call over many lanes equals one call per lane, and inputs are not modified.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from golden.g80.arith import intops
from golden.g80.profile import FLEXGRIP, G80, Profile
from golden.g80.vectors import I2I_SRC_CODES, IntOperation, int_operation, read_vectors

INT_VECTORS = Path(os.environ.get("G80_INT_VECTORS", Path(__file__).resolve().parents[1] / "testdata" / "vectors" / "int.txt"))

FZ, FS, FC, FO = 1, 2, 4, 8  # $c bits (ISA.md 2.1)

# ---------------------------------------------------------------------------------------------
# 1. reference vectors
# ---------------------------------------------------------------------------------------------

# op -> function(one line of the group as the modifiers' template, operand arrays a, b, c, cin)
# -> (res, flags). golden.g80.vectors.int_operation names the columns; lines with equal modifier
# columns run as one vectorised call.
Runner = Callable[[IntOperation, dict[str, np.ndarray]], tuple[np.ndarray, np.ndarray]]
_OPS: dict[str, Runner] = {
    "iadd": lambda o, x: intops.iadd(o.addop_code, o.width, o.sat, x["a"], x["b"], x["cin"]),
    "imul16": lambda o, x: intops.imul16(o.signed, o.signed_b, x["a"], x["b"]),
    "imul24": lambda o, x: intops.imul24(o.signed, o.hi, x["a"], x["b"]),
    "imad": lambda o, x: intops.imad(o.kind_code, o.addop_code, x["a"], x["b"], x["c"], x["cin"]),
    "isad": lambda o, x: intops.isad(o.signed, o.width, x["a"], x["b"], x["c"]),
    "iset": lambda o, x: intops.iset(o.signed, o.width, o.cond, x["a"], x["b"]),
    "imin": lambda o, x: intops.iminmax(True, o.signed, o.width, x["a"], x["b"]),
    "imax": lambda o, x: intops.iminmax(False, o.signed, o.width, x["a"], x["b"]),
    "shl": lambda o, x: intops.shl(o.width, x["a"], x["b"]),
    "shr": lambda o, x: intops.shr(o.signed, o.width, x["a"], x["b"]),
    "logic": lambda o, x: intops.logic(o.lop_code, o.width, o.not1, o.not2, x["a"], x["b"]),
    "i2i": lambda o, x: intops.i2i(o.dst[0] == "s", o.dst_bits, I2I_SRC_CODES[o.src][0], o.abs_, o.neg, x["a"]),
}


@cache
def _vectors_by_op() -> dict[str, list[IntOperation]]:
    if not INT_VECTORS.is_file():
        pytest.fail(f"reference vectors {INT_VECTORS} are missing: testdata/vectors/int.txt is part of the project (testdata/PROVENANCE.md)")
    by_op: dict[str, list[IntOperation]] = defaultdict(list)
    for v in read_vectors(INT_VECTORS):
        by_op[v.op].append(int_operation(v))
    return dict(by_op)


def test_vector_file_has_only_known_ops() -> None:
    unknown = sorted(set(_vectors_by_op()) - set(_OPS))
    assert not unknown, f"ops in {INT_VECTORS} with no runner: {unknown}"


@pytest.mark.parametrize("op", sorted(_OPS))
def test_int_vectors(op: str) -> None:
    lines = _vectors_by_op().get(op, [])
    if not lines:
        pytest.skip(f"no {op} lines in {INT_VECTORS}")
    run = _OPS[op]
    groups: dict[tuple[str, ...], list[IntOperation]] = defaultdict(list)
    for o in lines:
        groups[o.mods].append(o)
    bad: list[tuple[int, str]] = []
    for group in groups.values():
        cols = {name: np.array([getattr(o, name) for o in group], dtype=np.uint64).astype(np.uint32) for name in ("a", "b", "c", "cin")}
        res, flags = run(group[0], cols)
        assert res.dtype == np.uint32 and flags.dtype == np.uint8, (res.dtype, flags.dtype)
        assert res.shape == flags.shape == (len(group),)
        for o, r, f in zip(group, res.tolist(), flags.tolist(), strict=True):
            v = o.vector
            if r != v.result or (v.flags is not None and f != v.flags):
                bad.append((v.line, f"{v.where()}: {v.text}   got {r:08x} {f:x}"))
    bad.sort()
    assert not bad, f"{len(bad)} of {len(lines)} {op} lines differ:\n" + "\n".join(text for _, text in bad[:20])


# ---------------------------------------------------------------------------------------------
# 2. FlexGripPlus switches, one at a time and all together (FLEXGRIP)
# ---------------------------------------------------------------------------------------------


def lane(x: int) -> np.ndarray:
    return np.array([x], dtype=np.uint32)


def run1(fn: Callable[..., tuple[np.ndarray, np.ndarray]], *args: object, prof: Profile = G80) -> tuple[int, int]:
    res, flags = fn(*args, prof=prof)
    return int(np.asarray(res).reshape(-1)[0]), int(np.asarray(flags).reshape(-1)[0])


def only(switch: str) -> Profile:
    return replace(G80, name=switch, **{switch: True})


def test_carry16_from_sext() -> None:
    # 0x0001 + 0xffff (16-bit): silicon carries out of bit 15 (C=1, result 0, Z);
    # FlexGripPlus adds the sign-extended operands 0x00000001 + 0xffffffff: bit 16 is 0 (FLEXGRIPPLUS.md 4).
    args = (0, 16, False, lane(0x0001), lane(0xFFFF), lane(0))
    assert run1(intops.iadd, *args) == (0, FZ | FC)
    assert run1(intops.iadd, *args, prof=only("carry16_from_sext")) == (0, FZ)
    assert run1(intops.iadd, *args, prof=FLEXGRIP) == (0, FZ)
    # 0x0001 + 0x8000: no carry on silicon; sign-extended 0x00000001 + 0xffff8000 = 0xffff8001 has bit 16 set.
    args = (0, 16, False, lane(0x0001), lane(0x8000), lane(0))
    assert run1(intops.iadd, *args) == (0x8001, FS)
    assert run1(intops.iadd, *args, prof=only("carry16_from_sext")) == (0x8001, FS | FC)
    # 32-bit adds are unaffected
    args = (0, 32, False, lane(0x00000001), lane(0xFFFFFFFF), lane(0))
    assert run1(intops.iadd, *args, prof=only("carry16_from_sext")) == (0, FZ | FC)


def test_sub_negates_arith() -> None:
    # x - 0: silicon computes x + ~0 + 1, which carries (C=1, ISA.md 3.1); FlexGripPlus adds -0 = 0, C=0.
    sub = (1, 32, False, lane(5), lane(0), lane(0))
    assert run1(intops.iadd, *sub) == (5, FC)
    assert run1(intops.iadd, *sub, prof=only("sub_negates_arith")) == (5, 0)
    subr = (2, 32, False, lane(0), lane(7), lane(0))  # 7 - 0
    assert run1(intops.iadd, *subr) == (7, FC)
    assert run1(intops.iadd, *subr, prof=only("sub_negates_arith")) == (7, 0)
    # 16-bit too: 0x1234 - 0
    assert run1(intops.iadd, 1, 16, False, lane(0x1234), lane(0), lane(0)) == (0x1234, FC)
    assert run1(intops.iadd, 1, 16, False, lane(0x1234), lane(0), lane(0), prof=only("sub_negates_arith")) == (0x1234, 0)
    # 0 - 0x80000000: silicon feeds 0 + 0x7fffffff + 1 -> O (ISA.md 3.1); FlexGripPlus feeds
    # 0 + 0x80000000 (operands of different sign) -> no O.
    args = (1, 32, False, lane(0), lane(0x80000000), lane(0))
    assert run1(intops.iadd, *args) == (0x80000000, FS | FO)
    assert run1(intops.iadd, *args, prof=only("sub_negates_arith")) == (0x80000000, FS)
    # -1 - 0x80000000: silicon 0xffffffff + 0x7fffffff + 1 (signs differ, no O, C=1);
    # FlexGripPlus 0xffffffff + 0x80000000 = 0x17fffffff: both negative, result positive -> O, C=1.
    args = (1, 32, False, lane(0xFFFFFFFF), lane(0x80000000), lane(0))
    assert run1(intops.iadd, *args) == (0x7FFFFFFF, FC)
    assert run1(intops.iadd, *args, prof=only("sub_negates_arith")) == (0x7FFFFFFF, FC | FO)
    # a subtraction that borrows is the same in both: 3 - 5 -> 0xfffffffe, C=0 (borrow), S
    args = (1, 32, False, lane(3), lane(5), lane(0))
    assert run1(intops.iadd, *args) == run1(intops.iadd, *args, prof=only("sub_negates_arith")) == (0xFFFFFFFE, FS)
    # IMAD's add stage follows the same rule: 2*3 - 0
    args = (0, 1, lane(2), lane(3), lane(0), lane(0))
    assert run1(intops.imad, *args) == (6, FC)
    assert run1(intops.imad, *args, prof=only("sub_negates_arith")) == (6, 0)


def test_sat_all_ones() -> None:
    # 0x7fffffff + 1 with sat: silicon clamps to 0x7fffffff and reports O (ISA.md 3.1);
    # FlexGripPlus: bit 32 (0) != bit 31 (1) of the 33-bit sum -> 0xffffffff, O forced 0 (ISA.md 9).
    args = (0, 32, True, lane(0x7FFFFFFF), lane(1), lane(0))
    assert run1(intops.iadd, *args) == (0x7FFFFFFF, FO)
    assert run1(intops.iadd, *args, prof=only("sat_all_ones")) == (0xFFFFFFFF, FS)
    assert run1(intops.iadd, *args, prof=FLEXGRIP) == (0xFFFFFFFF, 0)  # IADD is untyped: S = 0 there
    # negative overflow: silicon 0x80000000 with O (and the adder's C); FlexGripPlus: the sum
    # 0x17fffffff has bit 32 != bit 31 -> 0xffffffff, C cleared as in integer_add_subtract.vhd.
    args = (0, 32, True, lane(0x80000000), lane(0xFFFFFFFF), lane(0))
    assert run1(intops.iadd, *args) == (0x80000000, FS | FC | FO)
    assert run1(intops.iadd, *args, prof=only("sat_all_ones")) == (0xFFFFFFFF, FS)
    # 0x80000000 + 0 is no signed overflow, but bit 32 (0) != bit 31 (1) triggers FlexGripPlus.
    args = (0, 32, True, lane(0x80000000), lane(0), lane(0))
    assert run1(intops.iadd, *args) == (0x80000000, FS)
    assert run1(intops.iadd, *args, prof=only("sat_all_ones")) == (0xFFFFFFFF, FS)
    # 16-bit: 0x7fff + 1 -> silicon 0x7fff + O; FlexGripPlus 0x0000ffff
    args = (0, 16, True, lane(0x7FFF), lane(1), lane(0))
    assert run1(intops.iadd, *args) == (0x7FFF, FO)
    assert run1(intops.iadd, *args, prof=only("sat_all_ones")) == (0xFFFF, FS)
    # without sat nothing changes: 0x7fffffff + 1 wraps with O in both
    args = (0, 32, False, lane(0x7FFFFFFF), lane(1), lane(0))
    assert run1(intops.iadd, *args) == run1(intops.iadd, *args, prof=only("sat_all_ones")) == (0x80000000, FS | FO)
    # IMAD sat s24: 0x7fffff * 0x7fffff = 0x3fffff000001, low 32 bits 0xff000001; + 0x7fffffff:
    # s1 negative, s2 positive -> no signed overflow on silicon; FlexGripPlus sum 0x17f000000: bit 32 != bit 31.
    args = (5, 0, lane(0x7FFFFF), lane(0x7FFFFF), lane(0x7FFFFFFF), lane(0))
    assert run1(intops.imad, *args) == (0x7F000000, FC)
    assert run1(intops.imad, *args, prof=only("sat_all_ones")) == (0xFFFFFFFF, FS)


def test_sign_flag_signed_only() -> None:
    fg = only("sign_flag_signed_only")
    # untyped / unsigned ops: silicon S = msb, FlexGripPlus S = 0 (FLEXGRIPPLUS.md 4)
    assert run1(intops.iadd, 0, 32, False, lane(0x80000000), lane(0), lane(0)) == (0x80000000, FS)
    assert run1(intops.iadd, 0, 32, False, lane(0x80000000), lane(0), lane(0), prof=fg) == (0x80000000, 0)
    assert run1(intops.logic, 1, 16, False, False, lane(0x8000), lane(0), prof=fg) == (0x8000, 0)
    assert run1(intops.logic, 1, 16, False, False, lane(0x8000), lane(0)) == (0x8000, FS)
    assert run1(intops.shl, 32, lane(0x40000000), lane(1)) == (0x80000000, FS | FO)
    assert run1(intops.shl, 32, lane(0x40000000), lane(1), prof=fg) == (0x80000000, FO)
    assert run1(intops.shr, False, 32, lane(0x80000000), lane(0), prof=fg) == (0x80000000, 0)
    assert run1(intops.iminmax, False, False, 32, lane(0x80000000), lane(1), prof=fg) == (0x80000000, 0)
    assert run1(intops.i2i, False, 32, 1, False, False, lane(0x80000000), prof=fg) == (0x80000000, 0)
    assert run1(intops.imad, 0, 0, lane(0xFFFF), lane(0xFFFF), lane(0), lane(0), prof=fg) == (0xFFFE0001, 0)
    assert run1(intops.imad, 0, 0, lane(0xFFFF), lane(0xFFFF), lane(0), lane(0)) == (0xFFFE0001, FS)
    assert run1(intops.imul24, False, False, lane(0xFFFFFF), lane(0x100), prof=fg) == (0xFFFFFF00, 0)
    # signed ops keep S = msb
    assert run1(intops.shr, True, 32, lane(0x80000000), lane(1), prof=fg) == (0xC0000000, FS)
    assert run1(intops.iminmax, True, True, 32, lane(0x80000000), lane(1), prof=fg) == (0x80000000, FS)
    assert run1(intops.i2i, True, 32, 5, False, False, lane(0xFFFFFFFE), prof=fg) == (0xFFFFFFFE, FS)
    assert run1(intops.imad, 4, 0, lane(0xFFFFFF), lane(2), lane(0), lane(0), prof=fg) == (0xFFFFFFFE, FS)
    assert run1(intops.imul24, True, False, lane(0xFFFFFF), lane(0x100), prof=fg) == (0xFFFFFF00, FS)
    # ISET: S = 1 iff true, Z = 1 iff false, in both profiles (ISA.md 3.5, FLEXGRIPPLUS.md 4)
    for prof in (G80, fg, FLEXGRIP):
        assert run1(intops.iset, False, 32, 1, lane(1), lane(2), prof=prof) == (0xFFFFFFFF, FS)
        assert run1(intops.iset, False, 16, 4, lane(1), lane(2), prof=prof) == (0, FZ)


def test_no_shift_flags() -> None:
    # SHL 0x80000001 by 1: last bit out (bit 31) = 1 -> C, sign 1 -> 0 -> O (ISA.md 3.7);
    # FlexGripPlus writes C = O = 0 for shifts (FLEXGRIPPLUS.md 4).
    assert run1(intops.shl, 32, lane(0x80000001), lane(1)) == (2, FC | FO)
    assert run1(intops.shl, 32, lane(0x80000001), lane(1), prof=only("no_shift_flags")) == (2, 0)
    assert run1(intops.shr, False, 32, lane(3), lane(1)) == (1, FC)
    assert run1(intops.shr, False, 32, lane(3), lane(1), prof=only("no_shift_flags")) == (1, 0)
    assert run1(intops.shr, True, 16, lane(0x8001), lane(1)) == (0xC000, FS | FC)
    assert run1(intops.shr, True, 16, lane(0x8001), lane(1), prof=only("no_shift_flags")) == (0xC000, FS)


def test_i2i_no_clamp() -> None:
    # I2I.S32.S32 of -0x80000000 with neg: silicon clamps +2^31 to 0x7fffffff (ISA.md 3.9);
    # FlexGripPlus negates in two's complement: 0x80000000 (S: signed destination).
    assert run1(intops.i2i, True, 32, 5, False, True, lane(0x80000000)) == (0x7FFFFFFF, 0)
    assert run1(intops.i2i, True, 32, 5, False, True, lane(0x80000000), prof=only("i2i_no_clamp")) == (0x80000000, FS)
    assert run1(intops.i2i, True, 32, 5, False, True, lane(0x80000000), prof=FLEXGRIP) == (0x80000000, FS)
    # I2I.U16.U32 0x12345: silicon saturates to 0xffff; FlexGripPlus truncates to 0x2345
    assert run1(intops.i2i, False, 16, 1, False, False, lane(0x12345)) == (0xFFFF, FS)
    assert run1(intops.i2i, False, 16, 1, False, False, lane(0x12345), prof=only("i2i_no_clamp")) == (0x2345, 0)
    # I2I.U32.S32 of -5: silicon clamps to 0; FlexGripPlus keeps the bits
    assert run1(intops.i2i, False, 32, 5, False, False, lane(0xFFFFFFFB)) == (0, FZ)
    assert run1(intops.i2i, False, 32, 5, False, False, lane(0xFFFFFFFB), prof=only("i2i_no_clamp")) == (0xFFFFFFFB, FS)
    # I2I.S8.S32 of 0x180: silicon clamps to 127; FlexGripPlus truncates to 0x80 = -128 (0xff80 in a half)
    assert run1(intops.i2i, True, 8, 5, False, False, lane(0x180)) == (0x7F, 0)
    assert run1(intops.i2i, True, 8, 5, False, False, lane(0x180), prof=only("i2i_no_clamp")) == (0xFF80, FS)
    # in-range values agree: I2I.S32.S16 |0xfff6| = 10
    assert (
        run1(intops.i2i, True, 32, 4, True, False, lane(0xFFF6)) == run1(intops.i2i, True, 32, 4, True, False, lane(0xFFF6), prof=FLEXGRIP) == (10, 0)
    )


def test_pass_b_is_not1() -> None:
    a, b = lane(0x0000FFFF), lane(0x12345678)
    # LOP.PASS_B passes src2 on silicon (ISA.md 3.8); FlexGripPlus computes NOT src1 (FLEXGRIPPLUS.md 6).
    assert run1(intops.logic, 3, 32, False, False, a, b) == (0x12345678, 0)
    assert run1(intops.logic, 3, 32, False, False, a, b, prof=only("pass_b_is_not1")) == (0xFFFF0000, FS)
    assert run1(intops.logic, 3, 32, False, False, a, b, prof=FLEXGRIP) == (0xFFFF0000, 0)
    # the NOT idiom LOP.PASS_B R, x, ~y: silicon ~y, FlexGripPlus ignores the inversion and gives ~x
    assert run1(intops.logic, 3, 32, False, True, a, b) == (0xEDCBA987, FS)
    assert run1(intops.logic, 3, 32, False, True, a, b, prof=only("pass_b_is_not1")) == (0xFFFF0000, FS)
    # inversions ignored for the other ops too: AND ~a, b
    assert run1(intops.logic, 0, 32, True, False, a, b) == (0x12340000, 0)
    assert run1(intops.logic, 0, 32, True, False, a, b, prof=only("pass_b_is_not1")) == (0x5678, 0)
    # 16-bit PASS_B: NOT src1 on 16 bits
    assert run1(intops.logic, 3, 16, False, False, lane(0x00FF), b, prof=only("pass_b_is_not1")) == (0xFF00, FS)


def test_switches_are_isolated() -> None:
    """Each switch changes only its own case: the G80 value stands where the switch does not apply."""
    for name in ("sub_negates_arith", "carry16_from_sext", "sat_all_ones", "no_shift_flags", "i2i_no_clamp", "pass_b_is_not1"):
        prof = only(name)
        # an unsigned 32-bit add without carry or saturation is the same everywhere
        assert run1(intops.iadd, 0, 32, False, lane(0x12345678), lane(0x11111111), lane(0), prof=prof) == (0x23456789, 0)
        assert run1(intops.iset, True, 32, 1, lane(0xFFFFFFFF), lane(0), prof=prof) == (0xFFFFFFFF, FS)


# ---------------------------------------------------------------------------------------------
# 3. vectorisation
# ---------------------------------------------------------------------------------------------

_RNG = np.random.default_rng(0x6080)
_N = 300


def _operands(k: int) -> list[np.ndarray]:
    """Random uint32 lanes mixed with edge values (0, 1, sign bits, all ones, small counts)."""
    edges = np.array(
        [0, 1, 2, 15, 16, 17, 31, 32, 33, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFF, 0x800000, 0xFFFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF],
        dtype=np.uint32,
    )
    out = []
    for _ in range(k):
        x = _RNG.integers(0, 1 << 32, _N, dtype=np.uint64).astype(np.uint32)
        pick = _RNG.random(_N) < 0.4
        x[pick] = _RNG.choice(edges, int(pick.sum()))
        out.append(x)
    return out


def _cases() -> list[tuple[str, Callable[..., tuple[np.ndarray, np.ndarray]], tuple[object, ...], int]]:
    cases: list[tuple[str, Callable[..., tuple[np.ndarray, np.ndarray]], tuple[object, ...], int]] = []
    for op in range(4):
        for w in (16, 32):
            for sat in (False, True):
                cases.append((f"iadd{op}/{w}/{sat}", intops.iadd, (op, w, sat), 3))
    cases += [(f"imul16/{sa}{sb}", intops.imul16, (sa, sb), 2) for sa in (False, True) for sb in (False, True)]
    cases += [(f"imul24/{s}{h}", intops.imul24, (s, h), 2) for s in (False, True) for h in (False, True)]
    cases += [(f"imad{k}/{o}", intops.imad, (k, o), 4) for k in range(9) for o in range(4)]
    cases += [(f"isad{s}/{w}", intops.isad, (s, w), 3) for s in (False, True) for w in (16, 32)]
    cases += [(f"iset{s}/{w}/{c}", intops.iset, (s, w, c), 2) for s in (False, True) for w in (16, 32) for c in range(8)]
    cases += [(f"minmax{m}{s}/{w}", intops.iminmax, (m, s, w), 2) for m in (False, True) for s in (False, True) for w in (16, 32)]
    cases += [(f"shl/{w}", intops.shl, (w,), 2) for w in (16, 32)]
    cases += [(f"shr{s}/{w}", intops.shr, (s, w), 2) for s in (False, True) for w in (16, 32)]
    cases += [
        (f"logic{o}/{w}/{n1}{n2}", intops.logic, (o, w, n1, n2), 2)
        for o in range(4)
        for w in (16, 32)
        for n1 in (False, True)
        for n2 in (False, True)
    ]
    cases += [
        (f"i2i{s}{b}/{t}/{ab}{ng}", intops.i2i, (s, b, t, ab, ng), 1)
        for s in (False, True)
        for b in (8, 16, 32)
        for t in range(8)
        for ab in (False, True)
        for ng in (False, True)
    ]
    return cases


def _lane_inputs(name: str, ops: list[np.ndarray]) -> list[np.ndarray]:
    """Make shift counts small often enough and carry-ins 0/1, as the callers pass them."""
    ops = [x.copy() for x in ops]
    if name.startswith(("shl", "shr")):
        small = _RNG.random(_N) < 0.7
        ops[1][small] = ops[1][small] % 40
    if name.startswith("iadd") or name.startswith("imad"):
        ops[-1] &= 1
    return ops


@pytest.mark.parametrize("prof", [G80, FLEXGRIP], ids=lambda p: p.name)
def test_vectorised_equals_lane_by_lane(prof: Profile) -> None:
    for name, fn, fields, nops in _cases():
        ops = _lane_inputs(name, _operands(nops))
        before = [x.copy() for x in ops]
        res, flags = fn(*fields, *ops, prof=prof)
        assert res.dtype == np.uint32 and flags.dtype == np.uint8 and res.shape == flags.shape == (_N,), name
        for x, y in zip(ops, before, strict=True):
            assert np.array_equal(x, y), f"{name} modified its input"
        for i in range(0, _N, 7):
            r1, f1 = fn(*fields, *(x[i : i + 1] for x in ops), prof=prof)
            assert (int(r1[0]), int(f1[0])) == (int(res[i]), int(flags[i])), f"{name} lane {i}: {[hex(int(x[i])) for x in ops]}"


def test_scalar_operands_broadcast() -> None:
    a = np.arange(8, dtype=np.uint32) * np.uint32(0x20000000)
    res, flags = intops.iadd(0, 32, False, a, 0x20000000, 0)
    assert res.tolist() == [((i + 1) * 0x20000000) & 0xFFFFFFFF for i in range(8)]
    assert flags.tolist() == [0, 0, 0, FS | FO, FS, FS, FS, FZ | FC]
    res, flags = intops.shl(32, 1, np.arange(4, dtype=np.uint32))
    assert res.tolist() == [1, 2, 4, 8] and flags.tolist() == [0, 0, 0, 0]
    # only the carry-in varies per lane: 0xffffffff + 0 + cin
    res, flags = intops.iadd(3, 32, False, 0xFFFFFFFF, 0, np.array([0, 1], dtype=np.uint32))
    assert res.tolist() == [0xFFFFFFFF, 0] and flags.tolist() == [FS, FZ | FC]
    res, flags = intops.imad(1, 3, 0xFFFF, np.array([1, 2], dtype=np.uint32), 0, np.array([1, 0], dtype=np.uint32))
    assert res.tolist() == [0, 0xFFFFFFFE] and flags.tolist() == [FZ | FC, FS]  # -1 * 1 + 0 + 1, -1 * 2 + 0
    # saturation with a broadcast first operand: 0x7fffffff + [1, 0]
    res, flags = intops.iadd(0, 32, True, 0x7FFFFFFF, np.array([1, 0], dtype=np.uint32), 0)
    assert res.tolist() == [0x7FFFFFFF, 0x7FFFFFFF] and flags.tolist() == [FO, 0]
    res, flags = intops.iadd(0, 32, True, 0x7FFFFFFF, np.array([1, 0], dtype=np.uint32), 0, prof=FLEXGRIP)
    assert res.tolist() == [0xFFFFFFFF, 0x7FFFFFFF] and flags.tolist() == [0, 0]
    res, flags = intops.imul24(False, False, 0x1000, np.array([0x1000, 0x100000], dtype=np.uint32))
    assert res.tolist() == [0x1000000, 0] and flags.tolist() == [0, FZ]
