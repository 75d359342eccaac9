"""Verilator --lint-only -Wall is clean for every top-level module of rtl/."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tb"))
from runner import verilator_bin

RTL_FILES = sorted((ROOT / "rtl").glob("*.v"))
# every module of rtl/ is linted as a top level, with all of rtl/ available to it
TOPS = sorted({m for f in RTL_FILES for m in re.findall(r"^module\s+(\w+)", f.read_text(), re.M)})


@pytest.mark.parametrize("top", TOPS)
def test_verilator_lint_wall(top: str) -> None:
    files = [str(f) for f in RTL_FILES]
    cmd = [f"{verilator_bin()}/verilator", "--lint-only", "-Wall", f"-I{ROOT / 'rtl' / 'gen'}", f"-I{ROOT / 'rtl'}", "--top-module", top, *files]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0 and "%Warning" not in result.stderr and "%Error" not in result.stderr, result.stderr
