"""An LG program as `make sim ISA=lg` runs it: the assembled image plus the project's header lines.

The course's assembler has no way to say what a program should leave behind, so, as G80 programs
do with `.expect`, an LG program states it in comment lines that start with `;!` (the assembler
reads them as comments, so the file stays a valid course program):

    ;! expect r3 = 0x0010          a scalar register's 16 bits when the program ends
    ;! expect v2 = 1 2 3 4         a vector register's four elements, element 0 first
    ;! expect mem16 0x200 = 0xbeef a little-endian 16-bit word of data memory
    ;! expect cc = n|z|p           the CC flag set at the end
    ;! expect frags = 0 5120       the fragment counts of the endprimitives, in order
    ;! expect draws = 4            how many frames draw showed
    ;! max_steps 5000              the step bound that stops a runaway program (default 100,000)
    ;! error TEXT                  (programs/lg/bad/) the one error line the program must end in

The values are written by hand from the ISA's rules, so they check the golden model as well as the
DUT: they are not read back from either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from golden.errors import USAGE, UserError
from golden.isa.source import AsmError
from golden.lg.asm import LgProgram, assemble
from golden.lg.profile import PROFILES, LgProfile

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "programs" / "lg"
DEFAULT_MAX_STEPS = 100_000
CC_NAMES = {"n": 1, "z": 2, "p": 4}  # the seed profile's CC bits (N bit 0, Z bit 1, P bit 2)

_HEADER = re.compile(r"^\s*;!\s*(\S+)\s*(.*?)\s*$")
_EXPECT = re.compile(r"^(r\d+|v\d+|cc|frags|draws|mem16\s+\S+)\s*=(?!=)\s*(.*)$")


@dataclass
class Expect:
    """One `;! expect` line: what, the values, and the line that said it."""

    what: str
    values: list[int]
    line: int


@dataclass
class LgTest:
    """A program to run: its name, source path, image and header lines."""

    name: str
    path: Path
    program: LgProgram
    data: bytes
    expects: list[Expect] = field(default_factory=list)
    max_steps: int = DEFAULT_MAX_STEPS
    error: str | None = None  # the error line a bad/ program must end in

    @property
    def words(self) -> list[int]:
        return self.program.words

    @property
    def profile(self) -> LgProfile:
        return PROFILES[self.program.profile or "seed"]


def resolve(test: str) -> Path:
    """TEST as a name under programs/lg/ (bad/x for its bad programs) or a path of a .lgs file."""
    if test.endswith(".lgs") or ("/" in test and Path(test).suffix):
        path = Path(test)
    else:
        path = PROGRAMS / f"{test}.lgs"
    if not path.is_file():
        raise UserError(f"no LG program {path} (TEST is a name under programs/lg/ or the path of a .lgs file)", USAGE)
    return path


def _number(text: str, where: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise UserError(f"{where}: {text!r} is not a number (write decimal or 0x hex)", USAGE) from None


def _header(test: LgTest, source: str) -> None:
    for number, raw in enumerate(source.splitlines(), 1):
        m = _HEADER.match(raw)
        if not m:
            continue
        where = f"{test.path}:{number}"
        key, rest = m[1], m[2]
        if key == "max_steps":
            test.max_steps = _number(rest, where)
            if test.max_steps < 1:
                raise UserError(f"{where}: max_steps must be at least 1", USAGE)
        elif key == "error":
            test.error = rest
        elif key == "expect":
            e = _EXPECT.match(rest)
            if e is None:
                raise UserError(f"{where}: ';! expect {rest}' is not an expectation (expect rN|vN|cc|frags|draws|mem16 ADDR = VALUES)", USAGE)
            what, values = e[1], e[2].split()
            if what == "cc":
                if values not in (["n"], ["z"], ["p"]):
                    raise UserError(f"{where}: expect cc = n, z or p, not {e[2]!r}", USAGE)
                nums = [CC_NAMES[values[0]]]
            else:
                nums = [_number(v, where) for v in values]
            if what.startswith("r") and (int(what[1:]) > 15 or len(nums) != 1):
                raise UserError(f"{where}: expect {what}: a register r0-r15 and one value", USAGE)
            if what.startswith("v") and (int(what[1:]) > 63 or len(nums) != 4):
                raise UserError(f"{where}: expect {what}: a register v0-v63 and four elements", USAGE)
            test.expects.append(Expect(" ".join(what.split()), nums, number))
        else:
            raise UserError(f"{where}: unknown header line ';! {key}' (known: expect, max_steps, error)", USAGE)


def load(test: str) -> LgTest:
    """Read and assemble TEST; an assembly error is one located line (the first bad line, and how
    many more there are)."""
    path = resolve(test)
    source = path.read_text(encoding="utf-8")
    try:
        program = assemble(source, str(path))
    except AsmError as exc:
        errors = getattr(exc, "errors", [exc])
        more = f" (and {len(errors) - 1} more bad line{'s' if len(errors) > 2 else ''}: golden asm --isa lg {path} lists them)" if len(errors) > 1 else ""
        raise UserError(f"{exc.file}:{exc.line}:{exc.col}: {exc.message}{more}", USAGE) from None
    data = bytearray(max(program.data, default=-1) + 1)
    for addr, byte in program.data.items():
        data[addr] = byte
    name = path.stem if path.parent.resolve() != (PROGRAMS / "bad").resolve() else f"bad/{path.stem}"
    t = LgTest(name, path, program, bytes(data))
    _header(t, source)
    return t
