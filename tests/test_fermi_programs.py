"""The Fermi programs on the golden model: every directed program of programs/fermi and every kernel
(ci size, and the bench size), each with its `.expect` lines checked; each program's words through
the disassembler and back; every bad program's one error line; `make sim ISA=fermi`.

The expected values are the programs' own `.expect` lines, worked out from the PTX ISA manual and
numpy (each program says how in its comments), never from the model.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, own_make_env

from golden.fermi import run as fermi_run
from golden.fermi.run import load, round_trip, run
from tb.fermi import sim as fermi_sim

FERMI = ROOT / "programs" / "fermi"
DIRECTED = sorted(FERMI.glob("*.sass"))
KERNELS = sorted((FERMI / "kernels").glob("*.sass"))
BENCH = sorted((ROOT / "bench" / "fermi" / "kernels").glob("*.sass"))
BAD = sorted((FERMI / "bad").glob("*.sass"))


def _id(path: Path) -> str:
    return str(path.relative_to(FERMI)) if path.is_relative_to(FERMI) else path.name


def test_the_program_sets_are_there() -> None:
    """A glob that found nothing would make every test below pass by running none."""
    assert len(DIRECTED) == 14 and len(KERNELS) == 16 and len(BENCH) == 16 and len(BAD) == 15


@pytest.mark.parametrize("path", DIRECTED + KERNELS, ids=_id)
def test_program_passes_on_the_model(path: Path) -> None:
    result = run(load(path))
    assert result.passed, "\n".join(result.lines())
    # each expectation compared elements: a check of an empty buffer would show nothing
    counts = [re.match(r"(\d+) elements match", c.detail) for c in result.checks]
    assert counts and all(m and int(m[1]) > 0 for m in counts), [c.detail for c in result.checks]


@pytest.mark.parametrize("path", BENCH, ids=lambda p: f"bench/{p.stem}")
def test_bench_size_passes_on_the_model(path: Path) -> None:
    """The bench sizes: each runs in one or two seconds on the model, so they run here too (a kernel
    whose bench size took much longer would belong to make bench alone)."""
    result = run(load(path))
    assert result.checks and result.passed, "\n".join(result.lines())


@pytest.mark.parametrize("path", DIRECTED + KERNELS, ids=_id)
def test_words_survive_disassembly_and_assembly(path: Path) -> None:
    spec = load(path)
    assert spec.program.words
    bad = round_trip(list(spec.program.words))
    assert not bad, "\n".join(map(str, bad))


def test_a_word_that_does_not_come_back_is_named_with_both_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """An assembler that gives another word for the disassembly is caught at that address, and the
    failure shows the word, the text it printed as and the text of the word it came back as."""
    words = list(load(FERMI / "integer.sass").program.words)
    real = fermi_run.assemble_line

    def off_by_one_at_0x10(text: str, addr: int = 0, dialect: str = "cuda5", labels: dict[str, int] | None = None) -> int:
        word = real(text, addr, dialect, labels)
        return word ^ (1 << 26) if addr == 0x10 else word  # bit 26: the low bit of the rb field

    monkeypatch.setattr(fermi_run, "assemble_line", off_by_one_at_0x10)
    bad = round_trip(words)
    assert sorted((m.addr, m.dialect) for m in bad) == [(0x10, "cuda4"), (0x10, "cuda5")]
    text = str(next(m for m in bad if m.dialect == "cuda5"))
    assert text.startswith(f"/*0010*/ {words[2]:#018x} disassembles (cuda5) to ")
    assert f"assembles to {words[2] ^ (1 << 26):#018x}" in text and text.count("'") == 4


def _bad_cases() -> list[tuple[Path, str]]:
    out = []
    for path in BAD:
        m = re.search(r"^// error: (.+)$", path.read_text(encoding="utf-8"), re.M)
        assert m, f"{path} has no '// error:' line"
        out.append((path, m[1].strip()))
    return out


BAD_CASES = _bad_cases()


@pytest.mark.parametrize(("path", "want"), BAD_CASES, ids=[p.stem for p, _ in BAD_CASES])
def test_bad_program_ends_in_its_one_error_line(path: Path, want: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = fermi_sim.main([str(path)])
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code in (1, 2)
    assert len(err) == 1 and err[0].startswith("sim: "), err
    assert want in err[0], err
    assert "Traceback" not in err[0]


def test_a_run_that_checks_nothing_fails(tmp_path: Path) -> None:
    """Without an .expect line the run compared nothing, which is no pass."""
    text = (FERMI / "kernels" / "saxpy.sass").read_text(encoding="utf-8")
    path = tmp_path / "saxpy.sass"
    path.write_text(re.sub(r"^\.expect .*$", "", text, flags=re.M), encoding="utf-8")
    result = run(load(path))
    assert not result.checks and not result.passed
    assert "checked nothing" in result.lines()[-1]


def _make_sim(test: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", "sim", "ISA=fermi", f"TEST={test}"], cwd=ROOT, capture_output=True, text=True,
                          env=own_make_env(), timeout=300, check=False)  # fmt: skip


def test_make_sim_fermi_passes_and_says_no_dut_ran() -> None:
    proc = _make_sim("kernels/saxpy")
    out = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out[-1] == fermi_sim.NO_DUT
    assert any(line.startswith("round trip: PASS: 16 words") for line in out), out
    assert "model: PASS: 1 expectation checked" in proc.stdout


def test_make_sim_fermi_fails_on_a_broken_expectation(tmp_path: Path) -> None:
    """A copy of saxpy whose .expect wants y + 1: the model's verdict fails the target, with the
    element named, and the no-DUT line still comes."""
    src = FERMI / "kernels" / "saxpy.sass"
    text = src.read_text(encoding="utf-8")
    broken, n = re.subn(r"^(\.expect y .*)$", r"\1 + 1", text, flags=re.M)
    assert n == 1
    path = tmp_path / "saxpy_broken.sass"
    path.write_text(broken, encoding="utf-8")
    for inc in src.parent.glob("*.inc"):
        shutil.copy(inc, tmp_path)
    proc = _make_sim(str(path))
    assert proc.returncode == 2 and "Error 1" in proc.stderr, proc.stdout + proc.stderr
    out = proc.stdout.splitlines()
    assert out[-1] == fermi_sim.NO_DUT
    assert "model: FAIL: 1 of 1 expectations failed" in proc.stdout
    assert re.search(r"FAIL .*saxpy_broken\.sass:\d+: \.expect y: 1000 of 1000 elements differ: \[0\] expected", proc.stdout), proc.stdout
