"""Micro-architectural coverage of the RTL (golden/coverage/uarch.py), sampled by VPI once a clock.

Only the coverage runs start it (tb/coverage_subscriber.py, when the run writes coverage and the
DUT is the RTL): the lock-step runs of `make test` and `make regress` do not pay for a Python
wake-up per clock. Every signal is looked up by its name in one table, `SIGNALS`, once: a signal
missing from the hierarchy (a lean simulator build that keeps only the testbench's signals
visible, or an RTL change that renamed it) skips the points that need it, with the reason, and
the rest is sampled. `make coverage` builds its Verilator model with full visibility
(TB_FULL_VISIBILITY=1, tb/runner.py); Icarus sees every signal anyway.

Sampling is on the falling edge, in its read-only phase: the registers have taken the rising
edge's values and the testbench's drives for the coming edge (memory responses, back-pressure,
which the memory agent writes in that same time step) have settled, so one read per signal gives
the cycle's state and what the coming rising edge will act on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from cocotb.triggers import FallingEdge, ReadOnly

from golden.coverage.uarch import (
    EXEC,
    LAUNCH,
    MEM,
    ORDER,
    REQ_KINDS,
    ROUNDS,
    SCHED,
    UarchCoverage,
    bucket_blocks,
    bucket_gap,
    bucket_outstanding,
    bucket_ready,
    bucket_wait,
    exec_state_codes,
    max_blocks,
)

# what the sampler reads: name -> path below the top level (sm_top). Ports first: they survive
# any internal change; internal names are the RTL's (rtl/sm_top.v wires, u_* instances).
SIGNALS: dict[str, str] = {
    "commit_valid": "commit_valid",
    "mem_req_valid": "mem_req_valid",
    "mem_req_ready": "mem_req_ready",
    "mem_req_we": "mem_req_we",
    "mem_req_local": "mem_req_local",
    "mem_req_tag": "mem_req_tag",
    "mem_rsp_valid": "mem_rsp_valid",
    "mem_rsp_tag": "mem_rsp_tag",
    "x_state": "u_ctrl.x_state",
    "x_sub": "u_ctrl.x_sub",
    "unit": "u_ctrl.unit",
    "fetch": "u_sched.fetch",
    "ready": "u_sched.ready",
    "warp_bar": "warp_bar",
    "init_clear": "init_clear",
    "warp_init_we": "warp_init_we",
    "warp_init_cta": "warp_init_cta",
}
# the signals each point needs: (group, point) -> signal names
NEEDS: dict[tuple[str, str], tuple[str, ...]] = {
    (SCHED, "ready warps at issue"): ("fetch", "ready"),
    (SCHED, "commit gap"): ("commit_valid",),
    (SCHED, "barrier waiters at issue"): ("fetch", "warp_bar"),
    (EXEC, "state"): ("x_state",),
    (EXEC, "transition"): ("x_state",),
    (EXEC, "SFU sub-step"): ("x_state", "x_sub", "unit"),
    (MEM, "request kind"): ("mem_req_valid", "mem_req_ready", "mem_req_we", "mem_req_local"),
    (MEM, "loads outstanding at a request"): ("mem_req_valid", "mem_req_ready", "mem_req_we", "mem_rsp_valid"),
    (MEM, "back-pressure wait"): ("mem_req_valid", "mem_req_ready"),
    (MEM, "response order"): ("mem_req_valid", "mem_req_ready", "mem_req_we", "mem_req_tag", "mem_rsp_valid", "mem_rsp_tag"),
    (LAUNCH, "round"): ("init_clear",),
    (LAUNCH, "blocks per round"): ("init_clear", "warp_init_we", "warp_init_cta"),
}
U_SFU = 2  # golden/g80/hw.py Unit.SFU (the decode bundle's unit of an SFU/RRO instruction)


def _lookup(top, path: str):
    h = top
    for part in path.split("."):
        try:
            h = getattr(h, part)
        except AttributeError:
            return None
    return h


def _int(h) -> int | None:
    try:
        return int(h.value)
    except ValueError:  # X/Z (before reset)
        return None


@dataclass
class UarchMonitor:
    """Samples the table's signals every clock into counters; `finish(cov)` adds them to a UarchCoverage."""

    top: object
    h: dict[str, object] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    counts: Counter = field(default_factory=Counter)
    commits: int = 0
    requests: int = 0
    sfu_cycles: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        for name, path in SIGNALS.items():
            got = _lookup(self.top, path)
            if got is None:
                self.missing[name] = path
            else:
                self.h[name] = got
        self.states = exec_state_codes()
        self.most = max_blocks()

    def enabled(self, group: str, point: str) -> bool:
        return not any(s in self.missing for s in NEEDS[(group, point)])

    async def run(self) -> None:
        h, c = self.h, self.counts
        on = {k: self.enabled(*k) for k in NEEDS}
        last_state: str | None = None
        last_commit: int | None = None
        cycle = 0
        waited = 0
        outstanding: list[int] = []  # load tags in request order
        rounds = 0
        round_ctas: set[int] = set()
        prev_clear = 0
        clk = self.top.clk
        while True:
            await FallingEdge(clk)
            # the settled middle of the cycle: the memory agent drives mem_req_ready and the
            # responses in this time step too, for the coming edge (tb/mem_agent.py)
            await ReadOnly()
            cycle += 1
            if on[(SCHED, "commit gap")] and _int(h["commit_valid"]) == 1:
                self.commits += 1
                if last_commit is not None:
                    c[(SCHED, "commit gap", bucket_gap(cycle - last_commit))] += 1
                last_commit = cycle
            if on[(EXEC, "state")]:
                v = _int(h["x_state"])
                state = self.states.get(v) if v is not None else None  # X before reset, or a code sm_defs.vh does not name
                if state is not None:
                    c[(EXEC, "state", state)] += 1
                    if last_state is not None:
                        c[(EXEC, "transition", f"{last_state} -> {state}")] += 1
                    if on[(EXEC, "SFU sub-step")] and state == "X_PASS" and _int(h["unit"]) == U_SFU:
                        c[(EXEC, "SFU sub-step", f"sub-step {_int(h['x_sub'])}")] += 1
                last_state = state
            if "fetch" in h and _int(h["fetch"]) == 1:
                if on[(SCHED, "ready warps at issue")]:
                    n = (_int(h["ready"]) or 0).bit_count()
                    if n:
                        c[(SCHED, "ready warps at issue", bucket_ready(n))] += 1
                if on[(SCHED, "barrier waiters at issue")]:
                    n = (_int(h["warp_bar"]) or 0).bit_count()
                    if n:
                        c[(SCHED, "barrier waiters at issue", bucket_ready(n))] += 1
            if (on[(MEM, "response order")] or on[(MEM, "loads outstanding at a request")]) and _int(h["mem_rsp_valid"]) == 1:
                tag = _int(h["mem_rsp_tag"]) if "mem_rsp_tag" in h else None
                if tag is not None and tag in outstanding:
                    c[(MEM, "response order", ORDER[0] if outstanding[0] == tag else ORDER[1])] += 1
                    outstanding.remove(tag)
                elif outstanding:
                    outstanding.pop(0)
            if on[(MEM, "back-pressure wait")] and _int(h["mem_req_valid"]) == 1:
                if _int(h["mem_req_ready"]) == 1:
                    self.requests += 1
                    c[(MEM, "back-pressure wait", bucket_wait(waited))] += 1
                    waited = 0
                    load = _int(h["mem_req_we"]) == 0
                    if on[(MEM, "request kind")]:
                        local = _int(h["mem_req_local"]) == 1
                        c[(MEM, "request kind", REQ_KINDS[2 * local + (not load)])] += 1
                    if on[(MEM, "loads outstanding at a request")]:
                        c[(MEM, "loads outstanding at a request", bucket_outstanding(len(outstanding)))] += 1
                    if load:
                        outstanding.append(_int(h["mem_req_tag"]) if "mem_req_tag" in h else -1)  # type: ignore[arg-type]
                else:
                    waited += 1
            if on[(LAUNCH, "round")]:
                clear = _int(h["init_clear"]) or 0
                if clear and not prev_clear:
                    if rounds and on[(LAUNCH, "blocks per round")] and round_ctas:
                        c[(LAUNCH, "blocks per round", bucket_blocks(len(round_ctas), self.most))] += 1
                    round_ctas = set()
                    rounds += 1
                    c[(LAUNCH, "round", ROUNDS[min(rounds, 3) - 1])] += 1
                prev_clear = clear
                if on[(LAUNCH, "blocks per round")] and _int(h["warp_init_we"]) == 1:
                    cta = _int(h["warp_init_cta"])
                    if cta is not None:
                        round_ctas.add(cta)
                self._open_round = round_ctas  # the last round is counted by finish()

    def finish(self, cov: UarchCoverage) -> None:
        last = getattr(self, "_open_round", None)
        if last and self.enabled(LAUNCH, "blocks per round"):
            self.counts[(LAUNCH, "blocks per round", bucket_blocks(len(last), self.most))] += 1
            self._open_round = set()
        for (group, point, name), n in self.counts.items():
            cov.hit(group, point, name, n)
        for (group, point), sigs in NEEDS.items():
            gone = [f"{s} ({self.missing[s]})" for s in sigs if s in self.missing]
            if gone:
                cov.skip(group, point, f"signal{'s' if len(gone) > 1 else ''} {', '.join(gone)} not found in the DUT's hierarchy "
                         "(a lean simulator build, or the RTL renamed it: tb/coverage_uarch.py SIGNALS)")  # fmt: skip
