"""Verilator --lint-only -Wall is clean for every top-level module of rtl/."""

from __future__ import annotations

import re
import subprocess

import pytest
from conftest import ROOT

from tb.runner import SM_FILE_LIST, read_file_list, verilator_bin

RTL_FILES = sorted((ROOT / "rtl").glob("*.v"))
# every module of rtl/ is linted as a top level, with all of rtl/ available to it
TOPS = sorted({m for f in RTL_FILES for m in re.findall(r"^module\s+(\w+)", f.read_text(), re.M)})


@pytest.mark.parametrize("top", TOPS)
def test_verilator_lint_wall(top: str) -> None:
    files = [str(f) for f in RTL_FILES]
    cmd = [f"{verilator_bin()}/verilator", "--lint-only", "-Wall", f"-I{ROOT / 'rtl' / 'gen'}", f"-I{ROOT / 'rtl'}", "--top-module", top, *files]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0 and "%Warning" not in result.stderr and "%Error" not in result.stderr, result.stderr


def test_file_list_builds_the_sm_alone() -> None:
    """rtl/sm.f (what the runner, make lint and a user's simulator read) names every file sm_top needs:
    Verilator elaborates and lints sm_top from the list alone, and the runner reads the same list."""
    cmd = [f"{verilator_bin()}/verilator", "--lint-only", "-Wall", "-f", str(SM_FILE_LIST), "--top-module", "sm_top"]
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0 and "%Warning" not in result.stderr and "%Error" not in result.stderr, result.stderr
    files = read_file_list(SM_FILE_LIST)
    assert files.sources[0].name == "sm_top.v" and set(files.sources) <= set(RTL_FILES)
    assert ROOT / "rtl" / "gen" in files.includes
