"""A form: one row of an ISA's encoding table, as the machinery sees it.

Every ISA's table is a list of forms. A form names its bit fields, the field values that identify
it (`fixed`), its spelling (mnemonic, operands), the semantic family that executes it and a line of
documentation. From the fields and the fixed values alone come what the decoder, the coverage
derivation and the generated docs need: the match mask and value, the bits the form covers, and
encoding and decoding by field name. How an ISA spells its operands, guards or formats is its own
subclass's business; this base knows bits and names only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .bits import BitField

Fields = dict[str, int]


class FormBase:
    """The ISA-independent part of a form. A subclass provides, as attributes or properties:

    - `name`: unique in its table; `mnemonic`: the base spelling; `family`: the semantic routine;
    - `fields`: name -> BitField, every field the form's words have;
    - `fixed`: name -> value, the fields that identify the form;
    - `operands`: the operands in assembly order (the ISA decides what an operand is);
    - `doc`: one line for the manual;

    and calls `derive_masks()` once they are set (frozen dataclasses included).
    """

    name: str
    mnemonic: str
    family: str
    fields: Mapping[str, BitField]
    fixed: Mapping[str, int]
    operands: Sequence[Any]
    doc: str
    match_mask: int
    match_value: int
    covered: int

    def derive_masks(self) -> None:
        """Set match_mask/match_value (the identifying bits and their values) and covered (every
        bit some field of the form owns; the others must be zero in a legal word)."""
        mask = value = 0
        for name, v in self.fixed.items():
            bf = self.fields[name]
            mask |= bf.mask
            value = bf.insert(value, v)
        covered = 0
        for bf in self.fields.values():
            covered |= bf.mask
        # object.__setattr__ so that frozen dataclass rows can derive their masks too
        object.__setattr__(self, "match_mask", mask)
        object.__setattr__(self, "match_value", value)
        object.__setattr__(self, "covered", covered)

    def matches(self, word: int) -> bool:
        return word & self.match_mask == self.match_value

    def extract(self, word: int) -> Fields:
        """Every field's value in `word`."""
        return {name: bf.extract(word) for name, bf in self.fields.items()}

    def encode(self, f: Mapping[str, int]) -> int:
        """The word with the identifying values and the given fields (a missing one is 0)."""
        word = self.match_value
        for name, bf in self.fields.items():
            if name in self.fixed:
                continue
            word = bf.insert(word, f.get(name, 0))
        return word

    def stray(self, word: int, width_mask: int) -> int:
        """The bits of `word` (within `width_mask`) that no field of the form owns."""
        return word & width_mask & ~self.covered
