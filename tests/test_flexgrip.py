"""FlexGripPlus as a DUT: the loader/export (no simulator needed), the findings table, and a lock-step
smoke set on FlexGripPlus under GHDL (skipped with the reason when no checkout or no GHDL)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from golden.g80.flexgrip_export import NotRunnable, export, flexgrip_image
from golden.g80.flexgrip_findings import FINDINGS, Finding
from golden.g80.profile import FLEXGRIP
from golden.g80.program import load_program
from golden.g80.run import RET

ROOT = Path(__file__).resolve().parents[1]
APPS = Path(os.environ.get("FLEXGRIP_DIR") or ROOT.parent / "shared" / "flexgripplus") / "applications"
BUNDLES = ROOT / "testdata" / "vectors" / "flexgrip_kernels"

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


@pytest.mark.skipif(not (APPS / "VectorAdd_integer").is_dir(), reason="no applications folder in the FlexGripPlus checkout (FLEXGRIP_DIR)")
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
        assert (ROOT / f.program).is_file(), f.program
        assert f.handling in ("open", "waiver") or f.handling.startswith(("profile:", "loader"))
        if f.handling.startswith("profile:"):
            from golden.g80.profile import FLEXGRIP, G80

            switch = f.handling.split(":")[1].split()[0]
            assert getattr(FLEXGRIP, switch) != getattr(G80, switch), switch  # on under flexgrip, off under g80


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


FP_FORMS = frozenset({"FADD", "FADD32", "FADD32I", "FMUL", "FMUL32", "FMUL32I", "FMAD", "FMAD32", "FMAD32I", "FSET", "F2F", "F2I", "I2F",
                      "RCP", "RCP32", "RSQ", "LG2", "EX2", "SIN", "COS", "RRO"})  # fmt: skip


@pytest.mark.parametrize("name", ["fadd", str(BUNDLES / "cos_soft.txt")])
def test_flexgrip_lockstep_fp(name: str) -> None:
    """FP programs pass on FlexGripPlus with no waiver for an FP instruction: every FP difference from
    G80 that FlexGripPlus shows in them is modelled by the flexgrip profile (flexgrip_findings)."""
    from golden.g80.flexgrip_findings import BY_NAME

    _flexgrip_or_skip()
    r = _run(name)
    assert r.passed, r.summary()
    assert r.commits > 0
    for waiver in r.extra.get("waived", {}):
        assert not FP_FORMS & set(BY_NAME[waiver].forms), waiver


def test_flexgrip_cf_barrier_needs_no_waiver() -> None:
    """cf_barrier's two FlexGripPlus behaviours, BAR rewriting $a4 (bit25_incr_a4) and LOP32I working on
    half registers (lop32i_w32_imm_bit30), are modelled by the flexgrip profile: lock-step passes with
    waivers turned off."""
    _flexgrip_or_skip()
    from tb.lockstep import LockstepRun, run_lockstep

    r = run_lockstep(LockstepRun("cf_barrier", sim="ghdl", profile="flexgrip", dut="flexgrip", waive="none"), rerun_with_waves=False)
    assert r.passed, r.summary()
    assert not r.extra.get("waived")


def test_flexgrip_areg_lockstep() -> None:
    """areg exercises most address-register and shared-operand switches (ada_offset_14bit, a0_aliases_a4,
    shared_offset_unsigned, mov_shared_zero_ext, postinc_a4 with R2G and constant operands, const_areg_ignored):
    FlexGripPlus runs it in lock-step with the one waiver whose cause is not traced."""
    _flexgrip_or_skip()
    r = _run("areg")
    assert r.passed, r.summary()
    assert set(r.extra.get("waived") or {}) == {"r2a_shared_source"}


# -- waivers in the scoreboard (no simulator: an independent model plays the DUT, tests/test_scoreboard.py) --


def _c2r_case():
    from dataclasses import replace

    from test_scoreboard import first, rtl_records

    pairs = rtl_records("iadd")
    i = first(pairs, lambda r: r.gpr_we and r.gpr_reg == 6 and r.cc_we == 0 and (r.insn & 0xF0000000) == 0 and r.long)
    r = pairs[i][0]
    return pairs, i, replace(r, gpr_reg=0)  # as FlexGripPlus does it: C2R writes R0


# C2R writing R0 is modelled since (c2r_dest_r0); as a waiver it still shows the mechanism on a record
# the g80 model disagrees with
_C2R_WAIVER = Finding("c2r_writes_r0", "C2R writes R0", "iadd PC 0x60", "programs/iadd.sass", "waiver", True, ("C2R",), frozenset({"gpr"}))


def test_waiver_takes_the_dut_writes_and_is_counted() -> None:
    from golden.g80.profile import G80
    from golden.g80.run import build
    from tb.adapters.rtl import to_dut_commit
    from tb.scoreboard import Scoreboard, Verdict

    pairs, i, bad = _c2r_case()
    spec = load_program(ROOT / "programs" / "iadd.sass")
    sm, _ = build(spec, G80)
    verdict = Verdict({"test": "iadd"}, lambda: None)
    sb = Scoreboard("scoreboard_waiver", None, sm, verdict, waivers=(_C2R_WAIVER,))
    sb.build_phase()
    for rec, reqs in pairs[:i]:
        for q in reqs:
            sb.write_request(q)
        sb.write(to_dut_commit(rec))
    warp = sm.warps[bad.warp]
    r6_before = sm.regs[6, warp.base : warp.base + 32].copy()
    sb.write(to_dut_commit(bad))
    assert verdict.report is None and sb.waived == {"c2r_writes_r0": 1}
    values = [(bad.gpr_data >> (32 * lane)) & 0xFFFFFFFF for lane in range(32)]
    assert sm.regs[0, warp.base : warp.base + 32].tolist() == values  # the DUT's R0
    assert sm.regs[6, warp.base : warp.base + 32].tolist() == r6_before.tolist()  # R6 as before the instruction


def test_without_the_waiver_the_same_record_fails() -> None:
    from test_scoreboard import run_until_failure, with_record

    pairs, i, bad = _c2r_case()
    report = run_until_failure("iadd", with_record(pairs, i, bad))
    assert report.pc == bad.pc and [d.field for d in report.diffs] == ["gpr"]


def test_waivers_name_real_forms() -> None:
    from golden.g80.form import CTRL
    from golden.g80.table import FORMS

    names = {f.name for f in FORMS}
    control = {f.name for f in FORMS if f.fmt == CTRL}
    for f in FINDINGS:
        if f.handling == "waiver":
            assert f.forms and set(f.forms) <= names, f.name
            assert f.fields and f.fields <= {"gpr", "cc", "addr", "exec_mask"}, f.name
            # an exec mask may be waived only for control-flow forms, which write no register the model would take
            assert "exec_mask" not in f.fields or set(f.forms) <= control, f.name


def test_flexgrip_export_command(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "golden", "flexgrip-export", str(ROOT / "programs" / "vecadd.sass"), "-o", str(tmp_path / "x")],
                         capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert out.returncode == 0 and (tmp_path / "x" / "TP_instructions.vhd").exists()
    bad = tmp_path / "banks.sass"
    bad.write_text(".buffer o u32 1\n.param o\n.const 0 0 u32 1\n.const 1 0 u32 2\n        MOV32 R1, R0\n        RET\n")
    out = subprocess.run([sys.executable, "-m", "golden", "flexgrip-export", str(bad), "-o", str(tmp_path / "y")], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1 and "banks.sass" in out.stderr and "one flat space" in out.stderr


@pytest.mark.parametrize(("name", "form"), [("fminmax", "FMAX"), ("s2r", "S2R"), ("local", "LST"), ("isad", "ISAD")])
def test_programs_with_unimplemented_instructions_are_refused(name: str, form: str) -> None:
    """FLEXGRIPPLUS.md section 6 lists these as not implemented: the program is refused with the reason."""
    with pytest.raises(NotRunnable, match=rf"{name}\.sass: {form}\b.*not implemented|{name}\.sass: {form}\b.*no special"):
        flexgrip_image(ROOT / "programs" / f"{name}.sass")


# -- profile switches for FlexGripPlus behaviours seen in lock-step (expected values: what FlexGripPlus
# wrote in iadd and sfu, recorded in golden/g80/flexgrip_findings.py, not the model's output) --

_POSTINC = """.block 32
.registers 8
.shared 256
.buffer o u32 96
.param o
        I2I.U32.U16 R1, R0L
        SHL R2, R1, 0x2
        IADD R3, g [0x4], R2
        R2A A1, R1, 0x2
        ADA A1, A1, 0x100
        R2G.U32.U32 g[A1+0x0], R1
        IADD R6, g [A1+++0x1], R0
        GST.U32 global14[R3], R6
        MVI R7, 0x80
        IADD R3, R3, R7
        A2R R6, A1
        GST.U32 global14[R3], R6
        IADD R3, R3, R7
        A2R R6, A4
        GST.U32 global14[R3], R6
        RET
