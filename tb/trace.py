"""The DUT's commit trace: recorded during a run, compared with the golden model later.

`TraceRecorder` (a pyuvm component on the DUT monitor's analysis ports) keeps, in arrival order,
every DutCommit and every store the DUT made at its memory interface. It serves two purposes:

- free-running runs (`make sim LOCKSTEP=0`, `LockstepConfig.lockstep` false): the DUT runs with
  the testbench's memory but the golden model is not stepped per commit; the environment feeds
  the recorded events to the same scoreboard afterwards (or as soon as something needs the
  model's state: an error of the DUT, the hang watchdog), so that a mismatch gives the same
  report as in lock-step;
- `trace` files (`LockstepConfig.trace`): the events pickled with the run's configuration, which
  `replay()` feeds to a scoreboard without a simulator; `make bench` times the scoreboard alone so.

The order of events is what the scoreboard's memory-port check needs: the stores seen since the
previous commit belong to the next one (one instruction executes at a time).
"""

from __future__ import annotations

import pickle
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from pyuvm import uvm_component, uvm_subscriber

from .config import LockstepConfig
from .dut import DutCommit
from .mem_agent import MemRequest

FORMAT = 1  # the trace file's layout: {"format", "config", "check_stores", "tb_memory", "events"}

Event = tuple[bool, DutCommit | MemRequest]  # (is a store, the item)


class TraceRecorder(uvm_component):
    """Records the DUT's commits (`commit_export`) and memory-interface stores (`store_export`) in order."""

    def __init__(self, name: str, parent) -> None:
        super().__init__(name, parent)
        self.events: list[Event] = []
        self.fed = 0  # events already given to the scoreboard (free-running runs)

    def build_phase(self) -> None:
        self.commit_export = uvm_subscriber.uvm_AnalysisImp("commit_export", self, self._commit)
        self.store_export = uvm_subscriber.uvm_AnalysisImp("store_export", self, self._store)

    def _commit(self, item: DutCommit) -> None:
        self.events.append((False, item))

    def _store(self, item: MemRequest) -> None:
        if item.we:  # the scoreboard checks stores only
            self.events.append((True, item))

    @property
    def commits(self) -> int:
        return sum(1 for store, _ in self.events if not store)

    def feed(self, scoreboard) -> None:
        """Give the scoreboard the events it has not seen yet (it stops comparing after the run's failure)."""
        events, start = self.events, self.fed
        self.fed = len(events)
        feed(scoreboard, events[start:])

    def save(self, path: Path, config: LockstepConfig, check_stores: bool, tb_memory: bool) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            pickle.dump({"format": FORMAT, "config": asdict(config), "check_stores": check_stores, "tb_memory": tb_memory, "events": self.events}, f,
                        protocol=pickle.HIGHEST_PROTOCOL)  # fmt: skip
        return path


def feed(scoreboard, events: list[Event]) -> None:
    write, request = scoreboard.write, scoreboard.write_request
    for store, item in events:
        if store:
            request(item)
        else:
            write(item)


@dataclass
class Replay:
    """The outcome of `replay`: commits compared, the failure report (None when all agreed), the time it took."""

    commits: int
    compared: int
    report: object | None
    seconds: float  # wall
    cpu_seconds: float  # this process's CPU time (what a loaded machine does not inflate)
    thread_instructions: int


def load(path: Path) -> dict:
    with open(path, "rb") as f:
        data = pickle.load(f)  # a file this testbench wrote (build/...), not foreign input
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a commit trace of format {FORMAT} (written by a lock-step run with a trace file)")
    return data


def replay(path: Path, max_mismatches: int | None = None) -> Replay:
    """Compare a trace file with the golden model, without a simulator: a scoreboard like the run's
    (the same program, profile and DUT waivers), fed the recorded events. `seconds` covers the
    model's steps and the compares, not the loading of the file and the program."""
    from .adapters import adapter
    from .kernels import load_kernel
    from .scoreboard import Scoreboard, Verdict
    from .sm_env import run_profile

    data = load(path)
    config_data = dict(data["config"])
    config_data["defines"] = tuple(config_data.get("defines", ()))
    config = LockstepConfig(**config_data)
    kernel = load_kernel(Path(config.program), run_profile(config))
    verdict = Verdict({"test": config.name, "seed": config.seed, "simulator": config.sim, "num_sp": config.num_sp, "profile": config.profile,
                       "rerun": config.rerun}, lambda: None)  # fmt: skip
    name = f"replay_{time.monotonic_ns()}"  # pyuvm wants unique component names
    sb = Scoreboard(name, None, kernel.model, verdict, max_mismatches if max_mismatches is not None else config.max_mismatches,
                    check_stores=data["check_stores"], tb_memory=data["tb_memory"], waivers=adapter(config.dut).waivers(config))  # fmt: skip
    sb.build_phase()
    events = data["events"]
    t0, c0 = time.perf_counter(), time.process_time()
    feed(sb, events)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    commits = sum(1 for store, _ in events if not store)
    return Replay(commits, sb.compared, verdict.report, seconds, cpu, int(kernel.model.thread_steps))
