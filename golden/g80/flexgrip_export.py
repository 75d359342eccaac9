"""A program (programs/*.sass with directives) or a FlexGripPlus kernel bundle as FlexGripPlus loads it,
and `flexgrip-export`: the files FlexGripPlus's own ModelSim testbench reads.

FlexGripPlus's testbench (FLEXGRIPPLUS.md sections 7-8) downloads the instruction words of
`TP_instructions.vhd` (one 32-bit word per `when n =>` line, word0 first), writes the launch into
its configuration registers (0 blocks per core, 1 registers per thread, 2 shared bytes, 3 number
of parameter words, 4 dynamic shared bytes, 5-7 block x/y/z, 8-9 grid x/y, 0x20+i parameter
word i) from the constants of `pick_bench.vhd`, copies BENCH_CMEM_PARAM_SIZE constant bytes
(BENCH_CMEMREG0..15) into constant memory, and runs with `global_mem.mif` (one hex byte a line)
as the global memory image; the constant and instruction memories read `constant_mem.mif` and
`system_mem.mif` at time 0. Its testbench has room for 16 constant bytes and 15 parameter words;
larger constant images go to `constant_mem.mif` (FlexGripPlus's constant memory is one flat
8 KiB space: the bank of c[bank][off] is ignored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .decoder import IllegalInstruction, decode_program
from .flexgrip_bundle import CONST_BYTES, GLOBAL_BYTES, load_bundle, read_mif
from .memory import Memory
from .profile import FLEXGRIP, Profile
from .program import load_program
from .run import build, code_words
from .sm import SM
from .state import FLEXGRIP_SM, Launch, SMConfig

TB_CONST_BYTES = 16  # BENCH_CMEMREG0..15
TB_PARAM_WORDS = 15  # BENCH_KERNEL_PARAM_SIZE is 4 bits
MAX_THREADS = 1024  # 32 warps of 32 threads on the one SM


class NotRunnable(ValueError):
    """A program FlexGripPlus cannot run as given (the reason names what does not fit)."""


# Instruction forms FlexGripPlus 4.4 does not implement (FLEXGRIPPLUS.md sections 2, 3 and 6): its
# decoder makes them no-ops or something else, so a program using one cannot be checked on it.
NOT_IMPLEMENTED = {
    "FMIN": "FMIN/FMAX/FSLCT are not implemented", "FMAX": "FMIN/FMAX/FSLCT are not implemented",
    "FSLCT": "FMIN/FMAX/FSLCT are not implemented", "ISAD": "SAD is not implemented", "ISAD32": "SAD is not implemented",
    "LLD": "local memory is not implemented ('LST, not working')", "LST": "local memory is not implemented ('LST, not working')",
    "S2R": "there are no special registers (no S2R)", "TRAP": "TRAP is not implemented", "TRAP32": "TRAP is not implemented",
    "PMEVENT": "PMEVENT is not implemented",
}  # fmt: skip


def unimplemented(words: list[int], where: object) -> None:
    """NotRunnable naming the first instruction FlexGripPlus does not implement."""
    try:
        insns = decode_program(words)
    except IllegalInstruction:
        return  # the lock-step reports an illegal word where it is fetched
    for insn in insns:
        why = NOT_IMPLEMENTED.get(insn.form.name)
        if why:
            raise NotRunnable(f"{where}: {insn.text} at {insn.addr or 0:#06x}: in FlexGripPlus 4.4 {why} (FLEXGRIPPLUS.md 6)")


@dataclass
class FlexgripImage:
    name: str
    words: list[int]
    config: list[tuple[int, int]]  # (configuration register, value) in the testbench's order
    cmem: bytes  # flat constant memory from byte 0
    gmem: Memory  # the model's global memory (the image before the run is `initial`)
    initial: bytes
    model: SM
    cores: int
    readback: int  # global bytes compared at the end
    params: list[int] = field(default_factory=list)
    block: tuple[int, int, int] = (32, 1, 1)
    grid: tuple[int, int] = (1, 1)
    registers: int = 16
    shared: int = 0
    blocks_per_core: int = 8


def _config(image_params: list[int], block: tuple[int, int, int], grid: tuple[int, int], registers: int, shared: int, bpc: int) -> list[tuple[int, int]]:
    cfg = [(3, len(image_params))]
    cfg += [(0x20 + i, p) for i, p in enumerate(image_params)]
    cfg += [(5, block[0]), (6, block[1]), (7, block[2]), (8, grid[0]), (9, grid[1]), (1, registers), (2, shared), (0, bpc), (4, 0)]
    return cfg


def flexgrip_image(path: str | Path, profile: Profile = FLEXGRIP, cores: int | None = None) -> FlexgripImage:
    """Load a program (.sass) or a bundle (.txt of testdata/vectors/flexgrip_kernels) for FlexGripPlus;
    `cores` overrides the bundle's SP count (programs default to 8, FlexGripPlus's default)."""
    path = Path(path)
    if path.suffix == ".txt":
        return _bundle_image(path, profile, cores)
    spec = load_program(path)
    if spec.global_size > GLOBAL_BYTES:
        raise NotRunnable(f"{path}: {spec.global_size} bytes of global memory, FlexGripPlus has {GLOBAL_BYTES}")
    threads = spec.block[0] * spec.block[1] * spec.block[2]
    if threads > MAX_THREADS:
        raise NotRunnable(f"{path}: {threads} threads per block, FlexGripPlus runs at most {MAX_THREADS}")
    params = spec.param_bytes(profile.param_slot_bytes_pointer)
    words = [int(w) for w in np.frombuffer(params + b"\0" * (-len(params) % 4), "<u4")]
    cmem = bytearray()
    owner: dict[int, int] = {}
    for bank, offset, data in spec.consts:
        for k in range(len(data)):
            if owner.get(offset + k, bank) != bank:
                raise NotRunnable(f"{path}: constant banks {owner[offset + k]} and {bank} both use byte {offset + k:#x}; FlexGripPlus's constant memory is one flat space")
            owner[offset + k] = bank
        if offset + len(data) > CONST_BYTES:
            raise NotRunnable(f"{path}: constant bytes up to {offset + len(data):#x}, FlexGripPlus has {CONST_BYTES}")
        cmem.extend(b"\0" * max(0, offset + len(data) - len(cmem)))
        cmem[offset : offset + len(data)] = data
    words_code = code_words(spec, profile)
    unimplemented(words_code, path)
    _, gmem = build(spec, profile)
    banks = {0: Memory("constant", CONST_BYTES, bytes(cmem))}
    launch = Launch(spec.grid, spec.block, spec.registers, spec.shared, spec.param_bytes(profile.param_slot_bytes_pointer))
    model = SM(words_code, launch, gmem, banks, profile, FLEXGRIP_SM, max_steps=spec.max_steps)
    bpc = min(8, model.per_round)
    image = FlexgripImage(path.stem, words_code, _config(words, spec.block, spec.grid, spec.registers, spec.shared, bpc), bytes(cmem),
                          gmem, bytes(gmem.data), model, cores or 8, spec.global_size, words, spec.block, spec.grid, spec.registers, spec.shared,
                          bpc)  # fmt: skip
    return image


def _bundle_image(path: Path, profile: Profile, cores: int | None) -> FlexgripImage:
    b = load_bundle(path)
    unimplemented(list(b.code), path)
    sp = cores or b.cores
    data = read_mif(b.files()[0])
    gmem = Memory("global", GLOBAL_BYTES, data)
    cmem = np.array(b.consts, np.uint32).tobytes()
    params = np.array(b.params, np.uint32).tobytes()
    registers = max(1, min(b.registers, 128))
    shared = max(0, b.shared - len(params))  # FlexGripPlus puts the parameters in front of the user shared data
    config = SMConfig(registers=FLEXGRIP_SM.registers, max_warps=FLEXGRIP_SM.max_warps, max_blocks=max(1, b.blocks_per_core),
                      stack_depth=FLEXGRIP_SM.stack_depth, max_threads=FLEXGRIP_SM.max_threads)  # fmt: skip
    model = SM(b.code, Launch(b.grid, b.block, registers, shared, params), gmem, {0: Memory("constant", CONST_BYTES, cmem)}, profile, config)
    expected = b.files()[1]
    readback = len(data)
    if expected.exists():
        addrs = [int(line.split()[0], 16) for line in expected.read_text(encoding="utf-8").splitlines() if line.strip()]
        readback = max(readback, max(addrs) + 4 if addrs else 0)
    # the bundle's launch as its pick_bench gives it: shared bytes and register count as shipped
    cfg = _config(list(b.params), b.block, b.grid, b.registers, b.shared, max(1, b.blocks_per_core))
    return FlexgripImage(b.name, list(b.code), cfg, cmem, gmem, bytes(gmem.data), model, sp, readback, list(b.params), b.block, b.grid, b.registers,
                         b.shared, max(1, b.blocks_per_core))  # fmt: skip


# -- the files of FlexGripPlus's testbench -----------------------------------------------------------


def mif(data: bytes) -> str:
    """One hex byte a line, byte address = line index (dp_ram's init_mem)."""
    return "".join(f"{b:02x}\n" for b in data)


def tp_instructions(words: list[int]) -> str:
    """TP_instructions.vhd: the instruction ROM FlexGripPlus's write_instructions downloads, with the
    disassembly of each instruction on its first word (the shipped applications' layout)."""
    texts: dict[int, str] = {}
    try:
        for insn in decode_program(words):
            texts[(insn.addr or 0) // 4] = insn.text
    except IllegalInstruction:  # words the decoder refuses are still downloaded, without comments
        texts = {}
    lines = []
    for i, w in enumerate(words):
        comment = f"   -- {texts[i]}" if texts.get(i) else ""
        lines.append(f"\t\t\twhen {i} => instruction_out <= x\"{w:08x}\";{comment}\n")
    return (
        "-- generated by `python -m golden flexgrip-export` (G80 SM_1.0 verification project)\n"
        "library IEEE;\nuse IEEE.std_logic_1164.all;\nuse IEEE.numeric_std.all;\n\n"
        "entity TP_instructions is\n\tport(\n\t\tinstruction_pointer_in : in  integer;\n"
        "\t\tnum_instructions_out   : out integer;\n\t\tinstruction_out        : out std_logic_vector(31 downto 0)\n\t);\n"
        "end TP_instructions;\n\n"
        "architecture arch of TP_instructions is\n"
        f"\tconstant TP_INSTRUCTIONS : integer := {len(words)};\n\n"
        "begin\n\tnum_instructions_out <= TP_INSTRUCTIONS;\n\n"
        "\tprocess(instruction_pointer_in)\n\tbegin\n\t\tcase instruction_pointer_in is\n"
        + "".join(lines)
        + "\t\t\twhen others => instruction_out <= (others => '0');\n\t\tend case;\n\tend process;\n\nend arch;\n"
    )


def _bits(value: int, width: int) -> str:
    return format(value & ((1 << width) - 1), f"0{width}b")


def pick_bench(image: FlexgripImage) -> str:
    """pick_bench.vhd with every constant FlexGripPlus 4.4's RTL/TB/TP/TP_configuration.vhd reads."""
    if len(image.params) > TB_PARAM_WORDS:
        raise NotRunnable(f"{image.name}: {len(image.params)} parameter words; FlexGripPlus's testbench passes at most {TB_PARAM_WORDS}")
    cm = image.cmem[:TB_CONST_BYTES].ljust(TB_CONST_BYTES, b"\0")
    kreg = image.params + [0] * (16 - len(image.params))
    lines = [
        "-- generated by `python -m golden flexgrip-export` (G80 SM_1.0 verification project)",
        "library IEEE;", "use IEEE.STD_LOGIC_1164.ALL;", "use IEEE.numeric_std.all;", "", "package pick_bench is", "",
        "    type cmem_regs_type   is array (63 downto 0) of std_logic_vector(7 downto 0);",
        "    type kernel_regs_type is array (15 downto 0) of std_logic_vector(31 downto 0);", "",
        f"    constant BENCH_CORES      : integer := {image.cores};",
        f"    constant BENCH_WARP_LANES : integer := {32 // image.cores};", "",
        '    constant BENCH_APP      : string := "TP";', '    constant BENCH_APP_INST : string := "TP";', "",
        f'    constant BENCH_K_BLKX : std_logic_vector(15 downto 0) := x"{image.block[0]:04x}";',
        f'    constant BENCH_K_BLKY : std_logic_vector(15 downto 0) := x"{image.block[1]:04x}";',
        f'    constant BENCH_K_BLKZ : std_logic_vector(15 downto 0) := x"{image.block[2]:04x}";',
        f'    constant BENCH_K_GRDX : std_logic_vector(15 downto 0) := x"{image.grid[0]:04x}";',
        f'    constant BENCH_K_GRDY : std_logic_vector(15 downto 0) := x"{image.grid[1]:04x}";', "",
        f'    constant BENCH_CMEM_PARAM_SIZE   : std_logic_vector(5 downto 0)  := "{_bits(TB_CONST_BYTES if image.cmem else 0, 6)}";',
        f'    constant BENCH_KERNEL_PARAM_SIZE : std_logic_vector(3 downto 0)  := x"{len(image.params):x}";',
        f'    constant BENCH_KERNEL_GPRS       : std_logic_vector(8 downto 0)  := "{_bits(image.registers, 9)}"; -- {image.registers}',
        f'    constant BENCH_KERNEL_SHMEM_SIZE : std_logic_vector(31 downto 0) := x"{image.shared:08x}"; -- {image.shared}',
        f'    constant BENCH_BLOCKS_PER_CORE   : std_logic_vector(3 downto 0)  := x"{image.blocks_per_core:x}";',
        '    constant BENCH_DYN_SHMEM_SIZE    : std_logic_vector(31 downto 0) := x"00000000";', "",
    ]
    lines += [f'    constant BENCH_KREG{i} : std_logic_vector(31 downto 0) := x"{v:08x}";' for i, v in enumerate(kreg)]
    lines += [f'    constant BENCH_CMEMREG{i} : std_logic_vector(7 downto 0) := x"{v:02x}";' for i, v in enumerate(cm)]
    cm64 = list(cm) + [0] * (64 - TB_CONST_BYTES)
    lines += ["", "    constant cmem_regs_default : cmem_regs_type := ("]
    lines += ["        " + ", ".join(f'x"{cm64[j]:02x}"' for j in range(i + 3, i - 1, -1)) + ("," if i else ");") + f"  -- {i}" for i in range(60, -1, -4)]
    lines += ["    constant kernel_regs_default : kernel_regs_type := ("]
    lines += ["        " + ", ".join(f'x"{kreg[j]:08x}"' for j in range(i + 3, i - 1, -1)) + ("," if i else ");") + f"  -- {i}" for i in range(12, -1, -4)]
    # the testbench dumps READ_DATA_SIZE + 1 words of global memory from byte 0
    lines += ["", f"    constant READ_DATA_SIZE : std_logic_vector(17 downto 0) := std_logic_vector(to_unsigned({max(1, -(-image.readback // 4)) - 1}, 18));",
              "", "end pick_bench;", ""]  # fmt: skip
    return "\n".join(lines)


def export(path: str | Path, out: str | Path, cores: int | None = None) -> list[Path]:
    """Write TP_instructions.vhd, pick_bench.vhd and the .mif images for `path` into `out`."""
    image = flexgrip_image(path, FLEXGRIP, cores)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "TP_instructions.vhd": tp_instructions(image.words),
        "pick_bench.vhd": pick_bench(image),
        "global_mem.mif": mif(image.initial[: max(image.readback, 4)]),
        "constant_mem.mif": mif(image.cmem),
        "system_mem.mif": "",
        "dummy.mif": "",
    }
    written = []
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written
