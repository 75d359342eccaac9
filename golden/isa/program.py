"""The program format every ISA shares: SASS text plus directives for the launch and for checking.

Directives (one a line; see docs/reference/program-format.md, "Directives"):
    .grid X [Y]                      .block X [Y [Z]]          .registers N      .shared BYTES
    .buffer NAME TYPE COUNT [= INIT] global memory, 256-byte aligned; INIT: v1 v2 ... | range(a, b[, step])
                                     | random(seed[, lo, hi]) | file PATH (raw little-endian) ; default zeros
    .param NAME | .param TYPE VALUE   kernel parameters in order (a buffer's address, or a scalar)
    .const BANK OFFSET TYPE v1 v2 ... constant memory (bank 0..15, byte offset)
    .expect NAME = EXPR               after the run, buffer NAME must equal the numpy expression EXPR
    .expect NAME TYPE v1 v2 ...       ... or these values (the first elements of the buffer)
    .expect NAME ulp=N [atol=X] = EXPR  float buffers: each element within N ulp, or within X of the value
    .global_size BYTES   .max_steps N

What differs between ISAs is where the launch puts these (G80: parameters in shared memory;
Fermi: in constant bank 0) and the assembler; both stay in the ISA's own program module, which
calls `load` here with its assembler. The checks after a run are in golden/isa/expect.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .source import AsmError, Line

# u64/s64/f64 are there for ISAs with 64-bit data (Fermi's DADD, 64-bit atomics); a 64-bit scalar
# parameter is aligned to 8 bytes like any naturally aligned parameter.
DTYPES: dict[str, type[np.generic]] = {
    "u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16, "u32": np.uint32, "s32": np.int32,
    "f32": np.float32, "u64": np.uint64, "s64": np.int64, "f64": np.float64,
}  # fmt: skip
FLOATS = ("f32", "f64")
BUFFER_BASE = 0x100
ALIGN = 0x100
DIRECTIVES = ("grid", "block", "registers", "shared", "buffer", "param", "const", "expect", "global_size", "max_steps")


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
class ProgramSpec:
    """A program's launch and checks; `program` is what the ISA's assembler returned."""

    path: str
    program: Any
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
    where: dict[str, Line] = field(default_factory=dict)  # the last line of each directive, for an ISA's located checks
    const_lines: list[Line] = field(default_factory=list)  # the line of each entry of `consts`

    @property
    def nthreads(self) -> int:
        return self.grid[0] * self.grid[1] * self.block[0] * self.block[1] * self.block[2]

    def param_layout(self, pointer_size: int) -> list[tuple[int, bytes]]:
        """Each parameter's byte offset in the parameter area and its bytes: naturally aligned,
        pointers `pointer_size` bytes (DESIGN.md 3); a scalar takes at least a 4-byte slot, as the
        CUDA ABI passes small integers."""
        out: list[tuple[int, bytes]] = []
        end = 0
        for kind, value in self.params:
            if kind == "buffer":
                size = pointer_size
                data = self.buffers[str(value)].addr.to_bytes(size, "little")
            else:
                data = np.array([value], DTYPES[kind]).tobytes()
                size = max(4, len(data))
            offset = end + (-end % size)
            out.append((offset, data))
            end = offset + len(data)
        return out

    def param_bytes(self, pointer_size: int) -> bytes:
        """The parameter area (`param_layout`), padding zero."""
        out = bytearray()
        for offset, data in self.param_layout(pointer_size):
            out += bytes(offset - len(out)) + data
        return bytes(out)


def values(text: str, dtype: str, count: int | None, line: Line) -> np.ndarray:
    """An initialiser's elements: a list, range(...), random(...) or file PATH."""
    t = text.strip()
    np_type = DTYPES[dtype]
    is_float = dtype in FLOATS
    m = re.fullmatch(r"range\((.*)\)", t)
    if m:
        args = [int(x, 0) for x in m.group(1).split(",")]
        return np.arange(*args).astype(np_type)
    m = re.fullmatch(r"random\((.*)\)", t)
    if m:
        args = [float(x) if is_float else int(x, 0) for x in m.group(1).split(",")]
        rng = np.random.default_rng(int(args[0]))
        n = count or 1
        if is_float:
            lo, hi = (args[1], args[2]) if len(args) > 2 else (-1.0, 1.0)
            return rng.uniform(lo, hi, n).astype(np_type)
        info = np.iinfo(np_type)
        lo, hi = (int(args[1]), int(args[2])) if len(args) > 2 else (int(info.min), int(info.max))
        if info.max > np.iinfo(np.int64).max:  # u64: draw the bit patterns as int64, then reinterpret
            return rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, n, endpoint=True, dtype=np.int64).view(np.uint64)
        return rng.integers(lo, hi, n, endpoint=True, dtype=np.int64).astype(np_type)
    m = re.fullmatch(r"file\s+(\S+)", t)
    if m:
        path = Path(line.file).parent / m.group(1)
        return np.frombuffer(path.read_bytes(), np_type).copy()
    out: list[Any] = []
    for tok in t.replace(",", " ").split():
        if is_float and tok.lower().startswith("0x"):  # a float's bit pattern
            width = np.dtype(np_type).itemsize
            bits = np.array([int(tok, 16)], np.uint32 if width == 4 else np.uint64)
            out.append(bits.view(np_type)[0])
        elif is_float:
            out.append(float(tok))
        else:
            out.append(int(tok, 0))
    if is_float:
        return np.array(out, dtype=np_type)
    # wrap negatives of unsigned types (and 64-bit values past int64) as two's complement patterns
    bits = 8 * np.dtype(np_type).itemsize
    return np.array([v & ((1 << bits) - 1) for v in out], dtype=np.uint64).astype(np_type)


