"""LG lock-step (tb/lg/, make sim ISA=lg): every program of programs/lg passes on the LG core, broken
copies of the core are caught at the exact instruction, and bad programs end in their one line.

Every program runs on Verilator; a handful also on Icarus (its 4-state simulation is where an X on
the commit port shows). The broken cores are copies of rtl/lg/ with one line edited (`MUTANTS`:
file, the exact text, its replacement); each must be reported at the instruction named here,
worked out by hand from the program and the edit, not read back from a run.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from golden.lg.model import Machine
from golden.lg.state import HEIGHT, WIDTH
from tb.lg.golden_run import check_expects
from tb.lg.lockstep import run_lockstep
from tb.lg.program import PROGRAMS, load
from tb.runner import ROOT, FileList

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NAMES = sorted(p.stem for p in PROGRAMS.glob("*.lgs"))
ICARUS = ["alu", "hazard_raw_scalar", "hazard_jsr_link", "hazard_load_use", "translate"]
BAD = sorted(p.stem for p in (PROGRAMS / "bad").glob("*.lgs"))
# the exit code of each bad program: 2 for what is wrong with the input as written (assembly, a header
# line), 1 for a program that assembles but fails when run
BAD_CODES = {"unknown_mnemonic": 2, "r15_write": 2, "bad_expect": 2, "runaway": 1, "misaligned_jump": 1}


def test_the_programs_cover_the_families_and_demos() -> None:
    families = {"alu", "move", "compare", "vector", "loadstore", "transform", "matrix", "primitive", "branch", "jump"}
    hazards = {"hazard_raw_scalar", "hazard_raw_vector", "hazard_load_use", "hazard_branch_cc", "hazard_jsr_link"}
    demos = {"three_triangles", "translate", "scale", "rotate_anim"}
    assert families | hazards | demos <= set(NAMES)
    assert set(BAD) == set(BAD_CODES)


@pytest.mark.parametrize("name", NAMES)
def test_golden_model_meets_the_programs_expectations(name: str) -> None:
    """The hand-written `;! expect` lines hold on the model (the lock-step runs then hold the RTL to it)."""
    t = load(name)
    m = Machine(t.profile)
    m.load(t.words, t.data)
    records = m.run(t.max_steps)
    assert check_expects(t, m, records) == []
    assert t.expects or name in ("transform", "matrix"), f"{name} states no expectation"


def test_the_demos_draw_frames() -> None:
    t = load("rotate_anim")
    m = Machine(t.profile)
    m.load(t.words, t.data)
    m.run(t.max_steps)
    drawn = [f.rgb for f in m.frames if f.reason == "draw"]
    assert len(drawn) == 4
    assert all(f.any() for f in drawn) and not any((a == b).all() for a, b in pairwise(drawn))


@pytest.mark.parametrize("name", NAMES)
def test_program_passes_lockstep_verilator(name: str, tmp_path: Path) -> None:
    r = run_lockstep(load(name), "verilator", out_dir=tmp_path)
    assert r.passed, r.report.to_text() if r.report else ""
    assert r.commits > 0


@pytest.mark.parametrize("name", ICARUS)
def test_program_passes_lockstep_icarus(name: str, tmp_path: Path) -> None:
    r = run_lockstep(load(name), "icarus", out_dir=tmp_path)
    assert r.passed, r.report.to_text() if r.report else ""
    assert r.commits > 0


# -- broken cores -------------------------------------------------------------------------------------

# name: (file of rtl/lg, the exact text, its replacement, program, expected kind, PC, instruction, field)
MUTANTS = {
    # EX forgets the EX/MEM -> EX forwarding of its first scalar operand: `addi.d r1 r0 2` right after
    # `movi.d r0 1` (pc 0x0004) reads the stale r0 = 0 and writes 2, not 3
    "forwarding": ("lg_ex.v", ": (m_fwd && exmem_rd == ra) ? exmem_rd_val", ": (1'b0 && exmem_rd == ra) ? exmem_rd_val",
                   "hazard_raw_scalar", "mismatch", 0x0004, "addi.d r1 r0 2", "rd_val"),
    # cmp/cmpi write N and P swapped: the first compare, `cmp r0 r1` (pc 0x000c, 5 > -32768), writes N, not P
    "cc": ("lg_ex.v", "wire [2:0] cc_cmp = {!lt && !eq, eq, lt};", "wire [2:0] cc_cmp = {lt, eq, !lt && !eq};",
           "compare", "mismatch", 0x000C, "cmp r0 r1", "cc"),
    # the branch reads the CC register, not the CC of the instruction just before it: `brz a` right
    # after `addi.d r0 r0 -1` (pc 0x000c) sees the reset CC (no flag) and falls through
    "cc_forwarding": ("lg_ex.v", "wire [2:0] cc_in = (exmem_valid && exmem_cc_we) ? exmem_cc", "wire [2:0] cc_in = (1'b0 && exmem_cc_we) ? exmem_cc",
                      "hazard_branch_cc", "mismatch", 0x000C, "brz 1", "next_pc"),
    # the edge test without its tie rule covers every pixel centre on an edge: the left triangle of
    # edge_tie (its endprimitive at pc 0x0054) takes the 80 pixels of column 320 too, so its record
    # counts 2540 + 80 fragments (its pixels wait for the model's, which come with that record)
    "edge": ("lg_gfx.v", "edge_in = e > 0 || (e == 0 && (ea > 0 || (ea == 0 && eb > 0)));", "edge_in = e >= 0;",
             "edge_tie", "mismatch", 0x0054, "endprimitive", "frags"),
    # every pixel leaves the core with its blue nibble's low bit flipped: the first write of the first
    # triangle of three_triangles (its endprimitive at pc 0x0058) differs in fb_data
    "fb_data": ("lg_gfx.v", "fb_data <= rcol;", "fb_data <= rcol ^ 12'h001;",
                "three_triangles", "frame_mismatch", 0x0058, "endprimitive", "fb_data"),
}  # fmt: skip


def broken_core(tmp_path: Path, file: str, old: str, new: str) -> FileList:
    """A copy of rtl/lg (sources and headers in one folder) with one edit; its file list."""
    src = ROOT / "rtl" / "lg"
    out = tmp_path / "rtl"
    out.mkdir()
    for f in [*src.glob("*.v"), *src.glob("*.vh"), *(src / "gen").glob("*.vh")]:
        shutil.copy(f, out / f.name)
    text = (out / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{file}: the mutant's text is not there exactly once (did rtl/lg change?): {old}"
    (out / file).write_text(text.replace(old, new), encoding="utf-8")
    order = [Path(line.strip()).name for line in (src / "lg.f").read_text(encoding="utf-8").splitlines() if line.strip().endswith(".v")]
    return FileList(tuple(out / n for n in order), (out,))


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_broken_core_is_caught_at_the_instruction(mutant: str, tmp_path: Path) -> None:
    file, old, new, program, kind, pc, text, field = MUTANTS[mutant]
    files = broken_core(tmp_path, file, old, new)
    r = run_lockstep(load(program), "icarus", dut=f"mutant_{mutant}", files=files, out_dir=tmp_path / "run")
    assert not r.passed and r.report is not None
    report = r.report
    assert (report.kind, report.pc, report.text) == (kind, pc, text), report.to_text()
    assert report.diffs and report.diffs[0].field == field, report.to_text()
    shown = report.to_text()
    assert f"PC {pc:#06x}" in shown and text in shown and f"field {field}:" in shown
    if mutant == "edge":
        assert report.diffs[0].expected == "0x009ec" and report.diffs[0].actual == "0x00a3c"  # 2540 and 2620


def test_frame_mismatch_writes_the_diff_image(tmp_path: Path) -> None:
    from PIL import Image

    file, old, new, program, *_ = MUTANTS["fb_data"]
    r = run_lockstep(load(program), "icarus", dut="mutant_fb", files=broken_core(tmp_path, file, old, new), out_dir=tmp_path / "run")
    assert r.report is not None and r.report.image
    with Image.open(r.report.image) as im:
        assert im.size == (3 * WIDTH + 8, HEIGHT)
        px = im.convert("RGB")
        # the first triangle's first pixel: the model's red 0xF00 on the left; the DUT's 0xF01 in the middle
        m = re.search(r"first wrong pixel \(row (\d+), col (\d+)\): expected 0xf00, got 0xf01", r.report.message)
        assert m, r.report.message
        row, col = int(m[1]), int(m[2])
        assert px.getpixel((col, row)) == (255, 0, 0)
        assert px.getpixel((WIDTH + 4 + col, row)) == (255, 0, 17)
        assert px.getpixel((2 * WIDTH + 8 + col, row)) in ((255, 0, 255), (255, 255, 255))
    assert f"diff image: {r.report.image}" in r.report.to_text()


def test_a_core_that_never_commits_is_a_hang(tmp_path: Path) -> None:
    files = broken_core(tmp_path, "lg_mem.v", "memwb_valid <= exmem_valid;", "memwb_valid <= 1'b0;")
    r = run_lockstep(load("alu"), "icarus", dut="mutant_nocommit", files=files, out_dir=tmp_path / "run", hang_cycles=500)
    assert r.report is not None and r.report.kind == "hang" and r.commits == 0
    assert "no commit and no frame-buffer event for 500 cycles, before the first commit" in r.report.message


def test_x_on_a_valid_commit_field(tmp_path: Path) -> None:
    """Icarus: a load's value is X; the first load, `ldw r1 r0 0` at pc 0x0004, is named with the signal."""
    files = broken_core(tmp_path, "lg_mem.v", "memwb_rd_val <= load ? ld_val : exmem_rd_val;", "memwb_rd_val <= load ? 16'bx : exmem_rd_val;")
    r = run_lockstep(load("loadstore"), "icarus", dut="mutant_x", files=files, out_dir=tmp_path / "run")
    assert r.report is not None and r.report.kind == "x_or_z", r.report
    assert (r.report.pc, r.report.text) == (0x0004, "ldw r1 r0 0")
    assert r.report.message.startswith("cm_rd_val is ")


