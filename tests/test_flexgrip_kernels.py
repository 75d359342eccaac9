"""The kernels of programs/kernels on FlexGripPlus: two short ones in lock-step under GHDL (skipped with the
reason when no FlexGripPlus checkout or no GHDL), their final global memory checked against numpy; the
attribution of a kernel's failing numpy expectations to FlexGripPlus findings; the finding
fadd_read_in_sm against fpu_single's own result; the adapter's up-front refusal of nbody's R2A from R124
(FlexGripPlus decodes R2A's source from six bits); and the figures file bench/flexgrip_kernels.json."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

from golden.g80.arith import flexgrip_fp as ffp
from golden.g80.assembler import assemble_instruction
from golden.g80.flexgrip_export import NotRunnable
from golden.g80.flexgrip_findings import BY_NAME, expectations
from golden.g80.memory import Memory
from golden.g80.profile import FLEXGRIP
from golden.g80.program import load_program
from golden.g80.run import check, run_program
from tb.adapters.flexgrip import check_runnable, decode_departures

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "programs" / "kernels"
FIGURES = ROOT / "bench" / "flexgrip_kernels.json"
FLEXGRIP_DIR = Path(os.environ.get("FLEXGRIP_DIR") or ROOT.parent / "shared" / "flexgripplus")
DECODE_VHD = FLEXGRIP_DIR / "FlexGripPlus_4.4" / "RTL" / "SMP" / "Pipeline" / "Decode" / "pipeline_decode.vhd"


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


def _r2a_words(src: int) -> list[int]:
    insn = assemble_instruction(f"R2A A2, R{src}")
    return [insn.word & 0xFFFFFFFF, insn.word >> 32]


def test_nbody_refused_at_its_r2a() -> None:
    """nbody zeroes $a2 with `R2A A2, R124` (PC 0xd8), which FlexGripPlus reads as R60: in the lock-step run
    of 2026-11-24 it set $a2 = 0x100 + 0x10 lane, block 1's R12 (&pos[tid], pos at 0x100) in warp 0's R60
    (24 registers a warp). The adapter refuses the kernel before any simulation, naming the instruction."""
    for path in (KERNELS / "nbody.sass", ROOT / "bench" / "kernels" / "nbody.sass"):
        with pytest.raises(NotRunnable, match=r"nbody\.sass: R2A A2, R124 at 0x00d8: .* reads R60 where G80 reads R124 \(the zero register\)"):
            check_runnable(path)
    assert load_program(KERNELS / "nbody.sass").buffers["pos"].addr == 0x100  # the 0x100 FlexGripPlus put in $a2


def test_r2a_source_rule() -> None:
    """The rule reads the source as FlexGripPlus's decoder does: the seven-bit field w0[15:9] (ISA.md; the
    FlexGripPlus manual's R2A page says bits 9-15 too, with the nvcc example `R2A A2, R11` = C0000780 00001609)
    cut to bits 14:9; R0-R63 and shared sources are not refused."""
    assert _r2a_words(11) == [0x00001609, 0xC0000780]  # the manual's example
    assert _r2a_words(124)[0] == 0x00001609 + ((124 - 11) << 9) and (_r2a_words(124)[0] >> 9) & 0x3F == 60
    for src in (0, 11, 63):
        decode_departures(_r2a_words(src), "t")
    for src, seen in ((64, 0), (124, 60), (127, 63)):
        with pytest.raises(NotRunnable, match=rf"t: R2A A2, R{src} at 0x0000: .* reads R{seen} where G80 reads R{src}\b"):
            decode_departures(_r2a_words(src), "t")
    shared = assemble_instruction("R2A A3, g [0xa], 0x2")  # the waiver r2a_shared_source's form
    decode_departures([shared.word & 0xFFFFFFFF, shared.word >> 32], "t")


@pytest.mark.skipif(not DECODE_VHD.exists(), reason=f"no FlexGripPlus checkout ({DECODE_VHD})")
def test_r2a_source_bits_in_the_vhdl() -> None:
    """The six bits come from FlexGripPlus's decoder: src1_i for R2A (mov_mem_type_i = ADDRESS_MEM, a LOAD)
    is instruction_in(14 downto 9), where its 32-bit ALU forms read instruction_in(15 downto 9)."""
    text = DECODE_VHD.read_text(encoding="latin-1")
    src1 = text[text.index("src1_i <=") :]
    src1 = src1[: src1.index(";")]
    rule = [line for line in src1.splitlines() if "mov_mem_type_i = ADDRESS_MEM" in line]
    assert len(rule) == 1 and re.search(r"instruction_in\(14 downto 9\)\s+when", rule[0]), rule


R2A_PROBE = """// R2A A1, R124 with R60 = 0x100 + 16 tid, the refusal bypassed: G80 writes 0, FlexGripPlus R60
.grid 1
.block 32
.registers 64
.buffer out u32 32
.param out
        I2I.U32.U16 R1, R0L
        SHL R60, R1, 0x4
        IADD32I R60, R60, 0x100
        R2A A1, R124
        A2R R2, A1
        SHL R3, R1, 0x2
        IADD32 R3, g [0x4], R3
        GST.U32 global14[R3], R2
