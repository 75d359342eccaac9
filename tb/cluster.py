"""Where the tasks of a long job run: Dask (`dask.distributed`), the one engine of `make faults`,
`make random`, `make regress` and `make mutants`.

    embedded (CLUSTER empty)    a LocalCluster of JOBS worker processes, one thread each, started
                                and stopped with the job: no server, no configuration
    tcp://host:port             a running scheduler (`dask scheduler`) and whatever workers it has
    slurm | lsf | sge | pbs     workers started as batch jobs through dask-jobqueue, their options
                                from a TOML file (CLUSTER_CONFIG), JOBS workers

Workers import the project's modules by name (`tb.faults.campaign`, `randgen.__main__`, ...): a
worker of a running scheduler or of a batch system runs from the project's checkout (its working
directory or PYTHONPATH), on a file system the client shares, where the compiled simulator models
are found by their content key (tb/runner.py).

`run_tasks` is the loop every job shares: a list of batch tasks, a bounded window of
them in flight, each result handed to the caller's one writer as it comes back, a progress bar,
and a task lost with its worker run again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from golden.errors import BadSetting, UserError

from .runner import ROOT

KINDS = ("slurm", "lsf", "sge", "pbs")
CONNECT_S = 10  # a running scheduler that does not answer in this time is reported, not waited for
# keys of CLUSTER_CONFIG: the project's name -> dask-jobqueue's argument (the same for every kind
# but the account, which LSF and SGE call a project)
KEYS = {"cores": "cores", "memory": "memory", "processes": "processes", "walltime": "walltime", "queue": "queue",
        "job_extra": "job_extra_directives", "prologue": "job_script_prologue", "interface": "interface",
        "local_directory": "local_directory", "log_directory": "log_directory", "python": "python",
        "worker_extra_args": "worker_extra_args"}  # fmt: skip
ACCOUNT = {"slurm": "account", "pbs": "account", "lsf": "project", "sge": "project"}
# a worker retires this long before its job's walltime ends, so that the batch system never kills
# it in the middle of a task (its tasks move to other workers first)
LIFETIME_MARGIN_S = 300
# the jobs' output files: without a directory of their own, SLURM and PBS write them where the job
# was submitted, the checkout's root (SLURM's slurm-<id>.out)
JOB_LOGS = ROOT / "build" / "faults" / "jobs"


def walltime_s(text: str) -> int:
    """Seconds of a batch walltime: [[D-]HH:]MM:SS as SLURM, PBS and SGE write it, or LSF's HH:MM."""
    m = re.fullmatch(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?", text.strip())
    if not m:
        raise ValueError(text)
    days, *parts = m.groups()
    values = [int(p) for p in parts if p is not None]
    if len(values) == 1:  # minutes alone
        values = [0, values[0], 0]
    elif len(values) == 2:  # HH:MM
        values = [values[0], values[1], 0]
    h, mi, s = values
    return int(days or 0) * 86400 + h * 3600 + mi * 60 + s


def lifetime_s(walltime: str) -> int:
    """How long a worker lives in a job of this walltime: the margin before its end (at least half of it)."""
    total = walltime_s(walltime)
    return max(total // 2, total - LIFETIME_MARGIN_S)


def read_config(path: Path | None, kind: str) -> dict[str, Any]:
    """dask-jobqueue's arguments for `kind` from the TOML file: one error line for a missing file, bad TOML, an unknown key."""
    if path is None:
        raise BadSetting(f"CLUSTER={kind} needs CLUSTER_CONFIG=path to a TOML file (cores, memory, walltime, queue, ...: docs/guides/cluster.md)")
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadSetting(f"CLUSTER_CONFIG={path}: cannot be read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadSetting(f"CLUSTER_CONFIG={path}: not TOML ({exc})") from None
    known = {*KEYS, "account"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise BadSetting(f"CLUSTER_CONFIG={path}: unknown key {unknown[0]!r} (keys: {', '.join(sorted(known))})")
    for key in ("cores", "memory", "walltime"):
        if key not in data:
            raise BadSetting(f"CLUSTER_CONFIG={path}: no {key!r} (every batch job needs cores, memory and walltime)")
    if not isinstance(data["cores"], int) or data["cores"] < 1:
        raise BadSetting(f"CLUSTER_CONFIG={path}: cores = {data['cores']!r}: a whole number of at least 1")
    for key in ("job_extra", "prologue", "worker_extra_args"):
        if key in data and not (isinstance(data[key], list) and all(isinstance(x, str) for x in data[key])):
            raise BadSetting(f"CLUSTER_CONFIG={path}: {key} must be a list of strings")
    try:
        lifetime = lifetime_s(str(data["walltime"]))
    except ValueError:
        raise BadSetting(f"CLUSTER_CONFIG={path}: walltime = {data['walltime']!r}: write it as HH:MM:SS") from None
    options: dict[str, Any] = {KEYS[k]: v for k, v in data.items() if k in KEYS}
    if kind == "lsf":  # bsub -W takes [HH:]MM: the file's HH:MM:SS rounded up to a minute
        minutes = -(-walltime_s(str(data["walltime"])) // 60)
        options["walltime"] = f"{minutes // 60:02d}:{minutes % 60:02d}"
    if "account" in data:
        options[ACCOUNT[kind]] = data["account"]
    options["worker_extra_args"] = [*options.get("worker_extra_args", []), "--lifetime", f"{lifetime}s", "--lifetime-stagger", "60s"]
    options.setdefault("log_directory", str(JOB_LOGS))
    options.setdefault("processes", data["cores"])  # one single-threaded worker per core: a task is one single-threaded simulator
    return options


def jobqueue_cluster(kind: str, options: dict[str, Any]) -> Any:
    """The dask-jobqueue cluster object of `kind` (constructed: no job is submitted until it is scaled)."""
    import dask_jobqueue

    classes = {"slurm": dask_jobqueue.SLURMCluster, "lsf": dask_jobqueue.LSFCluster, "sge": dask_jobqueue.SGECluster, "pbs": dask_jobqueue.PBSCluster}
    # the dashboard on a port of the system's choice, as the embedded cluster's (the link is printed):
    # a fixed 8787 that another cluster holds is only a warning and another port anyway
    return classes[kind](**options, scheduler_options={"dashboard_address": ":0"})


def check_spec(spec: str) -> None:
    """CLUSTER is empty, an address or a batch system: anything else is told at once."""
    if spec and spec not in KINDS and not re.fullmatch(r"(tcp|tls)://[^\s/:]+:\d+", spec):
        raise BadSetting(f"CLUSTER={spec!r}: empty (embedded), tcp://host:port of a running scheduler, or one of {', '.join(KINDS)}")


@contextlib.contextmanager
def open_client(spec: str, jobs: int, config: Path | None = None, quiet: bool = True, label: str = "faults") -> Iterator[Any]:
    """A Dask client on the cluster CLUSTER names (module docstring), closed (and an embedded or batch cluster stopped) on leaving."""
    check_spec(spec)
    from distributed import LocalCluster

    if spec in KINDS:
        options = read_config(config, spec)
        cluster = jobqueue_cluster(spec, options)
        # adaptive at a fixed size: a worker that retired before its walltime is replaced by a new job
        cluster.adapt(minimum=jobs, maximum=jobs)
    elif spec:
        cluster = None
    else:
        # Ctrl-C is the client's alone (it keeps what finished and says so): the worker processes,
        # and the simulators they start, inherit SIGINT ignored, so that none dies in the middle of
        # an import with a traceback; the client ends them (kill_simulators). The scheduler's HTTP
        # server takes a port of the system's choice: two campaigns at once neither collide nor warn.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL)
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
    try:
        client = connect(cluster if cluster is not None else spec, spec)
        try:
            if spec and not quiet:
                print(f"{label}: Dask cluster {spec}, dashboard {client.dashboard_link}", flush=True)
            yield client
        finally:
            client.close()
    except BaseException:
        if cluster is not None and not spec:
            kill_simulators()  # interrupted: no task goes on after the client; the cluster then stops its workers
        raise
    finally:
        if cluster is not None:
            cluster.close()


def connect(target: Any, spec: str) -> Any:
    """A client of the cluster object or address `target`; one error line when no scheduler answers."""
    from distributed import Client

    try:
        return Client(target, timeout=f"{CONNECT_S}s")
    except (OSError, TimeoutError):
        raise UserError(f"CLUSTER={spec}: no Dask scheduler answers there within {CONNECT_S} s: start one (dask scheduler) or correct the address") from None


def check_reachable(spec: str) -> None:
    """A running scheduler's address answers: told before anything is built or simulated."""
    if spec and spec not in KINDS:
        connect(spec, spec).close()


def kill_simulators() -> None:
    """SIGKILL to the processes the embedded cluster's workers started (the simulators of their tasks)."""
    import psutil

    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            for p in child.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    p.kill()


def kill_children() -> None:
    """SIGKILL to every process this one started, and theirs (a shielded task's simulators)."""
    import psutil

    for p in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            p.kill()


def shielded(fn: Callable[..., Any], args: tuple) -> Any:
    """`fn(*args)` in a thread of its own that blocks SIGINT. The processes it starts (a fault
    task's simulator) inherit that blocked signal through fork and exec, so a Ctrl-C in the
    terminal reaches this process alone, as it reaches the client of an embedded cluster whose
    workers ignore it (open_client): the waiting thread then ends the task's processes, and any it
    starts after them until it gives up, and raises the KeyboardInterrupt. One worker's job runs
    so without the cluster's start (about a second, a large part of a short fault campaign)."""
    out: dict[str, Any] = {}
    # the task's end is an event, not the thread's join: a KeyboardInterrupt raised inside
    # Thread.join leaves the thread marked as ended while it still runs (CPython's
    # _wait_for_tstate_lock releases the lock it was waiting on)
    ended = threading.Event()

    def body() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            out["value"] = fn(*args)
        except BaseException as exc:  # handed to the waiting thread, which raises it there
            out["error"] = exc
        finally:
            ended.set()

    threading.Thread(target=body, name="shielded-task", daemon=True).start()
    try:
        while not ended.wait(0.1):  # a timed wait: the signal's KeyboardInterrupt is raised between two
            pass
    except BaseException:
        while not ended.is_set():
            kill_children()
            time.sleep(0.05)
        raise
    if "error" in out:
        raise out["error"]
    return out["value"]


def workers_of(client: Any, wait_s: float = 600) -> int:
    """How many workers the cluster has, waiting (for batch jobs to start) until it has one."""
    n = len(client.scheduler_info().get("workers", {}))
    if n == 0:
        try:
            client.wait_for_workers(1, timeout=wait_s)
        except TimeoutError:
            raise UserError(f"the Dask cluster has no worker after {wait_s:.0f} s: start workers (dask worker ADDRESS) or check the batch jobs", 1) from None
        n = len(client.scheduler_info().get("workers", {}))
    return max(1, n)


def default_jobs() -> int:
    """JOBS when none is given: the cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_jobs(jobs: int) -> None:
    if jobs < 1:
        raise BadSetting(f"JOBS={jobs}: at least 1 (worker processes of the embedded cluster, or workers asked of a batch system)")


def check_cluster(spec: str, config: Path | None, jobs: int) -> None:
    """Every cluster setting told at once, before anything is built or run: CLUSTER's form, a batch
    system's TOML file, JOBS, and a running scheduler's answer."""
    check_jobs(jobs)
    check_spec(spec)
    if spec in KINDS:
        read_config(config, spec)
    check_reachable(spec)


BATCH_MOST = 200  # programs, mutants or runs per task at most


def batches(items: Sequence[Any], workers: int, most: int = BATCH_MOST, dealt: bool = False) -> list[list[Any]]:
    """`items` cut into tasks: two for every worker at least (a lost worker costs half its share,
    the last tasks end together), at most `most` each. The items of these jobs take seconds each,
    against a Dask task's cost below a millisecond, so a task of one item is not too small.
    In order by default; `dealt` deals them out like cards (task k takes items k, k + n, ...), for
    items whose cost runs in streaks (a regression's tests, collected file by file), so that no task
    gets a whole streak of slow ones."""
    if not items:
        return []
    size = max(1, min(most, -(-len(items) // (2 * max(1, workers)))))
    if dealt:
        n = -(-len(items) // size)
        return [list(items[k::n]) for k in range(n)]
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


@dataclass(frozen=True)
class Task:
    """One batch: `fn(*args)` on a worker (a module-level function: it is pickled by name), worth
    `units` of the job's progress (its programs, mutants or runs)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    units: int = 1
    name: str = ""


class Progress:
    """Units done, rate and ETA: a tqdm bar on a terminal, a plain line every `every` seconds
    otherwise (a log, CI), nothing when quiet. `write` prints a line above the bar."""

    def __init__(self, total: int, label: str, unit: str, quiet: bool = False, every: float = 10.0) -> None:
        self.total, self.done, self.label, self.unit, self.quiet, self.every = total, 0, label, unit, quiet, every
        self.t0 = self.last = time.monotonic()
        self.bar: Any = None
        if not quiet and sys.stdout.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit=unit, desc=label, smoothing=0.1)

    def write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line)
        else:
            print(line, flush=True)

    def add(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
            return
        now = time.monotonic()
        if self.quiet or now - self.last < self.every or self.done >= self.total:
            return
        self.last = now
        rate = self.done / max(now - self.t0, 1e-9) * 60
        eta = (self.total - self.done) / rate * 60 if rate else 0.0
        print(f"{self.label}: {self.done}/{self.total} {self.unit}s done, {rate:.1f}/min, about {eta:.0f} s left", flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def importable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` as a worker can import it: a function of a module run with `python -m` is named
    `__main__.f` here, which would be pickled by value (or name the worker's own __main__), so it is
    taken from the module under its real name."""
    if fn.__module__ != "__main__":
        return fn
    spec = getattr(sys.modules["__main__"], "__spec__", None)
    if spec is None:
        return fn
    import importlib

    return getattr(importlib.import_module(spec.name), fn.__name__)


TRIES = 3  # a task is run again after a lost worker or an error, up to this many times in all


def run_tasks(tasks: Sequence[Task] | Callable[[int], Sequence[Task]], on_result: Callable[[int, Any], None], jobs: int, spec: str = "", config: Path | None = None, *,
              label: str, unit: str, quiet: bool = False, progress: Progress | None = None, inline: bool = True, shield: bool = False) -> None:
    """Run `tasks` and hand each result to `on_result(index, result)` in this process, as it comes
    back (the job's one writer: its files, records and lines are written here alone).

    Where: with no CLUSTER and one job, one task after the other in this process (there is nothing
    to spread, and no cluster to start), unless `inline` is off (a job whose tasks must run in
    worker processes); with `shield`, each such task in a thread whose processes the terminal's
    Ctrl-C does not reach (`shielded`: a simulator is never interrupted in the middle of its work
    but ended by this process); otherwise on the cluster `open_client` gives, with a
    window of two tasks per worker in flight. A task whose worker died is run again by the
    scheduler; one that still fails (its worker lost too often, an error) is submitted again, up to
    TRIES times in all, and its result is handed over once, when it first arrives: nothing is
    lost, nothing counted twice. A task that fails every time ends the job with its error.

    `tasks` may be a function of the number of workers (`batches` sizes them by it): a running
    scheduler's workers are known only once it answers."""
    check_jobs(jobs)
    if not spec and jobs <= 1 and inline:
        todo = tasks(1) if callable(tasks) else tasks
        bar = progress if progress is not None else Progress(sum(t.units for t in todo), label, unit, quiet)
        try:
            for i, t in enumerate(todo):
                on_result(i, shielded(t.fn, t.args) if shield else t.fn(*t.args))
                bar.add(t.units)
        finally:
            if progress is None:
                bar.close()
        return
    _distributed(tasks, on_result, jobs, spec, config, label, unit, quiet, progress)


def _distributed(plan: Sequence[Task] | Callable[[int], Sequence[Task]], on_result: Callable[[int, Any], None], jobs: int, spec: str,
                 config: Path | None, label: str, unit: str, quiet: bool, progress: Progress | None) -> None:  # fmt: skip
    if not callable(plan) and not plan:
        return
    # the embedded cluster: no more workers than tasks (a task list not known yet: JOBS of them)
    with open_client(spec, max(1, min(jobs, len(plan))) if not callable(plan) else jobs, config, quiet, label) as client:
        # a batch system's jobs start one by one: the tasks are cut for the workers asked for
        workers = max(workers_of(client), jobs if spec in KINDS else 0)
        tasks = plan(workers) if callable(plan) else plan
        bar = progress if progress is not None else Progress(sum(t.units for t in tasks), label, unit, quiet)
        try:
            _window(client, tasks, on_result, workers, label, quiet, bar)
        finally:
            if progress is None:
                bar.close()


def _window(client: Any, tasks: Sequence[Task], on_result: Callable[[int, Any], None], workers: int, label: str, quiet: bool, bar: Progress) -> None:
    from distributed import as_completed

    window = 2 * workers  # every worker busy and its next task queued, never the whole job at the scheduler
    queue = list(range(len(tasks)))[::-1]  # popped from the end: the first tasks first
    tries = dict.fromkeys(range(len(tasks)), 0)
    running: dict[Any, int] = {}
    done = as_completed()

    def submit() -> None:
        while queue and len(running) < window:
            i = queue.pop()
            tries[i] += 1
            t = tasks[i]
            future = client.submit(importable(t.fn), *t.args, pure=False, key=f"{label}-{t.name or i}-{tries[i]}")
            running[future] = i
            done.add(future)

    # Ctrl-C: the client's threads (Dask's event loop, the comms) may take the signal while the main
    # thread sleeps in a lock that no signal wakes, and Dask's waits swallow it there; so the handler
    # only notes it, and the loop below looks every tenth of a second and raises it itself
    interrupted: list[int] = []
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda *_: interrupted.append(1)) if main else None
    try:
        submit()
        while running:
            if interrupted:
                raise KeyboardInterrupt
            batch = done.next_batch(block=False)
            if not batch:
                time.sleep(0.1)
                continue
            for future in batch:
                i = running.pop(future)
                try:
                    result = future.result()
                except Exception as exc:  # the task raised, or the scheduler gave it up (KilledWorker): again, while tries are left
                    first = str(exc).splitlines()[0] if str(exc) else ""
                    if tries[i] >= TRIES:
                        raise RuntimeError(f"task {tasks[i].name or i} failed {TRIES} times: {type(exc).__name__}: {first}") from None
                    if not quiet:
                        print(f"{label}: task {tasks[i].name or i} failed ({type(exc).__name__}: {first}); it runs again", file=sys.stderr, flush=True)
                    queue.append(i)
                    submit()
                    continue
                on_result(i, result)
                bar.add(tasks[i].units)
                submit()
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