# -- make sim ISA=lg ----------------------------------------------------------------------------------


def _sim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/sim.py", "--isa", "lg", *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)


@pytest.mark.parametrize("name", BAD)
def test_bad_program_ends_in_its_error_line(name: str) -> None:
    path = f"programs/lg/bad/{name}.lgs"
    want = re.search(r"^;! error (.*)$", (ROOT / path).read_text(encoding="utf-8"), re.M)
    assert want, f"{path} has no ;! error line"
    proc = _sim(path)
    err = proc.stderr.strip().splitlines()
    assert "Traceback" not in proc.stdout + proc.stderr
    assert err == [f"sim: {want[1]}"], proc.stderr
    assert proc.returncode == BAD_CODES[name]


def test_sim_prints_outcome_commits_cycles_and_frames() -> None:
    proc = _sim("translate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    frame = ROOT / "build" / "sim" / "lg" / "translate" / "frame_0.png"
    assert f"golden model: translate: PASS, 61 instructions, ended by halt, frames: {frame}" in proc.stdout
    assert re.search(r"lock-step translate on rtl \(verilator\): PASS, 61 commits compared, 3840 pixels checked, \d+ cycles", proc.stdout)
    assert frame.is_file()


def test_bring_your_own_core(tmp_path: Path) -> None:
    """A core whose top is not lg_core, wrapped by tb/lg/example_wrapper.v, runs with DUT=name RTL=files."""
    files = broken_core(tmp_path, "lg_core.v", "module lg_core #(", "module my_gpu #(")
    rtl = " ".join(str(f) for f in files.sources) + " " + str(ROOT / "tb" / "lg" / "example_wrapper.v")
    proc = subprocess.run(["make", "sim", "ISA=lg", "TEST=hazard_jsr_link", "DUT=mycore", f"RTL={rtl}"], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "lock-step hazard_jsr_link on mycore (verilator): PASS, 15 commits compared" in proc.stdout
    missing = subprocess.run(["make", "sim", "ISA=lg", "DUT=mycore", f"RTL={' '.join(str(f) for f in files.sources)}"], cwd=ROOT,
                             capture_output=True, text=True, check=False, timeout=120)  # fmt: skip
    assert missing.returncode == 2
    assert "no module lg_core in those files" in missing.stderr.splitlines()[-2]