def _ints(args: str, n_min: int, n_max: int, what: str) -> list[int]:
    values_ = [int(x, 0) for x in args.replace(",", " ").split()]
    if not n_min <= len(values_) <= n_max:
        raise ValueError(f"expected {what}")
    return values_


def directive(spec: ProgramSpec, name: str, args: str, line: Line) -> None:
    """Apply one directive to `spec`; ValueError/KeyError say what is wrong with its arguments."""
    spec.where[name] = line
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
        _buffer(spec, args, line)
    elif name == "param":
        parts = args.split()
        if len(parts) == 1:
            if parts[0] not in spec.buffers:
                raise ValueError(f"unknown buffer {parts[0]!r} (declare it with .buffer first)")
            spec.params.append(("buffer", parts[0]))
        elif len(parts) == 2 and parts[0] in DTYPES:
            spec.params.append((parts[0], values(parts[1], parts[0], 1, line)[0]))
        else:
            raise ValueError("expected '.param BUFFER' or '.param TYPE VALUE'")
    elif name == "const":
        parts = args.split(None, 3)
        if len(parts) < 4 or parts[2] not in DTYPES:
            raise ValueError("expected '.const BANK OFFSET TYPE values...'")
        bank, offset = int(parts[0], 0), int(parts[1], 0)
        if not 0 <= bank <= 15:
            raise ValueError("constant bank must be 0..15")
        spec.consts.append((bank, offset, values(parts[3], parts[2], None, line).tobytes()))
        spec.const_lines.append(line)
    elif name == "expect":
        _expect(spec, args, line)
    else:
        raise ValueError(f"unknown directive (known: {' '.join('.' + d for d in DIRECTIVES)})")


def _buffer(spec: ProgramSpec, args: str, line: Line) -> None:
    head, _, init = args.partition("=")
    parts = head.split()
    if len(parts) != 3 or parts[1] not in DTYPES:
        raise ValueError(f"expected '.buffer NAME TYPE COUNT [= INIT]' with TYPE one of {' '.join(DTYPES)}")
    bname, dtype, count = parts[0], parts[1], int(parts[2], 0)
    if bname in spec.buffers:
        raise ValueError(f"buffer {bname} defined twice")
    init_values = values(init, dtype, count, line) if init.strip() else np.zeros(count, DTYPES[dtype])
    if init_values.size > count:
        raise ValueError(f"{init_values.size} initial values for {count} elements")
    full = np.zeros(count, DTYPES[dtype])
    full[: init_values.size] = init_values
    spec.buffers[bname] = Buffer(bname, dtype, count, full)


def _expect(spec: ProgramSpec, args: str, line: Line) -> None:
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
        spec.expects.append(Expectation(bname, line, values=values(" ".join(parts[2:]), dtype, None, line)))
    else:
        raise ValueError("expected '.expect BUFFER = EXPR' or '.expect BUFFER TYPE values...'")
    if parts[0] not in spec.buffers:
        raise ValueError(f"unknown buffer {parts[0]!r}")


# assemble(source, file, directives=DirectiveSink) -> the ISA's assembled program
Assembler = Callable[..., Any]
Callback = Callable[[str, Line], None]


class DirectiveSink(dict[str, Callback]):
    """The directive callbacks handed to an assembler. It is a dict {name: callback(args, line)}, the
    way G80's and LG's assemblers look a directive up, and also one callable `(name, args, line)`
    for an assembler that hands every directive line to a single function; either way a directive
    the program format does not know is an error at its line."""

    def __call__(self, name: str, args: str, line: Line) -> None:
        handler = self.get(name.lower().lstrip("."))
        if handler is None:
            known = " ".join("." + n for n in self)
            raise AsmError(f"unknown directive .{name.lstrip('.')} (known: {known})", line.file, line.number, line.col + 1, line.source)
        handler(args, line)


def _collector(pending: list[tuple[str, str, Line]], name: str) -> Callback:
    return lambda args, line: pending.append((name, args, line))


S = TypeVar("S", bound=ProgramSpec)


def load(path: str | Path, assemble: Assembler, make_spec: Callable[[str, Any], S], names: tuple[str, ...] = DIRECTIVES) -> S:
    """Assemble a program file with the ISA's `assemble(source, file, directives=...)` and apply its
    directives to `make_spec(path, program)`. Raises AsmError naming file and line, OSError when the
    file cannot be read."""
    path = Path(path)
    source = path.read_text(encoding="utf-8")  # OSError: the caller names the file (golden/cli.py)
    pending: list[tuple[str, str, Line]] = []
    sink = DirectiveSink({n: _collector(pending, n) for n in names})
    program = assemble(source, str(path), directives=sink)
    spec = make_spec(str(path), program)
    for name, args, line in pending:
        try:
            directive(spec, name, args, line)
        except AsmError:
            raise
        except (ValueError, KeyError, OSError, IndexError, OverflowError) as e:
            raise AsmError(f".{name}: {e}", line.file, line.number, line.col + 1, line.source) from None
    place_buffers(spec)
    return spec


def place_buffers(spec: ProgramSpec, base: int = BUFFER_BASE, align: int = ALIGN) -> None:
    """Give each buffer its address, in declaration order, and grow global memory to hold them."""
    addr = base
    for buf in spec.buffers.values():
        buf.addr = addr
        addr += -(-buf.nbytes // align) * align
    spec.global_size = max(spec.global_size, addr)

