"""Architectural crosses: a second coverage model, kept apart from the ISA bins.

The ISA model (coverage_model.py) says which encodings and commit situations were seen; once every
regression fills it, it no longer shows where verification is thin. This model crosses what the
values and the instruction stream were, all derived from the encoding table `FORMS`:

- per form and per source operand (every `Src`, `ShiftCount`, `SameAs` and `Imm` of the form):
  the value class of the operand over the executing lanes (integers: zero, one, all-ones,
  smallest/largest signed, other positive/negative, at the operand's width; floats: +-0,
  +-denormal, +-normal, +-inf, NaN at fp32 or fp16), alone and crossed with the operand's own
  modifiers (`-`, `|x|`, `~`) and with the form's modifier groups that change how a value is read
  or rounded (a `Mods` whose name says type, kind, saturation or rounding);
- register hazards per source register operand: the warp-instruction distance to the latest
  write of that register in the same warp (RAW at 1, 2, 3+, or no earlier write), WAW for the
  destination, and half-register aliasing (how the latest write and this read overlap);
- per form writing a register and a $c: result class x each flag bit, lane by lane;
- GUARD: every condition code x (true in some active lane, false in some active lane), evaluated on
  the $c register's flags; excluded outcomes come from the condition truth table; RAW distance to
  the $c register a guard reads;
- SIMT: lanes executing (all, partial, one, none) x SIMT stack depth x kind of the top entry.

Sampling needs only commit records (plus the warp's stack depth and top-entry kind at issue): the
source values come from a shadow register file rebuilt from the records' writes. A register no
record of that warp has written yet (R0's thread id, an unwritten register) has no known value:
its lanes are not classified (an operand from shared or constant memory neither; its kind is
covered by the ISA model). Hazard distances count the warp's own commits.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from ..coverage.db import Coverage
from ..coverage.model import Group, Model, _Builder
from . import conditions
from .commit import Commit
from .coverage_model import FLAG_NAMES, FP_RESULTS, INT_RESULTS, NO_CARRY_OVERFLOW, _predicable
from .coverage_sample import plan_word
from .decoder import Instruction
from .form import Form
from .operands import ImmOperand, RegOperand
from .state import BRANCH, BREAK, CALL, JOINAT
from .syntax import Dst, Imm, Mods, Src
from .table import FORMS, MARK, SameAs, ShiftCount

XFORMAT = "g80-sm1-coverage-cross"
GUARD_X, SIMT_X = "GUARD", "SIMT"

INT_CLASSES = ("zero", "one", "all-ones", "min signed", "max signed", "positive", "negative")
FP_CLASSES = ("+0", "-0", "+denormal", "-denormal", "+normal", "-normal", "+inf", "-inf", "NaN")
# families whose sources are floats (the conversions from float: F2I, F2F)
FP_SOURCE_FAMILIES = frozenset({"fadd", "fmul", "fmad", "fminmax", "fset", "fslct", "f2i", "f2f", "sfu"})
# modifier groups that change how a source value is read or how the result is rounded/clamped
MATTERS = re.compile(r"type|kind|sat|round", re.IGNORECASE)
DISTANCES = ("distance 1", "distance 2", "distance 3+", "no earlier write")
ALIAS = ("full after full", "half after full", "same half after half", "other half after half", "full after half")
LANE_CLASSES = ("all 32", "partial", "one", "none")
STACK_DEPTHS = ("depth 0", "depth 1", "depth 2", "depth 3+")
STACK_KINDS = ("empty", BRANCH, JOINAT, BREAK, CALL)
FLAG_VALUES = tuple(f"{n}={v}" for n in FLAG_NAMES for v in (1, 0))

CATEGORIES_X = ("value", "value x modifier", "RAW", "WAW", "half alias", "result x flags", "guard", "SIMT")

# Flags as a function of the result (what makes result x flag bins impossible)
INT_SZ = ("integer flags: Z = result is 0, S = sign bit of the result, at the operation's width (ISA.md 3.1-3.9: add, mul, mad, "
          "sad, set, min/max, shift, logic, cvt; 4.2: FSET's 0 / all-ones like ISET; 4.3: F2I)")
SET_FAMILIES = frozenset({"iset", "fset"})
SET_RESULT = "ISET/FSET write all-ones (true) or 0 (false): never a positive result (ISA.md 3.5, 4.2)"
FP_SZ = "flags of a float result: Z if +-0 or NaN, S if negative or NaN (ISA.md 4.1)"
INT_SZ_EXCLUDED = {"zero x Z=0", "negative x Z=1", "positive x Z=1", "negative x S=0", "zero x S=1", "positive x S=1"}
FSLCT_SZ = "FSLCT flags: Z if the result is the +-0 bit pattern, S = bit 31 (ISA.md 4, fslct)"
FSLCT_SZ_EXCLUDED = {"zero x Z=0", "NaN x Z=1", "negative x S=0", "positive x S=1", "positive x Z=1", "negative x Z=1", "inf x Z=1"}
FP_SZ_EXCLUDED = {"zero x Z=0", "NaN x Z=0", "NaN x S=0", "negative x S=0", "positive x S=1", "positive x Z=1", "negative x Z=1", "inf x Z=1"}


# ---------------------------------------------------------------------------------------------
# Value classes


def int_class(v: int, bits: int) -> str:
    mask = (1 << bits) - 1
    v &= mask
    sign = 1 << (bits - 1)
    if v == 0:
        return "zero"
    if v == 1:
        return "one"
    if v == mask:
        return "all-ones"
    if v == sign:
        return "min signed"
    if v == sign - 1:
        return "max signed"
    return "negative" if v & sign else "positive"


def fp_class(v: int, half: bool) -> str:
    ebits, mbits = (5, 10) if half else (8, 23)
    sign = "-" if v >> (ebits + mbits) & 1 else "+"
    e = v >> mbits & ((1 << ebits) - 1)
    m = v & ((1 << mbits) - 1)
    if e == (1 << ebits) - 1:
        return "NaN" if m else f"{sign}inf"
    if e == 0:
        return f"{sign}0" if m == 0 else f"{sign}denormal"
    return f"{sign}normal"


def int_result_class(v: int, bits: int) -> str:
    v &= (1 << bits) - 1
    return "zero" if v == 0 else "negative" if v >> (bits - 1) else "positive"


def fp_result_class(v: int, half: bool) -> str:
    c = fp_class(v, half)
    return {"+0": "zero", "-0": "zero", "+inf": "inf", "-inf": "inf", "NaN": "NaN"}.get(c) or ("negative" if c[0] == "-" else "positive")


# ---------------------------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class SourceSpec:
    role: str
    op: object  # the table's operand (Src, ShiftCount, SameAs, Imm)
    fp: bool
    can_be_reg: bool
    can_be_half: bool
    imm_bits: int | None  # an Imm operand: its width


def _sources(form: Form) -> list[SourceSpec]:
    out = []
    fp = form.family in FP_SOURCE_FAMILIES
    for op in form.operands:
        if isinstance(op, Src | ShiftCount | SameAs):
            half = getattr(op, "half", False) if not isinstance(op, ShiftCount) else op.slot.half
            out.append(SourceSpec(op.role, op, fp, True, half is not False, None))
        elif isinstance(op, Imm):
            out.append(SourceSpec(op.role, op, fp, False, False, op.bits))
    return out


def _op_mods(op: object) -> list[tuple[str, object]]:
    """The operand's own modifiers: (symbol, table condition)."""
    src = op.slot if isinstance(op, ShiftCount) else op
    out = []
    for attr, sym in (("neg", "-"), ("abs_", "|x|"), ("not_", "~")):
        cond = getattr(src, attr, None)
        if cond is not None:
            out.append((sym, cond))
    return out


