"""FlexGripPlus 4.4's FPU (`Execution/FPU/*.vhd`, entity `fpu_single`), bit-exact.

The `flexgrip` profile's floating point. Each FlexGripPlus unit is a pipeline of registers that
the FPU's state machine keeps enabled, with the operands held constant, for more cycles than the
pipeline is deep, so its output is the pipeline's steady state: every register equal to the
function of the registers it reads. These functions compute that steady state stage by stage, on
Python integers of the VHDL's widths (the FMA datapath is 77 to 100 bits wide, beyond numpy's
integers), and are checked against the VHDL under GHDL (`tests/test_flexgrip_units.py`).

What FlexGripPlus does differently from IEEE-754 / G80 (all reproduced on purpose):
- denormal operands and results are kept (G80 flushes them);
- FADD with a negative operand goes to the subtractor, which subtracts magnitudes and takes the
  sign of the larger: so (-a) + (-b) = -(|a| - |b|) with the sign of the larger magnitude
  (docs/guides/flexgrip-findings.md, "Bugs of the floating-point units");
- alignment shifts drop the bits they shift out (only a fully shifted-out operand leaves a sticky
  1), so round-to-nearest is not always IEEE's;
- the exception stage recognises an exponent of 255 as a NaN whatever the mantissa (its infinity
  test includes the exponent's low bit): an infinite operand gives the quiet NaN
  `sign | 0x7fc00000 | mantissa[21:0]` of that operand;
- an overflowing result is infinity in mode RN (rmode 00), the largest finite number in rmode 01,
  and +0 in the other modes (that register is never written for them);
- rounding: rmode 00 is round-to-nearest-even on the round and sticky bits, every other mode
  truncates; a denormal that rounds up to 2^-126 comes out as zero (the carry into the hidden bit
  is dropped when the exponent stays 0);
- conversions ignore the rounding mode (always to nearest even), are 32-bit only, and have their
  own range quirks (see `f2u`, `f2s`, `u2f`).

Each operation takes the "true" operands: the register values with the instruction's negations
already applied to bit 31, as `fpu_single`'s SET state does (`opa_true_reg`).

Vectorised entry points (`fadd`, `fmul`, `fmad`, `fset`, `conv`) take and return numpy uint32
arrays, one element per lane; the datapath is evaluated per lane on Python integers.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

U32 = npt.NDArray[np.uint32]

# fpu_single's internal opcodes (gpgpu_package.fpu_opcode_type) for the exception stage
FADD, FMUL, FMAD = "FADD", "FMUL", "FMAD"
# round modes as the FPU's rmode input receives them (instruction bits, see execute.py)
RMODE_RN, RMODE_MAXF, RMODE_RZ, RMODE_TRUNC3 = 0, 1, 2, 3
# fpu_conv modes
U2F, S2F, F2U, F2S, NEG, TRSFR, ABSO = "U2F", "S2F", "F2U", "F2S", "NEG", "TRSFR", "ABSO"


def _mask(bits: int) -> int:
    return (1 << bits) - 1


def clz(x: int, bits: int) -> int:
    """fpupackage.count_l_zeros over a `bits`-wide vector (`bits` when x is 0)."""
    return bits - x.bit_length()


# ---------------------------------------------------------------------------------------------
# arithmetic blocks: each returns (sign, mantissa term, exponent term) for fpu_round; the
# mantissa term is 27 bits: [26] carry, [25] hidden bit, [24:2] fraction, [1] round, [0] sticky


def add_block(a: int, b: int) -> tuple[int, int, int]:
    """fpu_add: magnitudes of two positive operands (the caller routes signed ones to sub_block)."""
    ea, eb, ma, mb = (a >> 23) & 0xFF, (b >> 23) & 0xFF, a & 0x7FFFFF, b & 0x7FFFFF
    if ea > eb:
        es, el, ms, ml = eb, ea, mb, ma
    else:
        es, el, ms, ml = ea, eb, ma, mb
    small_den, large_den = es == 0, el == 0
    diff = (el - es - (1 if small_den and not large_den else 0)) & 0xFF
    large_add = (int(not large_den) << 25) | (ml << 2)
    small_shift = ((int(not small_den) << 25) | (ms << 2)) >> diff
    if (es != 0 or ms != 0) and small_shift == 0:
        small_shift = 1  # a small operand shifted out entirely leaves a sticky 1
    total = (large_add + small_shift) & _mask(27)
    if total >> 26:
        total, exponent = total >> 1, (el + 1) & 0xFF  # the bit shifted out is dropped
    else:
        exponent = el
    if (total >> 25) & 1 and large_den:
        exponent = (exponent + 1) & 0xFF  # two denormals summing to a normal number
    return (a >> 31) & 1, total, exponent


def sub_block_edges(a: int, b: int, edges: int) -> list[tuple[int, int, int]]:
    """fpu_sub, clock edge by clock edge from its reset state: (sign, mantissa, exponent) after
    0, 1, ..., `edges` enabled edges. |larger| - |smaller|, with the larger operand's sign.

    The subtractor is the one unit whose pipeline (15 registers deep with a denormal operand) is
    not always full when fpu_single samples it, so `fadd_bits` needs its outputs edge by edge.
    """
    r = dict.fromkeys(("ea", "eb", "ma", "mb", "gt", "eq", "mge", "agb", "es", "el", "ms", "ml", "sign", "sden", "lden",
                       "lnsd", "snz", "ed", "minu", "subt", "sh", "sh3", "d", "lz", "lz2", "lz_gt", "lz26", "d1", "ex", "ex2",
                       "d2"), 0)  # fmt: skip
    out = [(0, 0, 0)]
    for _ in range(edges):
        o = dict(r)
        r["ea"], r["eb"], r["ma"], r["mb"] = (a >> 23) & 0xFF, (b >> 23) & 0xFF, a & 0x7FFFFF, b & 0x7FFFFF
        r["gt"], r["eq"], r["mge"] = int(o["ea"] > o["eb"]), int(o["ea"] == o["eb"]), int(o["ma"] >= o["mb"])
        r["agb"] = o["gt"] | (o["eq"] & o["mge"])
        if o["agb"]:
            r["es"], r["el"], r["ms"], r["ml"], r["sign"] = o["eb"], o["ea"], o["mb"], o["ma"], (a >> 31) & 1
        else:
            r["es"], r["el"], r["ms"], r["ml"], r["sign"] = o["ea"], o["eb"], o["ma"], o["mb"], (b >> 31) & 1
        r["sden"], r["lden"] = int(o["es"] == 0), int(o["el"] == 0)
        r["lnsd"] = int(o["sden"] == 1 and o["lden"] == 0)
        r["snz"] = int(not o["sden"] or o["ms"] != 0)
        r["ed"] = (o["el"] - o["es"] - o["lnsd"]) & 0xFF
        r["minu"] = ((1 - o["lden"]) << 25) | (o["ml"] << 2)
        r["subt"] = ((1 - o["sden"]) << 25) | (o["ms"] << 2)
        r["sh"] = o["subt"] >> o["ed"]
        r["sh3"] = 1 if o["snz"] and o["sh"] == 0 else o["sh"]  # a fully shifted-out operand leaves a sticky 1
        r["d"] = (o["minu"] - o["sh3"]) & _mask(26)
        r["lz"] = clz(o["d"], 26)
        r["lz2"] = o["lz"]
        r["lz_gt"], r["lz26"] = int(o["lz2"] > o["el"]), int(o["lz2"] == 26)
        if o["lz_gt"]:
            r["d1"], r["ex"] = (o["d"] << o["el"]) & _mask(26), 0
        else:
            r["d1"], r["ex"] = (o["d"] << o["lz2"]) & _mask(26), (o["el"] - o["lz2"]) & 0xFF
        r["ex2"] = 0 if o["lz26"] else o["ex"]
        r["d2"] = o["d1"] >> 1 if o["el"] != 0 and o["ex"] == 0 else o["d1"]  # a normal input, a denormal result
        out.append((r["sign"], r["d2"], r["ex2"]))
    return out


def mul_block(a: int, b: int) -> tuple[int, int, int]:
    """fpu_mul: 24x24-bit product, normalised (or denormalised) into the mantissa term."""
    ea, eb = (a >> 23) & 0xFF, (b >> 23) & 0xFF
    a_norm, b_norm = int(ea != 0), int(eb != 0)
    in_zero = (a & 0x7FFFFFFF) == 0 or (b & 0x7FFFFFFF) == 0
    terms = (ea + eb + (1 - a_norm) + (1 - b_norm)) & 0x1FF
    under = (126 - terms) & 0x1FF
    exponent_1 = (terms - 126) & 0x1FF
    product = ((a_norm << 23) | (a & 0x7FFFFF)) * ((b_norm << 23) | (b & 0x7FFFFF))
    gt_offset = terms > 125
    exponent_2 = exponent_1 if gt_offset else 0
    product_2 = product if gt_offset else product >> under
    pshift = clz(product >> 23, 25)  # counted on the unshifted product, as the VHDL does
    gt_pshift = exponent_2 > pshift
    exponent_4 = ((exponent_2 - pshift) & 0x1FF) if gt_pshift else 0
    product_5 = (product_2 << (pshift if gt_pshift else exponent_2)) & _mask(48)
    if exponent_4 == 0:
        product_5 >>= 1
    lsb = int(product_5 & _mask(23) != 0)
    mant = (((product_5 >> 23) & _mask(25)) << 1) | lsb
    return ((a ^ b) >> 31) & 1, mant, (0 if in_zero else exponent_4)


def _s10(x: int) -> int:
    x &= 0x3FF
    return x - 0x400 if x & 0x200 else x


def fma_block(a: int, b: int, c: int) -> tuple[int, int, int]:
    """fpu_fma: a*b + c with the full 48-bit product (one rounding, in fpu_round).

    When none of the VHDL's assignments to its `sum_2` register applies (a*b cancels c exactly with
    an exponent difference of 0 or 1), the register keeps the value it last took while the pipeline
    filled (`_fma_fill_sum`).
    """
    sa, sb, sc = (a >> 31) & 1, (b >> 31) & 1, (c >> 31) & 1
    ea, eb, ec = (a >> 23) & 0xFF, (b >> 23) & 0xFF, (c >> 23) & 0xFF
    na, nb, nc = int(ea != 0), int(eb != 0), int(ec != 0)
    dna, dnb = 1 - na, 1 - nb
    la, lb, lc = (na << 23) | (a & 0x7FFFFF), (nb << 23) | (b & 0x7FFFFF), (nc << 23) | (c & 0x7FFFFF)
    eab = (ea + eb) & 0x1FF
    ed = _s10(ec - eab + 126 - nc + na + nb)
    ab = (la * lb) << 2  # 77-bit word: 27 zeros, the product, 2 zeros
    if ed <= -47:
        shift_1, expo, sign = 76, (eab - 125) & 0x1FF, sa ^ sb
    elif ed <= 2:
        shift_1, expo, sign = (28 - ed) & 0x3FF, (eab - 125) & 0x1FF, sa ^ sb
    elif ed <= 26:
        shift_1, expo, sign = (28 - ed) & 0x3FF, ec, sc
    else:
        shift_1, expo, sign = 0, ec, sc
    c_shifted = (lc << 76) >> shift_1  # 100-bit word
    cc = (c_shifted >> 23) & _mask(77)
    sticky_c = int(c_shifted & _mask(24) != 0)
    total = (ab + cc) & _mask(78)
    diff = (ab - cc) & _mask(78)
    diff_comp = (-((1 << 78) | diff)) & _mask(77)
    eff_add = (sa ^ sb ^ sc) == 0
    if eff_add:
        sum_2 = total & _mask(77)
    elif ed < 0:
        sum_2 = diff & _mask(77)
    elif ed > 1 or cc > ab:
        sum_2, sign = diff_comp, sc
    elif cc < ab:
        sum_2 = diff & _mask(77)
    else:
        sum_2 = _fma_fill_sum(a, b, c)
    shift_2 = 0
    if ed <= 1:
        lz = clz(sum_2 & _mask(51), 51)
        td = _s10(eab - lz - 127 + na + nb)
        if td >= 0:
            shift_2 = (26 if td > 0 else 25) + lz
            expo = (eab - lz - 125 + dna + dnb) & 0x1FF
        else:
            shift_2 = (28 + eab - 1 - 127) & 0x3FF
            expo = dna + dnb
    elif ed == 2:
        lz = clz(sum_2 & _mask(52), 52)
        td = _s10(eab - lz - 126 + na + nb)
        if td >= 0:
            shift_2 = (25 if td > 0 else 24) + lz
            expo = (eab - lz - 124 + dna + dnb) & 0x1FF
        else:
            shift_2 = (28 + eab - 1 - 127 + dna + dnb) & 0x3FF
            expo = dna + dnb
    elif ed <= 26 and shift_1 != 0 and nc:
        if eff_add and (sum_2 >> (77 - shift_1)) & 1:
            shift_2, expo = shift_1 - 1, (ec + 1) & 0x1FF
        elif not eff_add and not (sum_2 >> (76 - shift_1)) & 1:
            shift_2, expo = shift_1 + 1, (ec - 1) & 0x1FF
        else:
            shift_2, expo = shift_1, ec
    elif ed > 26 and nc:
        shift_2, expo = shift_1, ec
    elif not nc:
        shift_2, expo = shift_1, 0
    shifted = (sum_2 << shift_2) & _mask(77)
    sticky = sticky_c | int(shifted & _mask(52) != 0)
    return sign, (((shifted >> 52) & _mask(25)) << 1) | sticky, expo


# ---------------------------------------------------------------------------------------------
# rounding and exceptions


def round_block(sign: int, mant: int, exp: int, rmode: int) -> tuple[int, int]:
    """fpu_round: (packed result, final 9-bit exponent). Only rmode 00 rounds (to nearest even)."""
    r, s, lsb = (mant >> 1) & 1, mant & 1, (mant >> 2) & 1
    if rmode == RMODE_RN and r and (s or lsb):
        m = (mant + 4) & _mask(27)
        if m >> 26:
            m, exp = m >> 1, (exp + 1) & 0x1FF
        return (sign << 31) | ((exp & 0xFF) << 23) | ((m >> 2) & 0x7FFFFF), exp
    return (sign << 31) | ((exp & 0xFF) << 23) | ((mant >> 2) & 0x7FFFFF), exp


def _is_nan(x: int) -> bool:
    # fpu_exceptions: an exponent of 255 is a NaN, infinities included (its infinity test looks at
    # bits 23..0, which hold the exponent's low bit)
    return (x >> 23) & 0xFF == 0xFF


def _quiet(x: int) -> int:
    return (x & 0x80000000) | 0x7FC00000 | (x & 0x3FFFFF)


def exceptions_block(op: str, a: int, b: int, c: int, rounded: int, exp_final: int, rmode: int) -> int:
    """fpu_exceptions followed by fpu_single's DONE choice: the operation's final result."""
    if _is_nan(a):
        return _quiet(a)
    if _is_nan(b):
        return _quiet(b)
    if op == FMAD and _is_nan(c):
        return _quiet(c)
    if exp_final > 254:
        if rmode == RMODE_RN:
            return (rounded & 0x80000000) | 0x7F800000
        if rmode == RMODE_MAXF:
            return (rounded & 0x80000000) | 0x7F7FFFFF
        return 0  # out_overflow is only written for rmode 00 and 01: it keeps its reset value
    return rounded


# ---------------------------------------------------------------------------------------------
# scalar operations (true operands, 32-bit patterns)


def _round_edges(terms: list[tuple[int, int, int]], rmode: int) -> list[tuple[int, int]]:
    """fpu_round clock edge by clock edge: terms[k] is what its inputs hold during its k-th enabled
    edge; returns (round_out, exponent_final) after each edge. Its round-up path is three registers
    deep and reads the mantissa one edge before the decision, so it can combine two inputs."""
    r = dict.fromkeys(("rn", "up", "tie", "up2", "sr", "sro", "sr2", "er", "ef", "ro"), 0)
    out = []
    for s, m, e in terms:
        o = dict(r)
        r["rn"] = 1 if rmode == RMODE_RN else (0 if rmode == RMODE_RZ else o["rn"])
        r["up"] = int(o["rn"] and (m >> 1) & 1 and m & 1)
        r["tie"] = int(o["rn"] and (m >> 1) & 1 and not m & 1)
        r["up2"] = int(o["tie"] and (m >> 2) & 1)
        if o["up"] or o["up2"]:
            r["sr"] = (m + 4) & _mask(27)
            r["sro"] = (o["sr"] >> 26) & 1
            r["sr2"], r["er"] = (o["sr"] >> 1, (e + 1) & 0x1FF) if o["sro"] else (o["sr"], e)
            r["ef"] = o["er"]
            r["ro"] = (s << 31) | ((o["er"] & 0xFF) << 23) | ((o["sr2"] >> 2) & 0x7FFFFF)
        else:
            r["ef"] = e
            r["ro"] = (s << 31) | ((e & 0xFF) << 23) | ((m >> 2) & 0x7FFFFF)
        out.append((r["ro"], r["ef"]))
    return out


def _overflow_edges(rounded: list[tuple[int, int]], rmode: int) -> tuple[int, int]:
    """fpu_exceptions' overflow path clock edge by clock edge for operands that are not NaNs (the
    invalid path then never fires), enabled with the rounder: rounded[k] is the rounder's output
    after its k-th edge. Returns (ex_enable, out_fp) after the last edge: a transient exponent above
    254 from a subtractor that has not settled reaches the output this way."""
    trig, out_ovf, ex_en, out_fp = 0, 0, 0, 0
    prev = (0, 0)
    for ro, ef in rounded:
        ex_en, out_fp = trig, (out_ovf if trig else 0)
        if prev[1] > 254:
            trig = 1
            if rmode == RMODE_RN:
                out_ovf = (prev[0] & 0x80000000) | 0x7F800000
            elif rmode == RMODE_MAXF:
                out_ovf = (prev[0] & 0x80000000) | 0x7F7FFFFF
        else:
            trig, out_ovf = 0, 0
        prev = (ro, ef)
    return ex_en, out_fp


# fpu_single's timing for an FADD with a negative operand, in clock edges from the first edge of
# its SET state (t = 0): SET chooses ADD at t = 0 (it tests the operands' previous, zeroed
# register) and SUB at t = 1, so fpu_sub is enabled from t = 2; WORK copies fpu_sub's outputs into
# the rounder's inputs at t = 2..17 (16 cycles); fpu_round is enabled from t = 1; out_fp when
# `finished` rises is fpu_round's output after t = 19 (READ_UNIT: fpu_single alone, as
# tb/flexgrip_units samples it). The SM's execute stage copies out_fp one edge later (ALU_DONE of
# pipeline_execute.vhd, after and_reduce of every SP's `finished`), and DONE re-registers out_fp
# from the exception stage on that edge too: READ_SM, the flexgrip profile's `fadd_read_in_sm`.
_SUB_FIRST, _WORK_FIRST, _WORK_LAST, _READ = 2, 2, 17, 19
READ_UNIT, READ_SM = _READ, _READ + 1


def fadd_bits(a: int, b: int, rmode: int = RMODE_RN, read: int = READ_UNIT) -> int:
    """FADD as fpu_single computes it, its output taken after edge `read` (READ_UNIT or READ_SM)."""
    if not (a >> 31) and not (b >> 31):
        rounded, exp_final = round_block(*add_block(a, b), rmode)
    else:
        sub = sub_block_edges(a, b, _WORK_LAST - _SUB_FIRST)
        terms, held = [], (0, 0, 0)
        for t in range(1, read + 1):  # the rounder's input during edge t is what WORK wrote at t - 1
            terms.append(held)
            if _WORK_FIRST <= t <= _WORK_LAST:
                held = sub[t - _SUB_FIRST]  # fpu_sub's outputs after t - 2 enabled edges
        edges = _round_edges(terms, rmode)
        rounded, exp_final = edges[-1]
        if not (_is_nan(a) or _is_nan(b)):  # the exception stage also sees the transient exponents
            ex_enable, out_fp = _overflow_edges(edges, rmode)
            return out_fp if ex_enable else rounded
    return exceptions_block(FADD, a, b, 0, rounded, exp_final, rmode)


def fmul_bits(a: int, b: int, rmode: int = RMODE_RN) -> int:
    rounded, exp_final = round_block(*mul_block(a, b), rmode)
    return exceptions_block(FMUL, a, b, 0, rounded, exp_final, rmode)


def _fma_fill_sum(a: int, b: int, c: int, cycles: int = 24) -> int:
    """The value fpu_fma's `sum_2` register last took while its pipeline filled.

    Needed only when a*b cancels c exactly with an exponent difference of 0 or 1: then no branch
    of the VHDL assigns `sum_2` in the steady state and it keeps that value. The pipeline starts
    from its reset state (fpu_single resets its units before each operation, and the operands
    arrive with the enable), and every register below takes its new value from the old ones.
    """
    r = dict.fromkeys(("sa", "sb", "sc", "ea", "eb", "ec", "na", "nb", "nc", "ma", "mb", "mc", "la", "lb", "lc", "eab", "ed",
                       "prod", "ab", "shift_1", "cst", "cst2", "cc", "cc2", "sum", "diff", "diff_comp", "sum_2"), 0)  # fmt: skip
    for _ in range(cycles):
        o = dict(r)
        r["sa"], r["sb"], r["sc"] = (a >> 31) & 1, (b >> 31) & 1, (c >> 31) & 1
        r["ea"], r["eb"], r["ec"] = (a >> 23) & 0xFF, (b >> 23) & 0xFF, (c >> 23) & 0xFF
        r["na"], r["nb"], r["nc"] = int(r["ea"] != 0), int(r["eb"] != 0), int(r["ec"] != 0)
        r["ma"], r["mb"], r["mc"] = a & 0x7FFFFF, b & 0x7FFFFF, c & 0x7FFFFF
        r["la"], r["lb"], r["lc"] = (o["na"] << 23) | o["ma"], (o["nb"] << 23) | o["mb"], (o["nc"] << 23) | o["mc"]
        r["eab"] = (o["ea"] + o["eb"]) & 0x1FF
        r["ed"] = _s10(o["ec"] - o["eab"] + 126 - o["nc"] + o["na"] + o["nb"])
        r["prod"] = o["la"] * o["lb"]
        r["ab"] = o["prod"] << 2
        ed = o["ed"]
        r["shift_1"] = 76 if ed <= -47 else ((28 - ed) & 0x3FF if ed <= 26 else 0)
        r["cst"] = o["lc"] << 76
        r["cst2"] = o["cst"] >> o["shift_1"]
        r["cc"] = (o["cst2"] >> 23) & _mask(77)
        r["cc2"] = o["cc"]
        r["sum"] = (o["ab"] + o["cc2"]) & _mask(78)
        r["diff"] = (o["ab"] - o["cc2"]) & _mask(78)
        r["diff_comp"] = (-((1 << 78) | o["diff"])) & _mask(77)
        if (o["sa"] ^ o["sb"] ^ o["sc"]) == 0:
            r["sum_2"] = o["sum"] & _mask(77)
        elif ed < 0:
            r["sum_2"] = o["diff"] & _mask(77)
        elif ed > 1 or o["cc2"] > o["ab"]:
            r["sum_2"] = o["diff_comp"]
        elif o["cc2"] < o["ab"]:
            r["sum_2"] = o["diff"] & _mask(77)
    return r["sum_2"]


def fmad_bits(a: int, b: int, c: int, rmode: int = RMODE_RN) -> int:
    rounded, exp_final = round_block(*fma_block(a, b, c), rmode)
    return exceptions_block(FMAD, a, b, c, rounded, exp_final, rmode)


def _rne32(value: int, low_bits: int) -> int:
    """Keep value >> low_bits, rounded to nearest even on the dropped bits (conversions)."""
    kept = value >> low_bits
    half = (value >> (low_bits - 1)) & 1
    rest = value & _mask(low_bits - 1) != 0
    return kept + 1 if half and (rest or kept & 1) else kept


def i2f_bits(x: int, signed: bool) -> int:
    """fpu_conv U2F / S2F (32-bit integers only)."""
    if x == 0:
        return 0
    sign = (x >> 31) & 1 if signed else 0
    mag = ((-x) & 0xFFFFFFFF) if sign else x
    sv = clz(mag, 32)
    tmp = (mag << (sv + 1)) & 0xFFFFFFFF  # the leading one is shifted out
    mant = _rne32(tmp, 9) & 0x7FFFFF  # a carry out of the fraction is lost (docs/guides/flexgrip-findings.md, "Bugs of the floating-point units")
    return (sign << 31) | (((158 - sv) & 0xFF) << 23) | mant


def _f2i_magnitude(x: int, nz: int) -> int:
    tmp = ((1 << 76) | ((x & 0x7FFFFF) << 53)) >> nz
    return _rne32(tmp, 45) & 0xFFFFFFFF


def f2u_bits(x: int) -> int:
    """fpu_conv F2U: to nearest even whatever the instruction's rounding mode."""
    e, m, s = (x >> 23) & 0xFF, x & 0x7FFFFF, x >> 31
    if e == 0:
        return 0
    if e == 255:
        return 0xFFFFFFFF
    if s and (e > 127 or (e in (126, 127) and m != 0)):
        return 0xFFFFFFFF  # negatives below -1, and those in (-1, -0.5), give all ones
    if s:
        return 0
    nz = 158 - e
    if nz < 0:
        return 0xFFFFFFFF
    return _f2i_magnitude(x, nz) if nz < 77 else 0


