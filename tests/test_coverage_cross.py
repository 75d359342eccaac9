"""The cross coverage model (golden/g80/coverage_cross.py): derived from the encoding table,
value classes as IEEE 754 / two's complement define them, hazards as the program text fixes them,
and the sampler's counts checked against an independent count from the `--trace` output."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from golden.coverage import write_reports
from golden.coverage.ucis import CROSS_INSTANCE, read_ucis
from golden.g80 import conditions
from golden.g80.coverage import CrossCoverage, cross_model
from golden.g80.coverage_cross import FP_CLASSES, INT_CLASSES, fp_class, int_class
from golden.g80.coverage_run import run_with_coverage
from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.syntax import Src
from golden.g80.table import FORMS


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f16(x: float) -> int:
    return int(np.array([x], np.float16).view(np.uint16)[0])


# ---------------------------------------------------------------------------------------------
# value classes: IEEE 754 (struct, numpy float16) and two's complement


def test_float_classes_follow_ieee754() -> None:
    assert fp_class(f32(0.0), False) == "+0" and fp_class(f32(-0.0), False) == "-0"
    assert fp_class(f32(1e-40), False) == "+denormal" and fp_class(f32(-1e-40), False) == "-denormal"
    assert fp_class(f32(1.5), False) == "+normal" and fp_class(f32(-3e38), False) == "-normal"
    assert fp_class(f32(float("inf")), False) == "+inf" and fp_class(f32(float("-inf")), False) == "-inf"
    assert fp_class(f32(float("nan")), False) == "NaN"
    assert fp_class(f16(6e-8), True) == "+denormal" and fp_class(f16(-65504.0), True) == "-normal"
    assert fp_class(f16(float("-inf")), True) == "-inf" and fp_class(0x7E00, True) == "NaN"


def test_integer_classes_follow_twos_complement() -> None:
    cases = {0: "zero", 1: "one", 0xFFFFFFFF: "all-ones", 0x80000000: "min signed", 0x7FFFFFFF: "max signed",
             5: "positive", (-7) & 0xFFFFFFFF: "negative"}  # fmt: skip
    for v, want in cases.items():
        assert int_class(v, 32) == want, hex(v)
    assert int_class(0xFFFF, 16) == "all-ones" and int_class(0x8000, 16) == "min signed" and int_class(0x8000, 32) == "positive"


# ---------------------------------------------------------------------------------------------
# the model is derived from the table


def test_every_source_operand_has_value_and_hazard_points() -> None:
    m = cross_model()
    for form in FORMS:
        if form.family == "tex" or form.name.startswith("TRAP"):
            continue
        points = {p.name: p for p in m.by_form[form.name].points}
        for op in form.operands:
            if isinstance(op, Src):
                assert f"{op.role} value" in points and f"{op.role} RAW" in points, (form.name, op.role)
                for cond, sym in ((op.neg, "-"), (op.abs_, "|x|"), (op.not_, "~")):
                    assert (f"{op.role} value x {sym}" in points) == (cond is not None), (form.name, op.role, sym)
    fadd = {p.name: [b.name for b in p.bins] for p in m.by_form["FADD"].points}
    assert fadd["src1 value"] == list(FP_CLASSES)
    assert len(fadd["src1 value x rounding"]) == len(FP_CLASSES) * 2  # (none), .TRUNC
    i2i = {p.name: p for p in m.by_form["I2I"].points}
    assert len(i2i["src1 value x source type"].bins) == len(INT_CLASSES) * 8
    assert len(m.bins) == len(m.by_key)


def test_guard_exclusions_are_the_conditions_that_never_or_always_hold() -> None:
    guard = next(p for p in cross_model().by_form["GUARD"].points if p.name == "condition x outcome")
    excluded = {b.name for b in guard.bins if b.excluded}
    # ISA.md 2.2: code 0x00 never holds, 0x0F always holds; the flags nibble has 16 values
    assert f"{conditions.NAMES[0x00]} x true" in excluded and f"{conditions.NAMES[0x0F]} x false" in excluded
    for code in range(32):
        outcomes = {conditions.holds(code, f) for f in range(16)}
        for o, word in ((True, "true"), (False, "false")):
            assert (f"{conditions.NAMES[code]} x {word}" in excluded) == (o not in outcomes)


# ---------------------------------------------------------------------------------------------
# sampling a directed program: what the program text fixes


def run_cross(tmp_path: Path, body: str) -> CrossCoverage:
    src = tmp_path / "p.sass"
    src.write_text(".block 32\n.buffer out u32 32\n.param out\n.expect out = 0 * np.arange(32)\n" + body + "\n        NOP\n")
    cross = CrossCoverage(run="p")
    result = run_with_coverage(load_program(src), G80, None, cross=cross)
    assert not result.failed
    return cross


def test_values_hazards_and_aliasing_of_a_directed_program(tmp_path: Path) -> None:
    cross = run_cross(tmp_path, """
        MVI R2, 0x1
        MVI R3, 0xffffffff
        IADD R1, R2, R3
        IADD R1, R1, R1
        MVI.U16 R4L, 0x8000
        IADD.U16 R5L, R4L, R4H
        MOV R6, R4
    """)
    # IADD R1, R2, R3: R2 (one) written 2 instructions earlier, R3 (all-ones) 1 earlier
    assert cross.count("IADD/src1 value/one") == 1 and cross.count("IADD/src3 value/all-ones") == 1
    assert cross.count("IADD/src1 value/zero") == 1 and cross.count("IADD/src3 value/zero") == 1  # 1 + -1 = 0
    assert cross.count("IADD/src1 RAW/distance 2") == 1 and cross.count("IADD/src3 RAW/distance 1") == 3  # R3, R1, R4 (R4L written just before)
    assert cross.count("IADD/src1 RAW/distance 1") == 2  # IADD R1, R1, R1 and R4L
    assert cross.count("IADD/dst WAW/distance 1") == 1 and cross.count("IADD/dst WAW/no earlier write") == 2  # R1, R5
    # half registers: R4L = 0x8000 is the 16-bit min signed; R4H was never written: no class
    assert cross.count("IADD/src1 value/min signed") == 1
    assert cross.count("IADD/src1 half alias/same half after half") == 1
    assert cross.count("IADD/src3 half alias/other half after half") == 1
    assert cross.count("MOV/src1 half alias/full after half") == 1
    # every commit hits one SIMT bin: 7 instructions on all 32 lanes, then the exit (NOP.E) executing none
    assert cross.count("SIMT/lanes x depth x top/all 32 @ depth 0 / empty") == 7
    assert cross.count("SIMT/lanes x depth x top/none @ depth 0 / empty") == 1 and cross.samples == 8


def test_guard_outcomes_and_stack_kind(tmp_path: Path) -> None:
    cross = run_cross(tmp_path, """
        I2I.U32.U16 R1, R0L
        MVI R3, 0x0
        ISET.S32.C1 o[0x7f], R1, R3, GT
        SSY join
        BRA C1.NE, skip
        MVI R2, 0x1
        BRA join
