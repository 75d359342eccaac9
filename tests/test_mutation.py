"""The mutant generator of `make mutants` (tb/mutation/mutate.py): sites from Verilator's parse of
rtl/, instrumented sources that both simulators compile, and the text helpers it relies on.

Expected values come from Verilog itself (what a literal means, where a constant is required),
not from the generator: the tests write the source text and its meaning by hand."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT

from tb.mutation import campaign, mutate


@pytest.mark.parametrize(
    ("literal", "flipped"),
    [("5'd3", "5'd2"), ("1'b0", "1'b1"), ("4'b1000", "4'b1001"), ("32'h0", "32'h1"), ("8'hff", "8'hfe"), ("0", "1"), ("32", "33"),
     ("12'sd5", "12'sd4"), ("4'bxx01", None), ("NUM_SP", None)],
)  # fmt: skip
def test_flip_literal(literal: str, flipped: str | None) -> None:
    assert mutate._flip_literal(literal) == flipped


def test_blank_comments_keeps_offsets() -> None:
    text = 'a = b; // c + d\n/* e\n * f */ g = "h // i";\n'
    blank = mutate._blank_comments(text)
    assert len(blank) == len(text) and blank.count("\n") == text.count("\n")
    assert "c + d" not in blank and "f */" not in blank and "h //" not in blank
    assert blank.startswith("a = b;") and "g = " in blank


@pytest.mark.parametrize(
    ("code", "site", "constant"),
    [("x[W-1:0]", "-", True),  # a range bound
     ("x[i*4 +: 4]", "*", False),  # the base of an indexed part-select is an ordinary expression
     ("x[i*4 +: 2*2]", "2*", True),  # its width is not
     ("{(27-RB){1'b0}}", "-", True),  # a replication count
     ("{a - b, c}", "-", False),  # a concatenation's operand
     ("y[a + b]", "+", False)],  # an index
)  # fmt: skip
def test_constant_positions(code: str, site: str, constant: bool) -> None:
    assert mutate._constant_position(code, 0, code.index(site)) is constant


def test_balance_takes_in_the_parenthesis_of_a_first_operand() -> None:
    code = "y = (a & b) == c ? d : e;"
    # tokens of `(a & b) == c` start at `a`: the extent must take in the `(`
    start, end = mutate._balance(code, code.index("a"), code.index("c ?") + 1)
    assert code[start:end] == "(a & b) == c"


@pytest.fixture(scope="module")
def cands() -> list:
    return mutate.candidates()


def test_candidates_point_at_their_text(cands: list) -> None:
    """Every site's recorded text is what the source holds there; every kind and every RTL file occurs."""
    assert len(cands) > 1000
    assert {c.kind for c in cands} == set(mutate.KINDS)
    files = {str(p.relative_to(ROOT)) for p in (ROOT / "rtl").glob("*.v")}
    assert {c.file for c in cands} >= files - {"rtl/sm1_decode.v"}  # sm1_decode.v has no statement of its own
    texts = {f: (ROOT / f).read_text(encoding="utf-8") for f in files}
    for c in cands:
        if c.kind in ("operator", "constant"):
            s, e, new = c.edit
            assert texts[c.file][s:e] == c.original, c
            assert c.original in mutate.BINARY or c.original in ("~", "!", "-") or mutate._flip_literal(c.original) == new
    assert len({c.key for c in cands}) == len(cands)  # keys identify mutants


def test_no_site_in_a_for_header_or_a_range(cands: list) -> None:
    for c in cands:
        if c.kind in ("operator", "constant"):
            text = (ROOT / c.file).read_text(encoding="utf-8")
            line = text.splitlines()[c.line - 1]
            col = c.edit[0] - sum(len(x) + 1 for x in text.splitlines()[: c.line - 1])
            assert not re.match(r"\s*for\s*\(", line) or col > line.index(")"), (c.where, line)


def test_sample_is_seeded_and_spread(cands: list) -> None:
    a, b, c = mutate.sample(cands, 120, 1), mutate.sample(cands, 120, 1), mutate.sample(cands, 120, 2)
    assert [x.key for x in a] == [x.key for x in b] != [x.key for x in c]
    assert len(a) == 120 and {x.kind for x in a} == set(mutate.KINDS)


