"""The constrained-random generator (randgen/): determinism, legality, race freedom, shrinking, and
the fixed seeds of the random tier in lock-step (what `make test` runs of it).

What fixes the expected outcomes here is not the generator: the encoding table's decoder and the
assembler (every line assembles and disassembles back), the golden model's own checks (memory
bounds, SIMT stack, runaway loops, barriers, illegal instructions raise), and schedule independence
(a race-free program gives the same memory whatever order its warps run in).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golden.g80.isa import decode_program
from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import build, run_program

sys.path.insert(0, str(ROOT))
from randgen import PRESETS, generate, load, render
from randgen.config import DEFAULT_MIX, Config, parse_set
from randgen.generator import Break, Op, layout_of
from randgen.shrink import all_lists, shrink, size

# the seeds `make test` runs in lock-step (Verilator, NUM_SP 8, preset ci)
CI_SEEDS = [1, 2, 3, 4, 5]


def _write(tmp: Path, seed: int, preset: str = "default", cfg: Config | None = None) -> Path:
    if cfg is None:
        preset, cfg = load(preset)
    path = tmp / f"{preset}_s{seed}.sass"
    path.write_text(render(generate(seed, cfg, preset)))
    return path


def test_same_seed_same_program() -> None:
    _, cfg = load("default")
    assert render(generate(7, cfg, "default")) == render(generate(7, cfg, "default"))
    assert render(generate(7, cfg, "default")) != render(generate(8, cfg, "default"))


# a few hundred programs on the model alone, in chunks that pytest-xdist spreads over the cores
GOLDEN_SEEDS = {"ci": 60, "default": 60, "deep": 40, "memory": 40, "fp": 40, "fp16": 20, "int": 20, "tall": 20, "stress-chain": 10, "many-warps": 6,
                "simt": 30, "cover": 20}  # fmt: skip
GOLDEN_CHUNKS = [(preset, range(start, min(start + 10, n + 1))) for preset, n in GOLDEN_SEEDS.items() for start in range(1, n + 1, 10)]


@pytest.mark.parametrize(("preset", "seeds"), GOLDEN_CHUNKS, ids=[f"{p}-{s.start}" for p, s in GOLDEN_CHUNKS])
def test_programs_assemble_round_trip_and_run_on_the_model(tmp_path: Path, preset: str, seeds: range) -> None:
    """Every program assembles, its words disassemble to text that assembles to the same words, and
    the model runs every block to the end without an error (no fault, overflow, runaway, deadlock)."""
    from golden.g80.isa import assemble, render_program

    for seed in seeds:
        path = _write(tmp_path, seed, preset)
        spec = load_program(path)
        text = "\n".join(render_program(decode_program(spec.program.words)))
        assert assemble(text, "<disasm>").words == spec.program.words, f"{path.name}: round trip differs"
        result = run_program(spec, G80)
        assert all(w.done for w in result.sm.warps), path.name
        assert result.warp_instructions > 0


def _random_order_memory(path: Path, seed: int) -> np.ndarray:
    """Final global memory when warps are stepped one instruction at a time in a random order."""
    sm, gmem = build(load_program(path), G80)
    rng = random.Random(seed)
    while True:
        ready = [w for w in sm.warps if w.ready]
        if not ready:
            if sm.round_done and not sm.start_next_round():
                return gmem.data.copy()
            continue
        sm.step(rng.choice(ready))


@pytest.mark.parametrize("seed", range(1, 13))
def test_programs_are_race_free(tmp_path: Path, seed: int) -> None:
    """Race freedom, observed: the free-running scheduler and a random warp order give the same memory."""
    preset = ["ci", "memory", "deep"][seed % 3]
    path = _write(tmp_path, seed, preset)
    free = run_program(load_program(path), G80).gmem.data
    assert np.array_equal(free, _random_order_memory(path, seed)), path.name


@pytest.mark.parametrize("seed", range(1, 9))
def test_simt_programs_are_race_free(tmp_path: Path, seed: int) -> None:
    """The same for the simt and cover presets (BAR forms under SSYs, A4-A7, calls backward, .E
    inside divergence, a divergent BRA with no SSY, direct shared stores of zero, clock reads):
    one memory whatever the warp order."""
    path = _write(tmp_path, seed, "simt" if seed % 2 else "cover")
    free = run_program(load_program(path), G80).gmem.data
    assert np.array_equal(free, _random_order_memory(path, seed)), path.name


# bins of the ISA coverage model (golden/g80/coverage_model.py, derived from the encoding table) that only
# the directed programs reached before the simt preset's structures existed
SIMT_BINS = [
    "BAR/.ARV/(none)", "BAR/.WAIT/(none)", "BAR/depth/depth 1", "BAR/depth/depth 2+", "BAR/count/count", "BAR/count/ALL",
    *(f"R2A/dst/A{n}" for n in range(4, 8)), *(f"A2R/src/A{n}" for n in range(5, 8)),
    "CAL/direction/backward", "CAL/call limit/(none)", "CAL/call limit/.NOINC",
    "SIMT/marker x depth/.E @ depth 1", "SIMT/marker x depth/.E @ depth 2+", "BRA/outcome x depth/divergent @ depth 0",
]  # fmt: skip


def _hits(tmp_path: Path, preset: str, cfg: Config | None, seeds: range | list[int]) -> set[str]:
    """The ISA coverage bins that programs of `preset` hit on the model (commit records and the warp's
    SIMT stack at issue, as `make coverage` samples them); each program runs to the end."""
    import json

    from golden.g80.coverage import Coverage
    from golden.g80.coverage_run import run_with_coverage

    cov = Coverage(run="randgen test")
    for seed in seeds:
        run_with_coverage(load_program(_write(tmp_path, seed, preset, cfg)), G80, cov)
    path = tmp_path / f"{preset}.json"
    cov.save(path)
    return {k for k, v in json.loads(path.read_text())["counts"].items() if v}


def test_simt_preset_reaches_the_structures(tmp_path: Path) -> None:
    """The simt preset's programs hit every bin above within a few seeds. The knobs at 0 add none of
    it (the older presets do not draw them)."""

    def hits(preset: str, cfg: Config | None, seeds: range) -> set[str]:
        return _hits(tmp_path, preset, cfg, seeds)

    got = hits("simt", None, range(1, 13))
    assert not [b for b in SIMT_BINS if b not in got], [b for b in SIMT_BINS if b not in got]
    assert {f"ADA/dst/A{n}" for n in range(4, 8)} & got  # ADA writes them too (each register: R2A above)
    _, cfg = load("simt")
    off = cfg.with_overrides(dict.fromkeys(("bar_variants", "aregs_high", "back_calls", "exit_depth", "diverge"), 0.0))
    none = hits("simt", off, range(1, 5))
    assert not {"BAR/.ARV/(none)", "R2A/dst/A5", "CAL/direction/backward", "SIMT/marker x depth/.E @ depth 2+"} & none


# the last ISA bins random programs missed (docs/guides/random.md, "Presets and knobs"): rare draws, not structures
COVER_BINS = [
    "FMAD/src3/c[An+x]", "FMAD32/src2/c[An+x]", "FMIN/src2/c[An+x]", "IMUL32/src2/c[An++x]",
    *(f"I2I/destination type x source type/{t}" for t in (".S16 x .U32", ".U32 x .U16.BEXT", ".U8 x .U16", ".U8 x .U32.BEXT")),
    "IMAD/marker/.E", "S2R/marker/.E", "ISAD/flags/Z=1", "SHR/flags/O=1",
]  # fmt: skip
COVER_SEEDS = [1, 3, 5, 11, 13, 15, 17, 19, 25]  # among cover seeds 1-60, each bin is hit by one of these


def test_cover_preset_reaches_the_rare_bins(tmp_path: Path) -> None:
    """The cover preset's draws (constant $a bases that fit the offset, $a set-up for the second
    instruction of a pair, knob edges: x - x, a zero src3, shift counts 0/1/width; knob marker_spread)
    hit every bin above on the model. Without edges the same seeds give no shift by one that sets O."""
    got = _hits(tmp_path, "cover", None, COVER_SEEDS)
    assert not [b for b in COVER_BINS if b not in got], [b for b in COVER_BINS if b not in got]
    _, cfg = load("cover")
    none = _hits(tmp_path, "cover", cfg.with_overrides({"edges": 0.0}), COVER_SEEDS)
    assert "SHR/flags/O=1" not in none


def _marker_forms() -> list[str]:
    """Every form of the encoding table with a join/exit marker that random code may draw (not
    control, not texture): from the table, not from the generator."""
    from golden.g80.table import FORMS

    return sorted({f.name for f in FORMS if "marker" in f.fields and f.family not in ("control", "tex") and not f.name.startswith("TEX")})


def test_cover_preset_sweeps_the_exit_marker_over_every_form(tmp_path: Path) -> None:
    """Knob marker_sweep (cover): over 22 consecutive seeds (two exit-marked instructions a program),
    the assembled words hold `.E` on every form the table lets carry a marker, read back by the
    disassembler. The final one runs: the early exits spare thread 0, so on the model the `.E` bin of
    the final instruction's form is hit (FMIN, which random programs missed, and others)."""
    want = _marker_forms()
    got: set[str] = set()
    for seed in range(1, 23):
        for i in decode_program(load_program(_write(tmp_path, seed, "cover")).program.words):
            if i.fields.get("marker") == 1:
                got.add(i.form.name)
    assert got >= set(want), sorted(set(want) - got)
    _, cfg = load("cover")
    finals = {}
    for seed in range(1, 44):
        last = generate(seed, cfg, "cover").last
        assert last is not None
        finals[last.split("\n")[-1].split()[0].split(".")[0]] = seed
    seeds = [finals[n] for n in ("FMIN", "FMAX", "RCP", "SHL")]
    hits = _hits(tmp_path, "cover", None, seeds)
    assert {f"{n}/marker/.E" for n in ("FMIN", "FMAX", "RCP", "SHL")} <= hits
    # off, the exit-marked forms follow the mix again: seeds 1-22 leave some form without .E
    off = cfg.with_overrides({"marker_sweep": False})
    names = {generate(seed, off, "cover").last.split("\n")[-1].split()[0].split(".")[0] for seed in range(1, 23)}
    assert len(names) < len(want)