"""


def test_postinc_a4_as_flexgrip_does(tmp_path: Path) -> None:
    """postinc_a4: FlexGripPlus reads g [A1+++0x1] at A1 + 4 (iadd: lane t got lane t+1's word), leaves
    $a1 and adds destination field * 4 to $a4 (iadd: 0x18 for R6); G80 reads at A1 and adds 4 to $a1."""
    from golden.g80.profile import G80
    from golden.g80.run import run_program

    src = tmp_path / "postinc.sass"
    src.write_text(_POSTINC)
    spec = load_program(src)
    t = np.arange(32, dtype=np.uint32)
    tid = t.astype(np.uint32) & 0xFFFF  # R0 = tid (R0L, high half 0 for a 1-D block)
    for profile, read, a1, a4 in (
        (FLEXGRIP, np.where(t < 31, t + 1, 0) + tid, 0x100 + 4 * t, np.full(32, 6 * 4)),
        (G80, t + tid, 0x104 + 4 * t, np.zeros(32)),
    ):
        r = run_program(spec, profile)
        buf = spec.buffers["o"]
        out = np.frombuffer(r.gmem.data[buf.addr : buf.addr + buf.nbytes].tobytes(), np.uint32)
        assert list(out[:32]) == list(read), profile.name
        assert list(out[32:64]) == list(a1), profile.name
        assert list(out[64:96]) == list(a4), profile.name


def test_global_address_wraps_at_18_bits(tmp_path: Path) -> None:
    """global_addr_bits: FlexGripPlus's global memory port is 18 bits wide (256 KiB), so 0x400000 + p
    stores at p; under g80 the same store is a fault."""
    from golden.errors import MemoryFault
    from golden.g80.profile import G80
    from golden.g80.run import run_program

    src = tmp_path / "wrap.sass"
    src.write_text(".block 1\n.registers 4\n.buffer o u32 1\n.param o\n        MVI R1, 0x4000\n        SHL R1, R1, 0x8\n"
                   "        IADD R2, g [0x4], R1\n        MVI R3, 0x1234\n        GST.U32 global14[R2], R3\n        RET\n")  # fmt: skip
    spec = load_program(src)
    r = run_program(spec, FLEXGRIP)
    buf = spec.buffers["o"]
    assert int(np.frombuffer(r.gmem.data[buf.addr : buf.addr + 4].tobytes(), np.uint32)[0]) == 0x1234
    with pytest.raises(MemoryFault):
        run_program(spec, G80)


# -- make sim DUT=flexgrip's two verdicts (scripts/sim.py): lock-step, then the .expect lines on
# the memory FlexGripPlus left, broken lines named by the known findings that break them


def _model_memory(path: Path, profile: object) -> bytes:
    from golden.g80.run import run_program

    return run_program(load_program(path), profile).gmem.data.tobytes()  # type: ignore[arg-type]


def test_expectations_on_dut_name_the_findings_that_break_them() -> None:
    """Without a simulator: the memory the flexgrip profile leaves stands for FlexGripPlus's. vecadd
    holds; cf_barrier's `out` is broken by LOP32I working on a half register (lop32i_dest, the
    switch lop32i_w32_imm_bit30), which the model reproduces, and holds on G80."""
    from golden.g80.flexgrip_findings import expectations_on_dut
    from golden.g80.profile import G80

    vecadd, barrier = ROOT / "programs" / "vecadd.sass", ROOT / "programs" / "cf_barrier.sass"
    ok = expectations_on_dut(vecadd, _model_memory(vecadd, FLEXGRIP), {})
    assert (ok.total, ok.broken, ok.verdict()) == (1, [], "PASS, 1 of 1 .expect lines hold")
    assert expectations_on_dut(barrier, _model_memory(barrier, G80), {}).broken == []
    ev = expectations_on_dut(barrier, _model_memory(barrier, FLEXGRIP), {})
    assert [(b.buffer, b.causes) for b in ev.broken] == [("out", ["lop32i_w32_imm_bit30 (lop32i_dest)"])]
    assert not ev.unexplained and ev.verdict().startswith("FAIL, 0 of 1 .expect lines hold, 1 broken by known findings")


def test_expectations_broken_where_the_model_holds_are_the_waivers_or_unexplained() -> None:
    """A word FlexGripPlus left different from the model's (lock-step passed: only a waived instruction
    can do that): the waivers applied are the cause; with none applied, no known finding explains it."""
    from golden.g80.flexgrip_findings import expectations_on_dut

    vecadd = ROOT / "programs" / "vecadd.sass"
    spec = load_program(vecadd)
    data = bytearray(_model_memory(vecadd, FLEXGRIP))
    data[spec.buffers["c"].addr] ^= 1
    ev = expectations_on_dut(vecadd, bytes(data), {"iaddc_operand": 2})
    assert [b.causes for b in ev.broken] == [["waiver iaddc_operand x2"]] and not ev.unexplained
    ev = expectations_on_dut(vecadd, bytes(data), {})
    assert len(ev.unexplained) == 1 and "1 broken by no known finding: c (line" in ev.verdict()


def _sim(*args: str) -> tuple[int, list[str]]:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "sim.py"), *args, "--dut", "flexgrip", "--profile", "flexgrip", "--no-waves"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200, check=False)  # fmt: skip
    lines = proc.stdout.splitlines()
    return proc.returncode, lines[-3:]


_WRONG_EXPECT = (ROOT / "programs" / "vecadd.sass").read_text().replace(".expect c = a + b", ".expect c = a + b + 1")


@pytest.mark.parametrize(
    ("program", "extra", "code", "lock", "expect"),
    [
        ("vecadd", (), 0, "PASS, 48 commits compared", "PASS, 1 of 1 .expect lines hold"),
        ("cf_barrier", (), 0, "PASS, 68 commits compared", "FAIL, 0 of 1 .expect lines hold, 1 broken by known findings: out (line 7): lop32i_w32_imm_bit30 (lop32i_dest)"),
        ("wrong_expect", (), 1, "PASS, 48 commits compared", "FAIL, 0 of 1 .expect lines hold, 1 broken by no known finding: c (line"),
        ("iminmax", ("--waive", "none"), 1, "FAIL after", "not judged (lock-step failed"),
        (str(BUNDLES / "cos_soft.txt"), (), 0, "PASS, 36 commits compared", "(the bundle's expected dump): PASS, 12289 of 12289 words match"),
    ],
    ids=["both-pass", "known-finding", "no-known-finding", "lockstep-fails", "bundle"],
)
def test_flexgrip_sim_ends_with_two_verdicts(tmp_path: Path, program: str, extra: tuple[str, ...], code: int, lock: str, expect: str) -> None:
    """The last three lines of a FlexGripPlus run: the lock-step verdict, the expectations verdict and
    the exit code with its reason. wrong_expect is vecadd expecting c = a + b + 1, which no
    FlexGripPlus behaviour explains (it fails on G80 too)."""
    _flexgrip_or_skip()
    if program == "wrong_expect":
        src = tmp_path / "wrong_expect.sass"
        src.write_text(_WRONG_EXPECT)
        program = str(src)
    rc, (first, second, last) = _sim(program, *extra)
    assert first.startswith("lock-step (FlexGripPlus against the flexgrip profile): " + lock), first
    assert second.startswith("expectations on FlexGripPlus's memory") and expect in second, second
    assert rc == code and last.startswith(f"exit {code}: "), (rc, last)