def test_sample_survives_an_rtl_change(cands: list) -> None:
    """The draw depends on the keys only: with candidates gone (a statement of the RTL rewritten) the
    drawn ones still there are drawn again, and each kind's share is filled up from the rest."""
    a = mutate.sample(cands, 120, 1)
    gone = {x.key for x in a[::10]}  # 12 drawn keys vanish, and as many candidates never drawn
    undrawn = [c for c in cands if c.key not in {x.key for x in a}][:12]
    rest = [c for c in cands if c.key not in gone and c not in undrawn]
    b = mutate.sample(rest, 120, 1)
    kept = {x.key for x in a} - gone
    assert kept <= {x.key for x in b} and len(b) == 120
    # the same shares (24 of ~4,000 candidates fewer), up to the rounding of a share that sits near
    # a half (which of the RTL's kinds does depends on its candidate counts)
    ka, kb = Counter(x.kind for x in a), Counter(x.kind for x in b)
    assert set(ka) == set(kb) and all(abs(ka[k] - kb[k]) <= 1 for k in ka), (ka, kb)


def test_instrumented_design_compiles_on_both_simulators(tmp_path: Path) -> None:
    """All candidates at once behind their ids: Verilator lints it without errors, Icarus compiles it."""
    mutants, files, dropped = mutate.generate(tmp_path / "rtl", 0, 1)
    assert len(mutants) + len(dropped) > 1000 and len(dropped) < len(mutants) // 20
    text = "".join(p.read_text(encoding="utf-8") for p in files.sources)
    ids = {int(k) for k in re.findall(r"sm_top\.mut_sel [!=]= 16'd(\d+)", text)}
    assert ids == {m.id for m in mutants}  # every mutant has its guard, and only those
    if shutil.which("iverilog") is None:
        pytest.skip("iverilog not installed")
    cmd = ["iverilog", "-g2012", "-o", str(tmp_path / "sm.vvp"), "-s", "sm_top", *(f"-I{d}" for d in files.includes), *map(str, files.sources)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_random_program_spec(tmp_path: Path) -> None:
    paths = campaign.random_programs("ci:2,fp:1", tmp_path)
    assert [p.name for p in paths] == ["ci_s1.sass", "ci_s2.sass", "fp_s1.sass"]
    with pytest.raises(ValueError, match="preset:count"):
        campaign.random_programs("ci", tmp_path)


def test_equivalent_file_entries_have_reasons() -> None:
    for key, reason in campaign.equivalents().items():
        assert re.fullmatch(r"\w+:(operator|constant|condition|drop|stuck0|stuck1):[\w.\[\]#]+", key), key
        assert len(reason) > 20, key


def test_report_counts_per_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's table from a campaign folder: killed, survived, equivalent (a survivor or an
    unresolved mutant whose key equivalent.toml lists), unresolved; the score leaves the
    equivalent and unresolved ones out. The folder is written here by hand."""
    eq = tmp_path / "equivalent.toml"
    eq.write_text('["m1:drop:aaa"]\nreason = "a default that every path that reads it overwrites first"\n', encoding="utf-8")
    monkeypatch.setattr(campaign, "EQUIVALENT", eq)

    def mutant(i: int, module: str, key: str) -> dict:
        return {
            "id": i,
            "module": module,
            "file": f"rtl/{module}.v",
            "line": i,
            "kind": key.split(":")[1],
            "original": "a",
            "mutated": "b",
            "key": key,
        }

    mutants = [mutant(1, "m1", "m1:drop:aaa"), mutant(2, "m1", "m1:operator:bbb"), mutant(3, "m1", "m1:constant:ccc"), mutant(4, "m2", "m2:drop:ddd"),
               mutant(5, "m2", "m2:stuck0:u.x[0]")]  # fmt: skip
    (tmp_path / "mutants.json").write_text(json.dumps(mutants), encoding="utf-8")
    (tmp_path / "campaign.json").write_text(
        json.dumps({"mutants": 5, "candidates": 40, "seed": 1, "directed": 2, "programs": [{}, {}, {}]}), encoding="utf-8"
    )
    verdicts = [{"mutant": 1, "status": "unresolved", "runs": 2}, {"mutant": 2, "status": "killed", "program": "p", "kind": "mismatch", "runs": 1},
                {"mutant": 3, "status": "survived", "runs": 3, "alone": True}, {"mutant": 4, "status": "killed", "program": "p", "kind": "hang", "runs": 2},
                {"mutant": 5, "status": "unresolved", "runs": 2}]  # fmt: skip
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(v) + "\n" for v in verdicts), encoding="utf-8")
    text = campaign.report(tmp_path)
    assert "| m1 | 3 | 1 | 1 | 1 | 0 | 0 | 50.0% |" in text
    assert "| m2 | 2 | 1 | 0 | 0 | 1 | 0 | 100.0% |" in text
    assert "| **all** | 5 | 2 | 1 | 1 | 1 | 0 | **66.7%** |" in text
    assert "Counting them as survivors: 50.0%" in text  # 2 killed of 4 non-equivalent
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["survivors"] == [3]


def test_which_mutants_run_again() -> None:
    """A retry pass runs the unresolved mutants and the survivors that have not met every program
    in its present text (a mut_*.sass added, or changed, after they survived); never a killed one."""
    progs = {"a": "d1", "b": "d2", "mut_new": "d3"}
    assert campaign.to_run(None, False, progs)
    assert not campaign.to_run({"status": "unresolved", "tried": ["a"]}, False, progs)  # the quick pass leaves it
    assert campaign.to_run({"status": "unresolved", "tried": ["a"]}, True, progs)
    assert campaign.to_run({"status": "survived", "tried": ["a", "b"]}, True, progs)
    assert not campaign.to_run({"status": "survived", "tried": ["a", "b", "mut_new"]}, True, progs)
    changed = {"status": "survived", "tried": ["a", "b", "mut_new"], "seen": {"a": "d1", "b": "d2", "mut_new": "old"}}
    assert campaign.to_run(changed, True, progs) and campaign.tried(changed, progs) == ["a", "b"]
    assert not campaign.to_run({"status": "killed", "tried": ["a"], "program": "a"}, True, progs)


def test_bad_program_outcome_leaves_out_the_cycle() -> None:
    """A bad program kills a mutant when the RTL stops otherwise (another PC, message, or not at
    all), not when it reaches the same error later."""
    outcome = campaign.outcome
    ref = {"kind": "memory_fault", "message": "cycle 370518: DUT accessed global memory at 0x10000", "pc": 16, "warp": 0, "block": 0, "cta": 0, "cycle": 120, "text": "X",
           "model_says": "it stops too"}  # fmt: skip
    assert outcome({**ref, "cycle": 300, "history": ["other"], "message": "cycle 9: DUT accessed global memory at 0x10000"}) == outcome(ref)
    assert outcome({**ref, "pc": 24}) != outcome(ref)
    assert outcome(None) != outcome(ref) and outcome(None) is None
    assert campaign.expects_error("bad/trap") and not campaign.expects_error("kernels/sgemm")


def test_redraw_after_an_rtl_change_keeps_no_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign folder of another RTL (its digest differs): the mutants are drawn again, the old
    results move to previous/ and only say which program killed each key first; nothing is kept
    as a verdict."""
    meta = {"n": 3, "seed": 1, "rtl": "old0", "random": "", "programs": [], "directed": 0, "candidates": 9, "mutants": 3}
    (tmp_path / "campaign.json").write_text(json.dumps(meta), encoding="utf-8")
    old = [{"id": 1, "key": "m:drop:a"}, {"id": 2, "key": "m:drop:b"}, {"id": 3, "key": "m:drop:c"}]
    (tmp_path / "mutants.json").write_text(json.dumps(old), encoding="utf-8")
    (tmp_path / "results.jsonl").write_text(
        json.dumps({"mutant": 1, "status": "killed", "program": "iadd"}) + "\n" + json.dumps({"mutant": 2, "status": "survived"}) + "\n",
        encoding="utf-8",
    )

    def draw(out: Path, n: int, seed: int, digest: str, random_spec: str) -> dict:  # the new RTL: key c gone, d new
        (out / "mutants.json").write_text(json.dumps([{"id": 1, "key": "m:drop:a"}, {"id": 2, "key": "m:drop:b"}, {"id": 3, "key": "m:drop:d"}]))
        m = {**meta, "rtl": digest}
        (out / "campaign.json").write_text(json.dumps(m), encoding="utf-8")
        return m

    monkeypatch.setattr(campaign, "rtl_digest", lambda: "new1")
    monkeypatch.setattr(campaign, "_draw", draw)
    new = campaign.prepare(tmp_path, 3, 1, "")
    assert new["rtl"] == "new1" and new["kept_keys"] == 2 and new["previous_rtl"] == "old0"
    assert not (tmp_path / "results.jsonl").exists() and (tmp_path / "previous" / "old0.results.jsonl").exists()
    assert json.loads((tmp_path / "previous" / "hints.json").read_text()) == {"m:drop:a": "iadd"}
    with pytest.raises(ValueError, match="MUTANTS_N=3, not 4"):
        campaign.prepare(tmp_path, 4, 1, "")


