"""Fermi functional coverage (golden/fermi/coverage.py): its bins follow the encoding table, and a
small program hits exactly the bins worked out by hand from its text and its launch.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from golden.coverage.model import Builder
from golden.errors import UserError
from golden.fermi import coverage, table
from golden.fermi.asm import encode
from golden.fermi.disasm import render_word
from golden.fermi.loader import load, machine

ROOT = Path(__file__).resolve().parents[1]


def test_one_group_per_form_and_one_bin_per_modifier_value() -> None:
    m = coverage.model()
    assert [g.name for g in m.groups] == [f.name for f in table.FORMS]
    for form in table.FORMS:
        points = {p.name: p for p in m.by_form[form.name].points}
        for mod in form.mods:
            want = {s or "(none)" for s in mod.values.values()}
            assert {b.name for b in points[f"mod {mod.field}"].bins} == want, (form.name, mod.field)


def test_a_form_added_to_the_table_adds_its_group() -> None:
    popc = table.BY_NAME["POPC"]
    extra = replace(popc, name="POPC.COPY")
    before = coverage.build(table.FORMS)
    after = coverage.build([*table.FORMS, extra])
    assert [g.name for g in after.groups] == [*[g.name for g in before.groups], "POPC.COPY"]
    copy = [(p.name, [b.name for b in p.bins]) for p in after.by_form["POPC.COPY"].points]
    assert copy == [(p.name, [b.name for b in p.bins]) for p in before.by_form["POPC"].points]
    assert len(after.bins) == len(before.bins) + sum(len(p.bins) for p in before.by_form["POPC"].points)
    # derive refuses an operand kind the ISA gave no bins for
    try:
        from golden.coverage.derive import derive

        derive(Builder(), [popc], lambda f: [("x", "rd", "no such kind")], coverage.KINDS)
    except ValueError as e:
        assert "no bins for operand kind 'no such kind'" in str(e)
    else:
        raise AssertionError("an undescribed kind was accepted")


PROGRAM = """\
.grid 1
.block 32
.registers 8
        S2R R0, SR_TID.X;
        ISETP.LT.U32.AND P0, PT, R0, 0x10, PT;
  @!P0  EXIT;
        EXIT;
"""

# By hand: one warp of 32 threads. S2R and ISETP run in every lane; P0 is true in lanes 0-15 and
# false in 16-31, so `@!P0 EXIT` runs in lanes 16-31 (half the active lanes leave) and the last
# EXIT in lanes 0-15, every lane then active (all of them leave).
COMMON = ["issued/issued", "mod s/(none)"]
EXPECTED = {
    "S2R": [*COMMON, "guard/PT", "guard negated/no", "rd/R0", "sr/SR_TID.X", "executed/whole warp"],
    "ISETP": [*COMMON, "guard/PT", "guard negated/no", "pd/P0", "pdn/PT", "ra/R0", "B/imm other positive", "pc/PT", "pc negated/no",
              "mod cmp/LT", "mod b5/U32", "mod b6/(none)", "mod lop/AND", "executed/whole warp", "predicate written/true",
              "predicate written/false"],
    "EXIT": [*COMMON, "guard/P0", "guard negated/yes", "CC test/CC.T", "executed/some lanes", "outcome/some active lanes",
             "guard/PT", "guard negated/no", "outcome/all active lanes"],
}  # fmt: skip


def test_a_small_program_hits_exactly_its_bins(tmp_path: Path) -> None:
    path = tmp_path / "small.sass"
    path.write_text(PROGRAM)
    cov, n = coverage.run_program(str(path))
    assert n == 4
    cov.flush()
    hit = {b.key for b in cov.model.bins if cov.counts[b.index]}
    assert hit == {f"{form}/{key}" for form, keys in EXPECTED.items() for key in keys}
    assert cov.count("EXIT/issued/issued") == 2 and cov.count("EXIT/executed/some lanes") == 2


def test_coverage_runs_and_report(tmp_path: Path) -> None:
    """`golden coverage-runs --isa fermi` writes a file per program, and coverage-report merges them."""
    good = tmp_path / "small.sass"
    good.write_text(PROGRAM)
    bad = tmp_path / "bad.sass"
    bad.write_text(".grid 1\n        FROB R0;\n")
    out = tmp_path / "runs"
    p = subprocess.run([sys.executable, "-m", "golden", "coverage-runs", "--isa", "fermi", str(good), str(bad), "-o", str(out)],
                       capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert p.returncode == 1 and f"coverage: {bad} failed" in p.stderr and "1 of 2 programs run on the fermi model" in p.stdout
    assert json.loads((out / "small.json").read_text())["format"] == "fermi-coverage"
    p = subprocess.run([sys.executable, "-m", "golden", "coverage-report", "-o", str(tmp_path / "report"), f"directed={out}"],
                       capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "4 commits" in p.stdout and (tmp_path / "report" / "coverage.html").is_file()


def test_excluded_bins_are_those_the_model_refuses(tmp_path: Path) -> None:
    """Each excluded modifier bin, put in a one-instruction program, is refused by the model as not
    modelled, and each form whose bins are all excluded is refused at launch: the reasons are true."""
    m = coverage.model()
    excluded = [b for b in m.bins if b.excluded]
    assert excluded
    groups = {b.group for b in excluded if b.point == "issued"}
    tried = 0
    for b in excluded:
        form = table.BY_NAME[b.group]
        f = {x.field: next(iter(x.values)) for x in form.mods}  # each modifier at a value the table allows
        if b.group in groups:
            if b.point != "issued":
                continue
        elif b.point.startswith("mod "):
            mod = next(x for x in form.mods if x.field == b.point[4:])
            f[mod.field] = next(v for v, s in mod.values.items() if s == b.name)
        else:
            raise AssertionError(f"an excluded bin that is neither a modifier nor a whole form: {b.key}")
        path = tmp_path / f"t{tried}.sass"
        path.write_text(f".grid 1\n.block 32\n.registers 8\n        {render_word(encode(form, {**f, 'guard': 7}))};\n        EXIT;\n")
        with pytest.raises(UserError, match=r"not modelled|is not one the model executes"):
            prog = load(path)
            machine(prog).run(100)
        tried += 1
    assert tried == len(excluded) - sum(len(p.bins) for g in groups for p in m.by_form[g].points) + len(groups)
