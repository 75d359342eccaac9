"""Run one LG program on the LG core (rtl/lg/lg.f, top lg_core) and collect what leaves it.

The program goes to the core as files it loads itself ($readmemh, named by plusargs): one build
serves every program. The cocotb side (tb/lg/test_lg_smoke.py) records every commit record and
every frame-buffer event and writes them as JSON; `run_program` returns them as a `Trace`.
The lock-step testbench reuses both: the same build, the same signal names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tb.runner import ROOT, assert_passed, read_file_list, run

LG_FILE_LIST = ROOT / "rtl" / "lg" / "lg.f"
TOP = "lg_core"
TEST_MODULE = "tb.lg.test_lg_smoke"
# the commit port's fields, in the order of the contract: port cm_<name>
COMMIT_FIELDS = (
    "pc", "insn", "next_pc", "rd_we", "rd", "rd_val", "cc_we", "cc", "vd_we", "vd", "vd_val", "mem_we", "mem_addr", "mem_size",
    "mem_data", "mat_we", "mat", "depth", "col_we", "col", "vtx_we", "vtx_idx", "vtx_x", "vtx_y", "vtx_z", "vtx_col",
    "prim_begin", "prim_end", "prim_type", "frags", "done",
)  # fmt: skip


@dataclass
class Trace:
    """What the core did: its commit records (dicts of COMMIT_FIELDS, in retirement order), its
    frame-buffer events in order (("write", addr, data), ("clear",), ("draw",)), whether it ended
    (a record with done) and how many cycles it ran after reset."""

    commits: list[dict[str, int]] = field(default_factory=list)
    fb: list[tuple] = field(default_factory=list)
    finished: bool = False
    cycles: int = 0


def write_images(test_dir: Path, words: list[int], data: bytes) -> tuple[str, ...]:
    """The memory files and plusargs of a program: instruction words, and the data memory's bytes from address 0."""
    test_dir.mkdir(parents=True, exist_ok=True)
    imem, dmem = test_dir / "imem.hex", test_dir / "dmem.hex"
    imem.write_text("".join(f"{w:08x}\n" for w in words) or "00000000\n", encoding="ascii")
    plusargs = [f"+imem={imem}", f"+ilen={len(words)}"]
    if data:
        dmem.write_text("".join(f"{b:02x}\n" for b in data), encoding="ascii")
        plusargs.append(f"+dmem={dmem}")
    return tuple(plusargs)


def run_program(sim: str, words: list[int], test_dir: Path, data: bytes = b"", max_cycles: int = 2_000_000) -> Trace:
    """Run `words` (instruction i at byte address 4*i) with data memory `data` on simulator `sim`.
    `max_cycles` bounds a run that never ends (a whole-screen triangle alone is 256,000 cycles)."""
    plusargs = write_images(test_dir, words, data)
    out = test_dir / "trace.json"
    out.unlink(missing_ok=True)
    env = {"LG_TRACE": str(out), "LG_MAX_CYCLES": str(max_cycles)}
    results = run(sim, TOP, read_file_list(LG_FILE_LIST), TEST_MODULE, extra_env=env, test_dir=test_dir, plusargs=plusargs, visibility="lean")
    assert_passed(results)
    raw = json.loads(out.read_text(encoding="utf-8"))
    return Trace(raw["commits"], [tuple(e) for e in raw["fb"]], raw["finished"], raw["cycles"])