def test_random_code_reaches_every_global_access_size(tmp_path: Path) -> None:
    """Random code draws global loads and stores of the table (not only the scaffolding's GST.U32):
    over a few memory-preset programs the decoded words hold every access size of both, guarded
    ones among them (a lost assignment once left only the dump's stores)."""
    sizes: dict[str, set[str]] = {"GLD": set(), "GST": set()}
    guarded = 0
    for seed in range(1, 11):
        for i in decode_program(load_program(_write(tmp_path, seed, "memory")).program.words):
            name, *mods = i.text.split()[0].split(".")
            if name in sizes:
                sizes[name] |= set(mods)
                guarded += "(C" in i.text
    for name, got in sizes.items():
        assert {"U8", "S8", "U16", "S16", "U32", "S64", "S128"} <= got, (name, got)
    assert guarded > 0


def test_aregs_high_are_set_before_use_and_dumped() -> None:
    """With aregs_high, the prologue writes A4-A7 before random code reads them and the dump stores
    A1-A7 (seven words where three were): everything an address register holds reaches memory."""
    _, cfg = load("simt")
    tree = generate(1, cfg, "simt")
    text = render(tree)
    lay = layout_of(tree)
    assert lay.aregs == 7 and lay.off_shared == lay.off_aregs + 7
    lines = [ln.strip() for ln in text.splitlines()]
    first_read = min(i for i, ln in enumerate(lines) if ln.startswith(("A2R", "ADA")))
    for n in range(4, 8):
        assert min(i for i, ln in enumerate(lines) if ln.startswith(f"R2A A{n}, ")) < first_read, n
        assert f"A2R R{lay.rv}, A{n}" in lines
    _, ci = load("ci")
    assert layout_of(generate(1, ci, "ci")).aregs == 3


