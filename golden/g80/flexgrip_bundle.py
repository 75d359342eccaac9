"""FlexGripPlus kernel bundles (testdata/vectors/flexgrip_kernels) and `run-flexgrip`.

A bundle NAME.txt gives the launch, the kernel parameters (4-byte words at shared 0x10), the
constant memory words and the code; NAME.gmem.mif the input global memory (one hex byte a
line) and NAME.expected.log the memory after the run (`ADDR WORD` lines). The kernel runs under
the `flexgrip` profile and every word must match exactly; words the kernel computed with
floating-point or SFU instructions are counted apart in the report (a failure among them gives its
distance in ulp). A word the dump holds as `uuuuuuuu` (or with any U/X/Z/W/- digit: memory
FlexGripPlus never wrote, or a .mif line its reader could not parse) is undefined: it is not
compared, and the report counts and names it.

Undefined inputs stay undefined. FlexGripPlus reads its global image with VHDL's `hread` of one
byte a line (RTL/dp_ram.vhd, init_mem): a line that is not two hex digits (the one-character `0`
lines of some applications' .mif files) leaves that byte U. The model loads such a byte as 0 and
tracks undefinedness (golden/g80/sm.py, `track_undefined`): a value computed from an undefined source
(register, flags, address register, shared, local or global word) is undefined, a store of one makes the
memory word undefined, a defined value written over clears it. A dumped word the model holds as
undefined is not compared: the report counts the results computed from undefined input and the
input words they came from. A guard on undefined flags, or a store at an undefined address, stops
the run (`UndefinedControl`): which lanes execute, or which word changes, is unknown, and the
model does not guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..errors import UndefinedControl
from .memory import Memory
from .profile import FLEXGRIP, Profile
from .sm import SM
from .state import FLEXGRIP_SM, Launch, SMConfig

GLOBAL_BYTES = 256 * 1024  # FlexGripPlus: 18-bit global addresses
CONST_BYTES = 8 * 1024


@dataclass
class Bundle:
    name: str
    path: Path
    block: tuple[int, int, int]
    grid: tuple[int, int]
    registers: int
    shared: int
    blocks_per_core: int
    params: list[int]
    consts: list[int]
    cores: int = 8  # FlexGripPlus's SPs (the header's CORES(SPs)=n; its default 8 when absent)
    code: list[int] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)

    def files(self) -> tuple[Path, Path]:
        return self.path.with_suffix(".gmem.mif"), self.path.with_suffix(".expected.log")


def _nums(text: str) -> list[int]:
    return [int(x, 0) for x in re.findall(r"0x[0-9a-fA-F]+|\d+", text)]


def code_lines(words: list[int]) -> list[str]:
    """A kernel's instruction words as a bundle's code lines (`PC: WORD [WORD]`, the format
    load_bundle reads): a word with bit 0 set starts a 64-bit instruction."""
    lines, pc, i = [], 0, 0
    while i < len(words):
        if words[i] & 1 and i + 1 < len(words):
            lines.append(f"{pc:04x}: {words[i]:08x} {words[i + 1]:08x}")
            pc, i = pc + 8, i + 2
        else:
            lines.append(f"{pc:04x}: {words[i]:08x}")
            pc, i = pc + 4, i + 1
    return lines


def load_bundle(path: str | Path) -> Bundle:
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = "\n".join(line for line in lines if line.startswith("#"))
    m = re.search(r"blockDim=\((\d+),(\d+),(\d+)\)\s+gridDim=\((\d+),(\d+)\)\s+regs/thread\S*=(\d+)\s+shmem_size=(\d+)\s+blocks_per_core=(\d+)", header)
    if not m:
        raise ValueError(f"{path}: no launch line (blockDim=(..) gridDim=(..) regs/thread=.. shmem_size=.. blocks_per_core=..)")
    bx, by, bz, gx, gy, regs, shmem, bpc = (int(x) for x in m.groups())
    # parameters and constant words come only from their own header lines, not from notes quoting them
    param_lines = [line for line in lines if re.match(r"#\s+p0=0x", line)]
    const_lines = [line for line in lines if re.match(r"#\s+c\[0\]=0x", line)]
    params = [int(v, 16) for line in param_lines[:1] for v in re.findall(r"\bp\d+=0x([0-9a-fA-F]+)", line)]
    consts = [int(v, 16) for line in const_lines[:1] for _, v in sorted((int(k), v) for k, v in re.findall(r"\bc\[(\d+)\]=0x([0-9a-fA-F]+)", line))]
    sp = re.search(r"CORES\(SPs\)=(\d+)", header)
    bundle = Bundle(path.stem, path, (bx, by, bz), (gx, gy), regs, shmem, bpc, params, consts, int(sp.group(1)) if sp else 8)
    expect = 0
    for number, line in enumerate(lines, 1):
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"\s*([0-9a-fA-F]+):\s+([0-9a-fA-F]{8})(?:\s+([0-9a-fA-F]{8}))?\s*(?:;(.*))?$", line)
        if not m:
            raise ValueError(f"{path}:{number}: expected 'pc: word0 [word1] ; text', got {line!r}")
        pc = int(m.group(1), 16)
        if pc < expect:
            break  # a second listing of the same code (annotated copy) follows
        if pc != expect:
            raise ValueError(f"{path}:{number}: instruction at {pc:#x}, expected {expect:#x}")
        words = [int(m.group(2), 16)] + ([int(m.group(3), 16)] if m.group(3) else [])
        bundle.code.extend(words)
        bundle.texts[pc] = (m.group(4) or "").strip()
        expect = pc + 4 * len(words)
    if not bundle.code:
        raise ValueError(f"{path}: no code")
    return bundle


def read_mif(path: Path) -> bytes:
    return read_mif_defined(path)[0]


_MIF_BYTE = re.compile(r"[0-9a-fA-F]{2}")


def read_mif_defined(path: Path) -> tuple[bytes, np.ndarray]:
    """The image of a .mif file (one byte a line) and, per byte, whether FlexGripPlus leaves it
    undefined: its `hread` of an 8-bit vector needs two hex digits, so any other line (`0`) leaves
    the byte U. Such a byte reads as 0 here; a line that is not hex at all is an error."""
    values, undefined = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text:
            continue
        if not re.fullmatch(r"[0-9a-fA-F]+", text):
            raise ValueError(f"{path}:{number}: expected a byte in hex, got {line!r}")
        defined = bool(_MIF_BYTE.fullmatch(text))
        values.append(int(text, 16) if defined else 0)
        undefined.append(not defined)
    return bytes(values), np.array(undefined, bool)


UNDEFINED = None
"""read_expected's value for a word with U/X/Z/W/- digits (VHDL std_logic metavalues)."""

