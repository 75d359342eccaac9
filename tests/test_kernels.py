"""The kernels of programs/kernels/ (docs/reference/program-format.md, "The kernels"): the generated sizes against their templates,
every kernel at both sizes on the golden model against its numpy expectations, batched and one
warp at a time, the stated float tolerances, and the template generator's errors. (Their lock-step
runs on the RTL are in test_rtl_lockstep.py.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import run_program

sys.path.insert(0, str(ROOT / "scripts"))
import gen_kernels

TEMPLATES = gen_kernels.templates()
CI = sorted((ROOT / "programs" / "kernels").glob("*.sass"))
BENCH = sorted((ROOT / "bench" / "kernels").glob("*.sass"))
# the workloads of the suite, each with the kernel that implements it
REQUIRED = {"saxpy": "saxpy", "dot product": "dot", "reduction": "reduce", "reduction, second pass": "reduce_pass2",
            "inclusive/exclusive scan": "scan", "tiled matrix multiply": "matmul", "transpose": "transpose",
            "bitonic sort": "bitonic", "1-D stencil": "stencil1d", "2-D convolution": "conv2d", "radix-2 FFT": "fft",
            "Mandelbrot": "mandelbrot", "Black-Scholes": "blackscholes", "n-body": "nbody", "histogram": "histogram",
            "Sobel": "sobel"}  # fmt: skip


def test_generated_programs_are_up_to_date() -> None:
    """Both sizes of every template are checked in and equal to a regeneration."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_kernels.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert [p.name for p in CI] == [p.name for p in BENCH] == [t.name.removesuffix(".in") for t in TEMPLATES]


def test_the_issue_list_is_covered() -> None:
    assert set(REQUIRED.values()) <= {p.stem for p in CI}
    assert len(CI) >= 14


@pytest.mark.parametrize("path", CI + BENCH, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_kernel_on_the_golden_model(path: Path) -> None:
    result = run_program(load_program(path), G80)
    assert result.checks, "the kernel declares no .expect"
    failed = [f"line {c.line}: {c.buffer}: {c.detail}" for c in result.failed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("path", CI, ids=lambda p: p.stem)
def test_batched_and_single_warp_runs_agree(path: Path) -> None:
    """Free-running mode executes warps at the same PC together; one at a time must give the same memory."""
    spec = load_program(path)
    batched = run_program(spec, G80)
    records: list[object] = []
    single = run_program(spec, G80, trace=records.append)
    assert np.array_equal(batched.gmem.data, single.gmem.data)
    assert len(records) == single.warp_instructions == batched.warp_instructions


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name.removesuffix(".sass.in"))
def test_sizes_differ_and_float_expectations_say_why(template: Path) -> None:
    """The benchmark size is a larger launch than the CI size; every .expect of an f32 buffer is
    preceded by a comment (the reason for its tolerance, or why it is bit-exact)."""
    ci, bench = (load_program(d / template.name.removesuffix(".in")) for d in (ROOT / "programs" / "kernels", ROOT / "bench" / "kernels"))
    work = [(s.grid[0] * s.grid[1] * s.block[0] * s.block[1] * s.block[2], sum(b.nbytes for b in s.buffers.values())) for s in (ci, bench)]
    assert work[1][0] >= work[0][0] and work[1][1] > work[0][1], work
    lines = template.read_text(encoding="utf-8").splitlines()
    for exp in ci.expects:
        if ci.buffers[exp.buffer].dtype != "f32":
            continue
        index = next(i for i, line in enumerate(lines) if re.match(rf"\.expect\s+{exp.buffer}\b", line))
        before = [line for line in lines[:index] if line.strip() and not line.startswith(".expect")]
        assert before[-1].startswith("#"), f"{template.name}: .expect {exp.buffer} has no comment saying why its tolerance holds"


def test_expect_atol_passes_near_values_and_fails_far_ones(tmp_path: Path) -> None:
    """`.expect NAME ulp=N atol=X`: an element passes within N ulp or within X (absolute)."""
    src = """.block 32
.buffer out f32 32
.param out
.expect out ulp=0 atol=0.01 = np.full(32, 0.005)
.expect out ulp=0 atol=0.001 = np.full(32, 0.005)
.expect out ulp=1 = np.full(32, np.float32(0.0).view(np.uint32) + 1).view(np.float32)
        I2I.U32.U16 R1, R0L
        SHL R1, R1, 0x2
        IADD R1, g [0x4], R1
        GST.U32 global14[R1], R124
"""
    path = tmp_path / "atol.sass"
    path.write_text(src, encoding="utf-8")
    result = run_program(load_program(path), G80)
    assert [c.passed for c in result.checks] == [True, False, True]
    assert "or 0.01" in result.checks[0].detail and "32 of 32 elements differ" in result.checks[1].detail


def test_template_errors_name_the_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gen_kernels, "TEMPLATES", tmp_path)
    bad = tmp_path / "bad.sass.in"
    bad.write_text("#size ci: N=4\n.grid ${N}\n", encoding="utf-8")
    with pytest.raises(gen_kernels.TemplateError, match=r"bad.sass.in: needs '#size ci: ...' and '#size bench: ...'"):
        gen_kernels.render(bad, "ci")
    bad.write_text("#size ci: N=4\n#size bench: N=8\n.grid ${M * 2}\n", encoding="utf-8")
    with pytest.raises(gen_kernels.TemplateError, match=r"bad.sass.in:3: cannot evaluate 'M \* 2': name 'M' is not defined"):
        gen_kernels.render(bad, "ci")
    bad.write_text("#size ci: N=4\n#size bench: N=8\n#include nothing.inc\n", encoding="utf-8")
    with pytest.raises(gen_kernels.TemplateError, match=r"#include nothing.inc: no file"):
        gen_kernels.render(bad, "ci")
    bad.write_text("#size ci: N=4, M=N*2\n#size bench: N=8, M=N*2\n.grid ${M:#x}\n", encoding="utf-8")
    assert ".grid 0x8" in gen_kernels.render(bad, "ci") and ".grid 0x10" in gen_kernels.render(bad, "bench")


def test_rerun_commands_name_a_kernel_by_its_path() -> None:
    """A failing kernel's report says how to run it again: make sim with the program's path (both sizes)."""
    from tb.lockstep import LockstepRun

    ci = LockstepRun("kernels/fft", "verilator")
    assert ci.path == ROOT / "programs" / "kernels" / "fft.sass"
    assert ci.rerun_command() == "make sim TEST=programs/kernels/fft.sass SIM=verilator NUM_SP=8 SEED=1 WAVES=1"
    bench = LockstepRun(str(ROOT / "bench" / "kernels" / "fft.sass"), "icarus", 16, 3, "flexgrip")
    assert bench.rerun_command(waves=False) == "make sim TEST=bench/kernels/fft.sass SIM=icarus NUM_SP=16 SEED=3 PROFILE=flexgrip"
