"""tb/runner.py: file lists and builds that follow their headers."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tb.runner import BUILD, SM_FILE_LIST, VISIBILITY_ENV, FileList, build, lean_config, read_file_list, top_ports, visibility_of


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


def test_lean_build_exposes_the_top_levels_ports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lean Verilator build makes VPI-reachable what the module header declares, macros expanded
    and the parameter list skipped (written out here by hand), and nothing else."""
    (tmp_path / "p.vh").write_text("`define PORTS(kind) kind [3:0] x_a, \\\n    kind x_b\n", encoding="utf-8")
    top = tmp_path / "lean_check.v"
    top.write_text('`include "p.vh"\nmodule lean_check #(parameter integer N = (2), parameter integer M = N * (3)) (\n'
                   "    input wire clk, // a comment, (with parentheses)\n    input wire [N-1:0] in_a /* and, another */,\n"
                   "    output reg [7:0] mem_out [0:3],\n    `PORTS(output wire)\n);\n  wire internal;\nendmodule\n", encoding="utf-8")  # fmt: skip
    files = FileList((top,), (tmp_path,))
    assert top_ports(files, "lean_check") == ["clk", "in_a", "mem_out", "x_a", "x_b"]
    config = lean_config(files, "lean_check").splitlines()
    assert config[0] == "`verilator_config"
    assert [line for line in config if line.startswith("public")] == [
        f'public_flat_rw -module "lean_check" -var "{name}"' for name in ("clk", "in_a", "mem_out", "x_a", "x_b")
    ]
    with pytest.raises(ValueError, match="no source of nothing_here"):
        top_ports(files, "nothing_here")


def test_sm_top_lean_ports_are_the_testbench_pins() -> None:
    """The SM's lean build exposes the commit port as golden/g80/hw.py describes it (with its packed
    copies, docs/design/rtl.md, "Ports"), the clock, reset and start the testbench drives, and no internal signal."""
    from golden.g80.hw import commit_field_names

    ports = top_ports(read_file_list(SM_FILE_LIST), "sm_top")
    fields = ["commit_valid", *(f"commit_{n}" for n in commit_field_names())]
    assert [p for p in ports if p.startswith("commit_")] == [*fields, "commit_packed", "commit_gpr_data0"]
    assert {"clk", "rst_n", "start", "done", "error", "cfg_we", "mem_req_valid", "mem_rsp_valid"} <= set(ports)
    assert not any(p.startswith("u_") for p in ports)


def test_visibility_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VISIBILITY_ENV, raising=False)
    monkeypatch.delenv("TB_FULL_VISIBILITY", raising=False)
    assert visibility_of("verilator", "lean") == "lean"
    assert visibility_of("icarus", "lean") == "full"  # Icarus reaches every signal anyway
    monkeypatch.setenv("TB_FULL_VISIBILITY", "1")  # what make coverage sets
    assert visibility_of("verilator", "lean") == "full"
    monkeypatch.delenv("TB_FULL_VISIBILITY")
    monkeypatch.setenv(VISIBILITY_ENV, "full")
    assert visibility_of("verilator", "lean") == "full"
    with pytest.raises(ValueError, match="visibility 'half'"):
        visibility_of("verilator", "half")