def _matter_mods(form: Form) -> list[Mods]:
    return [m for m in form.mods if m is not MARK and m.what != "$c write" and MATTERS.search(m.what)]


def _classes(spec: SourceSpec) -> tuple[list[str], dict[str, str]]:
    """Value classes of a source (at its width: 16 for a half register, the field width for an
    immediate); no exclusions: every class is a value the field can hold."""
    return list(FP_CLASSES if spec.fp else INT_CLASSES), {}


Labels = Callable[["XSample"], list[str]]


def _point(b: _Builder, g: Group, name: str, category: str, names: list[str], labels: Labels,
           excluded: dict[str, str] | None = None, doc: str = "") -> None:  # fmt: skip
    b.point(g, name, category, names, labels, dynamic=True, excluded=excluded, doc=doc)  # type: ignore[arg-type]


def _form_group(b: _Builder, form: Form) -> None:
    g = Group(form.name, form.family, form, doc=form.doc)
    b.groups.append(g)
    if form.family == "tex" or form.name in ("TRAP", "TRAP32"):
        return  # never commits (coverage_model.py: NO_TEXTURE_UNIT, NEVER_COMMITS): no crosses to sample
    mods = _matter_mods(form)
    for spec in _sources(form):
        classes, excl = _classes(spec)
        role = spec.role
        _point(b, g, f"{role} value", "value", classes, lambda s, r=role: sorted(s.classes.get(r, ())), excl,
               doc=f"value class of {role} over the executing lanes ({'float' if spec.fp else 'integer'})")
        for sym, cond in _op_mods(spec.op):
            names = [f"{c} x {sym}" for c in classes] + [f"{c} x no {sym}" for c in classes]

            def lab(s: XSample, r: str = role, sym: str = sym, cond: Any = cond) -> list[str]:
                on = s.fields.get(cond[0]) is not None and _holds(s.fields, cond)
                return [f"{c} x {sym}" if on else f"{c} x no {sym}" for c in sorted(s.classes.get(r, ()))]
            ex = {f"{c} x {p}": why for c, why in excl.items() for p in (sym, f"no {sym}")}
            _point(b, g, f"{role} value x {sym}", "value x modifier", names, lab, ex)
        for m in mods:
            spellings = [t or "(none)" for t, _ in m.options]
            names = [f"{c} x {sp}" for c in classes for sp in spellings]

            def lab_m(s: XSample, r: str = role, m: Mods = m) -> list[str]:
                sp = m.render(s.fields) or "(none)"
                return [f"{c} x {sp}" for c in sorted(s.classes.get(r, ()))]
            ex = {f"{c} x {sp}": why for c, why in excl.items() for sp in spellings}
            _point(b, g, f"{role} value x {m.what}", "value x modifier", names, lab_m, ex)
        if spec.can_be_reg:
            _point(b, g, f"{role} RAW", "RAW", list(DISTANCES), lambda s, r=role: s.raw.get(r, []),
                   doc="distance (warp instructions) to the latest write of the register read")
            names = [a for a in ALIAS if spec.can_be_half or not a.startswith(("half", "same", "other"))]
            _point(b, g, f"{role} half alias", "half alias", names, lambda s, r=role: s.alias.get(r, []),
                   doc="how the latest write of the register and this read overlap (Rn vs RnL/RnH)")
    if any(isinstance(op, Dst) for op in form.operands):
        _point(b, g, "dst WAW", "WAW", list(DISTANCES), lambda s: s.waw, doc="distance to the latest write of the destination register")
    writes_gpr = any(isinstance(op, Dst) for op in form.operands)
    if writes_gpr and "cdst" in form.fields:
        results = list(FP_RESULTS if form.float_result else INT_RESULTS)
        names = [f"{r} x {fv}" for r in results for fv in FLAG_VALUES]
        ex: dict[str, str] = {}
        reason = NO_CARRY_OVERFLOW.get(form.family)
        if reason:
            ex.update({n: reason for n in names if n.endswith(("C=1", "O=1"))})
        if form.family == "fslct":
            ex.update(dict.fromkeys(FSLCT_SZ_EXCLUDED, FSLCT_SZ))
        elif form.float_result and form.family in NO_CARRY_OVERFLOW:
            ex.update(dict.fromkeys(FP_SZ_EXCLUDED, FP_SZ))
        elif not form.float_result:
            ex.update(dict.fromkeys(INT_SZ_EXCLUDED, INT_SZ))
            if form.family in SET_FAMILIES:
                ex.update({n: SET_RESULT for n in names if n.startswith("positive x ")})
        _point(b, g, "result x flags", "result x flags", names, lambda s: s.result_flags, ex,
               doc="result class x each flag bit written, paired lane by lane (when the $c write is enabled)")


