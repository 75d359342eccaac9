"""Functional coverage (golden/coverage): the model follows the encoding table, sampling classifies
commit records as ISA.md defines the classes, files merge, and the reports are what they claim."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from golden.coverage import write_reports
from golden.g80 import conditions
from golden.g80.commit import Commit, RegWrite
from golden.g80.coverage import Coverage, model
from golden.g80.coverage_model import CROSSES, FLAG_BINS, MARK, R_INF, R_NAN, R_NEG, R_POS, R_ZERO, Dyn, pack_dyn
from golden.g80.coverage_run import run_with_coverage
from golden.g80.coverage_sample import dyn_key, flag_class, packed, plan_word, result_class, spread
from golden.g80.form import IMM, LONG, SHORT
from golden.g80.isa import assemble_instruction
from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.table import FORMS

FULL = 0xFFFFFFFF


def run_source(tmp_path: Path, body: str, name: str = "p") -> Coverage:
    """Coverage of a one-warp program (32 threads) whose code is `body`."""
    src = tmp_path / f"{name}.sass"
    src.write_text(".block 32\n.buffer out u32 32\n.param out\n.expect out = 0 * np.arange(32)\n" + body + "\n        NOP\n")
    cov = Coverage(run=name)
    result = run_with_coverage(load_program(src), G80, cov)
    assert not result.failed
    return cov


# ---------------------------------------------------------------------------------------------
# the model is the table's


def test_every_form_has_its_points() -> None:
    m = model()
    assert [g.name for g in m.groups[: len(FORMS)]] == [f.name for f in FORMS]
    for form in FORMS:
        points = {p.name: p for p in m.by_form[form.name].points}
        for universal in ("lanes", "guard", "$c write", "marker"):
            assert universal in points, (form.name, universal)
        for mods in form.mods:
            if mods is MARK or mods.what == "$c write":
                continue
            assert [b.name for b in points[mods.what].bins] == [t or "(none)" for t, _ in mods.options], (form.name, mods.what)
        for a, c in CROSSES.get(form.name, []):
            na = len(next(x for x in form.mods if x.what == a).options)
            nc = len(next(x for x in form.mods if x.what == c).options)
            assert len(points[f"{a} x {c}"].bins) == na * nc


def test_bin_counts_of_some_forms() -> None:
    m = model()
    i2i = {p.name: len(p.bins) for p in m.by_form["I2I"].points}
    assert i2i["destination type"] == 6 and i2i["source type"] == 8 and i2i["destination type x source type"] == 48
    iset = {p.name: [b.name for b in p.bins] for p in m.by_form["ISET"].points}
    assert iset["cond"] == [conditions.NAMES[c] for c in range(8)]  # the 3-bit compare field
    assert len({p.name: p for p in m.by_form["FSET"].points}["cond"].bins) == 16
    iadd = {p.name: [b.name for b in p.bins] for p in m.by_form["IADD"].points}
    assert iadd["src1"] == ["R", "RnL", "RnH", "g[x]", "g[An+x]", "g[An++x]"]  # shared-capable slot 1, half when 16-bit
    assert iadd["src3"] == ["R", "RnL", "RnH", "c[x]", "c[An+x]", "c[An++x]"]  # constant-capable slot 3
    assert iadd["carry"] == [".CARRY0", ".CARRY1", ".CARRY2", ".CARRY3", "(none)"]
    assert iadd["flags"] == list(FLAG_BINS)
    guard = m.by_form["GUARD"].points[0]
    assert len(guard.bins) == 32 * 4  # 5-bit condition field x 4 $c registers
    assert len(m.bins) == len(m.by_key)


def test_exclusions_have_reasons_and_match_the_formats() -> None:
    m = model()
    excluded = [b for b in m.bins if b.excluded]
    assert excluded and all(isinstance(b.excluded, str) and len(b.excluded) > 20 for b in excluded)
    for form in FORMS:
        points = {p.name: {b.name: b.excluded for b in p.bins} for p in m.by_form[form.name].points}
        if "cdst" not in form.fields:  # no $c write field: it cannot write $c
            assert all(points["$c write"][f"C{n}"] for n in range(4)), form.name
        if form.fmt in (SHORT, IMM):  # no guard field, no marker
            assert all(points["guard"][f"C{n}"] for n in range(4)) and points["lanes"]["none"], form.name
            assert points["marker"][".S"] and points["marker"][".E"], form.name
        if form.family == "tex":  # decoded, never executed (no texture unit): every bin excluded, with the reason
            assert all(r for bins in points.values() for r in bins.values()), form.name
            assert "texture unit" in str(points["lanes"]["all 32"]), form.name
        elif form.fmt == LONG:
            assert not any(points["marker"].values()) and not points["guard"]["C1"], form.name
    flags = {b.name: b.excluded for b in next(p for p in m.by_form["IMUL"].points if p.name == "flags").bins}
    assert flags["C=1"] and flags["O=1"] and not flags["C=0"] and not flags["Z=1"]  # ISA.md 3.2: C = O = 0
    assert all(b.excluded for p in m.by_form["TRAP"].points for b in p.bins)  # never commits


# ---------------------------------------------------------------------------------------------
# sampling


def commit_for(text: str, exec_mask: int = FULL, active: int = FULL, pc: int = 0x40) -> Commit:
    insn = assemble_instruction(text)
    return Commit(0, 0, 0, pc, insn.word, insn.size, active, exec_mask, pc + insn.size, active, False, text=text)


def test_dyn_key_layout_is_pack_dyn() -> None:
    c = commit_for("IADD.C1 R1, R2, R3", exec_mask=0x0000FFFF, active=0x00FFFFFF)
    values = np.array([0, 0x80000000, 7] + [0] * 29, np.uint32)
    values[20] = 0x80000000  # outside exec_mask: must not count
    c.gpr.append(RegWrite("gpr", 1, values))
    c.cc.append(RegWrite("cc", 1, np.array([1, 2, 4] + [0] * 29, np.uint32)))
    key = dyn_key(c, plan_word(c.insn, c.size), 3)
    # lanes some, active some, outcome some, depth 2+, results zero|negative|positive, Z S C set; Z S C O clear somewhere
    assert key == pack_dyn(1, 1, 1, 2, 1 | 2 | 4, 0b0111 | 0b1111 << 4, False)
    d = Dyn.unpack(key)
    assert (d.lanes, d.active_lanes, d.outcome, d.depth, d.result, d.flags) == (1, 1, 1, 2, 7, 0xF7)


@pytest.mark.parametrize(("values", "half", "want"), [
    ([5] * 32, None, {"positive"}),
    ([0] * 31 + [0xFFFFFFFF], None, {"zero", "negative"}),
    ([0x8000] * 32, "L", {"negative"}),  # 16-bit result: bit 15 is the sign
    ([0x7FFF, 0] * 16, "H", {"zero", "positive"}),
])  # fmt: skip
def test_integer_result_classes(values: list[int], half: str | None, want: set[str]) -> None:
    text = "IADD.U16 R1L, R2L, R3L" if half else "IADD R1, R2, R3"
    cov = Coverage()
    c = commit_for(text)
    c.gpr.append(RegWrite("gpr", 1, np.array(values, np.uint32), half))
    cov.sample(c, 0)
    got = {n for n in ("zero", "negative", "positive") if cov.count(f"IADD/result/{n}")}
    assert got == want


def test_lane_classification_against_numpy() -> None:
    """The packed-integer classifiers agree with a plain numpy computation of the classes over the
    executing lanes (ISA.md 2.1 flag order; float classes by exponent and mantissa)."""
    rng = np.random.default_rng(5)
    for trial in range(400):
        half, fp = trial % 2 == 0, trial % 3 == 0
        width = 16 if half else 32
        sign, inf = 1 << (width - 1), (0x7C00 if half else 0x7F800000)
        pool = np.array([0, 1, sign, sign - 1, (1 << width) - 1, inf, inf | sign, inf + 1], np.uint64)
        v = np.where(rng.random(32) < 0.5, rng.choice(pool, 32), rng.integers(0, 1 << width, 32, dtype=np.uint64)).astype(np.uint32)
        mask = FULL if trial % 4 == 0 else int(rng.integers(1, 1 << 32))
        ex = np.array([mask >> i & 1 for i in range(32)], bool)
        v = np.where(ex, v, 0).astype(np.uint32)
        x, s_ = v[ex].astype(np.int64), (v[ex].astype(np.int64) >> (width - 1)) & 1
        mag = x & (sign - 1)
        if fp:
            special = mag >= inf
            want = ((mag == 0).any() * R_ZERO | ((s_ == 1) & (mag != 0) & ~special).any() * R_NEG
                    | ((s_ == 0) & (mag != 0) & ~special).any() * R_POS | (mag == inf).any() * R_INF | (mag > inf).any() * R_NAN)
        else:
            want = (x == 0).any() * R_ZERO | (s_ == 1).any() * R_NEG | ((s_ == 0) & (x != 0)).any() * R_POS
        assert result_class(packed(v), spread(mask), half, fp) == want, (trial, half, fp)
        cc = np.where(ex, rng.integers(0, 16, 32), 0).astype(np.uint32)
        sel = cc[ex].astype(np.int64)
        want = sum((1 << k) * bool(((sel >> k) & 1).any()) + (16 << k) * bool((((sel >> k) & 1) == 0).any()) for k in range(4))
        assert flag_class(packed(cc), spread(mask)) == want


def test_float_result_classes() -> None:
    bits = [0x80000000, 0xBF800000, 0x3F800000, 0xFF800000, 0x7FFFFFFF, 0x7F800001] + [0x3F800000] * 26  # -0 -1 1 -inf NaN sNaN
    cov = Coverage()
    c = commit_for("FADD R1, R2, R3", exec_mask=0x3F)
    c.gpr.append(RegWrite("gpr", 1, np.array(bits, np.uint32)))
    cov.sample(c, 0)
    assert {n: cov.count(f"FADD/result/{n}") for n in ("zero", "negative", "positive", "inf", "NaN")} == dict.fromkeys(
        ("zero", "negative", "positive", "inf", "NaN"), 1)
    cov2 = Coverage()
    c = commit_for("FADD R1, R2, R3", exec_mask=0x1)  # only lane 0 (-0): a zero, nothing else
    c.gpr.append(RegWrite("gpr", 1, np.array(bits, np.uint32)))
    cov2.sample(c, 0)
    assert cov2.count("FADD/result/zero") == 1 and cov2.count("FADD/result/inf") == 0 and cov2.count("FADD/result/negative") == 0


def test_control_outcome_and_depth() -> None:
    cov = Coverage()
    cov.sample(commit_for("BRA C1.NE, 0x80", exec_mask=0x0F, active=0xFF), 0)  # divergent, stack empty
    cov.sample(commit_for("BRA C1.NE, 0x80", exec_mask=0xFF, active=0xFF), 1)  # taken
    cov.sample(commit_for("BRA C1.NE, 0x20", exec_mask=0, active=0xFF), 5)  # not taken, backward target
    assert cov.count("BRA/outcome x depth/divergent @ depth 0") == 1
    assert cov.count("BRA/outcome x depth/taken @ depth 1") == 1
    assert cov.count("BRA/outcome x depth/not taken @ depth 2+") == 1
    assert cov.count("BRA/direction/forward") == 2 and cov.count("BRA/direction/backward") == 1
    assert cov.count("BRA/guard/C1") == 3 and cov.count("GUARD/condition x register/NE x C1") == 3
    assert cov.count("BRA/lanes/some") == 2 and cov.count("BRA/lanes/none") == 1


def test_saturation_bin_follows_the_program(tmp_path: Path) -> None:
    sat = run_source(tmp_path, "        IADD.SAT R1, R0, R0", "sat")
    plain = run_source(tmp_path, "        IADD R1, R0, R0", "plain")
    assert sat.count("IADD/.SAT/.SAT") == 1 and sat.count("IADD/.SAT/(none)") == 0
    assert plain.count("IADD/.SAT/.SAT") == 0 and plain.count("IADD/.SAT/(none)") == 1
    # R0 = tid: lane 0 gives 0, the others positive; 32 threads, no guard, stack empty
    for cov in (sat, plain):
        assert cov.count("IADD/result/zero") == 1 and cov.count("IADD/result/positive") == 1 and cov.count("IADD/result/negative") == 0
        assert cov.count("IADD/lanes/all 32") == 1 and cov.count("SIMT/marker x depth/.E @ depth 0") == 1


def test_merge_adds_counts(tmp_path: Path) -> None:
    a = run_source(tmp_path, "        IADD.SAT R1, R0, R0\n        IADD R1, R0, R0", "a")
    b = run_source(tmp_path, "        IADD R1, R0, R0", "b")
    a.save(tmp_path / "a.json")
    b.save(tmp_path / "b.json")
    merged = Coverage.load(tmp_path / "a.json").merge(Coverage.load(tmp_path / "b.json"))
    for key in ("IADD/.SAT/.SAT", "IADD/.SAT/(none)", "NOP/marker/.E", "IADD/lanes/all 32"):
        assert merged.count(key) == a.count(key) + b.count(key)
    assert merged.count("IADD/.SAT/(none)") == 2 and merged.runs == ["a", "b"]
    assert merged.samples == a.samples + b.samples == 3 + 2


def test_load_rejects_other_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "g80-sm1-coverage", "counts": {"NOFORM/x/y": 1}}))
    with pytest.raises(ValueError, match="unknown"):
        Coverage.load(bad)


# ---------------------------------------------------------------------------------------------
# programs, reports, command line


def test_directed_programs_hit_no_excluded_bin() -> None:
    cov = Coverage()
    for name in ("cov_move", "cov_simt", "iadd"):
        result = run_with_coverage(load_program(ROOT / "programs" / f"{name}.sass"), G80, cov)
        assert result.checks and not result.failed
    assert cov.excluded_hit() == []
    assert cov.count("A2R/src/A7") > 0 and cov.count("BRK/outcome x depth/some active @ depth 2+") > 0
    assert cov.count("SIMT/marker x depth/.E @ depth 2+") > 0


def test_reports(tmp_path: Path) -> None:
    cov = run_source(tmp_path, "        IADD.SAT R1, R0, R0", "r")
    cov.save(tmp_path / "r.json")
    out = tmp_path / "report"
    merged = write_reports([tmp_path / "r.json"], out)
    html = (out / "coverage.html").read_text()
    assert "<svg" in html and "IADD" in html and "Holes" in html
    assert not re.search(r"https?:|<script|<link|<img|@import|url\(|src=", html, re.IGNORECASE)  # nothing to fetch
    text = (out / "coverage.txt").read_text()
    o = merged.overall()
    assert f"{o.total} total, {o.excluded} excluded" in text and "IADD/.SAT: (none)" in text  # a hole, listed
    from golden.coverage.ucis import read_ucis

    back = read_ucis(out / "coverage.ucis.xml")
    assert back == {b.key: (merged.counts[b.index], bool(b.excluded)) for b in merged.model.bins}


def test_cli_cov_and_script(tmp_path: Path) -> None:
    from golden.cli import main

    assert main(["run", str(ROOT / "programs" / "vecadd.sass"), "--cov", str(tmp_path / "v.json")]) == 0
    cov = Coverage.load(tmp_path / "v.json")
    assert cov.count("GLD/lanes/all 32") > 0 and cov.runs == ["golden g80 vecadd"]
    r = subprocess.run([sys.executable, "-m", "golden", "coverage-report", "-o", str(tmp_path / "rep"), str(tmp_path / "v.json")],
                       capture_output=True, text=True, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert {p.name for p in (tmp_path / "rep").iterdir()} == {"coverage.html", "coverage.txt", "coverage.ucis.xml", "coverage.json"}
