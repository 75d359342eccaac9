"""G80's coverage model: coverpoints and bins derived from its encoding table (DESIGN.md 7), on the
model structure of golden/coverage/model.py.

For every form of `golden.g80.table.FORMS` the points come from what the form declares:

- each modifier group (`Mods`) is a point with one bin per spelling (widths, signedness,
  saturation, rounding, operation, carry, types, ...); the join/exit marker and the `$c` write
  groups become the universal points `marker` and `$c write`, present on every form;
- each operand is a point with one bin per operand kind its spec allows (register, half register
  low/high, `o[0x7f]`, shared / constant memory direct, with `$a`, with post-increment,
  immediate), plus points for its modifiers (`-`, `|x|`, `~`), shared access size, named
  registers, compare conditions, keywords;
- the guard: which `$c` register guards it; the full condition x register cross is one global
  point (the guard unit is shared by every predicable form);
- from the commit record: lanes executing (all 32 / some / none), result classes of the
  register written (zero, negative, positive; for floats also infinity and NaN), each flag bit
  set and clear, and for control forms the outcome (taken, divergent, not taken) x SIMT stack depth.

Bins that cannot be hit carry the reason (`Bin.excluded`); they are shown, never silently absent.
A few crosses that matter (conversion destination x source type) are listed in CROSSES.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..coverage.model import Group, Labeler, Model, _Builder
from . import conditions
from .form import CTRL, LONG, SCTRL, Form
from .memsyntax import CONST_SIZES, ConstLoad, DataReg, GlobalMem, LocalMem, SharedStore, StoreSource
from .syntax import SHARED_MODES, Custom, Dst, Fields, Imm, Keyword, Mods, Named, OptImm, Src, Target, holds, is_half
from .syntax import CondOperand as CondOp
from .table import FORMS, MARK, SameAs, ShiftCount

# ---------------------------------------------------------------------------------------------
# What a commit record adds to the instruction's fields (packed into one int by coverage_sample.py)

LANES = ("all 32", "some", "none")
OUTCOME = ("all active", "some active", "none")
BRANCH_OUTCOME = ("taken", "divergent", "not taken")
DEPTHS = ("depth 0", "depth 1", "depth 2+")
INT_RESULTS = ("zero", "negative", "positive")
FP_RESULTS = ("zero", "negative", "positive", "inf", "NaN")
FLAG_NAMES = ("Z", "S", "C", "O")  # bit 0..3 of a $c nibble (ISA.md 2.1)
FLAG_BINS = tuple(f"{n}={v}" for n in FLAG_NAMES for v in (1, 0))

# result class bits (coverage_sample.py sets them)
R_ZERO, R_NEG, R_POS, R_INF, R_NAN = 1, 2, 4, 8, 16
RESULT_BITS = {"zero": R_ZERO, "negative": R_NEG, "positive": R_POS, "inf": R_INF, "NaN": R_NAN}


@dataclass(frozen=True)
class Dyn:
    """The commit-record side of a sample (see coverage_sample.py for how it is measured)."""

    lanes: int  # index into LANES: exec mask vs all 32 lanes
    active_lanes: int  # index into LANES: active mask vs all 32 lanes
    outcome: int  # index into OUTCOME: exec mask vs active mask
    depth: int  # index into DEPTHS: SIMT stack entries when the instruction issued
    result: int  # R_* bits present among the executing lanes
    flags: int  # bits 0-3: flag set in some lane; bits 4-7: flag clear in some lane
    backward: bool  # branch/call target at or before the instruction

    @staticmethod
    def unpack(key: int) -> Dyn:
        return Dyn(key & 3, key >> 2 & 3, key >> 4 & 3, key >> 6 & 3, key >> 8 & 31, key >> 13 & 255, bool(key >> 21 & 1))


DYN_BITS = 22  # width of a packed Dyn


def pack_dyn(lanes: int, active_lanes: int, outcome: int, depth: int, result: int, flags: int, backward: bool) -> int:
    return lanes | active_lanes << 2 | outcome << 4 | depth << 6 | result << 8 | flags << 13 | int(backward) << 21


CATEGORIES = ("operands", "modifiers", "guard", "$c write", "marker", "result", "flags", "SIMT")
GUARD_GROUP, SIMT_GROUP = "GUARD", "SIMT"

# ---------------------------------------------------------------------------------------------
# Semantic facts used for exclusions (with the reference that states them)

NO_CARRY_OVERFLOW = {  # families whose $c write has C = O = 0
    "imul": "IMUL flags: C = O = 0 (ISA.md 3.2)",
    "iset": "ISET flags: true -> S, false -> Z, C = O = 0 (ISA.md 3.5)",
    "iminmax": "IMIN/IMAX flags: C = O = 0 (ISA.md 3.6)",
    "lop": "LOP flags: C = O = 0 (ISA.md 3.8)",
    "i2i": "I2I flags: C = O = 0 (ISA.md 3.9)",
    "f2i": "F2I flags: S/Z from the integer, C = O = 0 (ISA.md 4.1, 4.3)",
    **{f.family: "flags of an FP-unit result: C = O = 0 (ISA.md 4.1)" for f in FORMS if f.unit == "fp" and f.family != "f2i"},
}
RESULT_EXCLUDED: dict[str, dict[str, str]] = {  # form -> result bin -> reason
    "C2R": {"negative": "C2R returns the 4-bit flags nibble zero-extended (ISA.md 2.1)"},
    "A2R": {"negative": "$a registers are 16 bits, read zero-extended (ISA.md 7.1)"},
    "S2R": {"negative": "special registers: physid < 2^24, the clock counts from 0, the others read 0 (ISA.md 7.1)"},
    "ISET": {"positive": "ISET writes all-ones (true) or 0 (false) (ISA.md 3.5)"},
    "FSET": {"positive": "FSET writes all-ones (true) or 0 (false) (ISA.md 4.2)"},
    "I2F": {"NaN": "an integer converts to a number, never NaN (ISA.md 4.3)"},
    "SIN": {"inf": "|sin x| <= 1 (ISA.md 5)"},
    "COS": {"inf": "|cos x| <= 1 (ISA.md 5)"},
    "EX2": {"negative": "2^x is never negative (ISA.md 5)"},
    "RSQ": {"negative": "rsqrt of a negative number is NaN and of -0 is -inf (ISA.md 5)"},
}
NOT_PREDICABLE = "not predicable (ISA.md 6.1): the condition field is ignored"
NO_GUARD = "no guard field: 32-bit and immediate forms are not predicable (ISA.md 1.1)"
NEVER_COMMITS = "TRAP ends the program with an error (ISA.md 6.1): it never commits"
NO_MARKER = "only 64-bit normal instructions carry a join/exit marker (ISA.md 1.2)"
NO_CW = "the form has no $c write field in the encoding table (control, 32-bit and immediate forms, moves, SFU: ISA.md 1.3)"
JOIN_EMPTY = "a join with an empty SIMT stack is an error under g80 (docs/design/architecture.md, 'Semantics: one model, two profiles')"
BRK_EMPTY = ("BRK needs a PBK entry on the stack: at depth 0 it is an error under g80 "
             "(docs/design/architecture.md, 'Semantics: one model, two profiles')")
NO_TEXTURE_UNIT = ("texture instructions are decoded but not executed: neither the model nor the RTL has a texture unit, "
                   "so a TEX is reported as not implemented and never commits (docs/reference/assembly.md, 'Formats')")
JUMPS = frozenset({"BRA", "CAL"})  # forms whose target is where the warp goes (SSY/PBK only push it)

# Crosses of two modifier groups of one form, where the pair selects a distinct datapath.
CROSSES: dict[str, list[tuple[str, str]]] = {
    "I2I": [("destination type", "source type")],
    "I2F": [("destination type", "source type")],
    "F2I": [("destination type", "source type")],
    "F2F": [("destination type", "source type")],
}


# ---------------------------------------------------------------------------------------------
# Building


def _mods_label(group: Mods) -> Callable[[Fields], str]:
    def label(f: Fields) -> str:
        text = group.render(f)
        return text if text else "(none)"

    return label


def _mods_names(group: Mods) -> list[str]:
    return [text or "(none)" for text, _ in group.options]


def _reg_kinds(half: object) -> list[str]:
    if half is True:
        return ["RnL", "RnH"]
    if half is False:
        return ["R"]
    return ["R", "RnL", "RnH"]


def _reg_label(value: int, half: bool) -> str:
    return ("RnH" if value & 1 else "RnL") if half else "R"


def _addr_label(prefix: str, areg: int, postinc: int) -> str:
    return f"{prefix}[An++x]" if postinc else f"{prefix}[An+x]" if areg else f"{prefix}[x]"


def _addr_kinds(prefix: str) -> list[str]:
    return [f"{prefix}[x]", f"{prefix}[An+x]", f"{prefix}[An++x]"]


def _src_kind(op: Src, f: Fields) -> str:
    if op._is_mem(f):
        space, areg, postinc, _, _ = op._mem_parts(f)
        return _addr_label("g" if space == "g" else "c", areg, postinc)
    return _reg_label(f[op.reg_field], is_half(f, op.half))


def _src_kinds(op: Src) -> list[str]:
    kinds = _reg_kinds(op.half)
    if op.shared:
        kinds += _addr_kinds("g")
    if op.const:
        kinds += _addr_kinds("c")
    return kinds


def _static(fn: Callable[[Fields], str | None]) -> Labeler:
    def labels(f: Fields, d: Dyn) -> list[str]:
        got = fn(f)
        return [] if got is None else [got]

    return labels


def _yes_no(cond: object) -> Callable[[Fields], str]:
    return lambda f: "yes" if holds(f, cond) else "no"  # type: ignore[arg-type]


def _operand_points(b: _Builder, g: Group, op: object) -> None:
    role = getattr(op, "role", "") or "operand"
    mods = []
    if isinstance(op, Dst):
        kinds = _reg_kinds(op.half) + (["o[0x7f]"] if op.allow_o else [])
        if len(kinds) > 1:
            def dst_label(f: Fields, op: Dst = op) -> str:
                if op.allow_o and f.get("dst_o"):
                    return "o[0x7f]"
                return _reg_label(f[op.name], is_half(f, op.half))
            b.point(g, role, "operands", kinds, _static(dst_label), doc="destination kind")
    elif isinstance(op, ShiftCount):
        kinds = [*_src_kinds(op.slot), "imm"]
        b.point(g, role, "operands", kinds, _static(lambda f, op=op: "imm" if f["shimm"] else _src_kind(op.slot, f)), doc="shift count kind")
        mods.append((op.slot, "shift count"))
    elif isinstance(op, Src):
        kinds = _src_kinds(op)
        if len(kinds) > 1:
            b.point(g, role, "operands", kinds, _static(lambda f, op=op: _src_kind(op, f)), doc="source kind")
        mods.append((op, role))
    elif isinstance(op, OptImm):
        b.point(g, role, "operands", ["0 (omitted)", "1-15"], _static(lambda f, op=op: "0 (omitted)" if f[op.name] == 0 else "1-15"))
    elif isinstance(op, Imm):
        if op.neg is not None:
            b.point(g, f"{role} -", "modifiers", ["no", "yes"], _static(_yes_no(op.neg)), doc="negated immediate")
    elif isinstance(op, SameAs):
        if op.neg is not None:
            b.point(g, f"{role} -", "modifiers", ["no", "yes"], _static(_yes_no(op.neg)), doc="negated operand")
    elif isinstance(op, CondOp):
        names = [conditions.NAMES[c] for c in range(1 << op.bits)]
        b.point(g, role, "modifiers", names, _static(lambda f, op=op: conditions.NAMES[f[op.name]]), doc="compare condition")
    elif isinstance(op, Keyword):
        b.point(g, role, "modifiers", list(op.words.values()), _static(lambda f, op=op: op.words[f[op.name]]))
    elif isinstance(op, Named):
        names = [f"{op.prefix}{i}" for i in range(op.limit + 1)]
        b.point(g, role, "operands", names, _static(lambda f, op=op: f"{op.prefix}{f[op.name]}"))
    elif isinstance(op, Target):
        if g.name in JUMPS:
            b.point(g, "direction", "operands", ["forward", "backward"],
                    lambda f, d: ["backward" if d.backward else "forward"], dynamic=True, doc="target after / at or before the instruction")  # fmt: skip
    elif isinstance(op, LocalMem | SharedStore):
        prefix = "local" if isinstance(op, LocalMem) else "g"
        b.point(g, role, "operands", _addr_kinds(prefix), _static(lambda f, p=prefix: _addr_label(p, f["areg"], f["postinc"])), doc="addressing")
    elif isinstance(op, ConstLoad):
        b.point(g, role, "operands", _addr_kinds("c"), _static(lambda f: _addr_label("c", f["areg"], f["postinc"])), doc="addressing")
        sizes = [CONST_SIZES[k][1] or "32-bit" for k in sorted(CONST_SIZES)]
        b.point(g, f"{role} size", "modifiers", sizes, _static(lambda f: CONST_SIZES[f["csize"]][1] or "32-bit"))
    elif isinstance(op, StoreSource):
        b.point(g, role, "operands", ["R", "RnL", "RnH"], _static(lambda f: _reg_label(f["src3"], not f["stfull"])))
    elif isinstance(op, Custom) and "bar_all" in op.names:
        b.point(g, role, "operands", ["count", "ALL"], _static(lambda f: "ALL" if f["bar_all"] else "count"))
    elif not isinstance(op, DataReg | GlobalMem):  # those have one kind: a register (their sizes are modifiers)
        raise ValueError(f"coverage model: {g.name}: no coverpoint rule for operand {type(op).__name__} (add one)")
    for src, name in mods:
        for cond, sym in ((src.neg, "-"), (src.abs_, "|x|"), (src.not_, "~")):
            if cond is not None:
                b.point(g, f"{name} {sym}", "modifiers", ["no", "yes"], _static(_yes_no(cond)), doc=f"operand modifier {sym}")
        if src.shared:
            sizes = [SHARED_MODES[m][1] or "32-bit" for m in sorted(SHARED_MODES)]

            def shared_size(f: Fields, src: Src = src) -> str | None:
                return (src._mem_parts(f)[4] or "32-bit") if src._is_mem(f) else None
            b.point(g, f"{name} g[] size", "modifiers", sizes, _static(shared_size), doc="shared access size (when shared)")


def _predicable(form: Form) -> bool:
    return form.guard != "none" and not (form.fmt == CTRL and form.guard_default == conditions.NEVER)


def _form_group(b: _Builder, form: Form) -> Group:
    g = Group(form.name, form.family, form, doc=form.doc)
    b.groups.append(g)
    trap = form.name in ("TRAP", "TRAP32")

    def all_excluded(names: list[str]) -> dict[str, str]:
        return dict.fromkeys(names, NEVER_COMMITS) if trap else {}

    # -- SIMT: lanes executing (non-predicable control forms: lanes active) -----------------------
    predicable = _predicable(form)
    if form.fmt == CTRL and not predicable:
        ex = {"none": NOT_PREDICABLE + "; a warp issues only with active lanes"}
        b.point(g, "lanes", "SIMT", list(LANES), lambda f, d: [LANES[d.active_lanes]], dynamic=True,
                excluded={**ex, **all_excluded(list(LANES))}, doc="lanes active (the instruction ignores its guard)")  # fmt: skip
    else:
        ex = {} if predicable else {"none": NO_GUARD + "; a warp issues only with active lanes"}
        b.point(g, "lanes", "SIMT", list(LANES), lambda f, d: [LANES[d.lanes]], dynamic=True,
                excluded={**ex, **all_excluded(list(LANES))}, doc="lanes executing (active and guard true)")  # fmt: skip

    # -- guard register --------------------------------------------------------------------
    names = ["(none)", "C0", "C1", "C2", "C3"]
    if predicable:
        def guard_label(f: Fields, form: Form = form) -> str:
            return "(none)" if form._guard_text(f) == "" else f"C{f['preg']}"
        b.point(g, "guard", "guard", names, _static(guard_label), doc="the $c register of a printed guard")
    else:
        reason = NEVER_COMMITS if trap else NOT_PREDICABLE if form.fmt == CTRL else NO_GUARD
        b.point(g, "guard", "guard", names, _static(lambda f: "(none)"), excluded={**dict.fromkeys(names[1:], reason), **all_excluded(names)})

    # -- $c write --------------------------------------------------------------------------
    cw_group = next((m for m in form.mods if m.what == "$c write"), None)
    names = ["(none)", "C0", "C1", "C2", "C3"]
    if cw_group is not None:
        b.point(g, "$c write", "$c write", names, _static(lambda f: f"C{f['cdst']}" if f["cwe"] else "(none)"))
    elif "cdst" in form.fields:  # R2C: always writes the named $c register
        b.point(g, "$c write", "$c write", names, _static(lambda f: f"C{f['cdst']}"),
                excluded={"(none)": "R2C always writes its $c register; the write-enable bit is ignored (ISA.md 2.1)"})  # fmt: skip
    else:
        reason = NEVER_COMMITS if trap else NO_CW
        b.point(g, "$c write", "$c write", names, _static(lambda f: "(none)"), excluded={**dict.fromkeys(names[1:], reason), **all_excluded(names)})

    # -- join/exit marker ---------------------------------------------------------------------
    names = _mods_names(MARK)
    if form.fmt == LONG:
        b.point(g, "marker", "marker", names, _static(_mods_label(MARK)))
    else:
        reason = NEVER_COMMITS if trap else NO_MARKER
        b.point(g, "marker", "marker", names, _static(lambda f: "(none)"), excluded={**{n: reason for n in names if n != "(none)"}, **all_excluded(names)})

    # -- modifier groups ----------------------------------------------------------------------
    by_what: dict[str, Mods] = {}
    for m in form.mods:
        if m is MARK or m.what == "$c write":
            continue
        by_what[m.what] = m
        b.point(g, m.what, "modifiers", _mods_names(m), _static(_mods_label(m)), excluded=all_excluded(_mods_names(m)))
    for a, c in CROSSES.get(form.name, []):
        ga, gc = by_what[a], by_what[c]
        names = [f"{x} x {y}" for x in _mods_names(ga) for y in _mods_names(gc)]
        la, lc = _mods_label(ga), _mods_label(gc)
        b.point(g, f"{a} x {c}", "modifiers", names, _static(lambda f, la=la, lc=lc: f"{la(f)} x {lc(f)}"))

    if form.family == "tex":
        # Not reachable on this SM: the form's universal and modifier points are kept (so the
        # report lists them) with every bin excluded; its operands get no points.
        for p in g.points:
            for bn in p.bins:
                bn.excluded = bn.excluded or NO_TEXTURE_UNIT
        return g

    # -- operands ---------------------------------------------------------------------------
    for op in form.operands:
        _operand_points(b, g, op)

    # -- result classes and flags -----------------------------------------------------------------
    writes_gpr = any(isinstance(op, Dst) for op in form.operands) or form.family in ("gld", "lld")
    if writes_gpr:
        fp = form.float_result
        names = list(FP_RESULTS if fp else INT_RESULTS)
        b.point(g, "result", "result", names, lambda f, d, names=names: [n for n in names if d.result & RESULT_BITS[n]], dynamic=True,
                excluded=RESULT_EXCLUDED.get(form.name), doc="class of the register written, over the executing lanes")  # fmt: skip
    if "cdst" in form.fields:
        reason = NO_CARRY_OVERFLOW.get(form.family)
        ex = {"C=1": reason, "O=1": reason} if reason else {}
        b.point(g, "flags", "flags", list(FLAG_BINS), _flag_labels, dynamic=True, excluded=ex,
                doc="each flag bit of the $c written, set in some lane / clear in some lane")  # fmt: skip

    # -- control: outcome x stack depth ---------------------------------------------------------
    if form.fmt in (CTRL, SCTRL):
        if predicable:
            outs = BRANCH_OUTCOME if form.name == "BRA" else OUTCOME
            names = [f"{o} @ {dd}" for o in outs for dd in DEPTHS]
            ex = {n: BRK_EMPTY for n in names if form.name == "BRK" and n.endswith(DEPTHS[0])}
            b.point(g, "outcome x depth", "SIMT", names, lambda f, d, outs=outs: [f"{outs[d.outcome]} @ {DEPTHS[d.depth]}"], dynamic=True,
                    excluded=ex, doc="lanes of the active mask that act, x SIMT stack entries at issue")  # fmt: skip
        else:
            b.point(g, "depth", "SIMT", list(DEPTHS), lambda f, d: [DEPTHS[d.depth]], dynamic=True, excluded=all_excluded(list(DEPTHS)),
                    doc="SIMT stack entries at issue")  # fmt: skip
    return g


def _flag_labels(f: Fields, d: Dyn) -> list[str]:
    out = []
    for i, n in enumerate(FLAG_NAMES):
        if d.flags >> i & 1:
            out.append(f"{n}=1")
        if d.flags >> (i + 4) & 1:
            out.append(f"{n}=0")
    return out


def _global_groups(b: _Builder) -> None:
    g = Group(GUARD_GROUP, "guard", None, doc="the guard unit: every condition code with every $c register, over all predicable forms")
    b.groups.append(g)
    names = [f"{conditions.NAMES[c]} x C{r}" for c in range(32) for r in range(4)]
    b.point(g, "condition x register", "guard", names, lambda f, d: [f"{conditions.NAMES[f['pcond']]} x C{f['preg']}"])
    g = Group(SIMT_GROUP, "simt", None, doc="join/exit markers at each SIMT stack depth")
    b.groups.append(g)
    names = [f"{m} @ {dd}" for m in (".S", ".E") for dd in DEPTHS]
    b.point(g, "marker x depth", "SIMT", names, _marker_depth, dynamic=True, excluded={f".S @ {DEPTHS[0]}": JOIN_EMPTY})


def _marker_depth(f: Fields, d: Dyn) -> list[str]:
    m = f.get("marker", 0)
    return [f"{'.E' if m == 1 else '.S'} @ {DEPTHS[d.depth]}"] if m in (1, 2) else []


def _globals_for(form: Form) -> list[str]:
    """The global groups whose points a sample of `form` also hits: the guard unit for predicable
    forms, the SIMT stack for 64-bit normal ones."""
    return ([GUARD_GROUP] if _predicable(form) else []) + ([SIMT_GROUP] if form.fmt == LONG else [])


@cache
def model() -> Model:
    b = _Builder()
    for form in FORMS:
        _form_group(b, form)
    _global_groups(b)
    return b.model("coverage model", CATEGORIES, _globals_for)
