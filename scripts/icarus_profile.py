"""Where Icarus spends a cycle of the RTL: variable loads and stores by source line and process.

    python scripts/icarus_profile.py [PROGRAM.sass] [--from 1000] [--to 3000] [--num-sp 8] [--top 25]

Under Icarus (vvp 11) the time of a cycle of this RTL follows, almost one for one, the number of
variable loads and stores the processes execute (`%load/vec4`, `%store/vec4` and their array forms):
each load pays a C++ `dynamic_cast` whatever the width of the value, and `perf` puts about a third
of vvp's time in those casts (docs/design/rtl.md, "Simulators"). The count is also
deterministic, unlike a time on a shared machine. This script counts them: it builds the free-running
harness of scripts/bench_freerun.py with `-pfileline=1` (vvp then knows each statement's source
line), runs the program to cycle FROM and to cycle TO under `perf` with user probes on vvp's opcode
functions, and prints the difference, per cycle, by module instance, by process (with the
variables it touches most) and by source line.

The opcodes are mapped back to the vvp file through the order in which vvp allocates their code
(a return probe on `codespace_allocate`, recorded in the same run by an outer `perf`); every counted
load must land on a load opcode of the file, or the script stops.

Needs Linux `perf` with uprobes on the vvp binary (root) on x86-64 (the code pointer is the second
argument of vvp's opcode functions: register %si). The probes are added once, as group `g80prof`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "scripts"):  # run as a script from anywhere, or imported by the tests
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from bench_freerun import OUT, build, prepare, run_args  # noqa: E402

GROUP = "g80prof"
# event name -> (vvp function, what it counts); the allocation probe is a return probe
PROBES = {
    "alloc": "codespace_allocate%return $retval",
    "ldvec": "of_LOAD_VEC4 cp=%si:u64",
    "ldarr": "of_LOAD_VEC4A cp=%si:u64",
    "stvec": "of_STORE_VEC4 cp=%si:u64",
    "starr": "of_STORE_VEC4A cp=%si:u64",
}
ALLOC_EVENT = "alloc__return"  # perf names a return probe's event with this suffix
COUNTED = ("ldvec", "ldarr", "stvec", "starr")  # event names that are not perf keywords ("load" is one)
OPCODE = {"ldvec": "%load/vec4 ", "ldarr": "%load/vec4a ", "stvec": "%store/vec4 ", "starr": "%store/vec4a "}


class ProfileError(RuntimeError):
    pass


@dataclass
class VvpCode:
    """The opcode lines of a vvp file with what each belongs to."""

    lines: list[str]
    ops: list[int]  # line index of each opcode, in file order (= allocation order)
    scope: dict[int, str]  # opcode line -> instance path
    thread: dict[int, str]  # opcode line -> thread label (T_n)
    source: dict[int, str]  # opcode line -> file:line of its statement ("" without %file_line)
    names: dict[str, str] = field(default_factory=dict)  # v0x..._0 -> variable name


def parse_vvp(text: str) -> VvpCode:
    lines = text.split("\n")
    names: dict[str, str] = {}
    parent: dict[str, str | None] = {}
    var_names: dict[str, str] = {}
    files: list[str] = []
    in_files = False
    for line in lines:
        if m := re.match(r'^(S_\w+) \.scope \w+[^,]*, "([^"]+)" "[^"]*"(.*)', line):
            names[m.group(1)] = m.group(2)
            p = re.search(r"(S_\w+);\s*$", m.group(3))
            parent[m.group(1)] = p.group(1) if p else None
        elif m := re.match(r'^(v0x\w+_\d+) \.(?:var|net)\S* "([^"]+)"', line):
            var_names[m.group(1)] = m.group(2)
        elif line.startswith(":file_names"):
            in_files = True
        elif in_files and (m := re.match(r'^\s+"(.*)";', line)):
            files.append(m.group(1))

    def path(s: str | None) -> str:
        parts = []
        while s:
            parts.append(names.get(s, s))
            s = parent.get(s)
        return ".".join(reversed(parts))

    ops: list[int] = []
    scope: dict[int, str] = {}
    thread: dict[int, str] = {}
    source: dict[int, str] = {}
    cur_scope, label, where = "?", "?", ""
    for i, line in enumerate(lines):
        if m := re.match(r"^\s+\.scope (S_\w+);", line) or re.match(r"^(S_\w+) \.scope (?:function|task)", line):
            cur_scope = path(m.group(1))  # a process's code follows `.scope`; a function's, its declaration
        elif m := re.match(r"^(T_\d+)(\.\d+)? ", line):
            if not m.group(2):  # a new thread; T_n.m labels are jumps inside one, the statement goes on
                label, where = m.group(1), ""
        elif re.match(r"^\s+%", line):
            ops.append(i)
            if m := re.match(r"^\s+%file_line (\d+) (\d+)", line):
                f = int(m.group(1))
                where = f"{os.path.relpath(files[f], ROOT) if f < len(files) else f}:{m.group(2)}"
            scope[i], thread[i], source[i] = cur_scope, label, where
    return VvpCode(lines, ops, scope, thread, source, var_names)


def align(code: VvpCode, allocations: list[tuple[str, int]]) -> dict[int, int]:
    """Code address -> opcode line. vvp allocates a few code words of its own before the file's
    (from other call sites): those leading callers are left out until the counts agree."""
    callers: list[str] = []
    for caller, _ in allocations:
        if caller not in callers:
            callers.append(caller)
    for skip in range(len(callers)):
        keep = set(callers[skip:])
        addrs = [a for c, a in allocations if c in keep]
        if len(addrs) == len(code.ops):
            return dict(zip(addrs, code.ops, strict=True))
    raise ProfileError(f"cannot align {len(allocations)} code allocations with the {len(code.ops)} opcodes of the vvp file")


def parse_allocations(text: str) -> list[tuple[str, int]]:
    """`perf script -F trace` of the allocation probe: '(func <- caller) arg1=0xADDR'."""
    out = []
    for line in text.splitlines():
        if m := re.search(r"<- (\w+)\)\s+arg1=0x([0-9a-f]+)", line):
            out.append((m.group(1), int(m.group(2), 16)))
    return out


def parse_report(text: str) -> dict[str, Counter[int]]:
    """`perf report --sort trace -F sample,trace`: per event, samples per code address."""
    counts: dict[str, Counter[int]] = {}
    event = ""
    for line in text.splitlines():
        if m := re.match(rf"# Samples: .* of event '{GROUP}:(\w+)'", line):
            event = m.group(1)
            counts[event] = Counter()
        elif event and (m := re.match(r"^\s+(\d+)\s+\(\w+\)\s+cp=(\d+)", line)):
            counts[event][int(m.group(2))] += int(m.group(1))
    return counts


def _perf(*args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["perf", *args], capture_output=True, text=True, check=False, **kw)


def ensure_probes(vvp: str) -> None:
    if shutil.which("perf") is None:
        raise ProfileError("perf not found (linux-tools / linux-perf)")
    have = _perf("probe", "-l").stdout
    for name, spec in PROBES.items():
        if f"{GROUP}:{ALLOC_EVENT if name == 'alloc' else name} " in have:
            continue
        r = _perf("probe", "-x", vvp, f"{GROUP}:{name}={spec}")
        if r.returncode:
            raise ProfileError(f"perf probe -x {vvp} {GROUP}:{name}={spec} failed (uprobes need root and vvp's symbols):\n{r.stderr.strip()}")


def run_counted(command: list[str], args: list[str], cwd: Path, work: Path, tag: str) -> tuple[list[tuple[str, int]], dict[str, Counter[int]]]:
    """One run of the harness under an outer perf (allocations) and an inner one (the counted opcodes)."""
    a, b = work / f"{tag}.alloc.data", work / f"{tag}.ops.data"
    inner = ["perf", "record", "-q", *[x for e in COUNTED for x in ("-e", f"{GROUP}:{e}")], "-o", str(b), "--", *command, *args]
    outer = ["perf", "record", "-q", "-e", f"{GROUP}:{ALLOC_EVENT}", "-o", str(a), "--", *inner]
    r = subprocess.run(outer, capture_output=True, text=True, cwd=cwd, check=False)
    if "FREERUN " not in r.stdout:
        raise ProfileError(f"the harness did not finish under perf (exit {r.returncode}):\n{(r.stdout + r.stderr)[-2000:]}")
    allocs = parse_allocations(_perf("script", "-i", str(a), "-F", "trace").stdout)
    report = _perf("report", "-i", str(b), "--stdio", "--sort", "trace", "-F", "sample,trace")
    return allocs, parse_report(report.stdout)


def profile(code: VvpCode, first: tuple[list[tuple[str, int]], dict[str, Counter[int]]],
            second: tuple[list[tuple[str, int]], dict[str, Counter[int]]]) -> dict[str, Counter[int]]:  # fmt: skip
    """Per counted event, executions per opcode line in the second run minus the first."""
    out: dict[str, Counter[int]] = {e: Counter() for e in COUNTED}
    for sign, (allocs, counts) in ((-1, first), (1, second)):
        where = align(code, allocs)
        for event, per_addr in counts.items():
            for addr, n in per_addr.items():
                line = where.get(addr)
                if line is None or OPCODE[event] not in code.lines[line] + " ":
                    raise ProfileError(f"a {event} at code address {addr:#x} maps to no {OPCODE[event].strip()} of the vvp file: alignment failed")
                out[event][line] += sign * n
    return out


def _top(counter: Counter, n: int) -> Iterable[tuple[str, int]]:
    return ((k, v) for k, v in counter.most_common(n) if v)


def report(code: VvpCode, counts: dict[str, Counter[int]], cycles: int, top: int) -> str:
    per_line: Counter[int] = Counter()
    for c in counts.values():
        per_line.update(c)
    total = sum(per_line.values())
    if total <= 0 or cycles <= 0:
        raise ProfileError("no loads or stores counted between the two cycles: nothing was measured")
    loads = sum(counts["ldvec"].values()) + sum(counts["ldarr"].values())
    by_scope: Counter[str] = Counter()
    by_thread: Counter[tuple[str, str]] = Counter()
    by_source: Counter[str] = Counter()
    variables: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for line, n in per_line.items():
        key = (code.scope[line], code.thread[line])
        by_scope[code.scope[line]] += n
        by_thread[key] += n
        by_source[f"{code.source[line] or '?'} ({code.scope[line].split('.')[-1]})"] += n
        if m := re.search(r"(v0x\w+_\d+)", code.lines[line]):
            store = "%store" in code.lines[line]
            variables[key][("=" if store else "") + code.names.get(m.group(1), m.group(1))] += n

    def row(n: int) -> str:
        return f"{n / cycles:9.1f} {100 * n / total:5.1f}%"

    out = [f"{total / cycles:,.1f} loads+stores a cycle ({loads / cycles:,.1f} loads, {(total - loads) / cycles:,.1f} stores), cycles measured: {cycles}",
           "", "per cycle   share  instance"]  # fmt: skip
    out += [f"{row(n)}  {k}" for k, n in _top(by_scope, top)]
    out += ["", "per cycle   share  process (instance, vvp thread): variables read, =written"]
    for (scope, label), n in _top(by_thread, top):
        v = ", ".join(f"{name} {c / cycles:.1f}" for name, c in variables[(scope, label)].most_common(8))
        out.append(f"{row(n)}  {scope} {label}: {v}")
    out += ["", "per cycle   share  source line (module instance)"]
    out += [f"{row(n)}  {k}" for k, n in _top(by_source, top)]
    return "\n".join(out)


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", type=Path, nargs="?", default=ROOT / "bench" / "alu.sass")
    ap.add_argument("--from", dest="first", type=int, default=1000, help="kernel cycle where counting starts (default 1000)")
    ap.add_argument("--to", dest="last", type=int, default=3000, help="kernel cycle where it stops (default 3000)")
    ap.add_argument("--num-sp", type=int, default=8, choices=(8, 16, 32))
    ap.add_argument("--top", type=int, default=25, help="rows per table")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    if not args.program.is_file():
        ap.error(f"no program {args.program}")
    if not 0 < args.first < args.last:
        ap.error("--from must be positive and below --to")
    try:
        command = build("icarus", args.num_sp, 4, ["-pfileline=1"])
        vvp = os.path.realpath(shutil.which(command[0]) or command[0])
        ensure_probes(vvp)
        p = prepare(args.program, OUT / "runs" / f"{args.program.stem}_profile_sp{args.num_sp}")
        code = parse_vvp(Path(command[-1]).read_text())
        with tempfile.TemporaryDirectory() as tmp:
            runs = [run_counted(command, run_args(p, n), p.directory, Path(tmp), str(n)) for n in (args.first, args.last)]
        counts = profile(code, *runs)
        print(f"{args.program} under Icarus, NUM_SP {args.num_sp}, kernel cycles {args.first} to {args.last}")
        print(report(code, counts, args.last - args.first, args.top))
    except ProfileError as e:
        print(f"icarus_profile: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
