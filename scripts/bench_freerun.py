"""The RTL free-running, with no Python in the loop: how fast the simulators run the SM itself.

    python scripts/bench_freerun.py [--sim verilator|icarus] [--num-sp 8] PROGRAM.sass [--json]
                                    [--latency 4] [--max-cycles N]

The program is loaded the way the lock-step testbench loads it (tb/kernels.py, the same
configuration-bus writes as tb/adapters/rtl.py), written to files, and replayed by a harness
(tb/freerun/bench_top.v: configuration writes, start pulse, a memory with a fixed latency and no
back-pressure) under Icarus (tb/freerun/bench_icarus.v) or Verilator (tb/freerun/main.cpp; a lean
build: no --public-flat-rw, -O3, --x-assign fast). The run must be correct for its figure to
count: the final global memory must equal the golden model's and the SM must commit as many
warp-instructions as the model executes (exit status 1 otherwise).

Printed: kernel cycles (start pulse to done), warp-instructions committed, wall time of those
cycles (from the harness's start marker to its end marker, read as they come: the simulator's
start-up and the build are not counted), cycles per second, and the simulator process's CPU time
(start-up included; on a machine shared with other jobs the steadier figure). Builds are cached in
build/freerun/ per simulator, NUM_SP and source digest.

Python users (the bench table): `freerun(Path("bench/alu.sass"), "icarus", 8)` returns a
`FreerunResult`.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from golden.g80.hw import CfgSel, LaunchReg  # noqa: E402
from golden.g80.profile import G80  # noqa: E402
from tb.kernels import Kernel, load_kernel  # noqa: E402
from tb.runner import SM_FILE_LIST, _environment, read_file_list  # noqa: E402

HARNESS = ROOT / "tb" / "freerun"
OUT = ROOT / "build" / "freerun"
CFG_END = 0xF << 52  # the end of the configuration stream (bench_top.v)
VERILATOR_FLAGS = ["-O3", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "-Wno-lint", "-Wno-style"]


@dataclass
class FreerunResult:
    program: str
    sim: str
    num_sp: int
    cycles: int  # kernel cycles: start pulse to done
    commits: int  # warp-instructions the SM committed
    model_commits: int  # warp-instructions the golden model executed
    wall_s: float  # wall time of those cycles
    cycles_per_s: float
    cpu_s: float  # CPU time of the simulator process, its start-up included (steadier than wall time on a loaded machine)
    correct: bool  # final global memory and commit count equal the model's, no error
    detail: str = ""  # what was wrong when not correct
    # the kernel's cycles as the Verilator harness times them itself (tb/freerun/main.cpp): its thread's
    # CPU time and wall time; None under Icarus
    timed_cpu_s: float | None = None
    timed_wall_s: float | None = None

    def line(self) -> str:
        verdict = "ok" if self.correct else f"WRONG: {self.detail}"
        return (f"{self.program} {self.sim} NUM_SP {self.num_sp}: {self.cycles} cycles, {self.commits} warp-instructions, "
                f"{self.wall_s:.3f} s, {self.cycles_per_s:,.0f} cycles/s (simulator CPU {self.cpu_s:.2f} s with its start-up) ({verdict})")  # fmt: skip


@dataclass
class Prepared:
    directory: Path
    cfg: Path
    gmem: Path
    gwords: int
    lwords: int
    local_words: int  # per thread
    expected: np.ndarray  # the golden model's final global memory (uint8)
    model_commits: int


def _words(data: bytes) -> list[int]:
    return [int(w) for w in np.frombuffer(data + b"\0" * (-len(data) % 4), "<u4")]


def config_writes(k: Kernel) -> list[tuple[int, int, int]]:
    """(select, address, value) of every configuration-bus write, in the order the rtl BFM makes them."""
    writes = [(CfgSel.IMEM, i, w) for i, w in enumerate(k.words)]
    for bank, offset, data in k.consts:
        writes += [(CfgSel.CMEM, bank << 16 | (offset // 4 + j), w) for j, w in enumerate(_words(data))]
    launch = k.launch
    regs = {LaunchReg.GRID_X: launch.grid[0], LaunchReg.GRID_Y: launch.grid[1], LaunchReg.BLOCK_X: launch.block[0],
            LaunchReg.BLOCK_Y: launch.block[1], LaunchReg.BLOCK_Z: launch.block[2], LaunchReg.REGISTERS: launch.registers,
            LaunchReg.SHARED: launch.shared, LaunchReg.PARAM_BYTES: launch.param_bytes, LaunchReg.LOCAL_BYTES: launch.local_bytes}  # fmt: skip
    writes += [(CfgSel.LAUNCH, int(r), v) for r, v in regs.items()]
    writes += [(CfgSel.LAUNCH, LaunchReg.PARAMS + j, w) for j, w in enumerate(_words(k.params))]
    return writes


def prepare(program: Path, directory: Path) -> Prepared:
    """Write the harness's input files for `program` and run the golden model for its final memory."""
    k = load_kernel(program, G80)
    directory.mkdir(parents=True, exist_ok=True)
    cfg = directory / "cfg.hex"
    lines = [f"{int(sel) << 52 | (addr & 0xFFFFF) << 32 | (value & 0xFFFFFFFF):014x}" for sel, addr, value in config_writes(k)]
    cfg.write_text("\n".join([*lines, f"{CFG_END:014x}"]) + "\n")
    image = k.gmem.data
    words = np.frombuffer(image.tobytes() + b"\0" * (-image.size % 4), "<u4")
    gmem = directory / "gmem.hex"
    gmem.write_text("".join(f"{int(w):08x}\n" for w in words))
    threads = int(k.model.regs.shape[1])
    local_words = (k.launch.local_bytes + 3) // 4
    model_commits = k.model.run()  # changes k.gmem in place: written out above first
    return Prepared(directory, cfg, gmem, int(words.size), max(local_words * threads, 1), local_words, k.gmem.data.copy(), model_commits)