def f2s_bits(x: int) -> int:
    """fpu_conv F2S: to nearest even whatever the instruction's rounding mode."""
    e, m, s = (x >> 23) & 0xFF, x & 0x7FFFFF, x >> 31
    if e == 0:
        return 0
    if e == 255:
        return 0x7FFFFFFF if m == 0 and not s else 0x80000000
    nz = 158 - e
    if 0 < nz < 77:
        mag = _f2i_magnitude(x, nz)
        return (-mag) & 0xFFFFFFFF if s else mag
    if nz < 0 or (nz == 0 and m != 0):
        return 0x80000000
    return 0  # nz == 0 with m == 0 (+-2^31), and |x| < 2^-45


def conv_bits(mode: str, x: int) -> int:
    if mode == U2F:
        return i2f_bits(x, False)
    if mode == S2F:
        return i2f_bits(x, True)
    if mode == F2U:
        return f2u_bits(x)
    if mode == F2S:
        return f2s_bits(x)
    if mode == NEG:
        return x ^ 0x80000000
    if mode == ABSO:
        return x & 0x7FFFFFFF
    if mode == TRSFR:
        return x
    raise ValueError(f"unknown fpu_conv mode {mode!r}")


def fset_bits(cond: int, a: int, b: int, abs_en: bool = False) -> int:
    """fpu_set: 0xffffffff when the condition holds, else 0.

    cond is the instruction's 3-bit condition (001 LT, 010 EQ, 011 LE, 100 GT, 101 NE, 110 GE;
    000 and 111 are never true). The comparison is on exponent and mantissa fields with sign
    cases; `abs_en` (bit 52) relaxes the sign tests rather than clearing the signs, and NaNs are
    compared as ordinary patterns.
    """
    ea, eb, ma, mb, sa, sb = (a >> 23) & 0xFF, (b >> 23) & 0xFF, a & 0x7FFFFF, b & 0x7FFFFF, a >> 31, b >> 31
    e_lt, e_eq, m_lt, m_eq = ea < eb, ea == eb, ma < mb, ma == mb
    mag_lt = e_lt or (e_eq and m_lt)
    not_lt = (not e_lt) or (e_eq and not m_lt)  # as written: includes equal exponents with a smaller mantissa
    equal = e_eq and m_eq and (sa == sb or abs_en)
    lt = (mag_lt and (sb == 0 or abs_en)) or (not_lt and sa == 1)
    gt = (not_lt and (sa == 0 or abs_en)) or (mag_lt and (sb == 1 or abs_en))
    if cond == 1:
        ok = lt
    elif cond == 3:
        ok = lt or equal
    elif cond == 2:
        ok = equal
    elif cond == 5:
        ok = (not e_eq or not m_eq) or (sa != sb and not abs_en)
    elif cond == 4:
        ok = gt
    elif cond == 6:
        ok = gt or equal
    else:
        ok = False
    return 0xFFFFFFFF if ok else 0


