"""The ISA-independent machinery (golden/isa, golden/coverage) and how G80 and LG plug into it:
the machinery imports no ISA, both tables are tables of the generic form, both commit records are
declared on the schema mechanism, and LG's coverage model, derived from its table, counts what
hand-traced programs do."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from golden.isa.decoder import Decoder
from golden.isa.form import FormBase
from golden.isa.record import compared_fields, differences, fields_of, recfield
from golden.isas import ISAS

DATA = ROOT / "tests" / "data" / "lg_cov"


def _imports(path: Path) -> list[str]:
    """Every module a file imports, relative imports resolved against its package."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            mod = ".".join([*base, node.module] if node.module else base)
            out.append(mod)
            out += [f"{mod}.{a.name}" for a in node.names]
    return out


@pytest.mark.parametrize("folder", ["golden/isa", "golden/coverage"])
def test_the_machinery_imports_no_isa_package(folder: str) -> None:
    bad = []
    for path in sorted((ROOT / folder).glob("*.py")):
        bad += [f"{path.name}: {m}" for m in _imports(path) if m.startswith(("golden.g80", "golden.lg"))]
    assert bad == []


def test_the_import_scan_sees_relative_isa_imports() -> None:
    # the scan above must resolve `from ..g80 import x` in golden/coverage to golden.g80
    assert "golden.g80.commit" in _imports(ROOT / "golden" / "g80" / "coverage_run.py")
    assert "golden.g80.coverage" in _imports(ROOT / "golden" / "g80" / "coverage_run.py")


# -- forms and the decoder -----------------------------------------------------------------------


def test_both_tables_are_tables_of_the_generic_form() -> None:
    from golden.g80.table import FORMS
    from golden.lg.table import OPS

    assert all(isinstance(f, FormBase) for f in FORMS) and all(isinstance(op, FormBase) for op in OPS)


def test_lg_rows_cover_the_bits_the_course_layout_gives() -> None:
    from golden.lg.table import BY_MNEMONIC

    # LG.md "Encoding": opcode 31:24; rd 23:20, rs1 19:16, rs2 11:8; vd 21:16, vs1 13:8, vs2 5:0; br offset 15:0
    assert BY_MNEMONIC["add.d"].covered == 0xFFFF0F00 == BY_MNEMONIC["add.d"].mask
    assert BY_MNEMONIC["vadd"].covered == 0xFF3F3F3F
    assert BY_MNEMONIC["brnz"].covered == 0xFF00FFFF
    assert BY_MNEMONIC["halt"].covered == 0xFF000000
    assert BY_MNEMONIC["brnz"].fixed == {"opcode": 0xDE}  # N, Z in bits 26, 25 and BY_MNEMONIC["brnz"].match_mask == 0xFF000000


def test_the_generic_decoder_finds_each_lg_row_and_names_the_nearest() -> None:
    from golden.lg.table import OPS

    dec: Decoder = Decoder(OPS)
    for op in OPS:
        assert dec.match(op.opcode << 24 | 0x1) in (op, None)
        assert dec.match(op.opcode << 24) is op
    assert dec.match(0x03 << 24) is None  # 0x03 is no LG opcode (seed opcode map)
    near = dec.nearest(0x03 << 24)
    assert near is not None and near.wrong == (("opcode", 0x03, near.form.opcode),)


def test_an_ambiguous_table_is_refused() -> None:
    from golden.lg.table import BY_MNEMONIC

    op = BY_MNEMONIC["add.d"]
    with pytest.raises(AssertionError, match="ambiguous"):
        Decoder([op, dataclasses.replace(op, mnemonic="twin")]).match(0)


# -- commit records --------------------------------------------------------------------------------


def test_g80_compares_what_the_scoreboard_compares() -> None:
    from golden.g80.commit import Commit

    # tb/scoreboard.py, _diffs: the fields it checks; cta/warp identify the warp, size follows from insn
    assert set(compared_fields(Commit)) == {"pc", "seq", "insn", "active_mask", "exec_mask", "gpr", "cc", "addr", "mem",
                                            "next_pc", "next_mask", "done"}  # fmt: skip


def test_lg_compares_the_commit_port_and_not_the_frame_buffer() -> None:
    from golden.lg.commit import COMMIT_PORT_FIELDS, LgCommit, LgFbWrites

    assert "fb" not in COMMIT_PORT_FIELDS and "fb_event" not in COMMIT_PORT_FIELDS and "text" not in COMMIT_PORT_FIELDS
    import numpy as np

    a = LgCommit(0, 4, 0x11010003, 8, rd=1, rd_val=3)
    b = dataclasses.replace(a, rd_val=4, text="x", fb=LgFbWrites(np.zeros(1, np.int32), 0, 0))
    assert differences(LgCommit, a, b) == [("rd_val", "3", "4")]


def test_a_record_field_says_what_it_means_and_why_it_is_not_compared() -> None:
    with pytest.raises(ValueError, match="says why"):
        recfield("a value", compared=False)

    @dataclasses.dataclass
    class Bare:
        x: int = 0

    with pytest.raises(TypeError, match="no doc metadata"):
        fields_of(Bare)


