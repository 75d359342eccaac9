"""rtl/sm1_int_alu.v: the silicon integer vectors, directed cases and a golden-model cross-check, on both simulators."""

from __future__ import annotations

import pytest

from tb.runner import SIMULATORS, assert_passed, run


@pytest.mark.parametrize("sim", SIMULATORS)
def test_rtl_int_alu_matches_vectors(sim: str) -> None:
    assert_passed(run(sim, "sm1_int_alu", ("sm1_int_alu.v",), "tb.test_int_alu_unit"))
