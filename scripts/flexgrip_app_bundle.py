"""Make a run-flexgrip bundle from a FlexGripPlus application folder.

    python scripts/flexgrip_app_bundle.py APP_DIR NAME -o OUT_DIR [--expected DUMP]

APP_DIR is one of FlexGripPlus's `applications/...` folders: `pick_bench.vhd` (launch, kernel
parameters BENCH_KREGn, constant-memory bytes BENCH_CMEMREGn; constants it lacks read as 0, as
FLEXGRIPPLUS.md section 7 does), `TP_instructions.vhd` (the code, one 32-bit word per `when n =>`
line, low word first; a word with bit 0 set starts a 64-bit instruction), `global_mem.mif` (the
input image, one hex byte a line) and a memory dump (`ADDR WORD` lines, by default the folder's
`gpgpu_rdata.log`, the authors' ModelSim dump; --expected names another, e.g. a GHDL run's).
Writes OUT_DIR/NAME.txt, NAME.gmem.mif and NAME.expected.log in the format of
../shared/vectors/flexgrip_kernels, which `python -m golden run-flexgrip` reads.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

from golden.g80.flexgrip_bundle import code_lines


def _constants(text: str) -> dict[str, int]:
    """pick_bench's `constant NAME : std_logic_vector(...) := x"..." | "0101" | std_logic_vector(to_unsigned(N, W))`."""
    text = re.sub(r"--[^\n]*", "", text)
    out: dict[str, int] = {}
    for name, value in re.findall(r"constant\s+(\w+)\s*:\s*[^:;]*:=\s*([^;]+);", text):
        value = value.strip()
        if m := re.fullmatch(r'[xX]"([0-9a-fA-F_]+)"', value):
            out[name] = int(m.group(1).replace("_", ""), 16)
        elif m := re.fullmatch(r'"([01_]+)"', value):
            out[name] = int(m.group(1).replace("_", ""), 2)
        elif (m := re.fullmatch(r"std_logic_vector\s*\(\s*to_unsigned\s*\(\s*(\d+)\s*,\s*\d+\s*\)\s*\)", value)) or (m := re.fullmatch(r"(\d+)", value)):
            out[name] = int(m.group(1))
    return out


def _code(path: Path) -> list[int]:
    words: dict[int, int] = {}
    for n, w in re.findall(r'when\s+(\d+)\s*=>\s*instruction_out\s*<=\s*[xX]"([0-9a-fA-F]{8})"', re.sub(r"--[^\n]*", "", path.read_text())):
        words[int(n)] = int(w, 16)
    if not words or sorted(words) != list(range(len(words))):
        raise ValueError(f"{path}: instruction words are not numbered 0..n-1")
    return [words[i] for i in range(len(words))]


def make_bundle(app: Path, name: str, out: Path, expected: Path | None = None) -> Path:
    k = _constants((app / "pick_bench.vhd").read_text(encoding="latin-1"))
    need = ("BENCH_K_BLKX", "BENCH_K_BLKY", "BENCH_K_BLKZ", "BENCH_K_GRDX", "BENCH_K_GRDY", "BENCH_KERNEL_PARAM_SIZE",
            "BENCH_KERNEL_GPRS", "BENCH_KERNEL_SHMEM_SIZE", "BENCH_BLOCKS_PER_CORE", "BENCH_CMEM_PARAM_SIZE")  # fmt: skip
    missing = [n for n in need if n not in k]
    if missing:
        raise ValueError(f"{app / 'pick_bench.vhd'}: no constant {', '.join(missing)}")
    params = [k.get(f"BENCH_KREG{i}", 0) for i in range(k["BENCH_KERNEL_PARAM_SIZE"])]
    cbytes = [k.get(f"BENCH_CMEMREG{i}", 0) for i in range(k["BENCH_CMEM_PARAM_SIZE"])]
    consts = [int.from_bytes(bytes(cbytes[i:i + 4]).ljust(4, b"\0"), "little") for i in range(0, len(cbytes), 4)]
    code = _code(app / "TP_instructions.vhd")
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# FlexGripPlus kernel: {name}",
        f"# source: {app} (pick_bench.vhd, TP_instructions.vhd, global_mem.mif), made by scripts/flexgrip_app_bundle.py",
        f"# launch: CORES(SPs)={k.get('BENCH_CORES', 8)} blockDim=({k['BENCH_K_BLKX']},{k['BENCH_K_BLKY']},{k['BENCH_K_BLKZ']}) "
        f"gridDim=({k['BENCH_K_GRDX']},{k['BENCH_K_GRDY']}) regs/thread(BENCH_KERNEL_GPRS)={k['BENCH_KERNEL_GPRS']} "
        f"shmem_size={k['BENCH_KERNEL_SHMEM_SIZE']} blocks_per_core={k['BENCH_BLOCKS_PER_CORE']}",
        "# kernel params:",
        "#   " + " ".join(f"p{i}=0x{p:08x}" for i, p in enumerate(params)),
        "# constant memory:",
        "#   " + " ".join(f"c[{i}]=0x{c:08x}" for i, c in enumerate(consts)),
        f"# expected: {expected or app / 'gpgpu_rdata.log'}",
    ]  # fmt: skip
    lines += code_lines(code)
    path = out / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n")
    shutil.copy(app / "global_mem.mif", out / f"{name}.gmem.mif")
    shutil.copy(expected or app / "gpgpu_rdata.log", out / f"{name}.expected.log")
    return path


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("app", type=Path)
    ap.add_argument("name")
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--expected", type=Path, help="memory dump to expect (default APP/gpgpu_rdata.log)")
    return ap


def main() -> int:
    ap = _parser()
    args = ap.parse_args()
    try:
        print(make_bundle(args.app, args.name, args.out, args.expected))
    except (OSError, ValueError) as e:
        print(f"flexgrip_app_bundle: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
