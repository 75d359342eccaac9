"""Undefined inputs stay undefined in `golden run-flexgrip` (golden/g80/flexgrip_bundle.py, golden/g80/sm.py
`track_undefined`): small hand-made bundles whose .mif holds lines FlexGripPlus's reader leaves U,
with the defined/undefined split worked out by hand, and MxM_naive_float's shipped input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT, SHARED

from golden.g80.assembler import assemble
from golden.g80.flexgrip_bundle import code_lines, read_mif_defined, run_bundle

# a = inputs at 0x000 (p0), b at 0x080 (p1), c = a + b at 0x100 (p2), d = b at 0x180 (p3); then
# a[i] = b[i] over the inputs, and e = (a reloaded) + b at 0x200 (p4): the stored b clears a's undefined words
KERNEL = """
        SHL R1, R0, 0x2
        IADD32 R2, g [0x4], R1
        GLD.U32 R3, global14[R2]
        IADD32 R4, g [0x5], R1
        GLD.U32 R5, global14[R4]
        IADD32 R6, R3, R5
        IADD32 R7, g [0x6], R1
        GST.U32 global14[R7], R6
        IADD32 R7, g [0x7], R1
        GST.U32 global14[R7], R5
        GST.U32 global14[R2], R5
        GLD.U32 R3, global14[R2]
        IADD32 R6, R3, R5
        IADD32 R7, g [0x8], R1
        GST.U32 global14[R7], R6
        RET
"""

# a branch on flags computed from an undefined word: the model stops rather than guess the lanes
BRANCHY = """
        SHL R1, R0, 0x2
        IADD32 R2, g [0x4], R1
        GLD.U32 R3, global14[R2]
        LOP.AND.C0 o[0x7f], R3, R3
        BRA C0.NE, skip
        GST.U32 global14[R2], R1
