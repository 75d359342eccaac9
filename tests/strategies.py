"""Hypothesis strategies: legal field values of a form."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from golden.g80.isa import Form, IllegalInstruction, Instruction, decode


def words_of(form: Form, word: int) -> tuple[int, ...]:
    return (word & 0xFFFFFFFF,) if form.size == 4 else (word & 0xFFFFFFFF, word >> 32)


@st.composite
def legal_instruction(draw: st.DrawFn, form: Form) -> tuple[dict[str, int], Instruction]:
    """Random field values of `form`, steered towards legal ones (a spelling for every modifier
    group, o[0x7f] for discards, memory fields often unused), then kept only if legal."""
    fields = {name: draw(st.integers(0, bf.max_value)) for name, bf in form.fields.items() if name not in form.fixed}
    for group in form.mods:
        _, values = draw(st.sampled_from(group.options))
        fields.update(values)
    if fields.get("dst_o"):
        fields["dst"] = 0x7F
    for name in ("areg", "postinc", "cbank", "src1_s", "src2_c", "src3_c"):
        if name in fields and draw(st.booleans()):
            fields[name] = 0
    fields.update(form.fixed)
    try:
        insn = decode(words_of(form, form.encode(fields)))
    except IllegalInstruction:
        assume(False)
        raise
    return fields, insn