_METAVALUE = re.compile(r"^[0-9a-fA-FuUxXzZwW-]{8}$")


def read_expected(path: Path) -> dict[int, int | None]:
    """`ADDR WORD` lines; a word with metavalue digits (`uuuuuuuu`) reads as UNDEFINED."""
    out: dict[int, int | None] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2 or not re.fullmatch(r"[0-9a-fA-F]+", parts[0]) or not _METAVALUE.match(parts[1]):
            raise ValueError(f"{path}:{number}: expected 'ADDR WORD' (8 hex or U/X digits), got {line!r}")
        addr = int(parts[0], 16)
        out[addr] = int(parts[1], 16) if re.fullmatch(r"[0-9a-fA-F]{8}", parts[1]) else UNDEFINED
    return out


@dataclass
class WordResult:
    addr: int
    expected: int
    got: int
    is_float: bool

    @property
    def ulps(self) -> int:
        def ordered(x: int) -> int:
            return 0x80000000 - (x & 0x7FFFFFFF) if x & 0x80000000 else x + 0x80000000

        return abs(ordered(self.expected) - ordered(self.got))


@dataclass
class BundleResult:
    bundle: Bundle
    int_passed: int
    int_failed: list[WordResult]
    float_passed: int
    float_failed: list[WordResult]
    warp_instructions: int
    undefined: list[int] = field(default_factory=list)  # addresses of U/X words in the dump, not compared
    undefined_inputs: int = 0  # words of the input image with a byte FlexGripPlus leaves U
    undefined_results: list[int] = field(default_factory=list)  # dumped words the kernel computed from undefined input: not compared
    undefined_kept: list[int] = field(default_factory=list)  # dumped words still holding undefined input, defined in the dump: not compared
    undefined_control: str = ""  # why the model stopped (UndefinedControl): nothing compared then