def test_every_isa_registers_its_schema_and_coverage() -> None:
    formats = []
    # an ISA with RTL has both; one with a model has its commit schema, and its coverage once declared
    for isa in (isa for isa in ISAS.values() if isa.commit_module or isa.rtl_dir):
        assert isa.commit_schema.isa == isa.name
        assert all(f.doc for cls in isa.commit_schema.classes() for f in fields_of(cls))
        assert isa.coverage_module or not isa.rtl_dir, isa.name
        formats += [cls.FORMAT for cls in isa.coverage.CLASSES] if isa.coverage_module else []
    assert len(formats) == len(set(formats)) and all(formats)


# -- LG coverage derived from its table --------------------------------------------------------------


def test_lg_model_has_a_group_per_opcode_and_a_point_per_operand() -> None:
    from golden.lg.coverage import model
    from golden.lg.table import OPS

    m = model()
    assert [g.name for g in m.groups] == [op.mnemonic for op in OPS]
    for op in OPS:
        names = {p.name for p in m.by_form[op.mnemonic].points}
        assert {"issued", *(n for n, _ in op.operands)} <= names, op.mnemonic
    assert m.by_key["add.d/rd/r15"].excluded and not m.by_key["add.d/rs1/r15"].excluded
    assert [b.name for p in m.form_points("addi.d") if p.name == "imm" for b in p.bins] == [
        "zero", "one", "other positive", "max positive", "minus one", "other negative", "min negative"]  # fmt: skip


def _golden(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "golden", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_lg_coverage_runs_count_what_the_programs_do(tmp_path: Path) -> None:
    runs = _golden("coverage-runs", "--isa", "lg", str(DATA / "cov_basic.lgs"), str(DATA / "cov_triangle.lgs"), "-o", str(tmp_path / "c"))
    assert runs.returncode == 0, runs.stderr
    rep = _golden("coverage-report", str(tmp_path / "c"), "-o", str(tmp_path / "r"))
    assert rep.returncode == 0, rep.stderr
    counts = json.loads((tmp_path / "r" / "coverage.json").read_text(encoding="utf-8"))["counts"]
    # traced by hand from the programs' text: r1 counts 3 -> 2 -> 1 -> 0 (P, P, Z; brp taken twice, then not)
    expected = {
        "addi.d/CC/P": 2, "addi.d/CC/Z": 1, "brp/outcome/taken": 2, "brp/outcome/not taken": 1, "cmpi/CC/Z": 1, "brz/outcome/taken": 1,
        "pushmatrix/stack/to 1-15": 1, "popmatrix/stack/to empty (0)": 1, "popmatrix/stack/ignored: already empty": 1,
        "endprimitive/vertices/3": 3, "endprimitive/vertices/3, more dropped": 1, "endprimitive/vertices/2": 1,
        "endprimitive/winding/counter-clockwise": 3, "endprimitive/winding/clockwise": 1,
        # the same triangle twice at one depth, then a larger one over it; the clockwise one is not drawn under seed
        "endprimitive/depth test/all pass": 1, "endprimitive/depth test/all fail": 1, "endprimitive/depth test/some fail": 1,
        "setvertex/issued/issued": 15, "addi.d/imm/minus one": 3,
    }  # fmt: skip
    assert {k: counts.get(k, 0) for k in expected} == expected
    assert "endprimitive/winding/degenerate" not in counts
    text = (tmp_path / "r" / "coverage.txt").read_text(encoding="utf-8")
    assert text.startswith("LG (CS3220 ISA 1.1) functional coverage (model derived from golden/lg/table.py)")
    assert (tmp_path / "r" / "coverage.html").stat().st_size > 0 and (tmp_path / "r" / "coverage.ucis.xml").stat().st_size > 0


def test_coverage_of_two_isas_does_not_merge(tmp_path: Path) -> None:
    from golden.g80.coverage import Coverage as G80Coverage
    from golden.lg.coverage import Coverage as LgCoverage

    G80Coverage(run="a").save(tmp_path / "a.json")
    LgCoverage(run="b").save(tmp_path / "b.json")
    rep = _golden("coverage-report", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "-o", str(tmp_path / "r"))
    assert rep.returncode == 1
    assert "lg coverage cannot merge with g80 coverage" in rep.stderr and "Traceback" not in rep.stderr


def test_lg_coverage_runs_name_a_bad_program_and_a_bad_profile(tmp_path: Path) -> None:
    bad = tmp_path / "bad.lgs"
    bad.write_text("        addd r1, r2, r3\n", encoding="utf-8")
    runs = _golden("coverage-runs", "--isa", "lg", str(bad), "-o", str(tmp_path / "c"))
    assert runs.returncode == 1 and "bad.lgs failed" in runs.stderr
    assert "unknown mnemonic" in (tmp_path / "c" / "bad.log").read_text(encoding="utf-8")
    runs = _golden("coverage-runs", "--isa", "lg", "--profile", "g80", str(bad), "-o", str(tmp_path / "c"))
    assert runs.returncode == 2 and runs.stderr.count("\n") == 1 and "--profile g80" in runs.stderr