def test_everything_computed_reaches_global_memory(tmp_path: Path) -> None:
    """The dump: the final value of every data register of every thread is in its out slot."""
    _, cfg = load("ci")
    tree = generate(3, cfg, "ci")
    path = tmp_path / "ci_s3.sass"
    path.write_text(render(tree))
    spec = load_program(path)
    result = run_program(spec, G80, batch=True)
    lay = layout_of(tree)
    out = spec.buffers["out"]
    words = np.frombuffer(result.gmem.data[out.addr : out.addr + out.nbytes].tobytes(), np.uint32).reshape(-1, lay.slot_words)
    init = out.init.reshape(-1, lay.slot_words)
    # the data-register part of each slot was written (the initial pattern is random; a few equal by chance at most)
    assert (words[:, : lay.data_regs] != init[:, : lay.data_regs]).mean() > 0.9


knobs = st.fixed_dictionaries(
    {
        "threads_max": st.integers(1, 512),
        "depth": st.integers(0, 4),
        "loop_max": st.sampled_from([0, 1, 3, 7]),
        "data_regs": st.integers(2, 20),
        "length": st.integers(1, 50),
        "guard": st.floats(0, 1),
        "special": st.floats(0, 1),
        "barriers": st.integers(0, 3),
        "subroutines": st.integers(0, 3),
        "shared_slot": st.sampled_from([16, 32, 64]),
        "marker_sweep": st.booleans(),
        "mix": st.dictionaries(st.sampled_from(sorted(DEFAULT_MIX)), st.sampled_from([0, 0.5, 5]), max_size=12),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(knobs=knobs, seed=st.integers(0, 2**31))
def test_legal_under_any_configuration(tmp_path: Path, knobs: dict, seed: int) -> None:
    """Under random knobs: the launch fits the SM, random code writes only data registers, and the model
    runs the program to the end (legal and terminating)."""
    if not any(w for f, w in {**DEFAULT_MIX, **knobs["mix"]}.items() if f not in ("gld", "gst", "lld", "lst", "r2g")):
        knobs["mix"]["iadd"] = 1
    cfg = Config().with_overrides({**knobs, "grid_max": (3, 2)})
    tree = generate(seed, cfg, "hyp")
    lay = layout_of(tree)
    assert lay.registers * -(-tree.nthreads // 32) * 32 <= 8192
    for _, items in all_lists(tree):
        for it in items:
            if isinstance(it, Op):
                insn = it.lines[-1]
                first = insn.split()[1].split(",")[0] if len(insn.split()) > 1 else ""
                if first.startswith("R") and first[1:].rstrip("LH").isdigit() and not insn.startswith(("GST", "LST", "R2G")):
                    reg = int(first[1:].rstrip("LH"))
                    assert 2 <= reg <= lay.last_data, insn
    path = tmp_path / "hyp_s1.sass"
    path.write_text(render(tree))
    result = run_program(load_program(path), G80)
    assert all(w.done for w in result.sm.warps)


def test_configuration_errors_name_the_knob(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown generator knob"):
        Config().with_overrides({"lenght": 3})
    with pytest.raises(ValueError, match="unknown mix entries"):
        Config().with_overrides({"mix": {"fdiv": 1}})
    with pytest.raises(ValueError, match="threads_max 600"):
        Config().with_overrides({"threads_max": 600})
    with pytest.raises(ValueError, match="marker_sweep 1 is true or false"):
        Config().with_overrides(parse_set(["marker_sweep=1"]))
    assert Config().with_overrides(parse_set(["marker_sweep=true"])).marker_sweep is True
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "ci"\nlength = [\n')
    with pytest.raises(ValueError, match=r"bad\.toml"):
        load(toml_path=bad)
    good = tmp_path / "good.toml"
    good.write_text('preset = "deep"\nlength = 12\n[mix]\nfadd = 9\n')
    preset, cfg = load(toml_path=good)
    assert (preset, cfg.length, cfg.depth, cfg.mix["fadd"]) == ("deep", 12, PRESETS["deep"]["depth"], 9)
    assert parse_set(["length=5", "grid_max=[2, 1]"]) == {"length": 5, "grid_max": [2, 1]}


def test_shrinker_keeps_programs_legal_and_failing(tmp_path: Path) -> None:
    """A stand-in failure (the program has an RCP that runs) shrinks to a few items; every candidate
    it kept is still a program the model runs to the end."""
    _, cfg = load("default")
    seed = next(s for s in range(1, 200) if "RCP" in render(generate(s, cfg, "default")))
    tree = generate(seed, cfg, "default")

    def fails(q) -> bool:
        text = render(q)
        if "RCP" not in text:
            return False
        path = tmp_path / "try_s1.sass"
        path.write_text(text)
        run_program(load_program(path), G80)  # raises if the candidate is not legal
        return True

    small, runs = shrink(tree, fails, budget=400)
    assert "RCP" in render(small)
    assert size(small) <= 3 < size(tree), (size(tree), size(small), runs)
    assert small.nthreads == 1 and small.nblocks == 1
    assert not any(isinstance(i, Break) for i in small.main)  # a BRK never survives without its loop


def test_shrinker_in_chunks_finds_the_same_program(tmp_path: Path) -> None:
    """Candidates screened several at a time (`first_failing`: one simulator process for a chunk)
    give the program that one at a time gives, in no more runs than the budget."""
    _, cfg = load("default")
    seed = next(s for s in range(1, 200) if "RCP" in render(generate(s, cfg, "default")))
    tree = generate(seed, cfg, "default")

    def fails(q) -> bool:
        return "RCP" in render(q)

    alone, _ = shrink(tree, fails, budget=400)
    chunked, runs = shrink(tree, fails, budget=400, first_failing=lambda qs: next((i for i, q in enumerate(qs) if fails(q)), None), chunk=8)
    assert render(chunked) == render(alone) and runs <= 400


def test_mutant_oracle_names_a_bad_campaign(tmp_path: Path) -> None:
    """`--mutants DIR` needs a campaign folder with the mutant: a clear error otherwise."""
    from randgen.run import run_mutant

    path = _write(tmp_path, 1, "ci")
    with pytest.raises(FileNotFoundError, match="not a mutation campaign folder"):
        run_mutant(path, tmp_path, 3)
    (tmp_path / "design.json").write_text('{"sources": [], "includes": []}')
    (tmp_path / "mutants.json").write_text('[{"id": 1}]')
    with pytest.raises(ValueError, match="mutant 3 is not one of the 1 mutants"):
        run_mutant(path, tmp_path, 3)


def test_random_tier_in_lockstep(tmp_path: Path) -> None:
    """The random tier of `make test`: the CI seeds on Verilator at NUM_SP 8, every commit compared."""
    from randgen.run import run_rtl

    _, cfg = load("ci")
    failures = []
    for seed in CI_SEEDS:
        path = tmp_path / f"ci_s{seed}.sass"
        path.write_text(render(generate(seed, cfg, "ci")))
        o = run_rtl(path, "verilator", 8, out=tmp_path / f"run{seed}")
        if not o.passed:
            failures.append(f"{o.line} (rerun: make random SEED={seed} COUNT=1 PRESET=ci SIM=verilator NUM_SP=8)")
        assert o.passed or o.kind, o.line
    assert not failures, "\n".join(failures)


def _one_instruction(tmp_path: Path, lines: list[str], name: str) -> Path:
    """A generated program cut down to one thread and the given random instruction (its scaffolding kept)."""
    from dataclasses import replace

    _, cfg = load("ci")
    tree = replace(generate(1, cfg, "ci"), grid=(1, 1), block=(1, 1, 1), main=[Op(lines)], subs=[])
    path = tmp_path / f"{name}_s1.sass"
    path.write_text(render(tree))
    return path


BUG_LINES = ["ADA A2, A1, 0x0", "IMIN.C2 R2 (C3.TRUE), g [A2+++0x1].U8, c[0x0][0x65]"]


def test_known_rtl_bug_postinc_shared_with_const(tmp_path: Path) -> None:
    """An RTL bug the random tier found (ci seed 1, shrunk), now fixed: with a post-incremented shared
    operand in slot A, the decoder also read the constant operand's offset as a signed increment, so
    c[0x0][0x65] (offset field bit 6 set) read c0[0xfe54] and gave 0. Only the first memory operand
    owns the post-increment (ISA.md 7.2); the model gives c0[0x194]."""
    from randgen.run import run_rtl

    o = run_rtl(_one_instruction(tmp_path, BUG_LINES, "bug"), "verilator", 8, out=tmp_path / "run")
    assert o.passed, o.line


def test_same_instruction_without_postinc_passes(tmp_path: Path) -> None:
    """The control of the test above: without the post-increment, or without the constant, the RTL agrees."""
    from randgen.run import run_rtl

    for k, text in enumerate(["IMIN.C2 R2 (C3.TRUE), g [A2+0x1].U8, c[0x0][0x65]", "IMIN.C2 R2 (C3.TRUE), g [A2+++0x1].U8, R3"]):
        o = run_rtl(_one_instruction(tmp_path, ["ADA A2, A1, 0x0", text], f"ctl{k}"), "verilator", 8, out=tmp_path / f"run{k}")
        assert o.passed, o.line


def test_exit_marker_ends_the_program(tmp_path: Path) -> None:
    """exit_marker=1: the last instruction of the main code carries `.E` (read back by the
    disassembler from the assembled words) and the model finishes every thread there; 0: none does."""
    _, cfg = load("ci")
    on, off = cfg.with_overrides({"exit_marker": 1.0}), cfg.with_overrides({"exit_marker": 0.0})
    for seed in range(1, 6):
        tree = generate(seed, on, "ci")
        assert tree.last is not None
        spec = load_program(_write(tmp_path, seed, "ci", on))
        marked = [i for i in decode_program(spec.program.words) if i.fields.get("marker") == 1]
        assert len(marked) == 1 and "E" in marked[0].text.split()[0].split(".")[1:], [i.text for i in marked]
        result = run_program(spec, G80)  # finishes: no runaway past the marker
        assert all(w.done for w in result.sm.warps)
        assert generate(seed, off, "ci").last is None
        # the knob is drawn last: the rest of the program does not depend on it
        assert generate(seed, off, "ci").main == tree.main
    with pytest.raises(ValueError, match="exit_marker 2"):
        Config().with_overrides({"exit_marker": 2})


def test_short_forms_are_paired_and_stay_short(tmp_path: Path) -> None:
    """pair_short=1 puts a second 32-bit instruction after each one, so the assembler keeps them
    32-bit: the assembled words hold short instructions (4 bytes, decoded from the words)."""
    _, cfg = load("default")
    paired, alone = cfg.with_overrides({"pair_short": 1.0}), cfg.with_overrides({"pair_short": 0.0})

    def short_count(c: Config) -> int:
        n = 0
        for s in range(1, 9):
            path = tmp_path / f"default_s{s}.sass"
            path.write_text(render(generate(s, c, "default")))
            n += sum(1 for i in decode_program(load_program(path).program.words) if i.form.size == 4)
        return n

    assert short_count(paired) > 2 * max(1, short_count(alone))


def test_batch_runs_programs_in_one_process(tmp_path: Path) -> None:
    """Three CI programs in one simulator process pass in lock-step with as many commits as the
    model executes warp-instructions (the model run alone fixes the count)."""
    from randgen.run import run_batch, run_golden

    paths = [_write(tmp_path, seed, "ci") for seed in CI_SEEDS[:3]]
    outs = run_batch(paths, "verilator", 8, tmp_path / "batch")
    assert [o.passed for o in outs if o is not None] == [True, True, True], [o.line for o in outs if o is not None]
    assert [o.commits for o in outs if o is not None] == [run_golden(p).commits for p in paths]


def test_f16_specials_reach_the_data() -> None:
    """f16_specials puts special f16 pairs into the spec buffer: every f16 denormal leading-zero
    count (0x0001 << k, appendix A's h_lz cases) occurs in the halves over a few programs; the knob
    at 0 leaves a preset's programs as they were (no extra draw)."""
    from randgen.generator import F16_SPECIALS

    _, cfg = load("fp16")
    halves = set()
    for seed in range(1, 11):
        tree = generate(seed, cfg, "fp16")
        for word in tree.specials + [v for vals in tree.consts.values() for v in vals]:
            halves |= {word & 0xFFFF, word >> 16}
    assert {1 << k for k in range(10)} <= halves and set(F16_SPECIALS) & halves
    _, fp = load("fp")
    assert render(generate(3, fp, "fp")) == render(generate(3, fp.with_overrides({"f16_specials": 0.0}), "fp"))


def test_flexgrip_dut_refuses_with_the_reason(tmp_path: Path) -> None:
    """A random program that FlexGripPlus cannot run (here nbody, whose `R2A A2, R124` FlexGripPlus decodes
    from six bits: golden/g80/flexgrip_findings.py r2a_source_6bit) is a failure of kind `refused` whose
    line names the instruction, decided before any build (no GHDL needed), never a pass."""
    from randgen.run import run_rtl

    prog = tmp_path / "nbody_s1.sass"
    prog.write_text((ROOT / "programs" / "kernels" / "nbody.sass").read_text(encoding="utf-8"), encoding="utf-8")
    out = run_rtl(prog, "ghdl", 8, dut="flexgrip", out=tmp_path / "run")
    assert not out.passed and out.kind == "refused"
    assert "R2A A2, R124" in out.line and "0x00d8" in out.line
