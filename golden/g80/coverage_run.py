"""Coverage of a program run on the golden model alone (`python -m golden run ... --cov FILE`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from .commit import Commit
from .coverage import Coverage
from .coverage_cross import CrossCoverage
from .profile import Profile
from .program import KernelSpec
from .run import RunResult, build, check


def run_with_coverage(spec: KernelSpec, profile: Profile, cov: Coverage | None, trace: Callable[[Commit], None] | None = None,
                      cross: CrossCoverage | None = None) -> RunResult:  # fmt: skip
    """Run the kernel one warp-instruction at a time and sample every commit record.

    A warp's SIMT stack changes only when that warp executes, so its depth when an instruction
    issues is the depth its previous instruction left (0 for a new warp: a finished warp has an
    empty stack). `cross` (the cross model) also gets the kind of the warp's top stack entry.
    """
    sm, gmem = build(spec, profile)
    depth: dict[int, int] = {}
    top: dict[int, str | None] = {}

    def on_commit(c: Commit) -> None:
        if cov is not None:
            cov.sample(c, depth.get(c.warp, 0))
        if cross is not None:
            cross.sample(c, depth.get(c.warp, 0), top.get(c.warp))
        stack = sm.warps[c.warp].stack
        depth[c.warp] = len(stack)
        top[c.warp] = stack[-1].kind if stack else None
        if trace is not None:
            trace(c)

    t0 = time.perf_counter()
    steps = sm.run(batch=False, record=True, on_commit=on_commit)
    result = RunResult(spec, sm, gmem, steps, sm.thread_steps, time.perf_counter() - t0)
    result.checks = check(spec, gmem)
    return result
