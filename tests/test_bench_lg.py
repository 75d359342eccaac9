"""scripts/bench_lg.py (`make bench ISA=lg`): its figures count only for correct runs.

The free-running harness's checksums are folded in Verilog (tb/lg/freerun/bench_top.v) and in
Python from the golden model's records; they must agree on a correct core and disagree when the
records are another program's. The scoreboard-alone replay must accept a correct trace and refuse
one with a wrong value.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from golden.errors import UserError
from randgen import lg

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_lg", ROOT / "scripts" / "bench_lg.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_lg"] = module
    spec.loader.exec_module(module)
    return module


def _program(tmp_path: Path, seed: int, preset: str = "graphics") -> Path:
    cfg = lg.LgConfig().with_overrides(lg.PRESETS[preset])
    path = tmp_path / f"{preset}_s{seed}.lgs"
    path.write_text(lg.render(lg.generate(seed, cfg, preset)))
    return path


def _with_pixels(b: ModuleType, tmp_path: Path) -> tuple[Path, list]:
    for s in range(1, 30):
        path = _program(tmp_path, s)
        recs = b.model_run(path)
        if b.checksums(recs)[2] > 0:
            return path, recs
    raise AssertionError("no graphics program of 29 draws a pixel")


def test_scoreboard_replay_accepts_a_correct_trace_and_refuses_a_wrong_one(tmp_path: Path) -> None:
    b = _bench()
    path, recs = _with_pixels(b, tmp_path)
    trace = b.dut_trace(recs)
    b.scoreboard(path, trace)
    i = next(i for i, (kind, item) in enumerate(trace) if kind == "commit" and item.get("rd_we"))
    bad = [*trace[:i], ("commit", {**trace[i][1], "rd_val": trace[i][1]["rd_val"] ^ 1}), *trace[i + 1 :]]
    with pytest.raises(UserError, match=r"refused a correct trace: commit \d+: field rd_val differs"):
        b.scoreboard(path, bad)
    # a pixel write left out
    j = next(i for i, (kind, _) in enumerate(trace) if kind == "fb")
    with pytest.raises(UserError, match="refused a correct trace"):
        b.scoreboard(path, trace[:j] + trace[j + 1 :])


def test_freerun_harness_agrees_with_the_model(tmp_path: Path) -> None:
    b = _bench()
    path, recs = _with_pixels(b, tmp_path)
    binary = b.build_freerun()
    cycles = b.freerun(binary, path, recs)
    assert cycles >= len(recs)  # one commit a cycle at most
    other = b.model_run(_program(tmp_path, 99, "ci"))
    with pytest.raises(UserError, match=r"differs from the model in .*ck"):
        b.freerun(binary, path, other)
