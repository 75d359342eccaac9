"""Decoding over a table of forms: which form a word is, and why a word is no form.

An ISA groups its forms by whatever its words say first about their shape (G80: the format bits;
LG: nothing, one group), and within a group a word belongs to the one form whose identifying
fields match. The decoder finds that form, the bits of a word that no field of it owns, and, for
a word that matches nothing, the nearest form and the identifying fields that differ, so that an
ISA's error message can name them. Messages are the ISA's: this module returns facts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .form import FormBase

F = TypeVar("F", bound=FormBase)


@dataclass(frozen=True)
class Nearest(Generic[F]):
    """The form a word comes closest to: the identifying fields it gets wrong, with the word's
    values and the form's."""

    form: F
    wrong: tuple[tuple[str, int, int], ...]  # (field, value in the word, value the form wants)


class Decoder(Generic[F]):
    """Forms grouped by a key; `match(word, key)` finds a word's form in its group."""

    def __init__(self, forms: Iterable[F], key: Callable[[F], Hashable] = lambda form: None) -> None:
        self.groups: dict[Hashable, list[F]] = {}
        for form in forms:
            self.groups.setdefault(key(form), []).append(form)

    def forms(self, key: Hashable = None) -> Sequence[F]:
        return self.groups.get(key, [])

    def match(self, word: int, key: Hashable = None) -> F | None:
        """The form whose identifying fields `word` has, or None. Two such forms are a broken table."""
        found = [form for form in self.groups.get(key, []) if form.matches(word)]
        if len(found) > 1:
            names = ", ".join(form.name for form in found)
            raise AssertionError(f"encoding table is ambiguous for {word:#x}: {names}")
        return found[0] if found else None

    def nearest(self, word: int, key: Hashable = None, must_match: Sequence[str] = ()) -> Nearest[F] | None:
        """The form of the group with the fewest wrong identifying fields, among those whose
        `must_match` fields (an opcode, say) all agree with the word; None when none agree."""
        best: Nearest[F] | None = None
        for form in self.groups.get(key, []):
            wrong = tuple((n, form.fields[n].extract(word), v) for n, v in form.fixed.items() if form.fields[n].extract(word) != v)
            if any(n in must_match for n, _, _ in wrong):
                continue
            if best is None or len(wrong) < len(best.wrong):
                best = Nearest(form, wrong)
        return best