# ---------------------------------------------------------------------------------------------
# lanes


def _map(fn: Callable[..., int], *xs: npt.ArrayLike) -> U32:
    arrays = np.broadcast_arrays(*[np.asarray(x, dtype=np.uint64) & 0xFFFFFFFF for x in xs])
    shape = arrays[0].shape
    cols = [a.ravel().tolist() for a in arrays]
    return np.fromiter((fn(*v) for v in zip(*cols, strict=True)), dtype=np.uint32, count=len(cols[0])).reshape(shape)


def fadd(a: npt.ArrayLike, b: npt.ArrayLike, rmode: int = RMODE_RN, read: int = READ_UNIT) -> U32:
    return _map(lambda x, y: fadd_bits(x, y, rmode, read), a, b)


def fmul(a: npt.ArrayLike, b: npt.ArrayLike, rmode: int = RMODE_RN) -> U32:
    return _map(lambda x, y: fmul_bits(x, y, rmode), a, b)


def fmad(a: npt.ArrayLike, b: npt.ArrayLike, c: npt.ArrayLike, rmode: int = RMODE_RN) -> U32:
    return _map(lambda x, y, z: fmad_bits(x, y, z, rmode), a, b, c)


def conv(mode: str, x: npt.ArrayLike) -> U32:
    return _map(lambda v: conv_bits(mode, v), x)


