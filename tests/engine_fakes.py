"""A stand-in for the mutation campaign's simulator process, for tests/test_engine.py: loaded into
the test's own process, and into `dask worker` processes with --preload (its dask_setup), so that
a campaign's tasks give the same verdicts wherever they run.

The verdict of a mutant is a rule of its id alone (a multiple of 3 killed by the second program,
the others surviving every program), which a lone run and a shared process give alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def fake_spawn(folder: Path, job: dict, stall_s: float) -> tuple[int, bool]:
    names = [p["name"] for p in job["programs"]]
    lines = []
    for k in job["mutants"]:
        lines.append({"start": k})
        if k % 3 == 0:
            lines.append({"mutant": k, "status": "killed", "runs": 2, "tried": names[:2], "program": names[1], "kind": "mismatch", "wall_s": 0.0,
                          "message": "differs"})  # fmt: skip
        else:
            lines.append({"mutant": k, "status": "survived", "runs": len(names), "tried": names, "program": None, "kind": None, "wall_s": 0.0})
    Path(job["log"]).write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return 0, False


def dask_setup(worker: Any) -> None:
    """dask worker --preload: the worker's tasks meet the stand-in instead of a simulator."""
    from tb.mutation import campaign

    campaign.spawn = fake_spawn