def test_program_digest_follows_the_text(tmp_path: Path) -> None:
    """The reference pass reruns a program whose text changed: its digest is of the file the
    configuration names (read at each run), not of the name."""
    prog = tmp_path / "p.sass"
    prog.write_text(".block 32\n        NOP\n", encoding="utf-8")
    config = tmp_path / "p.json"
    config.write_text(json.dumps({"program": str(prog)}), encoding="utf-8")
    before = campaign.program_digest({"name": "p", "config": str(config)})
    prog.write_text(".block 32\n        NOP\n        NOP\n", encoding="utf-8")
    assert campaign.program_digest({"name": "p", "config": str(config)}) != before


def test_stuck_wires_follow_the_parameters(tmp_path: Path) -> None:
    """Every stuck-output wire of the instrumented design has, at NUM_SP 32, the width Verilator
    itself gives the signal it replaces (the tree's widths come from the default parameters, where
    a NUM_SP x 32 bus is 256 bits; at 32 it is 1,024). Verilator elaborates the instrumented
    sources at NUM_SP 32 here; the widths compared are both its own."""
    from tb.faults.sites import _children, _Netlist

    stuck = [c for c in mutate.candidates() if c.kind.startswith("stuck")]
    assert stuck
    _, files = mutate.instrument(stuck, tmp_path / "rtl")
    mutate._environment("verilator")
    cmd = ["verilator", "--json-only", "-Wno-fatal", "-GNUM_SP=32", "--top-module", mutate.TOPLEVEL, "-Mdir", str(tmp_path / "obj"),
           *(f"-I{d}" for d in files.includes), *map(str, files.sources)]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    tree = json.loads((tmp_path / "obj" / f"V{mutate.TOPLEVEL}.tree.json").read_text(encoding="utf-8"))
    net = _Netlist(tree)
    compared, wider = 0, 0
    default_width = {c.extra["ident"]: c.extra["width"] for c in stuck}
    for module in net.modules.values():
        variables: dict[str, str] = {}
        stack = [module]
        while stack:
            n = stack.pop()
            if n.get("type") == "VAR":
                variables[n["name"]] = n["dtypep"]
            stack.extend(_children(n))
        for name, dtype in variables.items():
            if name.endswith("__mut"):
                base = name.removesuffix("__mut")
                width = net.shape(dtype)[0]
                assert width == net.shape(variables[base])[0], f"{module['name']}.{name}"
                compared += 1
                wider += width > default_width[base]
    assert compared >= len({c.extra["ident"] for c in stuck}) // 2
    assert wider > 0  # NUM_SP 32 widens some of them (the lane buses), so the check can fail


