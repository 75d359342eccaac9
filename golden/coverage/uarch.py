"""Micro-architectural coverage of our RTL: a third model, counted apart.

The ISA bins and the crosses say what the instruction stream did; this model says what the SM's
pipeline went through while running it. It is sampled by the testbench (tb/coverage_uarch.py) from
the RTL hierarchy by VPI, once a clock, in the coverage runs only:

- SCHED: warps ready when fetch picks one (1, 2, 3+); cycles between consecutive commit records
  (back-to-back, 2, 3-4, 5+); warps waiting at a barrier when another warp is picked (1, 2, 3+);
- EXEC: every state of the execute sequencer (rtl/sm_exec_ctrl.v) and every transition between
  two states, stays included; the sub-steps of an SFU/RRO pass. The states are the `X_*`
  localparams of rtl/sm_defs.vh; the transitions the sequencer can make are derived from its
  `case (x_state)` arms (a pair it has no path for is excluded, naming the successors found);
- MEM: kind of each request (global/local x load/store), loads outstanding when a request is
  accepted (0, 1, 2-3, 4-7, 8+), cycles a request waited under back-pressure (0, 1, 2, 3+),
  responses in or out of request order;
- LAUNCH: the round each round start is (1st, 2nd, 3rd+) and blocks placed per round (1, 2 up to
  the most that fit, the most: MAX_BLOCKS of rtl/sm_top.v).

A point the sampler cannot see (a signal missing from the hierarchy: a lean simulator build or a
renamed RTL signal) is recorded as skipped with the reason, per run, and the report says so.
`checks` holds the sampler's totals beside an independent count from the commit records and the
memory agent (tb/coverage_subscriber.py), summed over merged runs: a mismatch is reported.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from .db import Coverage
from .model import Group, Model, _Builder

UFORMAT = "g80-sm1-coverage-uarch"
RTL = Path(__file__).resolve().parents[2] / "rtl"

SCHED, EXEC, MEM, LAUNCH = "SCHED", "EXEC", "MEM", "LAUNCH"
READY = ("1", "2", "3+")
GAPS = ("back-to-back", "2 cycles", "3-4 cycles", "5+ cycles")
WAITERS = ("1", "2", "3+")
REQ_KINDS = ("global load", "global store", "local load", "local store")
OUTSTANDING = ("0", "1", "2-3", "4-7", "8+")
WAITS = ("0 cycles", "1 cycle", "2 cycles", "3+ cycles")
ORDER = ("in order", "out of order")
ROUNDS = ("1st", "2nd", "3rd+")
HALT_REASON = ("X_HALT is entered only through a fault (the error port); coverage runs are passing programs "
               "(the programs/bad/ error cases of tests/test_rtl_lockstep.py are not sampled)")  # fmt: skip
ORDER_REASON = ""  # responses out of order are reachable in the RTL (docs/design/rtl.md, Ports: any order); the testbench decides


def bucket_ready(n: int) -> str:
    return READY[min(n, 3) - 1]


def bucket_gap(n: int) -> str:
    return GAPS[0] if n <= 1 else GAPS[1] if n == 2 else GAPS[2] if n <= 4 else GAPS[3]


def bucket_outstanding(n: int) -> str:
    return OUTSTANDING[0] if n == 0 else OUTSTANDING[1] if n == 1 else OUTSTANDING[2] if n <= 3 else OUTSTANDING[3] if n <= 7 else OUTSTANDING[4]


def bucket_wait(n: int) -> str:
    return WAITS[min(n, 3)]


# ---------------------------------------------------------------------------------------------
# What is derived from the RTL sources


def _read(name: str) -> str:
    path = RTL / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"micro-architecture coverage model: cannot read {path} (the model is derived from the RTL): {e}") from None


def exec_state_codes(defs: str | None = None) -> dict[int, str]:
    """The execute sequencer's states: value -> name of the `X_NAME = 4'dN` localparams of rtl/sm_defs.vh."""
    text = _read("sm_defs.vh") if defs is None else defs
    found = sorted((int(v), n) for n, v in re.findall(r"\b(X_\w+)\s*=\s*\d*'d(\d+)", text))
    if not found:
        raise ValueError("micro-architecture coverage model: no X_* state localparams in rtl/sm_defs.vh")
    return dict(found)


def exec_states(defs: str | None = None) -> list[str]:
    """The state names in the order of their values."""
    return list(exec_state_codes(defs).values())


def exec_successors(states: list[str], ctrl: str | None = None) -> dict[str, set[str]] | None:
    """State -> the states the sequencer of rtl/sm_exec_ctrl.v can go to next (itself included
    when it can stay), from its `case (x_state)` arms: the states named on their `x_state <=`
    lines (`after_step` expanded from its assignment), a stay where the arm's change is under an
    `if` or the arm (default) assigns nothing, and X_PASS from the states that may take the next
    instruction: those `take`'s expression names and those whose arm retires (assigns after_step).
    The fault path (any state -> X_HALT) is left to the X_HALT exclusion. None when the source does
    not have this shape (then no transition is excluded)."""
    text = _read("sm_exec_ctrl.v") if ctrl is None else ctrl
    text = re.sub(r"//[^\n]*", "", text)
    case = re.search(r"case\s*\(\s*x_state\s*\)(.*?)endcase", text, re.S)
    after = re.search(r"\bafter_step\s*=\s*([^;]*);", text)
    take = re.search(r"assign\s+take\s*=\s*([^;]*);", text)
    if not case or not after or not take:
        return None
    after_states = set(re.findall(r"\bX_\w+", after.group(1)))
    parts = re.split(r"^\s*((?:X_\w+\s*,\s*)*X_\w+|default)\s*:(?!=)", case.group(1), flags=re.M)
    arms: dict[str, str] = {}
    default = ""
    for labels, body in zip(parts[1::2], parts[2::2], strict=True):
        if labels == "default":
            default = body
        for name in re.findall(r"X_\w+", labels):
            arms[name] = body
    known = set(states)
    out: dict[str, set[str]] = {}
    for s in states:
        body = arms.get(s, default)
        succ: set[str] = set()
        retires = False
        for rhs in re.findall(r"\bx_state\s*<=\s*([^;]*);", body):
            succ |= set(re.findall(r"\bX_\w+", rhs)) & known
            if "after_step" in rhs:
                succ |= after_states
                retires = True
        if not succ or re.search(r"\bif\s*\(", body):
            succ.add(s)  # the arm may leave the state as it is
        if retires or s in re.findall(r"\bX_\w+", take.group(1)):
            succ.add("X_PASS")
        out[s] = succ
    return out


def _assigned(states: list[str], ctrl: str | None = None) -> set[str]:
    """States some `x_state <=` line (or after_step) of the sequencer sets."""
    text = _read("sm_exec_ctrl.v") if ctrl is None else ctrl
    text = re.sub(r"//[^\n]*", "", text)
    rhs = " ".join(re.findall(r"\bx_state\s*<=\s*([^;]*);", text))
    after = re.search(r"\bafter_step\s*=\s*([^;]*);", text)
    return set(re.findall(r"\bX_\w+", rhs + " " + (after.group(1) if after else ""))) & set(states)


def _top_parameter(top: str | None, pattern: str, what: str) -> int:
    """The number `pattern`'s group captures in rtl/sm_top.v (or the text `top`)."""
    m = re.search(pattern, _read("sm_top.v") if top is None else top)
    if not m:
        raise ValueError(f"micro-architecture coverage model: rtl/sm_top.v has no {what}")
    return int(m.group(1))


def sfu_steps(top: str | None = None) -> int:
    """Sub-steps of an SFU pass at the default configuration: NUM_SP / NUM_SFU of rtl/sm_top.v."""
    return _top_parameter(top, r"parameter\s+integer\s+NUM_SFU\s*=\s*NUM_SP\s*/\s*(\d+)",
                          "'NUM_SFU = NUM_SP / k' parameter to derive the SFU sub-steps from")  # fmt: skip


def max_blocks(top: str | None = None) -> int:
    return _top_parameter(top, r"parameter\s+integer\s+MAX_BLOCKS\s*=\s*(\d+)", "MAX_BLOCKS parameter")


def blocks_bins(most: int) -> list[str]:
    return ["1", f"2-{most - 1}", f"{most} (MAX_BLOCKS)"] if most > 2 else [str(k) for k in range(1, most + 1)]


def bucket_blocks(n: int, most: int) -> str:
    names = blocks_bins(most)
    if most <= 2:
        return names[min(n, most) - 1]
    return names[0] if n <= 1 else names[2] if n >= most else names[1]


# ---------------------------------------------------------------------------------------------
# The model


def _none(_: object) -> list[str]:
    return []  # bins are counted by name (UarchCoverage.hit), not from a record


@cache
def uarch_model() -> Model:
    b = _Builder()
    g = Group(SCHED, "scheduler", None, doc="fetch and issue (rtl/sm_warp_sched.v), the commit port")
    b.groups.append(g)
    b.point(g, "ready warps at issue", "issue", list(READY), _none, True, doc="warps ready (u_sched.ready) in a cycle fetch picks one")
    b.point(g, "commit gap", "issue", list(GAPS), _none, True, doc="cycles from the previous commit record (commit_valid) to this one")
    b.point(g, "barrier waiters at issue", "barrier", list(WAITERS), _none, True,
            doc="warps waiting at a barrier (warp_bar) in a cycle fetch picks another warp")
    g = Group(EXEC, "execute", None, doc="the execute sequencer (rtl/sm_exec_ctrl.v), states from rtl/sm_defs.vh")
    b.groups.append(g)
    states = exec_states()
    never = {s for s in states if s not in _assigned(states) and s != "X_IDLE"}  # X_IDLE: reset
    state_ex = {s: f"no assignment of rtl/sm_exec_ctrl.v enters {s} (defined in rtl/sm_defs.vh, unused)" for s in never}
    if "X_HALT" in states:
        state_ex["X_HALT"] = HALT_REASON
    b.point(g, "state", "sequencer", states, _none, True, state_ex, doc="cycles spent in each state")
    succ = exec_successors(states)
    names, ex = [], {}
    for a in states:
        for c in states:
            n = f"{a} -> {c}"
            names.append(n)
            if a in state_ex or c in state_ex:
                ex[n] = state_ex.get(a) or state_ex[c]
            elif succ is not None and c not in succ[a]:
                ex[n] = f"from {a} the sequencer of rtl/sm_exec_ctrl.v goes only to {', '.join(sorted(succ[a]))} (derived from its case arms)"
    b.point(g, "transition", "sequencer", names, _none, True, ex,
            doc="state in one cycle -> state in the next (a stay is a transition to itself)"
            + ("" if succ is not None else "; the sequencer's case statement was not recognised: no transition excluded"))
    steps = sfu_steps()
    b.point(g, "SFU sub-step", "SFU", [f"sub-step {k}" for k in range(steps)], _none, True,
            doc=f"x_sub of an SFU/RRO pass (NUM_SP / NUM_SFU = {steps} sub-steps at the default configuration)")
    g = Group(MEM, "memory", None, doc="the global/local memory port (top-level pins)")
    b.groups.append(g)
    b.point(g, "request kind", "memory", list(REQ_KINDS), _none, True, doc="accepted requests (valid and ready)")
    b.point(g, "loads outstanding at a request", "memory", list(OUTSTANDING), _none, True,
            doc="load responses still to come when a request is accepted")
    b.point(g, "back-pressure wait", "memory", list(WAITS), _none, True, doc="cycles a request was offered and not accepted before it was")
    b.point(g, "response order", "memory", list(ORDER), _none, True,
            doc="a response for the oldest outstanding load (in order) or for a later one (out of order)")
    g = Group(LAUNCH, "launch", None, doc="rounds of blocks (rtl/sm_launch.v)")
    b.groups.append(g)
    b.point(g, "round", "launch", list(ROUNDS), _none, True, doc="which round of the launch a round start (init_clear) is")
    b.point(g, "blocks per round", "launch", blocks_bins(max_blocks()), _none, True, doc="blocks placed in one round (distinct warp_init_cta)")
    return b.model("micro-architecture coverage model")


CATEGORIES_U = ("issue", "barrier", "sequencer", "SFU", "memory", "launch")


class UarchCoverage(Coverage):
    """Counts of the micro-architecture model, added by name (`hit`); `skipped`: point key ->
    reasons the sampler gave for not sampling it; `checks`: name -> [sampled, independent]."""

    FORMAT = UFORMAT

    def __init__(self, run: str | None = None) -> None:
        super().__init__(run)
        self.skipped: dict[str, list[str]] = {}
        self.checks: dict[str, list[int]] = {}

    @classmethod
    def build_model(cls) -> Model:
        return uarch_model()

    def flush(self) -> None:
        return

    def hit(self, group: str, point: str, name: str, n: int = 1) -> None:
        b = self.model.by_key.get(f"{group}/{point}/{name}")
        if b is None:
            raise KeyError(f"micro-architecture coverage: no bin {group}/{point}/{name}")
        self.counts[b.index] += n

    def skip(self, group: str, point: str, reason: str) -> None:
        key = f"{group}/{point}"
        if not any(p.group == group and p.name == point for p in self.model.points()):
            raise KeyError(f"micro-architecture coverage: no point {key}")
        got = self.skipped.setdefault(key, [])
        if reason not in got:
            got.append(reason)

    def check(self, name: str, sampled: int, independent: int) -> None:
        got = self.checks.setdefault(name, [0, 0])
        got[0] += sampled
        got[1] += independent

    def check_failures(self) -> dict[str, list[int]]:
        return {k: v for k, v in sorted(self.checks.items()) if v[0] != v[1]}

    def to_json(self) -> dict:
        data = super().to_json()
        data["skipped"] = self.skipped
        data["checks"] = self.checks
        return data

    @classmethod
    def from_json(cls, data: dict, where: str = "coverage data") -> UarchCoverage:
        cov = super().from_json(data, where)
        assert isinstance(cov, UarchCoverage)
        cov.skipped = {k: list(v) for k, v in data.get("skipped", {}).items()}
        cov.checks = {k: [int(v[0]), int(v[1])] for k, v in data.get("checks", {}).items()}
        return cov

    def merge(self, other: Coverage) -> Coverage:
        super().merge(other)
        if isinstance(other, UarchCoverage):
            for key, reasons in other.skipped.items():
                mine = self.skipped.setdefault(key, [])
                mine += [r for r in reasons if r not in mine]
            for name, (s, i) in other.checks.items():
                self.check(name, s, i)
        return self
