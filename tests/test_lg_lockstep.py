"""LG lock-step (tb/lg/, make sim ISA=lg): every program of programs/lg passes on the LG core, broken
copies of the core are caught at the exact instruction, and bad programs end in their one line.

Every program runs on Verilator; a handful also on Icarus (its 4-state simulation is where an X on
the commit port shows). With --regress (`make regress ISA=lg`, tb/regress.py) every program runs on
both; each lock-step run and each bad program then also writes its outcome as JSON in $REGRESS_DIR
when that is set (`golden regress-summary --isa lg`), and with REGRESS_RESUME=1 one already recorded
there gives its recorded outcome instead of running again (a resumed regression). The broken cores are copies of rtl/lg/ with one line edited (`MUTANTS`:
file, the exact text, its replacement); each must be reported at the instruction named here,
worked out by hand from the program and the edit, not read back from a run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

import pytest

from golden.lg.model import Machine
from golden.lg.state import HEIGHT, WIDTH
from tb.lg.golden_run import check_expects
from tb.lg.lockstep import run_lockstep
from tb.lg.program import PROGRAMS, load
from tb.runner import ROOT, SIMULATORS, FileList

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NAMES = sorted(p.stem for p in PROGRAMS.glob("*.lgs"))
# matrix: popping a full stack reads its last entry through a wrapped 4-bit index, which Icarus alone
# could read as X
ICARUS = ["alu", "hazard_raw_scalar", "hazard_jsr_link", "hazard_load_use", "translate", "matrix"]
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


def _kept(record: str) -> Path | None:
    """The record of a run in $REGRESS_DIR (make regress ISA=lg), or None outside a regression."""
    folder = os.environ.get("REGRESS_DIR")
    return Path(folder) / record if folder else None


def _resumed(kept: Path | None) -> dict | None:
    """A run an interrupted `make regress ISA=lg` finished: its record, so its outcome is not run again."""
    if kept is not None and os.environ.get("REGRESS_RESUME") == "1" and kept.is_file():
        return json.loads(kept.read_text(encoding="utf-8"))
    return None


def _write_record(kept: Path, record: dict) -> None:
    kept.parent.mkdir(parents=True, exist_ok=True)
    part = kept.with_suffix(".part")  # renamed when whole: an interrupt leaves no half-written record to resume from
    part.write_text(json.dumps(record) + "\n", encoding="utf-8")
    part.replace(kept)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ != "test_lockstep":
        return
    full = metafunc.config.getoption("--regress")
    cases = [(n, sim) for n in NAMES for sim in SIMULATORS if full or sim == "verilator" or n in ICARUS]
    metafunc.parametrize(("name", "sim"), cases, ids=[f"{n}-{s}" for n, s in cases])


def test_lockstep(name: str, sim: str, tmp_path: Path) -> None:
    kept = _kept(f"{name}_{sim}.json")
    record = _resumed(kept)
    if record is not None:
        assert record["passed"], record["summary"]
        assert record["commits"] > 0
        return
    rerun = f"make sim ISA=lg TEST={name} SIM={sim} WAVES=1"
    start = time.monotonic()
    # in a regression the run's folder is make sim's (build/sim/lg/<name>/rtl_<sim>), where its report and diff image stay
    r = run_lockstep(load(name), sim, out_dir=None if kept is not None else tmp_path, rerun=rerun)
    summary = r.summary(name, sim, "rtl")
    if kept is not None:
        rep = r.report
        _write_record(kept, {"isa": "lg", "program": name, "sim": sim, "passed": r.passed, "commits": r.commits, "cycles": r.cycles,
                             "pixels": r.fb_writes, "wall": round(time.monotonic() - start, 2), "rerun": rerun,
                             "kind": rep.kind if rep else None, "message": rep.message if rep else None,
                             "pc": rep.pc if rep else None, "text": rep.text if rep else None,
                             "field": rep.diffs[0].field if rep and rep.diffs else None,
                             "wave_file": rep.wave_file if rep else None, "image": rep.image if rep else None,
                             "report": str(r.out_dir / "report.json") if rep else None, "summary": summary})  # fmt: skip
    assert r.passed, summary
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


def test_x_on_the_matrix_names_its_bits(tmp_path: Path) -> None:
    """Icarus: the commit port's matrix is X in its low 32 bits on every commit; the first commit
    (pc 0x0000) is named with the signal, and the message counts the bits rather than printing 512."""
    files = broken_core(tmp_path, "lg_core.v", "assign cm_mat = grec[LG_G_MAT +: 512];", "assign cm_mat = {grec[LG_G_MAT + 32 +: 480], 32'bx};")
    r = run_lockstep(load("alu"), "icarus", dut="mutant_matx", files=files, out_dir=tmp_path / "run")
    assert r.report is not None and r.report.kind == "x_or_z", r.report
    assert r.report.pc == 0x0000
    assert r.report.message.startswith("cm_mat is X or Z in 32 of its 512 bits (bits 0..31) at cycle ")


# -- make sim ISA=lg ----------------------------------------------------------------------------------


def _sim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/sim.py", "--isa", "lg", *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)


@pytest.mark.parametrize("name", BAD)
def test_bad_program_ends_in_its_error_line(name: str) -> None:
    path = f"programs/lg/bad/{name}.lgs"
    want = re.search(r"^;! error (.*)$", (ROOT / path).read_text(encoding="utf-8"), re.M)
    assert want, f"{path} has no ;! error line"
    kept = _kept(f"bad-{name}.json")
    record = _resumed(kept)
    if record is not None:
        assert record["passed"], record["summary"]
        return
    start = time.monotonic()
    proc = _sim(path)
    err = proc.stderr.strip().splitlines()
    checks = [("no traceback", "Traceback" not in proc.stdout + proc.stderr), ("its one error line", err == [f"sim: {want[1]}"]),
              (f"exit {BAD_CODES[name]}", proc.returncode == BAD_CODES[name])]  # fmt: skip
    broken = [what for what, ok in checks if not ok]
    summary = f"{path}: expected {', '.join(w for w, _ in checks)}; got exit {proc.returncode}, stderr {' | '.join(err[-3:]) or '(empty)'}"
    if kept is not None:
        _write_record(kept, {"isa": "lg", "bad": True, "program": f"bad/{name}", "passed": not broken, "expected": f"sim: {want[1]}",
                             "expected_exit": BAD_CODES[name], "exit": proc.returncode, "got": err[-1] if err else "",
                             "broken": broken, "wall": round(time.monotonic() - start, 2), "rerun": f"make sim ISA=lg TEST={path}",
                             "summary": summary})  # fmt: skip
    assert "Traceback" not in proc.stdout + proc.stderr, summary
    assert err == [f"sim: {want[1]}"], proc.stderr
    assert proc.returncode == BAD_CODES[name], summary


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


# -- the frame-buffer stream, without a simulator ------------------------------------------------------


def _replay(name: str, tmp_path: Path, drop: str | None = None, extra: tuple | None = None, writes_after_commit: bool = False):
    """Feed the scoreboard the commit records and frame-buffer events of a correct core, worked out
    from the program by a second model (fields and events as the port carries them), with one
    event dropped (`drop`: "draw" or "clear") or one extra pixel written at the end (`extra`)."""
    from tb.lg.scoreboard import LgScoreboard, expected_port

    t = load(name)
    sb = LgScoreboard(t, {"test": name, "simulator": "none"}, tmp_path)
    m = Machine(t.profile)
    m.load(t.words, t.data)
    cycle = 0
    while not m.done:
        c = m.step()
        events = [("write", int(a), c.fb.data) for a in c.fb.addr] if c.fb is not None else []
        if c.fb_event:
            events.append(("clear",) if c.fb_event == "flush" else ("draw",))
        events = [e for e in events if e[0] != drop]
        if not writes_after_commit:  # this core writes a primitive's pixels before its record, as rtl/lg does
            for e in events:
                cycle += 1
                sb.fb_event(cycle, e)
        cycle += 1
        sb.commit(cycle, expected_port(c, len(m.st.stack)))
        if writes_after_commit:
            for e in events:
                cycle += 1
                sb.fb_event(cycle, e)
    if extra is not None:
        sb.fb_event(cycle + 1, extra)
    sb.end(cycle + 2, finished=True)
    return sb


@pytest.mark.parametrize("after", [False, True])
def test_frame_stream_of_a_correct_core_passes(tmp_path: Path, after: bool) -> None:
    """Pixels before or after their endprimitive's record: both are a correct core."""
    sb = _replay("primitive", tmp_path, writes_after_commit=after)
    assert sb.report is None and sb.fb_writes == 2 * 5120


