"""The RTL's generated decode constants agree with the encoding table, on both simulators."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

from tb.runner import SIMULATORS, assert_passed, run


def test_generated_header_is_up_to_date() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_rtl_isa.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("sim", SIMULATORS)
def test_rtl_decode_matches_table(sim: str) -> None:
    assert_passed(run(sim, "sm1_decode", ("sm1_decode.v",), "tb.test_decode_unit"))