def _holds(f: dict[str, int], cond: Any) -> bool:
    from .syntax import holds

    return holds(f, cond)


def _global_groups(b: _Builder) -> None:
    g = Group(GUARD_X, "guard", None, doc="guard conditions x the flags that make them true / false; RAW on the guard's $c")
    b.groups.append(g)
    names, ex = [], {}
    for c in range(32):
        tt = conditions.truth_table(c)
        for outcome in ("true", "false"):
            n = f"{conditions.NAMES[c]} x {outcome}"
            names.append(n)
            if outcome == "true" and tt == 0:
                ex[n] = f"{conditions.NAMES[c]} holds for no flag value (condition truth table, ISA.md 2.2)"
            if outcome == "false" and tt == 0xFFFF:
                ex[n] = f"{conditions.NAMES[c]} holds for every flag value (condition truth table, ISA.md 2.2)"
    _point(b, g, "condition x outcome", "guard", names, lambda s: s.guard, ex,
           doc="the guard's condition evaluated on the $c flags of the active lanes (known values only)")
    _point(b, g, "guard $c RAW", "RAW", list(DISTANCES), lambda s: s.guard_raw, doc="distance to the latest write of the $c register a guard reads")
    g = Group(SIMT_X, "simt", None, doc="lanes executing x SIMT stack depth x kind of the top stack entry")
    b.groups.append(g)
    names, ex = [], {}
    for lc in LANE_CLASSES:
        for d in STACK_DEPTHS:
            for k in STACK_KINDS:
                n = f"{lc} @ {d} / {k}"
                names.append(n)
                if (d == "depth 0") != (k == "empty"):
                    ex[n] = "the top entry is 'empty' exactly when the SIMT stack has no entry"
                elif lc == "all 32" and k == BRANCH:
                    ex[n] = "a divergence (BRANCH) entry holds the lanes of the other side, so the side running has fewer than 32 (ISA.md 6.3)"
    _point(b, g, "lanes x depth x top", "SIMT", names, lambda s: s.simt, ex)