skip:   RET
"""

A = [0x01000000 * i + 0x1111 * i for i in range(32)]
B = [0x00100000 + 3 * i for i in range(32)]
# words of a with a byte FlexGripPlus's hread cannot read (a one-character line): byte 1 of a[3],
# all of a[7], byte 2 of a[8]
UNDEFINED_BYTES = {(3, 1), (7, 0), (7, 1), (7, 2), (7, 3), (8, 2)}


def _bundle(tmp_path: Path, source: str, name: str, dump: dict[int, int]) -> Path:
    words = assemble(source, name).words
    lines = [f"# FlexGripPlus kernel: {name}",
             "# launch: CORES(SPs)=8 blockDim=(32,1,1) gridDim=(1,1) regs/thread(BENCH_KERNEL_GPRS)=8 shmem_size=36 blocks_per_core=1",
             "#   p0=0x00000000 p1=0x00000080 p2=0x00000100 p3=0x00000180 p4=0x00000200",
             "#   c[0]=0x00000000"]  # fmt: skip
    lines += code_lines(words)
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n")
    mif = []
    for w, value in enumerate(A + B):
        for k in range(4):
            byte = (value >> 8 * k) & 0xFF
            mif.append("0" if w < 32 and (w, k) in UNDEFINED_BYTES else f"{byte:02x}")
    path.with_suffix(".gmem.mif").write_text("\n".join(mif) + "\n")
    path.with_suffix(".expected.log").write_text("".join(f"{a:05X} {v:08X}\n" for a, v in sorted(dump.items())))
    return path


def _hand_dump() -> dict[int, int]:
    """The memory FlexGripPlus would leave, worked out here: c = a + b (what FlexGripPlus holds
    where a was U is unknown: 0xdeadbeef, which would fail if it were compared), d = b, a = b, e = 2b."""
    dump = {}
    for i in range(32):
        undefined = any(w == i for w, _ in UNDEFINED_BYTES)
        dump[0x000 + 4 * i] = B[i]
        dump[0x080 + 4 * i] = B[i]
        dump[0x100 + 4 * i] = 0xDEADBEEF if undefined else (A[i] + B[i]) & 0xFFFFFFFF
        dump[0x180 + 4 * i] = B[i]
        dump[0x200 + 4 * i] = 2 * B[i] & 0xFFFFFFFF
    return dump


def test_mif_reader_marks_lines_hread_cannot_read(tmp_path: Path) -> None:
    """Two hex digits a byte; a one-character line is U (0 in the image); a non-hex line is an error with its line."""
    mif = tmp_path / "x.gmem.mif"
    mif.write_text("ab\n0\n07\nF\n")
    data, undefined = read_mif_defined(mif)
    assert data == bytes([0xAB, 0, 0x07, 0]) and undefined.tolist() == [False, True, False, True]
    mif.write_text("ab\nzz\n")
    with pytest.raises(ValueError, match=r"x.gmem.mif:2:"):
        read_mif_defined(mif)


def test_undefined_inputs_give_undefined_results_only_where_used(tmp_path: Path) -> None:
    """3 input words with U bytes: c[3], c[7], c[8] undefined and not compared; d, the overwritten
    a and e (computed after the overwrite) defined and compared: 4 x 32 + 29 = 157 words pass."""
    r = run_bundle(_bundle(tmp_path, KERNEL, "undef", _hand_dump()))
    assert r.undefined_control == ""
    assert r.undefined_inputs == 3
    assert r.undefined_results == [0x100 + 4 * 3, 0x100 + 4 * 7, 0x100 + 4 * 8]
    assert r.undefined_kept == []
    assert not r.int_failed and not r.float_failed, (r.int_failed + r.float_failed)[:5]
    assert r.int_passed == 157


def test_without_the_overwrite_undefined_inputs_stay(tmp_path: Path) -> None:
    """The same inputs, a kernel that only copies b: the 3 undefined input words stay as they were
    (counted apart, not compared), everything else passes."""
    dump = {0x000 + 4 * i: A[i] for i in range(32)} | {0x080 + 4 * i: B[i] for i in range(32)} | {0x180 + 4 * i: B[i] for i in range(32)}
    for i in (3, 7, 8):
        dump[4 * i] = 0x12345678  # whatever FlexGripPlus shows for a U word: not compared
    src = "SHL R1, R0, 0x2\nIADD32 R4, g [0x5], R1\nGLD.U32 R5, global14[R4]\nIADD32 R7, g [0x7], R1\nGST.U32 global14[R7], R5\nRET\n"
    r = run_bundle(_bundle(tmp_path, src, "kept", dump))
    assert r.undefined_results == [] and r.undefined_kept == [12, 28, 32]
    assert not r.int_failed and r.int_passed == 96 - 3


def test_branch_on_undefined_flags_stops_as_undefined_control(tmp_path: Path) -> None:
    r = run_bundle(_bundle(tmp_path, BRANCHY, "branchy", {0: 0}))
    assert "guarded by flags C0 computed from undefined input" in r.undefined_control
    assert "lane 3" in r.undefined_control  # a[3] is the first undefined word, read by lane 3


def test_run_flexgrip_prints_undefined_counts_and_exit_codes(tmp_path: Path) -> None:
    ok = _bundle(tmp_path, KERNEL, "undef", _hand_dump())
    out = subprocess.run([sys.executable, "-m", "golden", "run-flexgrip", str(ok)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "3 results undefined (computed from 3 undefined input words), not compared" in out.stdout
    assert out.stdout.strip().endswith("157 passed, 0 failed")
    stop = _bundle(tmp_path, BRANCHY, "branchy", {0: 0})
    out = subprocess.run([sys.executable, "-m", "golden", "run-flexgrip", str(stop)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 1 and "undefined control flow, nothing compared" in out.stdout


def test_mxm_naive_float_results_are_undefined_not_failed(tmp_path: Path) -> None:
    """MxM_naive_float (FlexGripPlus's application): its .mif holds one-character lines, so 738 words
    of B are U; C = A x B at 0x2000 is undefined in every column that holds one (worked out from the
    .mif here: every one of the 32), so all 1,024 FP results are undefined and none is compared.
    The authors' dump comes from a run with other parameters than the shipped pick_bench's (the
    kernel stores at p2 = 0x2000; the dump holds products at 0x0-0xffc, over A, and the input
    unchanged at 0x2000): 1,024 integer mismatches at 0x0-0xffc that undefinedness does not touch."""
    app = SHARED / "flexgripplus" / "applications" / "MxM_naive_float"
    if not (app / "TP_instructions.vhd").is_file():
        pytest.skip(f"no FlexGripPlus application {app}")
    sys.path.insert(0, str(ROOT / "scripts"))
    import flexgrip_app_bundle

    path = flexgrip_app_bundle.make_bundle(app, "MxM_naive_float", tmp_path, app / "Golden_memory_result.log")
    lines = (app / "global_mem.mif").read_text().split()
    u = np.array([len(x) != 2 for x in lines]).reshape(-1, 4).any(axis=1)  # per input word
    b = u[0x1000 // 4 : 0x2000 // 4].reshape(32, 32)  # B[k][j]
    want_undefined = 32 * int(b.any(axis=0).sum())
    r = run_bundle(path)
    assert r.undefined_control == ""
    assert r.undefined_inputs == int(u.sum()) == 738
    assert len(r.undefined_results) == want_undefined == 1024
    assert r.undefined_results == list(range(0x2000, 0x3000, 4))
    assert r.float_passed == 0 and not r.float_failed
    assert len(r.undefined) == 738  # the same words are U in the authors' dump
    assert {w.addr >> 12 for w in r.int_failed} == {0} and len(r.int_failed) == 1024
    image = np.frombuffer(bytes(int(x, 16) if len(x) == 2 else 0 for x in lines), "<u4")
    assert all(w.got == image[w.addr // 4] for w in r.int_failed)  # the model leaves A as it was


def test_undefined_value_through_local_memory_and_address_register(tmp_path: Path) -> None:
    """A value stored to local memory and loaded back stays undefined where it was (lanes 3, 7, 8),
    and so does an address register set from an undefined word (its value is 0 in every lane): a
    shared load through it is undefined there. (A constant operand's address register would not
    do: FlexGripPlus ignores it, profile switch const_areg_ignored.)"""
    src = """
        SHL R1, R0, 0x2
        IADD32 R2, g [0x4], R1
        GLD.U32 R3, global14[R2]
        R2A A1, R1
        LST.U32 local[A1+0x0], R3
        LLD.U32 R5, local[A1+0x0]
        IADD32 R7, g [0x7], R1
        GST.U32 global14[R7], R5
        LOP.AND R4, R3, c[0x0][0x0]
        R2A A2, R4
        IADD R6, g [A2+0x4], R124
        IADD32 R7, g [0x8], R1
        GST.U32 global14[R7], R6
        RET
"""
    dump = {0x180 + 4 * i: A[i] for i in range(32)} | {0x200 + 4 * i: 0 for i in range(32)}
    r = run_bundle(_bundle(tmp_path, src, "local", dump))
    assert r.undefined_control == ""
    assert r.undefined_results == [0x180 + 4 * i for i in (3, 7, 8)] + [0x200 + 4 * i for i in (3, 7, 8)]
    assert not r.int_failed and r.int_passed == 2 * 29