"""


def test_r2a_r124_reads_r60_on_flexgrip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On FlexGripPlus itself (GHDL, about a second of simulation): with the refusal bypassed, `R2A A1, R124`
    sets $a1 to R60's value, 0x100 + 0x10 tid (what the program put there), in every lane; the model (G80's
    zero register) gives 0, so lock-step stops there, at PC 0x18, naming the instruction."""
    _flexgrip_or_skip()
    import tb.adapters.flexgrip as fa
    from tb.lockstep import LockstepRun, run_lockstep

    monkeypatch.setattr(fa, "decode_departures", lambda *a, **k: None)
    src = tmp_path / "r2a_r124.sass"
    src.write_text(R2A_PROBE)
    r = run_lockstep(LockstepRun(str(src), sim="ghdl", profile="flexgrip", dut="flexgrip", out=tmp_path / "run"), rerun_with_waves=False)
    assert not r.passed and r.report is not None
    assert (r.report.pc, r.report.text) == (0x18, "R2A A1, R124")
    (diff,) = [d for d in r.report.diffs if d.field == "addr"]
    assert {(d.lane, int(d.actual, 16), int(d.expected, 16)) for d in diff.lanes} == {(lane, 0x100 + 0x10 * lane, 0) for lane in range(32)}


def test_adapter_refuses_before_building(tmp_path: Path) -> None:
    """A lock-step run of nbody on the flexgrip DUT ends in the adapter's run_test with the instruction named,
    before GHDL is called (no build, no simulation: this test needs neither)."""
    from tb.adapters.flexgrip import FlexgripAdapter
    from tb.lockstep import LockstepRun

    config = LockstepRun(str(KERNELS / "nbody.sass"), sim="ghdl", profile="flexgrip", dut="flexgrip").config(tmp_path / "result.json")
    with pytest.raises(NotRunnable, match=r"R2A A2, R124 at 0x00d8"):
        FlexgripAdapter().run_test(config, tmp_path / "run", False, ())
    assert not (tmp_path / "run").exists()


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
        assert k["measured"]["date"] and k["measured"]["commit"], name  # each entry says when it was measured
        path = ROOT / k["program"]
        if k["outcome"] == "refused":
            assert k["reason"], name
            if path.exists() and k["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest():
                with pytest.raises(NotRunnable):
                    check_runnable(path)
        elif k["outcome"] in ("pass", "fail"):
            assert k["flexgrip_cycles"] > 0 and k["commits"] > 0, name
            assert (k["outcome"] == "fail") == bool(k["failure"]), name


def test_update_merges_and_stamps() -> None:
    """--update: the kernels not run keep their figures and say when they were measured (the old file's date and
    commit when they had no stamp); a kernel run again replaces its entry; the table shows each kernel once."""
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    from flexgrip_regress import kernel_table, merge

    old = {"provenance": {"date": "2026-11-24T16:37:32+00:00", "commit": "49720ed"},
           "kernels": {"dot": {"program": "programs/kernels/dot.sass", "outcome": "pass", "commits": 2408, "flexgrip_cycles": 277928, "rtl_cycles": 9600},
                       "bitonic": {"program": "programs/kernels/bitonic.sass", "outcome": "not run", "reason": "not run"}}}  # fmt: skip
    stamp = {"date": "2026-11-24T19:00:00+00:00", "commit": "abc"}
    new = {"bitonic": {"program": "programs/kernels/bitonic.sass", "outcome": "pass", "commits": 12224, "flexgrip_cycles": 10, "rtl_cycles": 5,
                       "failure": "", "measured": stamp}}  # fmt: skip
    got = merge(old, new)
    assert got["bitonic"] == new["bitonic"]
    assert got["dot"]["measured"] == {"date": "2026-11-24T16:37:32+00:00", "commit": "49720ed"} and got["dot"]["flexgrip_cycles"] == 277928
    table = kernel_table({"provenance": {"num_sp": 8, "ghdl": "GHDL", "flexgripplus": "fg", "rtl": "rtl", "command": "c", "date": "d"},
                          "kernels": dict(sorted(got.items()))})  # fmt: skip
    rows = [line for line in table.splitlines() if line.startswith("| bitonic") or line.startswith("| dot")]
    assert rows == ["| bitonic | pass | 12224 | 10 | 5 | 2.0x |  |  |  |  |  | 2026-11-24 abc |",
                    "| dot | pass | 2408 | 277928 | 9600 | 29.0x |  |  |  |  |  | 2026-11-24 49720ed |"]  # fmt: skip
