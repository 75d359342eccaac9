"""Semantic profiles, ISA-independent: a frozen dataclass of named switches.

Wherever an ISA's sources disagree (silicon against a re-implementation, a seed against a
course's simulator), its model takes a named switch, and a profile is one set of their values.
Each switch carries its meaning as field metadata (its group, what it does and, where the ISA
cites one, the source of its values), so the manual's tables and the reports read them from the
dataclass instead of from comments that could drift. An ISA's profile class derives from
`ProfileBase` and declares its switches with `switch`; its first instance, every switch at its
default, is the one the others are described against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field, fields
from typing import Any

from golden.errors import BadSetting


def switch(default: Any, group: str, doc: str, src: str = "") -> Any:
    """A switch: its default value, its group, what it means and the source of its values."""
    return field(default=default, metadata={"group": group, "doc": doc, "src": src})


class ProfileBase:
    """What every ISA's profile dataclass shares: `name` and the switches' documentation."""

    name: str
    TITLE = "profile"  # how an error names the profile's ISA ("LG profile", "Fermi profile")

    @classmethod
    def switch_doc(cls, name: str) -> tuple[str, str, str]:
        """(group, meaning, source) of switch `name`; the source is empty where the ISA cites none."""
        meta = cls.__dataclass_fields__[name].metadata  # type: ignore[attr-defined]
        return meta["group"], meta["doc"], meta.get("src", "")

    @classmethod
    def switches(cls) -> list[str]:
        return [f.name for f in fields(cls) if f.name != "name"]  # type: ignore[arg-type]

    def describe(self) -> list[str]:
        """The switches that differ from the defaults, for reports."""
        base = type(self)()
        return [n for n in self.switches() if getattr(self, n) != getattr(base, n)]

    def check_choices(self, allowed: Mapping[str, Sequence[Any]]) -> None:
        """A BadSetting naming the first switch whose value is not one of those `allowed` for it."""
        for name, values in allowed.items():
            if getattr(self, name) not in values:
                raise BadSetting(f"{self.TITLE} {self.name}: {name} = {getattr(self, name)!r} is not one of {tuple(values)} (choose one of them)")