def test_a_lost_draw_is_named(tmp_path: Path) -> None:
    sb = _replay("translate", tmp_path, drop="draw")
    assert sb.report is not None and sb.report.kind == "frame_mismatch"
    assert sb.report.text == "draw" and sb.report.diffs[0].field == "fb_event"
    assert "never gave the draw" in sb.report.message


def test_a_clear_missing_before_pixels_is_a_frame_mismatch(tmp_path: Path) -> None:
    """translate starts with flush: without its clear, the first pixel comes where the clear was due."""
    sb = _replay("translate", tmp_path, drop="clear")
    assert sb.report is not None and sb.report.kind == "frame_mismatch"
    assert sb.report.text == "flush" and sb.report.diffs[0].field == "fb_event"
    assert sb.report.diffs[0].expected == "clear (fb_clear)" and sb.report.diffs[0].actual.startswith("write 0xf80 at ")


def test_an_extra_pixel_after_the_last_primitive_is_named(tmp_path: Path) -> None:
    sb = _replay("translate", tmp_path, extra=("write", 5, 0xABC))
    assert sb.report is not None and sb.report.kind == "frame_mismatch"
    assert sb.report.diffs[0].expected == "no event (the model's frame was complete)"
    assert sb.report.diffs[0].actual == "write 0xabc at 5 (row 0, col 5)"
    assert sb.report.message.startswith("frame buffer differs after the model's last frame-buffer event: 1 pixel(s) differ")
    assert "first wrong pixel (row 0, col 5): expected 0x000, got 0xabc" in sb.report.message and sb.report.pc is None
    assert Path(sb.report.image or "").is_file()