def _digest(*extra: str) -> str:
    files = read_file_list(SM_FILE_LIST)
    h = hashlib.sha256("\0".join(extra).encode())
    for path in [*files.sources, *sorted(f for d in files.includes for f in d.glob("*.vh")), *sorted(HARNESS.iterdir())]:
        h.update(str(path).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def build(sim: str, num_sp: int, latency: int, extra_flags: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Build (or reuse) the harness; returns the command that runs it. `extra_flags` go to the
    simulator's compiler (scripts/icarus_profile.py: `-pfileline=1`) and into the build's digest."""
    _environment(sim)
    files = read_file_list(SM_FILE_LIST)
    includes = [str(d) for d in files.includes]
    sources = [str(s) for s in files.sources]
    flags = [*(VERILATOR_FLAGS if sim == "verilator" else ["-g2012"]), *extra_flags]
    out = OUT / f"{sim}_sp{num_sp}_lat{latency}_{_digest(sim, str(num_sp), str(latency), *flags)}"
    out.parent.mkdir(parents=True, exist_ok=True)
    # one build at a time per harness: pytest-xdist workers (or two benches) may ask for the same one
    with (out.parent / f"{out.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(sim, num_sp, latency, out, flags, includes, sources)


def _build(sim: str, num_sp: int, latency: int, out: Path, flags: list[str], includes: list[str], sources: list[str]) -> list[str]:
    if sim == "icarus":
        exe = out / "bench.vvp"
        if not exe.exists():
            out.mkdir(parents=True, exist_ok=True)
            cmd = ["iverilog", *flags, f"-DNUM_SP={num_sp}", f"-Pbench_icarus.top.LATENCY={latency}", *[f"-I{d}" for d in includes],
                   "-s", "bench_icarus", "-o", str(exe), *sources, str(HARNESS / "bench_top.v"), str(HARNESS / "bench_icarus.v")]  # fmt: skip
            subprocess.run(cmd, check=True)
        return ["vvp", "-n", str(exe)]
    exe = out / "Vbench_top"
    if not exe.exists():
        out.mkdir(parents=True, exist_ok=True)
        cmd = ["verilator", "--cc", "--exe", "--build", "-j", str(os.cpu_count() or 1), *flags, "--top-module", "bench_top",
               f"-GNUM_SP={num_sp}", f"-GLATENCY={latency}", *[f"-I{d}" for d in includes], "-Mdir", str(out), "-o", "Vbench_top",
               *sources, str(HARNESS / "bench_top.v"), str(HARNESS / "main.cpp")]  # fmt: skip
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return [str(exe)]


def run_args(p: Prepared, max_cycles: int) -> list[str]:
    """The harness's plusargs for a prepared program (its final memory goes to gmem_out.hex, removed first)."""
    out_file = p.directory / "gmem_out.hex"
    out_file.unlink(missing_ok=True)
    return [f"+cfg={p.cfg}", f"+gmem={p.gmem}", f"+out={out_file}", f"+gwords={p.gwords}", f"+lwords={p.lwords}",
            f"+local_words={p.local_words}", f"+max_cycles={max_cycles}"]  # fmt: skip


def run(command: list[str], p: Prepared, max_cycles: int) -> tuple[dict[str, int], float, float, list[str]]:
    """Run the harness; returns its figures, the wall time between its start and end markers, the
    simulator's CPU time, and its output."""
    args = run_args(p, max_cycles)
    output: list[str] = []
    t_start = t_end = None
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    with subprocess.Popen([*command, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=p.directory) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:  # the markers are flushed as they are printed: timestamps taken here
            now = time.perf_counter()
            if line.startswith("FREERUN-START"):
                t_start = now
            elif line.startswith("FREERUN-END"):
                t_end = now
            output.append(line.rstrip("\n"))
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    figures: dict[str, int] = {}
    for line in output:
        if line.startswith("FREERUN "):
            figures = {key: int(value) for key, value in (f.split("=") for f in line.split()[1:])}
    if not figures or t_start is None or t_end is None:
        raise RuntimeError(f"the harness did not finish (exit {proc.returncode}):\n" + "\n".join(output[-20:]))
    return figures, t_end - t_start, cpu, output


def freerun(program: Path, sim: str = "verilator", num_sp: int = 8, latency: int = 4, max_cycles: int = 100_000_000) -> FreerunResult:
    """Build, prepare and run one program free-running; the result says whether the run was correct."""
    command = build(sim, num_sp, latency)
    p = prepare(program, OUT / "runs" / f"{program.stem}_{sim}_sp{num_sp}")
    figures, wall, cpu, output = run(command, p, max_cycles)
    problems = [line for line in output if line.startswith("FREERUN-ERROR")]
    if figures["error"]:
        problems.append(f"the RTL stopped with error {figures['error']} (warp {figures['error_warp']}, pc {figures['error_pc']:#x})")
    elif not figures["done"]:
        problems.append(f"not done after {figures['cycles']} cycles (--max-cycles)")
    if figures["commits"] != p.model_commits:
        problems.append(f"{figures['commits']} warp-instructions committed, the model executed {p.model_commits}")
    out_file = p.directory / "gmem_out.hex"
    if p.gwords and out_file.exists():
        words = [int(t, 16) for line in out_file.read_text().splitlines() for t in line.split("//")[0].split()]  # Icarus adds // address comments
        got = np.array(words, "<u4").view(np.uint8)[: p.expected.size]
        diff = np.flatnonzero(got != p.expected)
        if diff.size:
            a = int(diff[0])
            problems.append(f"final global memory differs from the model's at {diff.size} bytes, first at {a:#x}: {got[a]:#04x}, model {p.expected[a]:#04x}")
    elif p.gwords:
        problems.append("the harness wrote no final global memory")
    cycles = figures["cycles"]
    timed = next(({k: int(v) / 1e9 for k, v in (f.split("=") for f in line.split()[1:])} for line in output if line.startswith("FREERUN-TIMED ")), {})
    return FreerunResult(str(program), sim, num_sp, cycles, figures["commits"], p.model_commits, wall, cycles / wall if wall > 0 else 0.0,
                         cpu, not problems, "; ".join(problems), timed.get("cpu_ns"), timed.get("wall_ns"))  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", type=Path, help="a .sass program (or a FlexGripPlus kernel bundle .txt)")
    ap.add_argument("--sim", choices=("verilator", "icarus"), default="verilator")
    ap.add_argument("--num-sp", type=int, default=8, choices=(8, 16, 32))
    ap.add_argument("--latency", type=int, default=4, help="memory response latency in cycles (default 4)")
    ap.add_argument("--max-cycles", type=int, default=100_000_000)
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    if not args.program.is_file():
        ap.error(f"no program {args.program}")
    if args.latency < 1:
        ap.error("--latency must be at least 1")
    result = freerun(args.program, args.sim, args.num_sp, args.latency, args.max_cycles)
    print(json.dumps(asdict(result)) if args.json else result.line())
    return 0 if result.correct else 1


if __name__ == "__main__":
    sys.exit(main())
