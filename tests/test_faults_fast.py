"""The fast fault engine (the memory-word shortcut, tb/faults/test_campaign.py) against the cocotb
engine, which simulates every fault in lock-step with the golden model: one campaign, both ways,
the same rows; the shared memory's loop-written words among the indices, and the compiled index
functions equal to the evaluator; and the settings that do not apply to it."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from golden.errors import BadSetting
from golden.g80.program import load_program
from tb.faults.campaign import Campaign, execute, plan, prepare
from tb.faults.db import CampaignDB, Fault
from tb.faults.memreads import LARGE, compiled, evaluate, index_expressions
from tb.faults.sites import enumerate_sites, select
from tb.runner import ROOT

# what classifies a fault (wall time, task and the cycles actually simulated are the engine's own)
SAME = ("site", "word", "bit", "cycle", "model", "outcome", "grp", "field", "kind", "message", "warp", "pc", "insn", "div_cycle", "cycles", "commits",
        "stopped")  # fmt: skip


SHARED = 16384  # bytes of shared memory per block (rtl/sm_defs.vh): a block's window in u_mem.smem
SR = 13  # bits of a shared-memory row number, clog2(8 blocks x 16384 bytes / 16 bytes a row) (rtl/sm_launch.v)


def _expressions() -> dict:
    c = Campaign("vecadd", 1, "verilator")
    config = c.lockstep.config()
    from tb.adapters.rtl import RtlAdapter

    return index_expressions(config.defines, RtlAdapter.parameters(config), LARGE)


def test_loop_counters_give_every_word_a_loop_may_select() -> None:
    """The shared memory's writes in `for` loops (rtl/sm_mem_unit.v): a 16-byte row filled at
    launch, and the rows of a store zeroed lane by lane. With every signal zero but the one that
    names a row, the indices the expressions give hold that row's 16 bytes (known from the RTL's
    text, not from the expressions)."""
    es = _expressions()["u_mem.smem"]
    assert es is not None

    def indices(values: dict[str, int]) -> set[int]:
        return {evaluate(e, lambda path: values.get(path, 0)) for e in es}

    assert set(range(5 * 16, 6 * 16)) <= indices({"u_mem.sh_init_row": 5})
    lane = 3  # lane 3's first row in the packed st_row0 (SR bits a lane)
    assert set(range(7 * 16, 8 * 16)) <= indices({"u_mem.st_row0": 7 << (SR * lane)})
    assert set(range(7 * 16, 8 * 16)).isdisjoint(indices({}))


def test_compiled_indices_equal_the_evaluator() -> None:
    """The recording run's compiled index functions give `evaluate`'s values, on random signal values."""
    rng = random.Random(3)
    for path, es in _expressions().items():
        if not es:
            continue
        fn, leaves = compiled(es)
        for _ in range(50):
            values = {leaf: rng.getrandbits(rng.choice((1, 8, 14, 32, 256))) for leaf in leaves}
            assert fn([values[leaf] for leaf in leaves]) == tuple(evaluate(e, values.__getitem__) for e in es), path


def _faults() -> list[Fault]:
    """Faults in flip-flops and in the large memories: words of the instruction memory that vecadd
    fetches (its program's words, from the assembler) and words no access of vecadd selects."""
    words = len(load_program(ROOT / "programs" / "vecadd.sass").program.words)
    rng = random.Random(5)
    out: list[Fault] = []
    for i in range(10):  # the program's own words, flipped or stuck before, during and after their fetches
        model = ("seu", "stuck0", "stuck1")[i % 3]
        out.append(Fault(len(out), "u_sched.imem", "u_sched", rng.randrange(words), rng.randrange(32), rng.randrange(0, 200), model))
    for _ in range(6):  # beyond the program and deep in the constant memory: nothing reads them
        out.append(Fault(len(out), "u_sched.imem", "u_sched", rng.randrange(words + 64, 16384), rng.randrange(32), rng.randrange(200), "seu"))
        out.append(Fault(len(out), "u_mem.cmem", "u_mem", rng.randrange(4096, 262144), rng.randrange(32), rng.randrange(200), "stuck1"))
    for i in range(12):  # shared memory: bytes of the block header and the parameters that vecadd reads (its g[...] operands), in either block's window
        model = ("seu", "stuck0", "stuck1")[i % 3]
        word = SHARED * (i % 2) + rng.choice((2, 3, 12, 13, 16, 17, 24, 25, 32, 33))
        out.append(Fault(len(out), "u_mem.smem", "u_mem", word, rng.randrange(8), rng.randrange(0, 60), model))
    for _ in range(3):  # and far from them in the windows: nothing selects those words
        for model in ("seu", "stuck1"):
            out.append(Fault(len(out), "u_mem.smem", "u_mem", SHARED * rng.randrange(8) + rng.randrange(1024, SHARED), rng.randrange(8), rng.randrange(200), model))
    small = [s for s in enumerate_sites() if s.words < 4096]
    for f in plan(select(tuple(small), "u_sched,u_ctrl,u_commit,u_mem"), 16, 224, "seu", 3):  # flip-flops and small arrays
        out.append(Fault(len(out), f.site, f.unit, f.word, f.bit, f.cycle, ("seu", "stuck1")[len(out) % 2]))
    return out


def test_fast_engine_rows_equal_the_cocotb_engine(tmp_path: Path) -> None:
    faults = _faults()
    rows = {}
    for engine in ("cocotb", "fast"):
        db = tmp_path / f"{engine}.sqlite"
        c = Campaign("vecadd", len(faults), "verilator", "seu", "u_sched,u_ctrl,u_commit,u_mem", 1, db=db, engine=engine)
        assert execute(c, prepare(c, faults)) == len(faults)
        con = CampaignDB(db)
        rows[engine] = con.rows()
        con.close()
    slow, fast = rows["cocotb"], rows["fast"]
    assert [[r[k] for k in SAME] for r in fast] == [[r[k] for k in SAME] for r in slow]
    # the shortcut was taken (nothing simulated after the injection) for the words nothing reads, and
    # not for the fetched words, some of which the cocotb engine found wrong
    skipped = {r["id"] for r in fast if r["simulated"] == r["cycle"] and r["site"] in ("u_sched.imem", "u_mem.cmem")}
    assert set(range(10, 22)) <= skipped
    fetched = [r for r in slow if r["id"] < 10]
    assert any(r["outcome"] != "masked" for r in fetched), fetched
    assert not {r["id"] for r in fetched if r["outcome"] != "masked"} & skipped
    # the shared memory (written in loops): the words far from the parameters are skipped, and
    # among the parameters' words some the cocotb engine found wrong, none of which was skipped
    shared = {r["id"] for r in fast if r["simulated"] == r["cycle"] and r["site"] == "u_mem.smem"}
    assert set(range(34, 40)) <= shared
    params = [r for r in slow if 22 <= r["id"] < 34]
    assert any(r["outcome"] != "masked" for r in params), params
    assert not {r["id"] for r in params if r["outcome"] != "masked"} & shared


@pytest.mark.parametrize(("settings", "message"), [
    ({"engine": "nosuch"}, "ENGINE='nosuch': one of cocotb, fast"),
    ({"engine": "fast", "sim": "icarus"}, "ENGINE=fast: the RTL under Verilator only"),
    ({"engine": "fast", "dut": "flexgrip", "sim": "ghdl", "stop": "off"}, "ENGINE=fast: the RTL under Verilator only"),
])  # fmt: skip
def test_engine_settings(tmp_path: Path, settings: dict, message: str) -> None:
    c = Campaign("vecadd", 4, db=tmp_path / "x.sqlite", **{"sim": "verilator", **settings})
    with pytest.raises(BadSetting, match=message.replace("(", r"\(")):
        prepare(c)


def test_engine_nosuch_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tb.faults", "run", "-n", "2", "--engine", "nosuch", "--db", str(tmp_path / "x.sqlite")],
                          capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "ENGINE='nosuch'" in done.stderr and "Traceback" not in done.stderr
