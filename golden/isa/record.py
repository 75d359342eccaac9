"""What a commit record is to the machinery: a dataclass whose fields say what they mean.

Every ISA declares its commit record (G80: golden/g80/commit.py; LG: golden/lg/commit.py) as a
dataclass whose fields are made with `recfield`. The metadata is the one description of the
record: the manual's commit-schema page, the scoreboards' choice of fields to compare and the
way a value is printed in a mismatch all read it from here, so none of them keeps a copy that
could drift from the record.

Metadata keys:

- `doc`: what the field holds (required);
- `compared`: whether a scoreboard compares it (False for identification, text for messages,
  values taken from the DUT, or what is checked at another port), with `why` saying why not;
- `width`: for an integer, the bits a mismatch prints in hex (0: printed as is).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

_MISSING: Any = dataclasses.MISSING


def recfield(doc: str, *, compared: bool = True, why: str = "", width: int = 0, default: Any = _MISSING,
             default_factory: Callable[[], Any] | Any = _MISSING) -> Any:  # fmt: skip
    """A record field with its meaning; `why` is required when the field is not compared."""
    if not compared and not why:
        raise ValueError(f"a field left out of the comparison says why ({doc!r})")
    metadata = {"doc": doc, "compared": compared, "why": why, "width": width}
    if default_factory is not _MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True)
class FieldSpec:
    """One field of a record as the docs and the scoreboards see it."""

    name: str
    type: str
    default: str  # "(required)", or the default's repr
    doc: str
    compared: bool
    why: str
    width: int


def fields_of(cls: type) -> list[FieldSpec]:
    """The fields of a record dataclass, in declaration order. A field made without `recfield`
    is a schema error: its meaning would be undocumented."""
    out = []
    for f in dataclasses.fields(cls):
        if "doc" not in f.metadata:
            raise TypeError(f"{cls.__name__}.{f.name} has no doc metadata (declare it with golden.isa.record.recfield)")
        if f.default is not dataclasses.MISSING:
            default = repr(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = repr(f.default_factory())
        else:
            default = "(required)"
        m = f.metadata
        out.append(FieldSpec(f.name, str(f.type), default, m["doc"], m.get("compared", True), m.get("why", ""), m.get("width", 0)))
    return out


def compared_fields(cls: type) -> tuple[str, ...]:
    """The names of the fields a scoreboard compares, in declaration order."""
    return tuple(f.name for f in fields_of(cls) if f.compared)


def render(cls: type, name: str, value: object) -> str:
    """A field's value as a mismatch prints it: integers in hex at the field's width, else repr."""
    width = next(f.width for f in fields_of(cls) if f.name == name)
    if width and isinstance(value, int) and not isinstance(value, bool):
        return f"0x{value:0{(width + 3) // 4}x}"
    return repr(value)


def differences(cls: type, want: object, got: object) -> list[tuple[str, str, str]]:
    """(field, expected, got) for each compared field whose values differ, rendered."""
    out = []
    for name in compared_fields(cls):
        a, b = getattr(want, name), getattr(got, name)
        if not _equal(a, b):
            out.append((name, render(cls, name, a), render(cls, name, b)))
    return out


def _equal(a: object, b: object) -> bool:
    """Equality through nested records, lists and arrays (an array compares element-wise, so its
    == has no single truth value)."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(_equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if hasattr(a, "shape") or hasattr(b, "shape"):
        return getattr(a, "shape", None) == getattr(b, "shape", None) and bool((a == b).all())  # type: ignore[union-attr]
    return bool(a == b)


@dataclass(frozen=True)
class Schema:
    """An ISA's commit record: the record class and the classes its fields hold, for the manual."""

    isa: str
    record: type
    parts: Sequence[type]  # nested record classes (register writes, stores), documented after it
    source: str  # the module declaring it, from the repository root

    def classes(self) -> list[type]:
        return [self.record, *self.parts]
