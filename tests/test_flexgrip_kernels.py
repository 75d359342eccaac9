"""The kernels of programs/kernels on FlexGripPlus: two short ones in lock-step under GHDL (skipped with the
reason when no FlexGripPlus checkout or no GHDL), their final global memory checked against numpy; the
attribution of a kernel's failing numpy expectations to FlexGripPlus findings; the finding
fadd_read_in_sm against fpu_single's own result; and the figures file bench/flexgrip_kernels.json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from golden.arith import flexgrip_fp as ffp
from golden.flexgrip_export import NotRunnable, flexgrip_image
from golden.flexgrip_findings import BY_NAME, expectations
from golden.memory import Memory
from golden.profile import FLEXGRIP
from golden.program import load_program
from golden.run import check, run_program

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "programs" / "kernels"
FIGURES = ROOT / "bench" / "flexgrip_kernels.json"


def _flexgrip_or_skip() -> None:
    from tb.adapters.flexgrip_build import FlexgripMissing, check_available

    try:
        check_available()
    except FlexgripMissing as exc:
        pytest.skip(str(exc))


# the two shortest kernels (reduce_pass2: shared-memory tree with barriers, ~5 s of GHDL CPU; saxpy: FMAD,
# early RET, global loads and stores, ~15 s), so that each test stays well under a minute of CPU
@pytest.mark.parametrize("name", ["reduce_pass2", "saxpy"])
def test_kernel_lockstep_on_flexgrip(name: str) -> None:
    _flexgrip_or_skip()
    from tb.lockstep import LockstepRun, run_lockstep

    path = KERNELS / f"{name}.sass"
    r = run_lockstep(LockstepRun(str(path), sim="ghdl", profile="flexgrip", dut="flexgrip"), rerun_with_waves=False)
    assert r.passed, r.summary()
    assert not r.extra.get("waived"), r.extra  # no waiver needed: every FlexGripPlus behaviour they meet is modelled
    # what FlexGripPlus left in global memory, against the program's numpy expectations (not the model's memory)
    spec = load_program(path)
    # the model's own memory meets them too (run first: an .expect line's first numpy reduction imports a numpy
    # module from inside check()'s restricted eval, which only works once that module is loaded)
    assert not run_program(spec, FLEXGRIP).failed
    dump = np.fromfile(r.run.out_dir / "final_global.bin", np.uint8)
    gmem = Memory("global", dump.size)
    gmem.write_bytes(0, dump.tobytes())
    results = check(spec, gmem)
    assert results and all(c.passed for c in results), [c.detail for c in results if not c.passed]


def test_expectations_named_by_finding() -> None:
    """mandelbrot's `IMUL.U16.U16 R5, g [0x14].U16, R3L` reads g [0x4] on FlexGripPlus (finding
    shared_offset_4_bits, pipeline_decode.vhd src1_i 12:9): its counts are wrong there, and turning off
    that one switch makes numpy's expectations hold again."""
    got = expectations(KERNELS / "mandelbrot.sass")
    assert got == "fail, fixed by turning off: alu_shared_offset_4bit (shared_offset_4_bits)"
    assert expectations(KERNELS / "reduce_pass2.sass") == "pass"


def test_fadd_read_in_sm_values() -> None:
    """fpu_single alone (tb/flexgrip_units under GHDL) gives +inf for 0x807fff92 + 0x00a73d74 (a transient
    exponent); FlexGripPlus's SM wrote 0x00273de2, the exact difference (IEEE, numpy), in fft's lock-step run."""
    a, b = 0x807FFF92, 0x00A73D74
    assert ffp.fadd_bits(a, b, read=ffp.READ_UNIT) == 0x7F800000
    ieee = int((np.array([a], np.uint32).view(np.float32) + np.array([b], np.uint32).view(np.float32)).view(np.uint32)[0])
    assert ieee == 0x00273DE2
    assert ffp.fadd_bits(a, b, read=ffp.READ_SM) == ieee
    assert FLEXGRIP.fadd_read_in_sm and BY_NAME["fadd_read_in_sm"].handling == "profile:fadd_read_in_sm"


@pytest.mark.skipif(not FIGURES.exists(), reason="no bench/flexgrip_kernels.json")
def test_figures_file() -> None:
    """The figures file: provenance, and per kernel an outcome whose fields fit it; a kernel refused up
    front is still refused by the loader today when the program has not changed since (same hash)."""
    doc = json.loads(FIGURES.read_text())
    prov = doc["provenance"]
    for key in ("date", "commit", "ghdl", "ghdl_backend", "flexgripplus", "num_sp"):
        assert prov.get(key), key
    assert doc["kernels"]
    for name, k in doc["kernels"].items():
        assert k["outcome"] in ("pass", "fail", "refused", "not run"), name
        path = ROOT / k["program"]
        if k["outcome"] == "refused":
            assert k["reason"], name
            if path.exists() and k["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest():
                with pytest.raises(NotRunnable):
                    flexgrip_image(path, FLEXGRIP)
        elif k["outcome"] in ("pass", "fail"):
            assert k["flexgrip_cycles"] > 0 and k["commits"] > 0, name
            assert (k["outcome"] == "fail") == bool(k["failure"]), name
