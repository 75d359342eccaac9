"""The RTL's generated headers agree with the encoding table and golden/g80/hw.py, on both simulators."""

from __future__ import annotations

import re
import subprocess
import sys
from enum import IntEnum

import pytest
from conftest import ROOT

from golden.g80 import hw
from golden.g80.form import UNITS
from tb.commit_agent import FIELDS, QUALIFIED
from tb.runner import SIMULATORS, assert_passed, run

# the RTL's port description lives in the manual's design page, which these tests hold to golden/g80/hw.py
PORT_DOC = (ROOT / "docs" / "design" / "rtl.md").read_text(encoding="utf-8")


def test_generated_headers_are_up_to_date() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_rtl_isa.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("sim", SIMULATORS)
def test_rtl_decode_matches_table(sim: str) -> None:
    assert_passed(run(sim, "sm1_decode", ("sm1_decode.v",), "tb.test_decode_unit"))


def test_commit_port_matches_the_documented_port() -> None:
    """Every commit_* signal of docs/design/rtl.md's port table, with its width, in order."""
    start = PORT_DOC.index("| `commit_cta")
    table = PORT_DOC[start : PORT_DOC.index("\n\n", start)]  # the table's rows only, not the prose after it
    documented = [(name, int(hi) + 1 if hi else 1) for name, hi in re.findall(r"`commit_(\w+)(?:\[(\d+):0\])?`", table)]
    assert documented == [(f.name, f.width) for f in hw.COMMIT_FIELDS]


def test_error_codes_match_the_documented_port() -> None:
    """docs/design/rtl.md: `error[3:0]` (0 none, 1 illegal instruction, 2 memory fault, ...)."""
    text = re.search(r"`error\[3:0\]` \(([^)]*)\)", PORT_DOC.replace("\n", " "))
    assert text is not None
    documented = {int(code): what for code, what in re.findall(r"(\d+) ([^,;]+)", text.group(1))}
    assert documented == {int(e): hw.ERROR_MESSAGES.get(e, "none") for e in hw.Error}


def test_every_unit_of_the_table_has_an_id() -> None:
    assert {u.name for u in hw.Unit} == {u.upper() for u in UNITS}


def test_qualified_fields_are_port_fields() -> None:
    """Every write enable and the fields it qualifies are fields of the port (RtlCommit is made
    from the same list, tb/commit_agent.py)."""
    assert all(we in FIELDS and set(names) <= set(FIELDS) for we, names in QUALIFIED.items())


@pytest.mark.parametrize(
    ("pattern", "enum"),
    [(r"`commit_mem_space\[1:0\]` \(([^)]*)\)", hw.MemSpace), (r"\(half: ([^;]*);", hw.GprHalf)],
    ids=["mem_space", "gpr_half"],
)
def test_commit_values_match_the_documented_port(pattern: str, enum: type[IntEnum]) -> None:
    text = re.search(pattern, PORT_DOC)
    assert text is not None
    assert dict(re.findall(r"(\d+) (\w+)", text.group(1))) == {str(int(e)): e.name.lower() for e in enum}


def test_configuration_bus_matches_the_documented_port() -> None:
    """docs/design/rtl.md: `cfg_sel[1:0]` (0 instruction word, 1 constant word, 2 launch register), and
    the launch registers' numbers."""
    flat = PORT_DOC.replace("\n", " ")
    sel = re.search(r"`cfg_sel\[1:0\]` \(([^)]*)\)", flat)
    regs = re.search(r"Launch registers: (.*?) words\.", flat)
    assert sel is not None and regs is not None
    assert [int(n) for n in re.findall(r"(\d+) \w", sel.group(1))] == [int(s) for s in hw.CfgSel]
    assert [int(n) for n in re.findall(r"(\d+)(?: |\.\.)", regs.group(1))] == [int(r) for r in hw.LaunchReg]
