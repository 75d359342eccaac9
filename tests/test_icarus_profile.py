"""scripts/icarus_profile.py: the vvp file's opcodes mapped to instances, processes and source lines,
perf's output parsed, and a live profile where perf may add user probes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import icarus_profile as prof  # noqa: E402

# Two processes at known lines: line 5 reads `a` and writes `b`, line 8 reads `b` and writes `c`.
SOURCE = """\
module leaf(input wire [3:0] a, output reg [3:0] c);
    reg [3:0] b;
    integer i;
    always @*
        b = a + 4'd1;
    always @* begin
        for (i = 0; i < 4; i = i + 1)
            c[i] = b[3 - i];
    end
endmodule
module top;
    reg [3:0] x = 4'd3;
    wire [3:0] y;
    leaf u_leaf (.a(x), .c(y));
    initial #1 $display("%b", y);
endmodule
"""


@pytest.fixture(scope="module")
def vvp(tmp_path_factory: pytest.TempPathFactory) -> prof.VvpCode:
    if shutil.which("iverilog") is None:
        pytest.skip("iverilog not installed (make setup)")
    d = tmp_path_factory.mktemp("vvp")
    (d / "leaf.v").write_text(SOURCE)
    subprocess.run(["iverilog", "-pfileline=1", "-o", str(d / "t.vvp"), str(d / "leaf.v")], check=True)
    out = subprocess.run(["vvp", "-n", str(d / "t.vvp")], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "0010"  # y = reverse(3 + 1): the design is what the source says
    return prof.parse_vvp((d / "t.vvp").read_text())


def test_opcodes_carry_their_instance_and_source_line(vvp: prof.VvpCode) -> None:
    loads = {i for i in vvp.ops if "%load/vec4 " in vvp.lines[i] + " "}
    where = {(vvp.scope[i], vvp.source[i].rsplit(":", 1)[-1], vvp.names.get(vvp.lines[i].split()[1].rstrip(";"), "")) for i in loads}
    assert ("top.u_leaf", "5", "a") in where  # b = a + 1
    assert ("top.u_leaf", "8", "b") in where  # c[i] = b[3 - i]
    assert ("top.u_leaf", "7", "i") in where  # the loop's test, a jump label inside the process: still line 7
    assert all(s.endswith(("leaf.v:5", "leaf.v:7", "leaf.v:8")) for s in (vvp.source[i] for i in loads))
    threads = {vvp.thread[i] for i in loads}
    assert len(threads) == 2  # two always blocks, two vvp threads


def test_align_leaves_out_vvps_own_leading_allocations(vvp: prof.VvpCode) -> None:
    n = len(vvp.ops)
    own = [("aaa", 0x10 + 8 * k) for k in range(3)] + [("bbb", 0x40)]  # vvp's own code words, before the file's
    mine = [("ccc", 0x1000 + 24 * k) for k in range(n - 2)] + [("ddd", 0x9000), ("ddd", 0x9018)]  # two call sites
    where = prof.align(vvp, own + mine)
    assert where[0x1000] == vvp.ops[0] and where[0x9018] == vvp.ops[-1] and 0x10 not in where
    with pytest.raises(prof.ProfileError, match="cannot align"):
        prof.align(vvp, mine[:-1])


def test_perf_outputs_parsed() -> None:
    script = "(55e6e9e5f150 <- 55e6e9e4be7e) arg1=0x55e6fe05d638\n(55e6e9e5f150 <- 55e6e9e4bea5) arg1=0x55e6fe05d650\n"
    assert prof.parse_allocations(script) == [("55e6e9e4be7e", 0x55E6FE05D638), ("55e6e9e4bea5", 0x55E6FE05D650)]
    report = """\
# Samples: 1M of event 'g80prof:ldvec'
# Event count (approx.): 1379789
#
#      Samples  Trace output
# ............  ................................
#
            11  (55e6e9e5f290) cp=94450625911408
             3  (55e6e9e5f290) cp=94450625912488

# Samples: 7  of event 'g80prof:stvec'
             7  (55e6e9e5f291) cp=94450625911408
"""
    assert prof.parse_report(report) == {"ldvec": Counter({94450625911408: 11, 94450625912488: 3}), "stvec": Counter({94450625911408: 7})}


def test_profile_is_the_difference_of_the_two_runs_and_refuses_a_misplaced_count(vvp: prof.VvpCode) -> None:
    addrs = [0x1000 + 24 * k for k in range(len(vvp.ops))]
    allocs = [("c", a) for a in addrs]
    load = next(k for k, i in enumerate(vvp.ops) if "%load/vec4 " in vvp.lines[i] + " ")
    store = next(k for k, i in enumerate(vvp.ops) if "%store/vec4 " in vvp.lines[i] + " ")
    first = (allocs, {"ldvec": Counter({addrs[load]: 5}), "stvec": Counter({addrs[store]: 2})})
    second = ([("c", a + 0x100000) for a in addrs], {"ldvec": Counter({addrs[load] + 0x100000: 25}), "stvec": Counter({addrs[store] + 0x100000: 12})})  # another run's heap
    counts = prof.profile(vvp, first, second)
    assert counts["ldvec"][vvp.ops[load]] == 20 and counts["stvec"][vvp.ops[store]] == 10
    text = prof.report(vvp, counts, 10, 5)
    assert text.startswith("3.0 loads+stores a cycle (2.0 loads, 1.0 stores), cycles measured: 10")
    with pytest.raises(prof.ProfileError, match="maps to no %load/vec4"):
        prof.profile(vvp, first, (allocs, {"ldvec": Counter({addrs[store]: 1})}))
    with pytest.raises(prof.ProfileError, match="nothing was measured"):
        prof.report(vvp, prof.profile(vvp, first, first), 10, 5)


def _perf_probes_allowed() -> bool:
    if shutil.which("perf") is None or shutil.which("vvp") is None or os.geteuid() != 0:
        return False
    return subprocess.run(["perf", "probe", "-l"], capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(not _perf_probes_allowed(), reason="needs perf with uprobes (root) and Icarus")
def test_live_profile_of_a_short_program() -> None:
    out = subprocess.run([str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else "python", "scripts/icarus_profile.py",
                          "programs/vecadd.sass", "--from", "40", "--to", "140", "--top", "40"],
                         cwd=ROOT, capture_output=True, text=True, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr
    head, *tables = out.stdout.split("\n\n")
    assert "cycles measured: 100" in head
    total = float(head.splitlines()[1].split()[0].replace(",", ""))
    instances = [line.split() for line in tables[0].splitlines()[1:]]
    assert total > 0 and all(row[2].startswith("bench_icarus") for row in instances), instances  # the harness and the SM, no code unplaced
    assert any(".dut.u_" in row[2] for row in instances)
    sources = [line.split()[2] for line in tables[2].splitlines()[1:]]
    assert any(s.startswith("rtl/sm_") for s in sources)  # counts land on the RTL's own lines
