"""An error the RTL signals (its `error` port) must not hide a commit it made before or with it.

The order of events (docs/design/commit-record.md, "Order of records"):
the RTL's `error` and its commit record are registers, so a record and an error can land at the
same clock edge (a parked load's record goes out in a cycle in which no instruction retires,
such as the cycle in which another warp's instruction faults). Every record up to and including
that edge is compared before the error is judged, so that a wrong record there is the first
failure; and every record of a run is seen even when it equals the previous run's last record in
the same simulator process (the commit monitor wakes on a change of `commit_packed`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from tb.lockstep import LockstepRun, run_lockstep

# Warp 0 loads (the load parks, its record goes out when the data is back); warp 1 runs on to an
# error: TRAP (the RTL's `error` port) or a load past global memory (the testbench's memory port
# refuses it: a memory fault). With the memory latency and back-pressure drawn from seed 10
# (tb/mem_agent.py) the load's record and the error land at the same clock edge; the test checks
# that they still do.
PROGRAM = """\
// Two warps: warp 0 loads from global memory (the load parks), warp 1 runs on to an error.
.block 64
.buffer out u32 64
.param out
        I2I.U32.U16 R1, R0L                 // tid.x
        SHL R2, R1, 0x2
        MVI R3, 0x20
        ISET.C0 o[0x7f], R1, R3, GE          // warp 1 (tid.x >= 32): C0 not zero
        BRA C0.NE, warp1
        GLD.U32 R4, global14[R2]
        NOP
warp1:
"""
WARP1 = {
    # kind: (warp 1's code, its error's PC, records before the error (from the program text: warp 0
    # up to its load, I2I SHL MVI ISET BRA GLD; warp 1 up to the faulting instruction, which does
    # not commit), what the report says)
    "rtl_error": ("        NOP\n        NOP\n        TRAP\n", 0x48, 6 + 7, "TRAP"),
    "memory_fault": ("        SHL R5, R1, 0x10                    // 0x200000 and up: far past global memory\n        GLD.U32 R6, global14[R5]\n", 0x40,
                     6 + 6, "global"),
}  # fmt: skip
SEED = 10
GLD_PC = 0x28


# Icarus: the test and the commit monitor both act in the read-only phase, in either order (before the
# fix the error won); Verilator: the record is taken in the value-change pass, as is a memory fault
# at the clock edge, in either order (before the fix a memory fault there also ended the run inside
# that pass, and the simulator crashed at its end: exit -11, no outcome, even without the mutant)
@pytest.mark.parametrize(("sim", "lockstep"), [("icarus", True), ("icarus", False), ("verilator", True)], ids=["icarus", "icarus-free", "verilator"])
@pytest.mark.parametrize("kind", sorted(WARP1))
def test_a_wrong_record_at_the_edge_of_an_error_is_the_first_failure(tmp_path: Path, kind: str, sim: str, lockstep: bool) -> None:
    code, error_pc, records, says = WARP1[kind]
    program = tmp_path / f"load_then_{kind}.sass"
    program.write_text(PROGRAM + code, encoding="utf-8")
    plain = run_lockstep(LockstepRun(str(program), sim, seed=SEED, lockstep=lockstep, out=tmp_path / "plain"), rerun_with_waves=False)
    err = plain.report
    assert err is not None and err.kind == kind and (err.warp, err.pc) == (1, error_pc), plain.summary()
    assert says in err.message, err.message
    # every record the RTL made up to its error was compared, the load's among them
    assert plain.commits == records, plain.summary()
    broken = run_lockstep(LockstepRun(str(program), sim, seed=SEED, defines=("MUTANT_LOAD_RECORD",), lockstep=lockstep, out=tmp_path / "mutant"),
                          rerun_with_waves=False)  # fmt: skip
    rep = broken.report
    assert rep is not None, broken.summary()
    assert rep.kind == "mismatch" and (rep.warp, rep.pc) == (0, GLD_PC) and rep.text.startswith("GLD"), broken.summary()
    # the premise of the test: the wrong record lands at the error's edge (RTL timing changed? another SEED)
    assert rep.cycle == err.cycle, f"the load's record (cycle {rep.cycle}) no longer lands with the error (cycle {err.cycle})"
    (gpr,) = [d for d in rep.diffs if d.field == "gpr"]
    assert [lane.lane for lane in gpr.lanes] == [0], gpr  # the mutant flips bit 0 of lane 0 (tb/mutants.py)


def test_a_program_run_twice_in_one_process_compares_every_record_both_times(tmp_path: Path) -> None:
    """programs/bad/trap commits one instruction (MVI) and stops at TRAP; run twice in one simulator
    process, the second run's MVI record equals the last record of the first on every field of
    `commit_packed`, which therefore does not change."""
    from randgen.run import run_batch

    paths = []
    for name in ("trap_a", "trap_b"):
        p = tmp_path / f"{name}.sass"
        p.write_text((ROOT / "programs" / "bad" / "trap.sass").read_text(encoding="utf-8"), encoding="utf-8")
        paths.append(p)
    run_batch(paths, "icarus", 8, tmp_path / "batch")
    records = [json.loads(line) for line in (tmp_path / "batch" / "batch.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["reference"] for r in records] == ["trap_a.sass", "trap_b.sass"]
    for r in records:
        assert r["commits"] == 1, r  # MVI R1, 0x1 (trap.sass): one record before the TRAP
        assert r["outcome"]["kind"] == "rtl_error" and r["outcome"]["pc"] == 8 and r["outcome"]["text"] == "TRAP", r