def test_confirming_pass_runs_survivors_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A survivor of the shared processes is not final, nor a kill (state the runs before left, a
    latch of a dropped assignment or storage reset does not clear): the confirming pass runs each
    again alone, in a process of its own, on every program (no skip, no budget; a kill's program
    first). A verdict already confirmed, a kill by a simulator crash, an equivalent one or one that
    has not met every program is left. The report counts an unconfirmed survivor as unresolved and says what the pass found.
    The simulator is replaced by a stand-in that writes the verdict a lone run would: mutant 3
    killed by `b`, mutant 7 (killed in the shared process) surviving, mutant 8 killed again."""
    eq = tmp_path / "equivalent.toml"
    eq.write_text('["m:drop:eee"]\nreason = "a default that every path that reads it overwrites first"\n', encoding="utf-8")
    monkeypatch.setattr(campaign, "EQUIVALENT", eq)
    keys = {
        1: "m:drop:aaa",
        2: "m:drop:bbb",
        3: "m:drop:ccc",
        4: "m:operator:ddd",
        5: "m:drop:eee",
        6: "m:drop:fff",
        7: "m:drop:ggg",
        8: "m:drop:hhh",
    }
    mutants = [
        {"id": i, "module": "m", "file": "rtl/m.v", "line": i, "kind": k.split(":")[1], "original": "x", "mutated": "y", "key": k}
        for i, k in keys.items()
    ]
    (tmp_path / "mutants.json").write_text(json.dumps(mutants), encoding="utf-8")
    programs = []
    for name in ("a", "b"):
        (tmp_path / f"{name}.sass").write_text(f"// {name}\n", encoding="utf-8")
        (tmp_path / f"{name}.json").write_text(json.dumps({"program": str(tmp_path / f"{name}.sass")}), encoding="utf-8")
        programs.append({"name": name, "config": str(tmp_path / f"{name}.json")})
    meta = {"mutants": 8, "candidates": 9, "seed": 1, "directed": 2, "programs": programs}
    (tmp_path / "campaign.json").write_text(json.dumps(meta), encoding="utf-8")
    (tmp_path / "design.json").write_text(json.dumps({"sources": [], "includes": []}), encoding="utf-8")
    both = ["a", "b"]
    verdicts = [{"mutant": 1, "status": "survived", "runs": 2, "tried": both},  # from before the pass existed: no mark
                {"mutant": 2, "status": "survived", "runs": 2, "tried": both, "alone": True},  # confirmed already
                {"mutant": 3, "status": "survived", "runs": 2, "tried": both},
                {"mutant": 4, "status": "killed", "runs": 0, "tried": [], "program": None, "kind": "crash (exit 1)"},  # the simulator died
                {"mutant": 5, "status": "survived", "runs": 2, "tried": both},  # equivalent.toml
                {"mutant": 6, "status": "survived", "runs": 1, "tried": ["a"]},  # b is new: the retry pass first
                {"mutant": 7, "status": "killed", "runs": 1, "tried": ["a"], "program": "a", "kind": "mismatch"},
                {"mutant": 8, "status": "killed", "runs": 1, "tried": ["a"], "program": "a", "kind": "mismatch"}]  # fmt: skip
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(v) + "\n" for v in verdicts), encoding="utf-8")
    text = campaign.report(tmp_path)
    assert "| **all** | 8 | 3 | 1 | 1 | 3 | 0 | **75.0%** |" in text  # 1, 3 (unconfirmed) and 6 unresolved
    assert "3 survivor(s) of the shared processes not yet confirmed alone" in text

    jobs: list[dict] = []
    alone = {1: ("survived", None), 3: ("killed", "b"), 7: ("survived", None), 8: ("killed", "a")}

    def spawn(folder: Path, job: dict, stall_s: float) -> tuple[int, bool]:
        jobs.append(job)
        (k,) = job["mutants"]
        status, program = alone[k]
        lone = {"mutant": k, "status": status, "runs": 2, "tried": both, "program": program, "kind": "mismatch" if program else None}
        Path(job["log"]).write_text(json.dumps({"start": k}) + "\n" + json.dumps(lone) + "\n", encoding="utf-8")
        return 0, False

    monkeypatch.setattr(campaign, "spawn", spawn)
    assert campaign.confirm(tmp_path, meta, {"a": 1.0, "b": 1.0}, quiet=True) == 4
    assert [j["mutants"] for j in jobs] == [[1], [3], [7], [8]]  # one process each
    assert all(j["skip"] == {} and j["budget_s"] is None and [p["name"] for p in j["programs"]] == both for j in jobs)
    assert jobs[0]["hints"] == {} and jobs[2]["hints"] == {"7": "a"}  # a kill's program first
    assert campaign.confirm(tmp_path, meta, {"a": 1.0, "b": 1.0}, quiet=True) == 0  # on resume: nothing left to confirm
    text = campaign.report(tmp_path)
    assert "| **all** | 8 | 3 | 3 | 1 | 1 | 0 | **50.0%** |" in text  # 1, 2 and 7 survived alone; 3 killed alone; 6 still unresolved
    assert "survivors of the shared processes 3, killed alone 1; kills 2, killed alone by the same program 1, by another 0, survived alone 1" in text
    assert "1 survivor(s) of the shared processes not yet confirmed alone" in text
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["survivors"] == [1, 2, 7] and summary["confirming"]["kills_survived"] == 1


def test_equivalent_keys_are_candidates(cands: list) -> None:
    """The keys of equivalent.toml name mutants of the current rtl/: a change of how keys are made
    (the stuck wires' widths now follow the parameters, the keys still name the bits at the
    defaults) would orphan the arguments written under them."""
    keys = {c.key for c in cands}
    missing = sorted(set(campaign.equivalents()) - keys)
    assert not missing, missing
