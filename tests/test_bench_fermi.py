"""scripts/bench_fermi.py at a tiny size: the counts it reports are those worked out by hand for a
straight-line kernel, a kernel that does not load is named and left out, random programs are timed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# two warps (64 threads) run three instructions each: 6 warp-instructions, 6 x 32 thread-instructions
STRAIGHT = """\
.grid 1
.block 64
.registers 4
        MOV R1, RZ;
        IADD R1, R1, 0x1;
        EXIT;
"""


def test_bench_counts_and_rates(tmp_path: Path) -> None:
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    (kernels / "straight.sass").write_text(STRAIGHT)
    (kernels / "broken.sass").write_text(".grid 1\n        FROB R0;\n")
    out = tmp_path / "bench.json"
    p = subprocess.run([sys.executable, "scripts/bench_fermi.py", "--kernels", str(kernels), "--random", "1", "--preset", "ci", "--runs", "2",
                        "--json", str(out)], capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    data = json.loads(out.read_text())
    [row] = data["kernels"]
    assert (row["name"], row["warp_instructions"], row["thread_instructions"]) == ("straight", 6, 192)
    assert len(data["skipped"]) == 1 and data["skipped"][0].startswith("broken.sass: ") and "FROB" in data["skipped"][0]
    [rnd] = data["random"]
    assert rnd["name"] == "ci_s1" and rnd["warp_instructions"] > 0 and rnd["cpu_s"] > 0
    assert data["totals"]["random"]["thread_rate"] == rnd["thread_instructions"] / rnd["cpu_s"]
    assert "left out (does not load): broken.sass" in p.stdout


def test_bench_bad_setting_is_one_line(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "scripts/bench_fermi.py", "--kernels", str(tmp_path), "--random", "0"], capture_output=True, text=True,
                       cwd=ROOT, check=False)  # fmt: skip
    assert p.returncode == 2 and p.stderr.strip().splitlines() == [
        f"bench_fermi: --kernels {tmp_path}: no .sass programs there (python scripts/gen_kernels.py writes bench/fermi/kernels)"
    ]
