"""FlexGripPlus 4.4 under GHDL: where its VHDL comes from, and the build through cocotb_tools.runner.

The VHDL is read from a FlexGripPlus checkout named by FLEXGRIP_DIR (default ../shared/flexgripplus;
either the repository root or its FlexGripPlus_4.4 folder) and never copied into this project.
The file list and order are FlexGripPlus's own (lib_m/gpgpu_compile.tcl) without its testbench
(RTL/TB/...) and with its `pick_bench` package replaced by a generated one that sets only the
number of SPs (the one constant the design itself takes from it); our top level
hdl/flexgrip/fg_top.vhd is added. Flags as FLEXGRIPPLUS.md section 10: --std=08 -frelaxed
-fsynopsys; the run needs --max-stack-alloc=0 (mcode) or an unlimited stack (native back ends),
and the memories' .mif files in the run directory.
"""

from __future__ import annotations

import fcntl
import os
import re
import resource
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from golden.errors import FAILURE, UserError

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "flexgrip"
TOP = "fg_top"
WRAPPER = ROOT / "hdl" / "flexgrip" / "fg_top.vhd"
GHDL_FLAGS = ["--std=08", "-frelaxed", "-fsynopsys"]
CORES = (8, 16, 32)


class FlexgripMissing(UserError, RuntimeError):
    """No FlexGripPlus checkout or no GHDL: the reason, for a skip message or the one error line of a run."""


def flexgrip_dir() -> Path:
    """The FlexGripPlus_4.4 folder of the checkout named by FLEXGRIP_DIR."""
    base = Path(os.environ.get("FLEXGRIP_DIR") or ROOT.parent / "shared" / "flexgripplus")
    base = (base if base.is_absolute() else ROOT / base).resolve()  # a relative FLEXGRIP_DIR is from the project root
    for cand in (base, base / "FlexGripPlus_4.4"):
        if (cand / "lib_m" / "gpgpu_compile.tcl").is_file() and (cand / "RTL").is_dir():
            return cand
    what = "does not exist" if not base.exists() else "is not a FlexGripPlus checkout (no FlexGripPlus_4.4/lib_m/gpgpu_compile.tcl)"
    raise FlexgripMissing(f"FLEXGRIP_DIR={base} {what}: set FLEXGRIP_DIR to a clone of Jerc007/Open-GPGPU-FlexGrip- (default ../shared/flexgripplus)")


# FlexGripPlus kernel speed with cocotb's VPI (docs/measurements.md, "GHDL back ends"): llvm 1.4x mcode, gcc as
# llvm but slower to build. Debian's `ghdl` wrapper takes the back end from GHDL_BACKEND.
PREFERRED = ("llvm", "gcc", "mcode")


def chosen_backend() -> str | None:
    """GHDL_BACKEND when set, else the fastest back end installed (None: let `ghdl` choose)."""
    if os.environ.get("GHDL_BACKEND"):
        return os.environ["GHDL_BACKEND"]
    return next((b for b in PREFERRED if shutil.which(f"ghdl-{b}")), None)


@contextmanager
def backend_env() -> Iterator[None]:
    """GHDL_BACKEND set to `chosen_backend()` for the runner's subprocesses, restored afterwards
    (other GHDL users in the same process, tb/flexgrip_units, keep their own choice)."""
    old = os.environ.get("GHDL_BACKEND")
    choice = chosen_backend()
    if choice:
        os.environ["GHDL_BACKEND"] = choice
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("GHDL_BACKEND", None)
        else:
            os.environ["GHDL_BACKEND"] = old


def ghdl_backend(ghdl: str = "ghdl") -> str:
    """mcode, llvm or gcc: what `ghdl --version` says for the chosen back end."""
    if shutil.which(ghdl) is None:
        raise FlexgripMissing(f"simulator ghdl not found ({ghdl} is not on PATH; DUT=flexgrip runs under GHDL): run make setup, which installs it with apt-get", FAILURE)
    with backend_env():
        out = subprocess.run([ghdl, "--version"], capture_output=True, text=True, check=True).stdout
    for name in ("mcode", "llvm", "GCC"):
        if name in out:
            return name.lower()
    return "unknown"


