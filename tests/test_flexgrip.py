"""FlexGripPlus as a DUT: the loader/export (no simulator needed), the findings table, and a lock-step
smoke set on FlexGripPlus under GHDL (skipped with the reason when no checkout or no GHDL)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from golden.flexgrip_export import NotRunnable, export, flexgrip_image
from golden.flexgrip_findings import FINDINGS
from golden.profile import FLEXGRIP
from golden.program import load_program
from golden.run import RET

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
APPS = SHARED / "flexgripplus" / "applications"
BUNDLES = SHARED / "vectors" / "flexgrip_kernels"

WORD = re.compile(r'when (\d+) => instruction_out <= x"([0-9a-f]{8})"')


def _words(vhd: Path) -> list[int]:
    pairs = [(int(i), int(w, 16)) for i, w in WORD.findall(vhd.read_text(errors="replace"))]
    assert [i for i, _ in pairs] == list(range(len(pairs)))
    return [w for _, w in pairs]


@pytest.mark.parametrize("name", ["iadd", "vecadd", "cf_loop", "fadd"])
def test_export_program(tmp_path: Path, name: str) -> None:
    src = ROOT / "programs" / f"{name}.sass"
    files = {f.name: f for f in export(src, tmp_path)}
    assert set(files) == {"TP_instructions.vhd", "pick_bench.vhd", "global_mem.mif", "constant_mem.mif", "system_mem.mif", "dummy.mif"}
    spec = load_program(src)
    words = _words(files["TP_instructions.vhd"])
    # the assembled program, then the RET FlexGripPlus needs to end (it ignores the exit marker)
    assert words == [*spec.program.words, *RET]
    assert f"TP_INSTRUCTIONS : integer := {len(words)};" in files["TP_instructions.vhd"].read_text()
    image = bytes(int(x, 16) for x in files["global_mem.mif"].read_text().split())
    for buf in spec.buffers.values():
        assert image[buf.addr : buf.addr + buf.nbytes] == buf.init.tobytes()
    pb = files["pick_bench.vhd"].read_text()
    assert f'BENCH_K_BLKX : std_logic_vector(15 downto 0) := x"{spec.block[0]:04x}"' in pb
    params = np.frombuffer(spec.param_bytes(FLEXGRIP.param_slot_bytes_pointer), "<u4")
    for i, p in enumerate(params):
        assert f'BENCH_KREG{i} : std_logic_vector(31 downto 0) := x"{int(p):08x}"' in pb


@pytest.mark.skipif(not (APPS / "VectorAdd_integer").is_dir(), reason="no FlexGripPlus applications folder in ../shared")
def test_export_bundle_matches_the_shipped_application(tmp_path: Path) -> None:
    """A shipped FlexGripPlus application's own files fix the format and the values."""
    files = {f.name: f for f in export(BUNDLES / "VectorAdd_integer.txt", tmp_path)}
    app = APPS / "VectorAdd_integer"
    assert _words(files["TP_instructions.vhd"]) == _words(app / "TP_instructions.vhd")
    ours, theirs = files["pick_bench.vhd"].read_text(), (app / "pick_bench.vhd").read_text()
    for const in ("BENCH_CORES", "BENCH_K_BLKX", "BENCH_K_GRDX", "BENCH_KERNEL_PARAM_SIZE", "BENCH_KERNEL_GPRS", "BENCH_KREG0", "BENCH_KREG1", "BENCH_KREG2",
                  "BENCH_KREG3"):  # fmt: skip
        pat = re.compile(rf"constant {const}\s*:[^=]*:=\s*([^;]+);")
        assert pat.search(ours).group(1).strip().lower() == pat.search(theirs).group(1).strip().lower(), const
    mif_ours = files["global_mem.mif"].read_text().split()
    mif_theirs = (app / "global_mem.mif").read_text().split()
    n = min(len(mif_ours), len(mif_theirs))
    assert n > 0 and [int(x, 16) for x in mif_ours[:n]] == [int(x, 16) for x in mif_theirs[:n]]


def test_flat_constant_memory_conflict_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "banks.sass"
    src.write_text(".buffer o u32 1\n.param o\n.const 0 0 u32 1\n.const 1 0 u32 2\n        MOV32 R1, R0\n        RET\n")
    with pytest.raises(NotRunnable, match="one flat space"):
        flexgrip_image(src)


def test_findings_table() -> None:
    names = [f.name for f in FINDINGS]
    assert len(names) == len(set(names))
    for f in FINDINGS:
        assert f.description and f.first
        if f.program.startswith("programs/") or SHARED.is_dir():
            assert (ROOT / f.program).is_file(), f.program
        assert f.handling == "open" or f.handling.startswith(("profile:", "loader"))
        if f.handling.startswith("profile:"):
            from golden.profile import FLEXGRIP

            assert getattr(FLEXGRIP, f.handling.split(":")[1].split()[0]) is True


def _flexgrip_or_skip() -> None:
    from tb.adapters.flexgrip_build import FlexgripMissing, check_available

    try:
        check_available()
    except FlexgripMissing as exc:
        pytest.skip(str(exc))


def _run(name: str):
    from tb.lockstep import LockstepRun, run_lockstep

    return run_lockstep(LockstepRun(name, sim="ghdl", profile="flexgrip", dut="flexgrip"), rerun_with_waves=False)


@pytest.mark.parametrize("name", ["vecadd", "cf_ifelse"])
def test_flexgrip_lockstep_smoke(name: str) -> None:
    _flexgrip_or_skip()
    r = _run(name)
    assert r.passed, r.summary()
    assert r.commits > 0 and r.cycles > 0


def test_flexgrip_finding_c2r_still_shows() -> None:
    """The open finding c2r_writes_r0 is reported at the instruction the table names."""
    _flexgrip_or_skip()
    r = _run("iadd")
    assert not r.passed and r.report is not None
    assert r.report.pc == 0x60 and "C2R R6, C1" in r.report.text
    assert [d.field for d in r.report.diffs] == ["gpr"]
