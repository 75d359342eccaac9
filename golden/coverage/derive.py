"""Coverage points that follow from an encoding table alone, for any ISA.

An ISA says, for each of its operand kinds, how a field's values fall into bins (`Kind`: every
register, or the corners of an immediate), and which operands a form has (`operands_of`: (point
name, field, kind) triples). `derive` then makes one group per form of the table with a point
"issued" (the form was seen at all) and a point per operand, each labelling a sample from the
instruction's fields. The ISA adds its own points (what its commit records say) to the groups
`derive` returns; golden/lg/coverage.py is the example.

The helpers below give the usual kinds: each value of a small field (`each_value`), the ends and
the middle of a register file (`ends_and_middle`), and the corners of a two's-complement
immediate (`int_corners`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .model import Builder, Fields, Group

ISSUED = "issued"  # the point every form group has: one bin, hit by every sample of the form


@dataclass(frozen=True)
class Kind:
    """How the values of an operand field fall into bins."""

    bins: tuple[str, ...]
    classify: Callable[[int], str]  # field value -> its bin (one of `bins`)
    doc: str = ""
    excluded: Mapping[str, str] = field(default_factory=dict)  # bin -> why it cannot be hit


def each_value(prefix: str, count: int, doc: str = "") -> Kind:
    """One bin per value 0..count-1, named prefix + value (r0..r15, 0..3)."""
    names = tuple(f"{prefix}{v}" for v in range(count))
    return Kind(names, lambda v: names[v], doc or f"each value 0-{count - 1}")


def ends_and_middle(prefix: str, count: int, doc: str = "") -> Kind:
    """The first and last values of a register file and one bin for everything between."""
    first, last, middle = f"{prefix}0", f"{prefix}{count - 1}", f"{prefix}1-{prefix}{count - 2}"
    return Kind((first, middle, last), lambda v: first if v == 0 else last if v == count - 1 else middle,
                doc or f"{first}, {last} and the registers between")  # fmt: skip


def int_corners(bits: int, doc: str = "") -> Kind:
    """A two's-complement field: zero, one, the extremes, minus one, and other values of each sign."""
    top = 1 << bits
    corners = {0: "zero", 1: "one", (1 << (bits - 1)) - 1: "max positive", 1 << (bits - 1): "min negative", top - 1: "minus one"}

    def classify(v: int) -> str:
        v &= top - 1
        return corners.get(v) or ("other negative" if v >> (bits - 1) else "other positive")

    names = ("zero", "one", "other positive", "max positive", "minus one", "other negative", "min negative")
    return Kind(names, classify, doc or f"corners of a {bits}-bit two's-complement value")


def sign_classes(bits: int, doc: str = "") -> Kind:
    """A value by its sign bit, with zero (+0 and, for floats, -0 as the sign says) apart."""
    sign = 1 << (bits - 1)

    def classify(v: int) -> str:
        return "zero" if v & (sign - 1) == 0 and not v & sign else "negative" if v & sign else "positive"

    return Kind(("zero", "positive", "negative"), classify, doc or "zero, positive and negative (by the sign bit)")


def _operand_labels(name: str, kind: Kind) -> Callable[[Fields, Any], list[str]]:
    classify = kind.classify

    def labels(f: Fields, dyn: Any) -> list[str]:
        return [classify(f[name])]

    return labels


def derive(b: Builder, forms: Iterable[Any], operands_of: Callable[[Any], Sequence[tuple[str, str, str]]],
           kinds: Mapping[str, Kind], category: str = "operands") -> list[Group]:  # fmt: skip
    """One group per form (in table order): the point ISSUED, then a point per operand, named as
    `operands_of` names it, with the bins of its kind. A kind the ISA did not describe is an
    error, so a new operand kind cannot go uncovered silently."""
    groups = []
    for form in forms:
        g = Group(form.name, form.family, form, doc=form.doc)
        b.groups.append(g)
        b.point(g, ISSUED, ISSUED, [ISSUED], lambda f, d: [ISSUED], doc="the form was seen")
        for point, name, kind_name in operands_of(form):
            kind = kinds.get(kind_name)
            if kind is None:
                raise ValueError(f"coverage model: {form.name}: no bins for operand kind {kind_name!r} (describe it in the ISA's kinds)")
            b.point(g, point, category, list(kind.bins), _operand_labels(name, kind), excluded=dict(kind.excluded), doc=kind.doc)
        groups.append(g)
    return groups
