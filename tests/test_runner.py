"""tb/runner.py: file lists and builds that follow their headers."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tb.runner import BUILD, FileList, build, read_file_list


def test_file_list_errors_name_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "x.f"
    f.write_text("// comment\n+incdir+rtl/gen\nrtl/no_such.v\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"x.f:3: no file .*rtl/no_such.v"):
        read_file_list(f)
    f.write_text("-y rtl\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"x.f:1: option '-y rtl' is not supported"):
        read_file_list(f)
    f.write_text("+incdir+rtl\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no source file listed"):
        read_file_list(f)


def test_a_changed_header_alone_rebuilds(tmp_path: Path) -> None:
    """cocotb's runner compares only the sources' times with its output: a regenerated header
    (rtl/gen/*.vh) must still rebuild, and an unchanged design must not."""
    (tmp_path / "k.vh").write_text("`define K 8'd1\n", encoding="utf-8")
    top = tmp_path / "runner_header_check.v"
    top.write_text('`include "k.vh"\nmodule runner_header_check(output wire [7:0] k);\n  assign k = `K;\nendmodule\n', encoding="utf-8")
    files = FileList((top,), (tmp_path,))
    uncached = build.__wrapped__  # the per-process cache would hide a second build
    out = uncached("icarus", "runner_header_check", files) / "sim.vvp"
    first = out.stat().st_mtime_ns
    assert "C4<00000001>" in out.read_text()  # Icarus's constant of `K
    time.sleep(0.05)
    uncached("icarus", "runner_header_check", files)
    assert out.stat().st_mtime_ns == first, "an unchanged design was rebuilt"
    (tmp_path / "k.vh").write_text("`define K 8'd2\n", encoding="utf-8")
    uncached("icarus", "runner_header_check", files)
    assert out.stat().st_mtime_ns != first and "C4<00000010>" in out.read_text()
    assert out.parent == BUILD / "runner_header_check_icarus_default"