@cache
def cross_model() -> Model:
    b = _Builder()
    for form in FORMS:
        _form_group(b, form)
    _global_groups(b)
    return b.model("cross coverage model")


# ---------------------------------------------------------------------------------------------
# Sampling: a shadow of each warp's registers rebuilt from the commit records


@dataclass
class WarpShadow:
    n: int = 0  # commits of this warp so far
    regs: dict[int, np.ndarray] = field(default_factory=dict)  # register -> uint32 per lane
    known: dict[int, list[int]] = field(default_factory=dict)  # register -> [lanes whose low half is known, high half]
    last: dict[int, tuple[int, str]] = field(default_factory=dict)  # register -> (commit number, "F"/"L"/"H")
    cc: dict[int, np.ndarray] = field(default_factory=dict)
    cc_known: dict[int, int] = field(default_factory=dict)
    cc_last: dict[int, int] = field(default_factory=dict)


@dataclass
class XSample:
    fields: dict[str, int]
    classes: dict[str, set[str]] = field(default_factory=dict)
    raw: dict[str, list[str]] = field(default_factory=dict)
    alias: dict[str, list[str]] = field(default_factory=dict)
    waw: list[str] = field(default_factory=list)
    result_flags: list[str] = field(default_factory=list)
    guard: list[str] = field(default_factory=list)
    guard_raw: list[str] = field(default_factory=list)
    simt: list[str] = field(default_factory=list)


def _distance(now: int, then: int | None) -> str:
    if then is None:
        return DISTANCES[3]
    d = now - then
    return DISTANCES[0] if d == 1 else DISTANCES[1] if d == 2 else DISTANCES[2]


