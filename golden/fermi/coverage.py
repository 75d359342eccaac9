"""Fermi's coverage, plugged into golden/coverage: the ISA bins derived from golden/fermi/table.py,
plus what only the commit records say.

From the table alone (golden/coverage/derive.py), one group per form: the form issued; each
register operand over R0, R1-R61, R62 and RZ; each predicate over P0, P1-P5, P6 and PT, and its
negation; the composite source B (and a third source C) as a register, a constant of bank 0, 1
or another, or an immediate by its corners (integer: zero, one, the extremes, minus one, other
values of each sign; float: zero, positive, negative); 32-bit immediates likewise; operand
negation, absolute value and .CC; an address's base register and its offset's sign; a branch
target backward, to the next instruction or forward; each special register S2R names; the
guard; and every modifier of the form, one bin per value the table allows. Modifiers the model
refuses (`NOT_MODELLED`) and the forms of families it does not execute are excluded, with the
reason.

From the commit records: the lanes that executed (the whole warp, some, none); a BRA taken by
every active lane, by none or divergent, and BRK, CONT, RET and EXIT taken by all, some or none
of the active lanes; a written predicate true and false in some lane; the flags a CC write set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from ..coverage import db, runs
from ..coverage.derive import Kind, derive, int_corners, sign_classes
from ..coverage.model import Builder, Fields, Group, Model
from ..errors import UserError
from . import table
from .decode import find_form
from .disasm import SREGS

FORMAT = "fermi-coverage"
# Modifier spellings the model refuses by name, by family (docs/design/fermi-model.md, "Not
# modelled"): their bins cannot be hit on the model, so they are excluded with that reason; the
# random generator (randgen/fermi.py) leaves them out for the same reason.
# fmt: off
NOT_MODELLED: dict[str, frozenset[str]] = {
    "ISETP": frozenset({"X"}), "ISET": frozenset({"X"}), "LOP": frozenset({"X"}), "SHL": frozenset({"X"}),
    "SHR": frozenset({"X", "BREV"}), "FMUL": frozenset({"D2", "D4", "D8", "M8", "M4", "M2"}), "MUFU": frozenset({"SAT"}),
}
# fmt: on
REFUSED_WHY = "the model refuses it as not modelled (docs/design/fermi-model.md, 'Not modelled')"
NOT_EXECUTED_WHY = "the model does not execute this family (golden/fermi/model.py ROUTINES)"
CATEGORIES = ("issued", "operands", "modifiers", "SIMT", "predicates", "CC")
FULL = 0xFFFFFFFF
RZ, PT = 63, 7

REG_BINS = ("R0", "R1-R61", "R62", "RZ")
BANK_BINS = ("c[0x0]", "c[0x1]", "c[0x2]-c[0x1f]")
INT_BINS = int_corners(20).bins
FLOAT_BINS = sign_classes(20).bins
THIRD_BINS = (*REG_BINS, *BANK_BINS)  # C: a register, or the constant when B is a register (sel 2); never an immediate


def _reg(v: int) -> str:
    return "RZ" if v == RZ else "R0" if v == 0 else "R62" if v == 62 else "R1-R61"


def _bank(bank: int) -> str:
    return BANK_BINS[min(bank, 2)]


def _named(bins: tuple[str, ...], fn: Callable[[int], str], doc: str) -> Kind:
    return Kind(bins, fn, doc)


# fmt: off
KINDS: dict[str, Kind] = {
    "reg": _named(REG_BINS, _reg, "R0, R62, RZ and the registers between"),
    "pred": _named(("P0", "P1-P5", "P6", "PT"), lambda v: "PT" if v == PT else "P0" if v == 0 else "P6" if v == 6 else "P1-P5",
                   "P0, P6, PT and the predicates between"),
    "flag": _named(("no", "yes"), lambda v: "yes" if v else "no", "the bit clear and set"),
    "imm32 int": int_corners(32),
    "imm32 float": sign_classes(32, "float immediate by its sign bit (zero: all bits 0)"),
    "offset24": sign_classes(24, "address offset: zero, positive, negative"),
    "offset32": sign_classes(32, "address offset: zero, positive, negative"),
    "offset20": sign_classes(20, "address offset: zero, positive, negative"),
    "offset16": sign_classes(16, "address offset: zero, positive, negative"),
    "bank": _named(BANK_BINS, _bank, "constant bank 0 (launch), 1 (stack), or another"),
    "target": _named(("backward", "next", "forward"), lambda v: "next" if v == 0 else "backward" if v < 0 else "forward",
                     "branch target relative to the next instruction"),
    "shift": _named(("0", "1-30", "31"), lambda v: "0" if v == 0 else "31" if v == 31 else "1-30", "shift count ends and between"),
    "number": _named(("zero", "other"), lambda v: "other" if v else "zero", "zero or not"),
    "cc test": _named(("CC.T", "a flag test"), lambda v: "CC.T" if v == 15 else "a flag test", "always (CC.T) or a test of the flags"),
    "third": _named(THIRD_BINS, lambda v: THIRD_BINS[v], "a register, or a constant (by bank)"),
    "sreg": _named((*(n for n, _ in SREGS.values()), "other"), lambda v: SREGS[v][0] if v in SREGS else "other",
                   "each special register with a name, and the others"),
}
# fmt: on


def _composite_kind(float_imm: bool) -> Kind:
    imm = tuple(f"imm {b}" for b in (FLOAT_BINS if float_imm else INT_BINS))
    bins = (*REG_BINS, *BANK_BINS, *imm)
    return Kind(bins, lambda v: bins[v], "a register, a constant (by bank) or an immediate (by its corners)")


def composite_class(f: Fields, imm: str, which: str) -> int:
    """The bin index (into the composite kind's bins) of operand B or C of a sample's fields."""
    sel = f.get("sel", 0)
    if which == "C":
        if sel == 2:
            return len(REG_BINS) + min(f["imm20"] >> 16, 2)
        return REG_BINS.index(_reg(f["rc"]))
    if sel == 0:
        return REG_BINS.index(_reg(f["imm20"] & 63))
    if sel == 2:
        return REG_BINS.index(_reg(f["rc"]))
    if sel == 1:
        return len(REG_BINS) + min(f["imm20"] >> 16, 2)
    v = f["imm20"]
    names = FLOAT_BINS if imm in ("f", "d") else INT_BINS
    classify = (sign_classes(20) if imm in ("f", "d") else int_corners(20)).classify
    return len(REG_BINS) + len(BANK_BINS) + names.index(classify(v))


def _mod_kind(m: table.Mod) -> Kind:
    names = {v: (s or "(none)") for v, s in m.values.items()}
    bins = tuple(dict.fromkeys(names.values()))
    return Kind(bins, lambda v: names[v], "each value the table allows")


def operands_of(form: table.Form) -> list[tuple[str, str, str]]:
    """(point, field, kind) of each operand, flag and modifier of a form; composite operands read
    the synthetic fields `B` and `C` that `sample_fields` adds."""
    out: list[tuple[str, str, str]] = []
    if form.guarded:
        out += [("guard", "guard", "pred"), ("guard negated", "gneg", "flag")]
    for o in form.operands:
        k = o.kind
        name = {"b": "B", "c": "C", "i32": "imm32"}.get(k, o.field or k)
        if k == "r":
            out.append((name, o.field, "reg"))
        elif k == "b":
            out.append((name, name, f"composite {o.imm}"))
        elif k == "c":
            out.append((name, name, "third"))
        elif k == "i32":
            out.append((name, "imm32", "imm32 float" if o.imm == "f" else "imm32 int"))
        elif k == "p":
            out.append((name, o.field, "pred"))
        elif k == "sr":
            out.append(("sr", "sr", "sreg"))
        elif k in ("g", "sl", "a"):
            off = {"g": ("goff", "offset32"), "sl": ("soff", "offset24"), "a": ("aoff", "offset20")}[k]
            out += [("[base]", "ra", "reg"), ("offset", *off)]
        elif k == "cm":
            out += [("[base]", "ra", "reg"), ("bank", "lbank", "bank"), ("offset", "loff", "offset16")]
        elif k == "t":
            out.append(("target", "target", "target"))
        elif k == "n":
            out.append((name, o.field, "shift" if o.field == "shift5" else "number"))
        elif k == "cc" and o.field:
            out.append(("CC test", o.field, "cc test"))
        for flag_field, what in ((o.neg, "inverted" if form.inv else "negated"), (o.abs, "absolute"), (o.cc, ".CC"), (o.not_, "negated")):
            if flag_field:
                out.append((f"{name} {what}", flag_field, "flag"))
    for m in form.mods:
        out.append((f"mod {m.field}", m.field, f"mod {form.name} {m.field}"))
    return out


def _kinds(forms: Sequence[table.Form]) -> dict[str, Kind]:
    kinds = dict(KINDS)
    for form in forms:
        for o in form.operands:
            if o.kind == "b":
                kinds[f"composite {o.imm}"] = _composite_kind(o.imm in ("f", "d"))
        for m in form.mods:
            kinds[f"mod {form.name} {m.field}"] = _mod_kind(m)
    return kinds


# -- what a commit record adds: one packed int ---------------------------------------------------

EXEC_BINS = ("whole warp", "some lanes", "no lane")
BRANCH_BINS = ("all active lanes", "divergent", "no lane")
EXIT_BINS = ("all active lanes", "some active lanes", "no lane")
PRED_BINS = ("true", "false")
CC_BINS = ("Z", "S", "C", "O")
_EXEC, _OUT, _PRED, _CC = (0, 2), (2, 2), (4, 2), (6, 4)
DYN_BITS = 10
TAKEN_FAMILIES = ("BRK", "CONT", "RET", "EXIT")


def _get(dyn: int, where: tuple[int, int]) -> int:
    return dyn >> where[0] & ((1 << where[1]) - 1)


def _choice(where: tuple[int, int], names: tuple[str, ...]) -> Callable[[Fields, int], list[str]]:
    def labels(f: Fields, dyn: int) -> list[str]:
        v = _get(dyn, where)
        return [names[v - 1]] if v else []

    return labels


def _bits(where: tuple[int, int], names: tuple[str, ...]) -> Callable[[Fields, int], list[str]]:
    def labels(f: Fields, dyn: int) -> list[str]:
        v = _get(dyn, where)
        return [n for i, n in enumerate(names) if v >> i & 1]

    return labels


def _add_commit_points(b: Builder, g: Group, form: table.Form) -> None:
    b.point(g, "executed", "SIMT", list(EXEC_BINS), _choice(_EXEC, EXEC_BINS), dynamic=True, doc="the lanes that executed it")
    if form.family == "BRA":
        b.point(g, "outcome", "SIMT", list(BRANCH_BINS), _choice(_OUT, BRANCH_BINS), dynamic=True,
                doc="the active lanes that took the branch: all, some (the warp diverges) or none")  # fmt: skip
    elif form.family in TAKEN_FAMILIES:
        b.point(g, "outcome", "SIMT", list(EXIT_BINS), _choice(_OUT, EXIT_BINS), dynamic=True, doc="the active lanes that left")
    if any(o.kind == "p" and o.dst for o in form.operands):
        b.point(g, "predicate written", "predicates", list(PRED_BINS), _bits(_PRED, PRED_BINS), dynamic=True,
                doc="a written predicate true in some lane, false in some lane")  # fmt: skip
    if any(o.cc for o in form.operands):
        b.point(g, "CC written", "CC", list(CC_BINS), _bits(_CC, CC_BINS), dynamic=True, doc="the flags set in some lane by a CC write")


def build(forms: Sequence[table.Form]) -> Model:
    """The model of a table's forms: one group per form, derived bins first, then the commit points."""
    from .model import ROUTINES

    b = Builder()
    for g in derive(b, forms, operands_of, _kinds(forms)):
        refused = NOT_MODELLED.get(g.family, frozenset())
        for p in g.points:  # derive files every point under "operands"; modifiers get their own column
            if p.name.startswith("mod "):
                p.category = "modifiers"
                for x in p.bins:
                    if x.name in refused:
                        x.excluded = REFUSED_WHY
        _add_commit_points(b, g, g.form)
        if g.family not in ROUTINES:
            for p in g.points:
                for x in p.bins:
                    x.excluded = NOT_EXECUTED_WHY
    return b.model("Fermi coverage model", CATEGORIES)


@cache
def model() -> Model:
    return build(table.FORMS)


def dyn_of(c: object) -> int:
    """The packed commit-side value of one record."""
    active, ex = c.active_mask, c.exec_mask  # type: ignore[attr-defined]
    dyn = (1 if ex == FULL else 3 if ex == 0 else 2) << _EXEC[0]
    # BRA, BRK, CONT, RET and EXIT: the executing lanes are those that take it
    dyn |= (1 if ex == active and active else 3 if ex == 0 else 2) << _OUT[0]
    t = f = 0
    for p in c.preds:  # type: ignore[attr-defined]
        t |= bool(p.values & p.lanes)
        f |= bool(p.lanes & ~p.values)
    dyn |= (t | f << 1) << _PRED[0]
    if c.cc is not None:  # type: ignore[attr-defined]
        lanes = c.cc.values[[i for i in range(32) if c.cc.lanes >> i & 1]]  # type: ignore[attr-defined]
        flags = 0
        for v in set(int(x) for x in lanes):
            flags |= v
        dyn |= (flags & 15) << _CC[0]
    return dyn


def sample_fields(form: table.Form, f: dict[str, int]) -> Fields:
    """The fields of a word with the synthetic composite classes B and C (bin indices)."""
    out = dict(f)
    for o in form.operands:
        if o.kind == "b":
            out["B"] = composite_class(f, o.imm, "B")
        elif o.kind == "c":
            out["C"] = composite_class(f, o.imm, "C")
    return out


class Coverage(db.Coverage):
    """Counts of Fermi's ISA bins; `sample(commit)` for each commit record."""

    FORMAT = FORMAT
    TITLE = "Fermi (sm_20) functional coverage"
    SOURCE = "golden/fermi/table.py"
    UCIS_INSTANCE = "fermi_isa"
    DESCRIPTION = ("every form, each operand's registers, predicates, constants and immediate corners, each modifier's values, the lanes "
                   "that executed, branches uniform or divergent, predicates written true and false, the CC flags written.")  # fmt: skip

    def __init__(self, run: str | None = None) -> None:
        super().__init__(run)
        self._forms: dict[int, tuple[table.Form, Fields]] = {}

    @classmethod
    def build_model(cls) -> Model:
        return model()

    def sample(self, c: object) -> None:
        word = c.insn  # type: ignore[attr-defined]
        if word not in self._forms:
            form, f = find_form(word)
            self._forms[word] = (form, sample_fields(form, f))
        key = word << DYN_BITS | dyn_of(c)
        self._raw[key] = self._raw.get(key, 0) + 1

    def hits_of(self, key: int) -> list[int]:
        form, f = self._forms[key >> DYN_BITS]
        return self.model.hits(form, f, key & ((1 << DYN_BITS) - 1))


CLASSES: tuple[type[db.Coverage], ...] = (Coverage,)


def run_program(path: str) -> tuple[Coverage, int]:
    """Assemble and run one Fermi program on the model, sampling every commit: (coverage, commits)."""
    from .loader import load, machine

    prog = load(path)
    cov = Coverage(run=Path(path).stem)
    commits = machine(prog).run(prog.max_steps)
    for c in commits:
        cov.sample(c)
    return cov, len(commits)


def coverage_runs(programs: list[str], outdir: Path, profile_name: str | None = None) -> list[tuple[str, Path, str | None]]:
    """Each program on the model with coverage into OUT/NAME.json and its log OUT/NAME.log:
    (program, log, error or None) per program, in order. Fermi has one profile (sm20)."""
    if profile_name not in (None, "sm20"):
        raise UserError(f"--profile {profile_name}: Fermi has the one profile sm20 (leave --profile out)")
    return runs.coverage_runs(programs, outdir, run_program)
