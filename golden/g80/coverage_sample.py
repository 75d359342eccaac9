"""Turning one commit record into a compact sample key, cheaply.

Everything that depends on the instruction word alone (modifiers, operands, guard, marker) is
left for later: a sample is (word, dyn), where `dyn` packs what the commit record adds (lanes,
outcome, stack depth, result classes, flags; model.Dyn). The bins of a key are worked out once
per distinct key when counts are read, so sampling costs a dictionary update and, for an
instruction that writes a register or flags, a few integer operations on its 32 lanes packed into
one integer (numpy costs microseconds per call on 32-element arrays; a batched numpy version was
measured slower than this).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .commit import Commit
from .coverage_model import JUMPS, R_INF, R_NAN, R_NEG, R_POS, R_ZERO
from .decoder import BY_FORMAT, Instruction, decode, fmt_of

FULL = 0xFFFFFFFF

# The 32 lanes of a commit's values are handled as one 1024-bit integer (lane i in bits
# 32i..32i+31): a handful of integer operations classify every lane at once, where numpy would
# pay microseconds per call on 32-element arrays. REP(x) repeats a 32-bit pattern in every lane.


def _rep(x: int) -> int:
    return sum(x << (32 * i) for i in range(32))


LOW31, LOW15 = _rep(0x7FFFFFFF), _rep(0x7FFF)
# magnitude + c has its sign bit set iff magnitude >= 2^(s) - c: thresholds of float classes
INF32_GE, NAN32_GE = _rep(0x80000000 - 0x7F800000), _rep(0x80000000 - 0x7F800001)
INF16_GE, NAN16_GE = _rep(0x8000 - 0x7C00), _rep(0x8000 - 0x7C01)

_SPREAD: dict[int, tuple[int, ...]] = {}


def spread(mask: int) -> tuple[int, ...]:
    """Lane selectors of an exec mask: bit k (k = 0, 1, 2, 3, 15, 31) of each lane in `mask`, and
    the number of lanes.

    Cached: a program uses few distinct masks."""
    got = _SPREAD.get(mask)
    if got is None:
        base = sum(1 << (32 * i) for i in range(32) if mask >> i & 1)
        got = (*(base << k for k in (0, 1, 2, 3, 15, 31)), mask.bit_count())
        if len(_SPREAD) < 65536:
            _SPREAD[mask] = got
    return got


def result_class(x: int, lanes: tuple[int, ...], half: bool, fp: bool) -> int:
    """R_* bits of the packed values x over the lanes selected by `lanes` (spread(exec_mask))."""
    low, sign = (LOW15, lanes[4]) if half else (LOW31, lanes[5])
    neg = x & sign  # sign-bit positions of the negative lanes
    nonzero = ((x & low) + low) & sign  # sign-bit position set where the magnitude is nonzero
    if not fp:
        some = nonzero | neg  # the lanes that are not zero
        return (R_ZERO if some != sign else 0) | (R_NEG if neg else 0) | (R_POS if some != neg else 0)
    mag = x & low
    bits = 0
    inf_ge, nan_ge = (INF16_GE, NAN16_GE) if half else (INF32_GE, NAN32_GE)
    special = (mag + inf_ge) & sign
    nan = (mag + nan_ge) & sign
    finite = nonzero & ~special
    if nonzero != sign:
        bits |= R_ZERO
    if finite & neg:
        bits |= R_NEG
    if finite & ~neg:
        bits |= R_POS
    if special & ~nan:
        bits |= R_INF
    if nan:
        bits |= R_NAN
    return bits


def flag_class(x: int, lanes: tuple[int, ...]) -> int:
    """Bits 0-3: flag k set in some selected lane; bits 4-7: clear in some selected lane."""
    n = lanes[6]
    out = 0
    for k in range(4):
        c = (x & lanes[k]).bit_count()  # selected lanes with flag k set
        if c:
            out |= 1 << k
        if c < n:
            out |= 16 << k
    return out


def packed(values: np.ndarray) -> int:
    """The lanes of a commit's uint32 values as one integer, lane 0 lowest."""
    return int.from_bytes(values.astype("<u4", copy=False).tobytes(), "little")


@dataclass
class WordPlan:
    insn: Instruction
    fp: bool  # the register written holds a float
    target: int | None  # byte address a jump goes to


def plan_word(word: int, size: int) -> WordPlan:
    """What sampling needs of an instruction word. The word has executed, so it is legal: the
    form is the one whose identifying fields match (the decoder's full checks are not needed)."""
    w0, w1 = word & FULL, (word >> 32 if size == 8 else None)
    form = next((f for f in BY_FORMAT.get(fmt_of(w0, w1), []) if f.matches(word)), None)
    if form is None:
        decode([w0] if w1 is None else [w0, w1])  # raises IllegalInstruction with the reason
        raise AssertionError(f"no form for {word:#x}")
    insn = Instruction(form, form.extract(word))
    target = insn.fields["target"] << 2 if form.name in JUMPS else None
    return WordPlan(insn, form.float_result, target)


def dyn_key(c: Commit, plan: WordPlan, stack_depth: int) -> int:
    """model.Dyn packed (model.pack_dyn's layout, written out: this runs once per commit)."""
    e, a = c.exec_mask, c.active_mask
    key = (0 if e == FULL else 2 if e == 0 else 1) | (0 if a == FULL else 8 if a == 0 else 4)
    if e != a:
        key |= 32 if e == 0 else 16
    key |= (stack_depth if stack_depth < 2 else 2) << 6
    if c.gpr or c.cc:
        sel = _SPREAD.get(e) or spread(e)
        if c.gpr:
            w = c.gpr[0]
            key |= result_class(int.from_bytes(w.values.tobytes(), "little"), sel, w.half is not None, plan.fp) << 8
        if c.cc:
            key |= flag_class(int.from_bytes(c.cc[0].values.tobytes(), "little"), sel) << 13
    if plan.target is not None and plan.target <= c.pc:
        key |= 1 << 21
    return key
