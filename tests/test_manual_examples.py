"""Every example encoding printed in the FlexGripPlus manual (testdata/manual_examples.json, extracted
from the manual text; the extraction is re-run and compared when ../shared is there)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest
from conftest import ROOT, SHARED
from manual_errata import ERRATA
from manual_examples import Example, manual_examples

from golden.g80.isa import IllegalInstruction, assemble, assemble_instruction, decode
from golden.g80.listing import normalise

EXAMPLES = manual_examples()


def _key(ex: Example) -> tuple[str, str]:
    return ex.text, " ".join(f"{w:08X}" for w in ex.hex)


def _same(a: str, b: str) -> bool:
    # The manual mixes upper- and lower-case hex digits and bracket spacing.
    return normalise(a).upper() == normalise(b).upper()


def _match(ex: Example, text: str) -> tuple[int, ...] | None:
    """The word order (as stored, word0 first) whose disassembly is `text`, if any."""
    for words in ex.orders:
        try:
            insn = decode(words)
        except IllegalInstruction:
            continue
        if _same(insn.render(implicit_exit=True), text) or _same(insn.text, text):
            return insn.words
    return None


def _extractor() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extract_manual_examples", ROOT / "scripts" / "extract_manual_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_data_file_is_the_manuals_examples() -> None:
    """testdata/manual_examples.json is what the extraction gives on the manual today."""
    ex = _extractor()
    if not ex.MANUAL.is_file():
        pytest.skip(f"the manual {ex.MANUAL} is not there (no {SHARED} beside the project): the copy in testdata/ cannot be re-extracted")
    assert ex.OUT.read_text(encoding="utf-8") == ex.render(ex.extract(ex.MANUAL)), "stale: run scripts/extract_manual_examples.py"


def test_manual_has_the_examples() -> None:
    assert len(EXAMPLES) >= 140  # the manual prints about 150 pairs


def test_errata_are_examples() -> None:
    keys = {_key(ex) for ex in EXAMPLES}
    stale = [k for k in ERRATA if k not in {(a, b.upper()) for a, b in keys}]
    assert not stale, f"errata entries that are not manual examples: {stale}"


@pytest.mark.parametrize("ex", [e for e in EXAMPLES if (e.text, " ".join(f"{w:08X}" for w in e.hex)) not in ERRATA], ids=lambda e: e.id)
def test_manual_example(ex: Example) -> None:
    words = _match(ex, ex.text)
    assert words is not None, f"neither word order of {ex.hex} disassembles to {ex.text!r}"
    # ...and the text assembles to those words. An exit marker is never printed: the example is
    # then the end of a kernel, where a program's assembly puts it.
    if decode(words).marker == 1:
        assert tuple(assemble(ex.text).words) == words
    else:
        assert assemble_instruction(ex.text).words == words


@pytest.mark.parametrize("key", list(ERRATA), ids=lambda k: k[0])
def test_manual_erratum(key: tuple[str, str]) -> None:
    text, hexwords = key
    ex = next(e for e in EXAMPLES if _key(e) == (text, hexwords))
    erratum = ERRATA[key]
    assert _match(ex, text) is None, "listed as wrong but it matches: remove the erratum"
    words = _match(ex, erratum.actual)
    assert words is not None, f"the words do not encode {erratum.actual!r} either"
    assert assemble_instruction(erratum.actual).words == words
