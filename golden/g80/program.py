"""Programs of programs/*.sass: SASS text plus directives for the launch and for checking.

Directives (one a line; see docs/reference/program-format.md, "Directives"):
    .grid X [Y]                      .block X [Y [Z]]          .registers N      .shared BYTES
    .buffer NAME TYPE COUNT [= INIT] global memory, 256-byte aligned; INIT: v1 v2 ... | range(a, b[, step])
                                     | random(seed[, lo, hi]) | file PATH (raw little-endian) ; default zeros
    .param NAME | .param TYPE VALUE   kernel parameters in order (a buffer's address, or a scalar)
    .const BANK OFFSET TYPE v1 v2 ... constant memory (bank 0..15, byte offset)
    .expect NAME = EXPR               after the run, buffer NAME must equal the numpy expression EXPR,
                                      evaluated with np, the buffers' initial contents, grid, block,
                                      nthreads and range/len/min/max/sum/abs/int/float/reduce
    .expect NAME TYPE v1 v2 ...       ... or these values (the first elements of the buffer)
    .expect NAME ulp=N [atol=X] = EXPR  f32 buffers: each element within N ulp, or within X of the value
    .global_size BYTES   .max_steps N   .explicit_exit
TYPE is u8 s8 u16 s16 u32 s32 f32. The expectations are computed independently of the model.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .assembler import AsmError, Line, Program, assemble

DTYPES = {"u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32, "s32": np.int32, "f32": np.float32}
BUFFER_BASE = 0x100
ALIGN = 0x100


@dataclass
class Buffer:
    name: str
    dtype: str
    count: int
    init: np.ndarray
    addr: int = 0

    @property
    def nbytes(self) -> int:
        return self.count * np.dtype(DTYPES[self.dtype]).itemsize


@dataclass
class Expectation:
    buffer: str
    line: Line
    expr: str | None = None
    values: np.ndarray | None = None
    ulp: int = 0  # float buffers: allowed distance in units in the last place
    atol: float = 0.0  # float buffers: ... or allowed absolute difference (results near zero after cancellation)


@dataclass
class KernelSpec:
    path: str
    program: Program
    grid: tuple[int, int] = (1, 1)
    block: tuple[int, int, int] = (32, 1, 1)
    registers: int = 16
    shared: int = 0
    buffers: dict[str, Buffer] = field(default_factory=dict)
    params: list[tuple[str, object]] = field(default_factory=list)  # ("buffer", name) | (type, value)
    consts: list[tuple[int, int, bytes]] = field(default_factory=list)
    expects: list[Expectation] = field(default_factory=list)
    global_size: int = 0
    max_steps: int = 2_000_000

    def param_bytes(self, pointer_size: int) -> bytes:
        """The parameter area: naturally aligned, pointers `pointer_size` bytes (DESIGN.md 3)."""
        out = b""
        for kind, value in self.params:
            if kind == "buffer":
                size = pointer_size
                data = self.buffers[str(value)].addr.to_bytes(size, "little")
            else:
                size = 4
                data = np.array([value], DTYPES[kind]).tobytes()
            out += b"\0" * (-len(out) % size) + data
        return out


def _values(text: str, dtype: str, count: int | None, line: Line) -> np.ndarray:
    t = text.strip()
    np_type = DTYPES[dtype]
    m = re.fullmatch(r"range\((.*)\)", t)
    if m:
        args = [int(x, 0) for x in m.group(1).split(",")]
        return np.arange(*args).astype(np_type)
    m = re.fullmatch(r"random\((.*)\)", t)
    if m:
        args = [float(x) if dtype == "f32" else int(x, 0) for x in m.group(1).split(",")]
        rng = np.random.default_rng(int(args[0]))
        n = count or 1
        if dtype == "f32":
            lo, hi = (args[1], args[2]) if len(args) > 2 else (-1.0, 1.0)
            return rng.uniform(lo, hi, n).astype(np.float32)
        info = np.iinfo(np_type)
        lo, hi = (int(args[1]), int(args[2])) if len(args) > 2 else (info.min, info.max)
        return rng.integers(lo, hi, n, endpoint=True, dtype=np.int64).astype(np_type)
    m = re.fullmatch(r"file\s+(\S+)", t)
    if m:
        path = Path(line.file).parent / m.group(1)
        return np.frombuffer(path.read_bytes(), np_type).copy()
    out = []
    for tok in t.replace(",", " ").split():
        if dtype == "f32":
            out.append(struct.unpack("<f", struct.pack("<I", int(tok, 16)))[0] if tok.lower().startswith("0x") else float(tok))
        else:
            out.append(int(tok, 0))
    return np.array(out, dtype=np.int64 if dtype != "f32" else np.float32).astype(np_type)


def load_program(path: str | Path, base: int = 0) -> KernelSpec:
    """Assemble a program file and read its directives. Raises AsmError naming file and line."""
    path = Path(path)
    source = path.read_text(encoding="utf-8")
    pending: list[tuple[str, str, Line]] = []

    def collect(name: str):
        return lambda args, line: pending.append((name, args, line))

    names = ["grid", "block", "registers", "shared", "buffer", "param", "const", "expect", "global_size", "max_steps"]
    program = assemble(source, str(path), base=base, directives={n: collect(n) for n in names})
    spec = KernelSpec(str(path), program)
    for name, args, line in pending:
        try:
            _directive(spec, name, args, line)
        except AsmError:
            raise
        except (ValueError, KeyError, OSError, IndexError) as e:
            raise AsmError(f".{name}: {e}", line.file, line.number, line.col + 1, line.source) from None
    addr = BUFFER_BASE
    for buf in spec.buffers.values():
        buf.addr = addr
        addr += -(-buf.nbytes // ALIGN) * ALIGN
    spec.global_size = max(spec.global_size, addr)
    return spec


def _ints(args: str, n_min: int, n_max: int, what: str) -> list[int]:
    values = [int(x, 0) for x in args.replace(",", " ").split()]
    if not n_min <= len(values) <= n_max:
        raise ValueError(f"expected {what}")
    return values


def _directive(spec: KernelSpec, name: str, args: str, line: Line) -> None:
    if name == "grid":
        v = _ints(args, 1, 2, "1 or 2 numbers")
        spec.grid = (v[0], v[1] if len(v) > 1 else 1)
    elif name == "block":
        v = [*_ints(args, 1, 3, "1 to 3 numbers"), 1, 1]
        spec.block = (v[0], v[1], v[2])
    elif name == "registers":
        spec.registers = _ints(args, 1, 1, "a number")[0]
    elif name == "shared":
        spec.shared = _ints(args, 1, 1, "a byte count")[0]
    elif name == "global_size":
        spec.global_size = _ints(args, 1, 1, "a byte count")[0]
    elif name == "max_steps":
        spec.max_steps = _ints(args, 1, 1, "a number")[0]
    elif name == "buffer":
        head, _, init = args.partition("=")
        parts = head.split()
        if len(parts) != 3 or parts[1] not in DTYPES:
            raise ValueError(f"expected '.buffer NAME TYPE COUNT [= INIT]' with TYPE one of {' '.join(DTYPES)}")
        bname, dtype, count = parts[0], parts[1], int(parts[2], 0)
        if bname in spec.buffers:
            raise ValueError(f"buffer {bname} defined twice")
        values = _values(init, dtype, count, line) if init.strip() else np.zeros(count, DTYPES[dtype])
        if values.size > count:
            raise ValueError(f"{values.size} initial values for {count} elements")
        full = np.zeros(count, DTYPES[dtype])
        full[: values.size] = values
        spec.buffers[bname] = Buffer(bname, dtype, count, full)
    elif name == "param":
        parts = args.split()
        if len(parts) == 1:
            if parts[0] not in spec.buffers:
                raise ValueError(f"unknown buffer {parts[0]!r} (declare it with .buffer first)")
            spec.params.append(("buffer", parts[0]))
        elif len(parts) == 2 and parts[0] in DTYPES:
            spec.params.append((parts[0], _values(parts[1], parts[0], 1, line)[0]))
        else:
            raise ValueError("expected '.param BUFFER' or '.param TYPE VALUE'")
    elif name == "const":
        parts = args.split(None, 3)
        if len(parts) < 4 or parts[2] not in DTYPES:
            raise ValueError("expected '.const BANK OFFSET TYPE values...'")
        bank, offset = int(parts[0], 0), int(parts[1], 0)
        if not 0 <= bank <= 15:
            raise ValueError("constant bank must be 0..15")
        spec.consts.append((bank, offset, _values(parts[3], parts[2], None, line).tobytes()))
    elif name == "expect":
        head, eq, expr = args.partition(" = ") if " = " in args else args.partition("=")
        parts = head.split()
        ulp, atol = 0, 0.0
        while len(parts) >= 2 and parts[-1].startswith(("ulp=", "atol=")):
            key, _, value = parts.pop().partition("=")
            if key == "ulp":
                ulp = int(value, 0)
            else:
                atol = float(value)
        if eq and len(parts) == 1:
            spec.expects.append(Expectation(parts[0], line, expr=expr.strip(), ulp=ulp, atol=atol))
        elif not eq and len(parts) >= 3 and parts[1] in DTYPES:
            bname, dtype = parts[0], parts[1]
            spec.expects.append(Expectation(bname, line, values=_values(" ".join(parts[2:]), dtype, None, line)))
        else:
            raise ValueError("expected '.expect BUFFER = EXPR' or '.expect BUFFER TYPE values...'")
        if parts[0] not in spec.buffers:
            raise ValueError(f"unknown buffer {parts[0]!r}")