def check_available() -> None:
    """Raise FlexgripMissing with the reason when FlexGripPlus cannot be simulated here."""
    flexgrip_dir()
    ghdl_backend()


def source_list(fg: Path) -> list[Path]:
    """FlexGripPlus's compile order from lib_m/gpgpu_compile.tcl, its testbench and pick_bench left out."""
    tcl = (fg / "lib_m" / "gpgpu_compile.tcl").read_text(encoding="utf-8", errors="replace")
    files = []
    for rel in re.findall(r'"\$GPGPU_GENERIC_ROOT/([^"]+\.vhd)"', tcl):
        if rel.startswith("TB/"):
            continue  # testbench, its configuration packages and the instruction ROMs
        path = fg / "RTL" / rel
        if not path.is_file():
            raise FlexgripMissing(f"{path} (listed in lib_m/gpgpu_compile.tcl) is missing")
        files.append(path)
    if not files:
        raise FlexgripMissing(f"no VHDL files found in {fg / 'lib_m' / 'gpgpu_compile.tcl'}")
    return files


def pick_bench(cores: int) -> str:
    """Our replacement of FlexGripPlus's pick_bench package: the number of SPs per SM."""
    if cores not in CORES:
        raise ValueError(f"FlexGripPlus runs 8, 16 or 32 SPs, not {cores}")
    return (
        "-- generated by tb/flexgrip_build.py: the SP count FlexGripPlus's gpgpu_package takes from pick_bench\n"
        "package pick_bench is\n"
        f"    constant BENCH_CORES      : integer := {cores};\n"
        f"    constant BENCH_WARP_LANES : integer := {32 // cores};\n"
        "end pick_bench;\n"
    )


def unlimited_stack() -> None:
    """Native GHDL back ends fill the 256 KiB memories on the stack at time 0 (FLEXGRIPPLUS.md 10)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    if soft != resource.RLIM_INFINITY and hard == resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, hard))


def run_args() -> list[str]:
    return ["--max-stack-alloc=0", "--ieee-asserts=disable"]


@cache
def build(cores: int = 8) -> Path:
    """Analyse and elaborate FlexGripPlus + fg_top for `cores` SPs; returns the build directory."""
    from cocotb_tools.runner import get_runner

    fg = flexgrip_dir()
    backend = ghdl_backend()
    build_dir = BUILD / f"sp{cores}_{backend}"
    build_dir.mkdir(parents=True, exist_ok=True)
    pb = build_dir / "fg_pick_bench.vhd"
    text = pick_bench(cores)
    if not pb.exists() or pb.read_text() != text:
        pb.write_text(text)
    args = GHDL_FLAGS + (["-O2"] if backend != "mcode" else [])
    sources = [pb, *source_list(fg), WRAPPER]
    # the runner re-analyses every file on each call (the native back ends then recompile them all):
    # an unchanged set of sources, flags and back end is built once
    stamp = "\n".join([backend, *args, *(f"{p} {p.stat().st_mtime_ns}" for p in sources)])
    done = build_dir / ".built"
    with open(build_dir.parent / f".{build_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists() or done.read_text() != stamp:
            done.unlink(missing_ok=True)
            with backend_env():
                get_runner("ghdl").build(sources=sources, hdl_toplevel=TOP, build_dir=build_dir, build_args=args, always=True)
            done.write_text(stamp)
    return build_dir


def prepare_run(build_dir: Path, test_dir: Path) -> None:
    """Native back ends run the elaborated executable from the current directory: link it there."""
    exe = build_dir / TOP.lower()
    if exe.is_file():
        link = test_dir / exe.name
        link.unlink(missing_ok=True)
        link.symlink_to(exe)