def fset(cond: int, a: npt.ArrayLike, b: npt.ArrayLike, abs_en: bool = False) -> U32:
    return _map(lambda x, y: fset_bits(cond, x, y, abs_en), a, b)


def sp_convert(cvt_type: int, neg: bool, abs_sat: int, x: npt.ArrayLike) -> U32:
    """The scalar processor's integer CVT (ScalarProcessor/convert_int_int.vhd), which runs a conversion
    instruction the FPU does not take (an F2I or I2F whose sub-op bits 63:61 the negation bit 61 has
    changed): the type (bits 48:46) keeps 16 or 8 bits or sign-extends them, then `neg` (sub-op 001
    only) negates and an abs_saturate of "10" (bits 52:51) takes the absolute value of the signed types."""
    v = np.asarray(x, np.uint32).astype(np.int64)
    if cvt_type == 0:
        v = v & 0xFFFF
    elif cvt_type == 2:
        v = v & 0xFF
    elif cvt_type == 4:
        v = ((v & 0xFFFF) ^ 0x8000) - 0x8000
    elif cvt_type == 6:
        v = ((v & 0xFF) ^ 0x80) - 0x80
    v &= 0xFFFFFFFF
    if neg:
        v = -v & 0xFFFFFFFF
    if abs_sat == 2 and cvt_type in (4, 5, 6):
        v = np.where(v >> 31, -v & 0xFFFFFFFF, v)
    return v.astype(np.uint32)