skip:   MVI R2, 0x2
join:   NOP.S
    """)
    # lane 0 has tid 0 (GT false: Z), the others tid > 0 (GT true: S): NE true in 31 lanes, false in one
    assert cross.count("GUARD/condition x outcome/NE x true") == 1 and cross.count("GUARD/condition x outcome/NE x false") == 1
    assert cross.count("GUARD/guard $c RAW/distance 2") == 1  # ISET, SSY, BRA
    # ISA.md 6.3: the SSY entry (JOINAT) under the divergence entry (BRANCH) of the 1-lane side
    stack = {k: cross.count(f"SIMT/lanes x depth x top/{k}") for k in ("partial @ depth 2 / BRANCH", "one @ depth 1 / JOINAT")}
    assert all(stack.values()), stack


# ---------------------------------------------------------------------------------------------
# closing the loop: an independent count from the trace text


TRACE_RE = re.compile(r"^cta (\d+) warp +(\d+) #(\d+) +[0-9a-f]+  (.*?) +act ([0-9a-f]{8}) exe ([0-9a-f]{8})(.*)$")
ALU = {"IADD", "FADD", "FMUL", "FMAD", "LOP", "IMUL", "IMAD", "ISET", "FSET", "IMIN", "IMAX", "FMIN", "FMAX", "SHL", "SHR", "ISAD", "FSLCT"}


def trace_counts(text: str) -> tuple[Counter, Counter]:
    """From `golden run --trace` lines alone: commits per lane class, and RAW distances of the
    register sources (every Rn/RnL/RnH after the first operand) of the ALU mnemonics."""
    lanes: Counter = Counter()
    raw: Counter = Counter()
    last: dict[int, dict[int, int]] = {}
    for line in text.splitlines():
        m = TRACE_RE.match(line)
        if not m:
            continue
        warp, seq, insn, exe, rest = int(m[2]), int(m[3]), m[4], int(m[6], 16), m[7]
        n = bin(exe).count("1")
        lanes["all 32" if n == 32 else "none" if n == 0 else "one" if n == 1 else "partial"] += 1
        writes = last.setdefault(warp, {})
        insn = re.sub(r"^@\S+\s+", "", insn)
        mnemonic = re.match(r"[A-Z0-9]+", insn)[0]
        base = re.match(r"[A-Z]+", mnemonic)[0]
        if base in ALU and mnemonic.rstrip("0123456789I") == base:  # IADD, IADD32, IADD32I (not I2I)
            ops = insn.split(None, 1)[1].split(",")[1:] if " " in insn else []
            for op in ops:
                r = re.fullmatch(r"\s*-?\|?-?R(\d+)[LH]?\|?\s*", op)
                if r:
                    d = seq - writes[int(r[1])] if int(r[1]) in writes else None
                    raw["no earlier write" if d is None else "distance 1" if d == 1 else "distance 2" if d == 2 else "distance 3+"] += 1
        for reg in re.findall(r"(?:^|\s)R(\d+)[LH]?=", rest):
            writes[int(reg)] = seq
        if rest.rstrip().endswith("done"):
            del last[warp]
    return lanes, raw


@pytest.mark.parametrize("program", ["iadd.sass", "fmad.sass", "cf_ifelse.sass", "cov_short.sass"])
def test_sampler_counts_match_the_trace(tmp_path: Path, program: str) -> None:
    out = tmp_path / "x.json"
    run = subprocess.run([sys.executable, "-m", "golden", "run", f"programs/{program}", "--trace", "--cov-cross", str(out)],
                         cwd=ROOT, capture_output=True, text=True, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr
    lanes, raw = trace_counts(run.stdout)
    data = json.loads(out.read_text())
    counts = data["counts"]
    assert data["samples"] == sum(lanes.values()) > 0
    got_lanes: Counter = Counter()
    for key, n in counts.items():
        if key.startswith("SIMT/lanes x depth x top/"):
            got_lanes[key.split("/", 2)[2].split(" @ ")[0]] += n
    assert got_lanes == lanes
    got_raw: Counter = Counter()
    for key, n in counts.items():
        group, point, name = key.split("/", 2)
        base = re.match(r"[A-Z]+", group)[0]
        if base in ALU and point.endswith(" RAW") and group.rstrip("0123456789I") == base:
            got_raw[name] += n
    assert got_raw == raw and sum(raw.values()) > 0


def test_reports_show_the_crosses(tmp_path: Path) -> None:
    cross = run_cross(tmp_path, "        MVI R2, 0x1\n        IADD R1, R2, R2")
    f = tmp_path / "p.cross.json"
    cross.save(f)
    cov = write_reports([f], tmp_path / "report")
    assert cov.cross.samples == cross.samples  # type: ignore[attr-defined]
    text = (tmp_path / "report" / "coverage.txt").read_text()
    assert "Architectural crosses" in text and "10 largest holes" in text
    html = (tmp_path / "report" / "coverage.html").read_text()
    assert 'id="crosses"' in html and "Cross exclusions" in html
    back = read_ucis(tmp_path / "report" / "coverage.ucis.xml")
    assert back[f"{CROSS_INSTANCE}:IADD/src1 value/one"] == (1, False)
    assert back[f"{CROSS_INSTANCE}:SIMT/lanes x depth x top/all 32 @ depth 1 / empty"][1] is True


# ---------------------------------------------------------------------------------------------
# RTL code coverage: Verilator's coverage.dat records (key \x01 name \x02 value ..., then the count)


def _record(kind: str, module: str, file: str, line: int, comment: str, count: int) -> str:
    keys = {"t": kind, "page": f"v_{kind}/{module}", "f": file, "l": str(line), "n": "0", "o": comment, "h": f"TOP.{module}"}
    return "C '" + "".join(f"\x01{k}\x02{v}" for k, v in keys.items()) + f"' {count}"


def test_code_coverage_reads_verilator_records(tmp_path: Path) -> None:
    from golden.coverage.code import CodeCoverage, render_code_text

    src = tmp_path / "m.v"
    src.write_text("module m;\n  always @* x = 1;\n  if (a) y = 2;\n  else y = 3;\nendmodule\n")
    dat = tmp_path / "coverage.dat"
    dat.write_text("\n".join(["# SystemC::Coverage-3",
                              _record("line", "m", str(src), 2, "block", 7), _record("line", "m", str(src), 4, "block", 0),
                              _record("branch", "m", str(src), 3, "if", 5), _record("branch", "m", str(src), 3, "else", 0),
                              _record("toggle", "m", str(src), 1, "x:0->1", 1), _record("toggle", "m", str(src), 1, "y[0]:1->0", 0),
                              _record("toggle", "n", str(src), 1, "z", 3),
                              _record("line", "n", str(src), 2, "block", 0)]) + "\n")  # a second module's copy of line 2  # fmt: skip
    cc = CodeCoverage.load(dat)
    assert cc.by_module() == {"m": {"line": (1, 2), "branch": (1, 2), "toggle": (1, 2)}, "n": {"toggle": (1, 1), "line": (0, 1)}}
    assert cc.totals()["toggle"] == (2, 3)
    assert list(cc.uncovered_lines()) == [(str(src), 3), (str(src), 4)]  # line 2 is hit in module m
    assert cc.untoggled() == {"m": ["y"]}
    text = "\n".join(render_code_text(cc, tmp_path))
    assert "else y = 3;" in text and "if (a) y = 2;" in text  # the uncovered lines with their source
    bad = tmp_path / "bad.dat"
    bad.write_text("C 'x' notanumber\n")
    with pytest.raises(ValueError, match=r"bad\.dat:1"):
        CodeCoverage.load(bad)
