"""The structure of a coverage model, the same for every instruction set (DESIGN.md 7).

A model is groups (one per form of an ISA's table, plus global groups such as a guard unit) of
points, each with its bins. A point says which of its bins one sample hits (`labels`: the
instruction's fields and what the commit record adds, the ISA's "dyn" value), in which category
of the reports' heat map it sits, and whether it needs the commit record. Bins that cannot be hit
carry the reason (`Bin.excluded`); they are shown, never silently absent.

An ISA derives its model from its table with a `Builder` (golden/g80/coverage.py,
golden/lg/coverage.py); `derive` (golden/coverage/derive.py) gives the points that follow from a
table's fields and operand kinds alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Fields = dict[str, int]
Labeler = Callable[[Fields, Any], list[str]]  # (instruction fields, the ISA's commit-side value) -> bin names hit


@dataclass
class Bin:
    index: int
    group: str  # form name, or a global group
    point: str
    name: str
    excluded: str | None = None  # why the bin cannot be hit

    @property
    def key(self) -> str:
        return f"{self.group}/{self.point}/{self.name}"


@dataclass
class Point:
    group: str
    name: str
    category: str  # a column of the heat map: see Model.categories
    bins: list[Bin]
    labels: Labeler  # bin names one sample hits (fields of the instruction, commit record)
    dynamic: bool  # needs the commit record (else a function of the instruction word alone)
    doc: str = ""
    index: dict[str, int] = field(init=False)  # bin name -> Bin.index

    def __post_init__(self) -> None:
        self.index = {b.name: b.index for b in self.bins}


@dataclass
class Group:
    name: str
    family: str
    form: Any  # the table's form (golden.isa.form.FormBase) of a form group; None for a global group
    points: list[Point] = field(default_factory=list)
    doc: str = ""


def _no_globals(form: Any) -> list[str]:
    return []


@dataclass
class Model:
    groups: list[Group]
    bins: list[Bin]
    by_key: dict[str, Bin]
    by_form: dict[str, Group]
    categories: Sequence[str] = ()  # the heat map's columns, in order
    globals_for: Callable[[Any], list[str]] = _no_globals  # form -> the global groups its samples also hit

    @property
    def families(self) -> list[str]:
        return sorted({g.family for g in self.groups})

    def form_points(self, form_name: str) -> list[Point]:
        return self.by_form[form_name].points

    def hits(self, form: Any, fields: Fields, dyn: Any) -> list[int]:
        """Bin indices one sample hits: the form's points and the global ones that apply."""
        out = []
        for p in self.by_form[form.name].points:
            out.extend(p.index[n] for n in p.labels(fields, dyn))
        for group in self.globals_for(form):
            out.extend(self._global(group, fields, dyn))
        return out

    def _global(self, group: str, fields: Fields, dyn: Any) -> list[int]:
        return [p.index[n] for p in self.by_form[group].points for n in p.labels(fields, dyn)]

    def points(self) -> list[Point]:
        return [p for g in self.groups for p in g.points]


class Builder:
    """Collects groups, points and bins, numbering the bins as they come."""

    def __init__(self) -> None:
        self.bins: list[Bin] = []
        self.groups: list[Group] = []

    def point(self, group: Group, name: str, category: str, names: list[str], labels: Labeler, dynamic: bool = False,
              excluded: dict[str, str] | None = None, doc: str = "") -> None:  # fmt: skip
        if any(p.name == name for p in group.points):
            raise ValueError(f"coverage model: {group.name} has two points named {name!r}")
        if len(set(names)) != len(names):
            raise ValueError(f"coverage model: {group.name}/{name} has duplicate bins {names}")
        excluded = excluded or {}
        unknown = set(excluded) - set(names)
        if unknown:
            raise ValueError(f"coverage model: {group.name}/{name}: exclusions for unknown bins {sorted(unknown)}")
        bins = []
        for n in names:
            b = Bin(len(self.bins), group.name, name, n, excluded.get(n))
            self.bins.append(b)
            bins.append(b)
        group.points.append(Point(group.name, name, category, bins, labels, dynamic, doc))

    def model(self, what: str, categories: Sequence[str] = (), globals_for: Callable[[Any], list[str]] = _no_globals) -> Model:
        """The finished model; `what` names it in the error for a bin key defined twice."""
        by_key = {x.key: x for x in self.bins}
        if len(by_key) != len(self.bins):
            raise ValueError(f"{what}: duplicate bin keys")
        return Model(self.groups, self.bins, by_key, {g.name: g for g in self.groups}, categories, globals_for)


_Builder = Builder  # the name the G80 models were written against