def _lanes(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


class CrossCoverage(Coverage):
    """Counts of the cross model. `sample(commit, stack_depth, stack_top)`: as Coverage.sample,
    plus the kind of the warp's top SIMT stack entry at issue (state.BRANCH/JOINAT/BREAK/CALL, or
    None for an empty stack)."""

    FORMAT = XFORMAT
    TITLE = "Architectural crosses (golden/g80/coverage_cross.py: operand values x modifiers, hazards, result x flags, guard x flags, SIMT)"
    UCIS_INSTANCE = "sm1_isa_cross"
    SOURCE = "golden/g80/coverage_cross.py"

    def __init__(self, run: str | None = None) -> None:
        super().__init__(run)
        self._warps: dict[int, WarpShadow] = {}
        self._insns: dict[int, tuple[Instruction, dict[str, object], list[SourceSpec]]] = {}

    @classmethod
    def build_model(cls) -> Model:
        return cross_model()

    def flush(self) -> None:  # counts are added as samples arrive
        return

    def _plan(self, c: Commit) -> tuple[Instruction, dict[str, object], list[SourceSpec]]:
        got = self._insns.get(c.insn)
        if got is None:
            insn = plan_word(c.insn, c.size).insn
            got = self._insns[c.insn] = (insn, dict(insn.operands), _sources(insn.form))
        return got

    def sample(self, commit: Commit, stack_depth: int, stack_top: str | None = None) -> None:  # type: ignore[override]
        c = commit
        insn, ops, sources = self._plan(c)
        form = insn.form
        w = self._warps.setdefault(c.warp, WarpShadow())
        w.n += 1
        s = XSample(insn.fields)
        e = c.exec_mask
        for spec in sources:
            op = ops.get(spec.role)
            if isinstance(op, ImmOperand):
                # classes at the immediate's own width (whether the form sign-extends it is the form's business)
                s.classes[spec.role] = {fp_class(op.value, False) if spec.fp else int_class(op.value, spec.imm_bits or 32)}
            elif isinstance(op, RegOperand):
                reg = op.reg
                last = w.last.get(reg)
                s.raw[spec.role] = [_distance(w.n, last[0] if last else None)]
                if last is not None:
                    kind = last[1]
                    if not op.half:
                        s.alias[spec.role] = ["full after full" if kind == "F" else "full after half"]
                    elif kind == "F":
                        s.alias[spec.role] = ["half after full"]
                    else:
                        s.alias[spec.role] = ["same half after half" if kind == "LH"[op.high] else "other half after half"]
                kl, kh = w.known.get(reg, (0, 0))
                lanes = e & ((kh if op.high else kl) if op.half else kl & kh)
                if lanes:
                    vals = w.regs[reg][_lanes(lanes)]
                    if op.half:
                        vals = (vals >> 16) if op.high else (vals & 0xFFFF)
                    uniq = {int(v) for v in np.unique(vals)}
                    if spec.fp:
                        s.classes[spec.role] = {fp_class(v, op.half) for v in uniq}
                    else:
                        s.classes[spec.role] = {int_class(v, 16 if op.half else 32) for v in uniq}
        # guard: condition on the flags of the active lanes (before this instruction's writes)
        if _predicable(form) and "pcond" in insn.fields:
            code, preg = insn.fields["pcond"], insn.fields["preg"]
            s.guard_raw = [_distance(w.n, w.cc_last.get(preg))]
            lanes = c.active_mask & w.cc_known.get(preg, 0)
            if lanes:
                tt = conditions.truth_table(code)
                outs = {tt >> int(f) & 1 for f in np.unique(w.cc[preg][_lanes(lanes)])}
                s.guard = [f"{conditions.NAMES[code]} x {'true' if o else 'false'}" for o in sorted(outs, reverse=True)]
        # SIMT
        n = e.bit_count()
        lc = LANE_CLASSES[0] if n == 32 else LANE_CLASSES[3] if n == 0 else LANE_CLASSES[2] if n == 1 else LANE_CLASSES[1]
        s.simt = [f"{lc} @ {STACK_DEPTHS[min(stack_depth, 3)]} / {stack_top or 'empty'}"]
        # writes: WAW, result x flags, then the shadow
        if c.gpr:
            first = c.gpr[0]
            last = w.last.get(first.index)
            s.waw = [_distance(w.n, last[0] if last else None)]
            if c.cc and e:
                fp = form.float_result
                half = first.half is not None
                pairs = set()
                for lane in _lanes(e):
                    v, fl = int(first.values[lane]), int(c.cc[0].values[lane])
                    r = fp_result_class(v, half) if fp else int_result_class(v, 16 if half else 32)
                    pairs.update(f"{r} x {nm}={fl >> k & 1}" for k, nm in enumerate(FLAG_NAMES))
                s.result_flags = sorted(pairs)
        for rw in c.gpr:
            reg = rw.index
            old = w.regs.get(reg)
            if old is None:
                old = w.regs[reg] = np.zeros(32, np.uint32)
            sel = np.array([e >> i & 1 for i in range(32)], bool)
            vals = rw.values.astype(np.uint32)
            if rw.half == "L":
                new = (old & np.uint32(0xFFFF0000)) | (vals & np.uint32(0xFFFF))
            elif rw.half == "H":
                new = (old & np.uint32(0xFFFF)) | ((vals & np.uint32(0xFFFF)) << np.uint32(16))
            else:
                new = vals
            w.regs[reg] = np.where(sel, new, old)
            # a half write leaves the other half's value as it was (known or not)
            known = w.known.setdefault(reg, [0, 0])
            for i, part in enumerate("LH"):
                if rw.half in (None, part):
                    known[i] |= e
            w.last[reg] = (w.n, rw.half or "F")
        for rw in c.cc:
            old = w.cc.get(rw.index)
            if old is None:
                old = w.cc[rw.index] = np.zeros(32, np.uint32)
            sel = np.array([e >> i & 1 for i in range(32)], bool)
            w.cc[rw.index] = np.where(sel, rw.values.astype(np.uint32), old)
            w.cc_known[rw.index] = w.cc_known.get(rw.index, 0) | e
            w.cc_last[rw.index] = w.n
        # counts
        counts = self.counts
        for p in self.model.by_form[form.name].points:
            for name in p.labels(s):  # type: ignore[call-arg,arg-type]
                counts[p.index[name]] += 1
        for gname in ((GUARD_X,) if _predicable(form) else ()) + (SIMT_X,):
            for p in self.model.by_form[gname].points:
                for name in p.labels(s):  # type: ignore[call-arg,arg-type]
                    counts[p.index[name]] += 1
        self.samples += 1
        if c.done:
            del self._warps[c.warp]  # the warp slot's next block starts with fresh registers