def run_bundle(path: str | Path, profile: Profile = FLEXGRIP) -> BundleResult:
    bundle = load_bundle(path)
    mif, expected_path = bundle.files()
    image, undefined_bytes = read_mif_defined(mif)
    gmem = Memory("global", GLOBAL_BYTES, image)
    cmem = Memory("constant", CONST_BYTES, np.array(bundle.consts, np.uint32).tobytes())
    params = np.array(bundle.params, np.uint32).tobytes()
    # FlexGripPlus copies the kernel parameters in front of the user shared data (FLEXGRIPPLUS.md 1.1)
    launch = Launch(bundle.grid, bundle.block, max(1, min(bundle.registers, 128)), max(0, bundle.shared - len(params)), params)
    config = SMConfig(registers=FLEXGRIP_SM.registers, max_warps=FLEXGRIP_SM.max_warps, max_blocks=max(1, bundle.blocks_per_core),
                      stack_depth=FLEXGRIP_SM.stack_depth, max_threads=FLEXGRIP_SM.max_threads)  # fmt: skip
    if profile.fpu_sync_lanes:  # FlexGripPlus's FPUs run the bundle's SP count of lanes together
        profile = replace(profile, fpu_sync_lanes=bundle.cores)
    sm = SM(bundle.code, launch, gmem, {0: cmem}, profile, config)
    sm.track_floats = True
    sm.track_undefined_global(undefined_bytes)
    inputs = int(np.pad(undefined_bytes, (0, -undefined_bytes.size % 4)).reshape(-1, 4).any(axis=1).sum())
    expected = read_expected(expected_path)
    undefined = sorted(a for a, w in expected.items() if w is UNDEFINED)
    try:
        steps = sm.run()
    except UndefinedControl as exc:
        return BundleResult(bundle, 0, [], 0, [], sm.steps, undefined, inputs, undefined_control=str(exc))
    assert sm.gundef is not None and sm.gstored is not None
    addrs = np.array(sorted(a for a, w in expected.items() if w is not UNDEFINED), np.int64)
    got = gmem.load(addrs, 4) if len(addrs) else np.zeros(0, np.uint32)
    inside = addrs[(addrs >= 0) & (addrs + 4 <= GLOBAL_BYTES)]  # a dump word outside memory: the load above reports it
    unknown = sm.gundef[inside[:, None] + np.arange(4)].any(axis=1)
    stored = sm.gstored[inside[:, None] + np.arange(4)].any(axis=1)
    results, kept = set(inside[unknown & stored].tolist()), set(inside[unknown & ~stored].tolist())
    int_ok, float_ok, int_bad, float_bad = 0, 0, [], []
    for addr, value in zip(addrs.tolist(), got.tolist(), strict=True):
        if addr in results or addr in kept:
            continue
        want = expected[addr]
        assert want is not None
        r = WordResult(addr, want, value, addr in sm.float_words)
        if r.expected == r.got:
            if r.is_float:
                float_ok += 1
            else:
                int_ok += 1
        elif r.is_float:
            float_bad.append(r)
        else:
            int_bad.append(r)
    return BundleResult(bundle, int_ok, int_bad, float_ok, float_bad, steps, undefined, inputs, sorted(results), sorted(kept))


def dump_on_dut(path: str | Path, dut_global: bytes) -> tuple[int, int, list[WordResult]]:
    """A bundle's expected dump (NAME.expected.log, itself a FlexGripPlus run's memory) against the
    global memory FlexGripPlus left in a lock-step run: (words that match, words compared,
    mismatches). Words the dump holds as U/X are not compared; a dump word past the memory read
    back is a mismatch against 0."""
    expected = read_expected(load_bundle(path).files()[1])
    data = np.frombuffer(bytes(dut_global) + b"\0" * (-len(dut_global) % 4), "<u4")
    bad, total = [], 0
    for addr, want in sorted(expected.items()):
        if want is UNDEFINED:
            continue
        total += 1
        got = int(data[addr // 4]) if addr % 4 == 0 and addr // 4 < data.size else 0
        if got != want:
            bad.append(WordResult(addr, want, got, False))
    return total - len(bad), total, bad
