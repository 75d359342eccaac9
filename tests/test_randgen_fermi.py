"""Random Fermi programs (randgen/fermi.py): deterministic per seed, legal and terminating on the
model, reaching the table's forms and the SIMT structures they are for, shaped by their knobs; a
broken model is caught and its failure shrunk.

What is expected comes from outside the generator: the form list is the encoding table's (less the
families the model does not execute), control events are read from the model's commit records
(exec and active masks), the buffer layout is the program format's (golden/isa/program.py:
buffers from 0x100).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from golden.fermi import model as fermi_model
from golden.fermi.decode import decode
from golden.fermi.loader import load as load_launch
from golden.fermi.loader import machine
from golden.fermi.table import FORMS
from randgen import fermi
from randgen.__main__ import main as randgen_main
from randgen.config import load
from randgen.fermi_run import run_golden

ROOT = Path(__file__).resolve().parents[1]
BUFFER_BASE = 0x100  # the first buffer's address (docs/reference/program-format.md)


def _cfg(preset: str) -> fermi.FermiConfig:
    return load(preset, base=fermi.FermiConfig(), presets=fermi.PRESETS)[1]


def _text(seed: int, preset: str = "default", cfg: fermi.FermiConfig | None = None) -> str:
    return fermi.render(fermi.generate(seed, cfg or _cfg(preset), preset))


def _mnemonics(text: str) -> list[str]:
    """The mnemonic of each instruction line (after its label and guard)."""
    out = []
    for ln in text.splitlines():
        if not ln.startswith(" ") or not ln.strip():
            continue
        toks = ln.split()
        if toks[0].startswith("@"):
            toks = toks[1:]
        out.append(toks[0].rstrip(";").split(".")[0])
    return out


def _forms(text: str, tmp: Path) -> set[str]:
    path = tmp / "p.sass"
    path.write_text(text)
    return {decode(w).form for w in load_launch(path).words}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, int, Path, list]]:
    """A few programs of every preset, written and run once on the model (commit records kept)."""
    out = []
    tmp = tmp_path_factory.mktemp("fermi_random")
    for preset in fermi.PRESETS:
        if preset == "bench":
            continue
        cfg = _cfg(preset)
        for s in range(1, 5):
            path = tmp / f"{preset}_s{s}.sass"
            path.write_text(fermi.render(fermi.generate(s, cfg, preset)))
            launch = load_launch(path)
            out.append((preset, s, path, machine(launch).run(launch.max_steps)))
    return out


def test_deterministic_per_seed() -> None:
    a = [_text(s) for s in range(1, 6)]
    assert a == [_text(s) for s in range(1, 6)]
    assert len(set(a)) == 5
    assert _text(3, cfg=replace(_cfg("default"), length=80)) != a[2]  # a knob changes the program


def test_every_generated_program_passes_on_the_model(runs: list) -> None:
    """Assembles, round-trips, runs to the end and runs the same way twice (the runner's four checks)."""
    for preset, s, path, recs in runs:
        o = run_golden(path)
        assert o.passed, o.line
        assert o.commits == len(recs) and recs[-1].done, (preset, s)


def test_every_executable_form_is_drawn(tmp_path: Path) -> None:
    """Over a hundred programs, every form of the table appears, save those of families the model
    does not execute; scaffolding adds the control forms."""
    seen: set[str] = set()
    for preset in ("default", "memory", "fp", "int", "control"):
        for s in range(1, 25):
            seen |= _forms(_text(s, preset), tmp_path)
    executable = {f.name for f in FORMS if f.family in fermi_model.ROUTINES}
    assert executable - seen == set()
    assert {f.name for f in FORMS} - executable == {f.name for f in FORMS if f.family not in fermi_model.ROUTINES}


def test_simt_events_happen(runs: list) -> None:
    """Divergent branches, partial breaks, continues, returns and exits, barriers and votes run,
    read from the commit records' masks."""
    seen: dict[str, set[str]] = {}
    for _, _, _, recs in runs:
        for c in recs:
            op = c.text.split(".")[0]
            kind = "none" if c.exec_mask == 0 else "all" if c.exec_mask == c.active_mask else "some"
            seen.setdefault(op, set()).add(kind)
    assert {"all", "some"} <= seen["BRA"]
    for op in ("BRK", "CONT", "RET", "EXIT"):
        assert {"all", "some"} <= seen[op], (op, seen.get(op))
    assert {"SSY", "PBK", "PCNT", "PRET", "CAL", "BAR", "VOTE"} <= set(seen)


def test_memory_stays_in_the_thread_slots(runs: list) -> None:
    """Global writes land in the writing thread's slot of `data`, shared writes in its shared slot."""
    for preset, s, path, recs in runs:
        cfg = _cfg(preset)
        text = path.read_text()
        block = int(next(ln for ln in text.splitlines() if ln.startswith(".block")).split()[1])
        for c in recs:
            for w in c.mem:
                for lane in range(32):
                    if not w.lanes >> lane & 1:
                        continue
                    tid = c.warp * 32 + lane
                    addr = int(w.addr[lane])
                    if w.space == "global":
                        lo = BUFFER_BASE + (c.cta * block + tid) * cfg.store_bytes
                    elif w.space == "shared":
                        lo = tid * cfg.store_bytes
                    else:
                        lo = 0
                    hi = lo + (cfg.local_bytes if w.space == "local" else cfg.store_bytes)
                    assert lo <= addr < hi, (preset, s, c.text, w.space, hex(addr), hex(lo))


def test_knobs_shape_the_programs(tmp_path: Path) -> None:
    base = _cfg("default")
    fp64 = {"DADD", "DMUL", "DFMA", "DMNMX"}  # DSETP is also one of the if/else conditions, whatever the mix

    def count(cfg: fermi.FermiConfig, names: set[str]) -> int:
        return sum(_mnemonics(fermi.render(fermi.generate(s, cfg, "x"))).count(n) for s in range(1, 8) for n in names)

    only_fp64 = replace(base, mix={k: (1.0 if k == "fp64" else 0.0) for k in base.mix})
    no_fp64 = replace(base, mix={**base.mix, "fp64": 0.0})
    assert count(only_fp64, fp64) > 5 * max(1, count(no_fp64, fp64))
    assert count(no_fp64, fp64) == 0
    flat = replace(base, control={k: (1.0 if k == "ops" else 0.0) for k in base.control})
    flat_ops = {m for s in range(1, 8) for m in _mnemonics(fermi.render(fermi.generate(s, flat, "x")))}
    deep_ops = {m for s in range(1, 8) for m in _mnemonics(fermi.render(fermi.generate(s, base, "x")))}
    scaffolds = {"SSY", "PBK", "PCNT", "CAL", "PRET", "BAR", "BRK", "CONT"}
    assert not flat_ops & scaffolds and deep_ops >= scaffolds
    short = sum(fermi.instructions(fermi.render(fermi.generate(s, replace(base, length=10), "x"))) for s in range(1, 8))
    long = sum(fermi.instructions(fermi.render(fermi.generate(s, replace(base, length=120), "x"))) for s in range(1, 8))
    assert long > 3 * short
    assert _forms(fermi.render(fermi.generate(1, replace(base, threads_max=2, grid_max=1), "x")), tmp_path)
    with pytest.raises(ValueError, match="data_regs 6 must be a multiple of 4"):
        base.with_overrides({"data_regs": 6})


def test_no_dut_run_says_so_and_passes(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "randgen", "run", "--isa", "fermi", "--seed", "5", "--count", "2", "--preset", "ci", "--jobs", "1",
                        "-o", str(tmp_path)], capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert lines[0] == "randgen: ISA=fermi has no DUT: the programs run on the golden model alone (SIM=golden)"
    assert [ln.split(":")[0] for ln in lines[1:3]] == ["ci_s5.sass", "ci_s6.sass"]
    assert lines[-1].startswith("2 passed, 0 failed")
    p = subprocess.run([sys.executable, "-m", "randgen", "run", "--isa", "fermi", "--set", "loop_max=5"], capture_output=True, text=True, cwd=ROOT,
                       check=False)  # fmt: skip
    assert p.returncode == 2 and p.stderr.strip().splitlines() == ["randgen: loop_max 5 must be 0, 1, 3, 7 or 15 (a mask of tid)"]


def test_broken_model_is_caught_and_shrunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A model whose FLO routine fails: the run fails with a model error, the program is kept with
    its rerun command, and the shrunk program still has a FLO, is smaller, and is legal (the
    unbroken model runs it)."""
    cfg = _cfg("int")

    def flo_runs(s: int) -> bool:
        path = tmp_path / f"probe_s{s}.sass"
        path.write_text(fermi.render(fermi.generate(s, cfg, "int")))
        launch = load_launch(path)
        return any(c.text.startswith("FLO") and c.exec_mask for c in machine(launch).run(launch.max_steps))

    seed = next(s for s in range(1, 60) if flo_runs(s))

    def broken(x: object, i: object) -> None:
        raise ValueError("FLO broken on purpose")

    monkeypatch.setitem(fermi_model.ROUTINES, "FLO", broken)
    code = randgen_main(["run", "--isa", "fermi", "--sim", "golden", "--preset", "int", "--seed", str(seed), "--count", "1", "--jobs", "1",
                         "--shrink", "--shrink-budget", "300", "-o", str(tmp_path)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1 and "model error" in out and "FLO broken on purpose" in out, out
    assert f"rerun: make random ISA=fermi SEED={seed} COUNT=1 PRESET=int SIM=golden" in out
    kept = tmp_path / "failures" / f"int_s{seed}.sass"
    small = kept.with_suffix(".min.sass")
    assert kept.is_file() and small.is_file()
    assert " FLO" in small.read_text()
    assert fermi.instructions(small.read_text()) < fermi.instructions(kept.read_text()) // 2
    monkeypatch.undo()
    assert run_golden(small).passed
