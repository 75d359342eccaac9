"""Property tests: encode/decode and assemble/disassemble are inverse on every form, and any word
either decodes and round-trips or is rejected with IllegalInstruction."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import legal_instruction, words_of

from golden.g80.isa import Form, IllegalInstruction, assemble_instruction, decode
from golden.g80.table import FORMS

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.name)
@SETTINGS
@given(data=st.data())
def test_form_round_trip(form: Form, data: st.DataObject) -> None:
    fields, insn = data.draw(legal_instruction(form))
    assert insn.form is form
    assert insn.fields == fields  # decode(encode(x)) == x
    word = form.encode(fields)
    assert assemble_instruction(insn.text).words == words_of(form, word)  # asm(disasm(w)) == w


def _round_trips(words: tuple[int, ...]) -> None:
    try:
        insn = decode(words)
    except IllegalInstruction as e:
        assert e.words == words[: len(e.words)] and e.reason
        return
    assert insn.words == words[: insn.size // 4]
    assert assemble_instruction(insn.text).words == insn.words


@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_random_64bit_words(value: int) -> None:
    _round_trips((value & 0xFFFFFFFF | 1, value >> 32))


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_32bit_words(value: int) -> None:
    _round_trips((value & ~1 & 0xFFFFFFFF,))


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from([0x00000780, 0x00000000, 0x04000780, 0x6C000780, 0x00200780]))
def test_structured_64bit_words(value: int, w1_bits: int) -> None:
    # Mostly-valid second words reach far more forms than uniform random ones.
    w1 = (value >> 32) & 0xE4E00003 | w1_bits
    _round_trips((value & 0xFFFFFFFF | 1, w1))
