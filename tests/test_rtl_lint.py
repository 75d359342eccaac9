"""Verilator --lint-only -Wall is clean for every top-level module of rtl/."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tb"))
from runner import verilator_bin

TOPS = {
    "sm1_decode": ["sm1_decode.v"],
    "sm1_int_alu": ["sm1_int_alu.v"],
    "sm_decode": ["sm_decode.v"],
    "sm_top": ["sm_top.v", "sm_decode.v", "sm1_int_alu.v"],
}


@pytest.mark.parametrize("top", sorted(TOPS))
def test_verilator_lint_wall(top: str) -> None:
    files = [str(ROOT / "rtl" / f) for f in TOPS[top]]
    cmd = [f"{verilator_bin()}/verilator", "--lint-only", "-Wall", f"-I{ROOT / 'rtl' / 'gen'}", f"-I{ROOT / 'rtl'}", "--top-module", top, *files]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0 and "%Warning" not in result.stderr and "%Error" not in result.stderr, result.stderr
