"""cocotb: rtl/sm1_decode.v against the Python decoder (the generated constants agree with the table)."""

from __future__ import annotations

import random

import cocotb
from cocotb.triggers import Timer

from golden.g80.hw import Unit
from golden.g80.isa import IllegalInstruction, decode
from golden.g80.table import FORMS

FORM_ID = {f.name: i for i, f in enumerate(FORMS, 1)}
FAMILY_ID = {name: i for i, name in enumerate(sorted({f.family for f in FORMS}))}
FAMILY_OF_ID = {i: FAMILY_ID[f.family] for i, f in enumerate(FORMS, 1)}
UNIT_OF_ID = {i: Unit.of(f.unit) for i, f in enumerate(FORMS, 1)}


def python_form(word: int) -> int:
    w0, w1 = word & 0xFFFFFFFF, word >> 32
    words = (w0, w1) if w0 & 1 else (w0,)
    try:
        return FORM_ID[decode(words).form.name]
    except IllegalInstruction:
        # The RTL matches identifying fields only; a word with stray bits still names its form.
        from golden.g80.decoder import BY_FORMAT, fmt_of

        fmt = fmt_of(w0, w1 if w0 & 1 else None)
        for form in BY_FORMAT.get(fmt, []):
            if form.matches(word if form.size == 8 else w0):
                return FORM_ID[form.name]
        return 0


@cocotb.test()
async def decode_matches_table(dut) -> None:
    rng = random.Random(1)
    words = [f.match_value | (rng.getrandbits(64) & ~f.match_mask & ((1 << 64) - 1)) for f in FORMS for _ in range(20)]
    words += [rng.getrandbits(64) for _ in range(3000)]
    mismatches = []
    for word in words:
        if not word & 1:
            word &= 0xFFFFFFFF
        dut.insn.value = word
        await Timer(1, "ns")
        got, want = int(dut.form.value), python_form(word)
        family, unit = int(dut.family.value), int(dut.unit.value)
        want_family, want_unit = FAMILY_OF_ID.get(want, 63), UNIT_OF_ID.get(want, Unit.INT)
        if got != want or family != want_family or unit != want_unit:
            mismatches.append(f"{word:016x}: rtl form {got} family {family} unit {unit}, table form {want} family {want_family} unit {want_unit}")
    assert not mismatches, "\n".join(mismatches[:20])
