"""The registry of instruction sets: what the ISA-independent machinery needs from each one.

The command line, make targets and the testbench look an ISA up here by name (`ISA=g80|lg|fermi`) and
call its functions, so adding an ISA is a package, an RTL folder and one entry below. Each entry's
functions are imported when first called: loading the registry loads no ISA.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from .errors import UserError
from .isa.record import Schema


class Image(Protocol):
    """An assembled program: instruction words from the first address, the initial data memory
    (byte address -> byte; empty where the ISA keeps data in its directives) and the directives."""

    words: list[int]
    data: dict[int, int]
    directives: list[tuple[str, str, Any]]


class ListingFailure(Protocol):
    def format(self) -> str: ...


@dataclass(frozen=True)
class Isa:
    """One instruction set: its names, its table and the entry points of its ISA layer."""

    name: str
    title: str
    table_module: str  # the encoding table, the one source of its encodings
    assemble: Callable[[str, str], Image]  # (source text, file name) -> image; raises AsmError
    disassemble: Callable[[Sequence[int]], list[str]]  # words -> one text a line; raises on an illegal word
    check_listing: Callable[[str], tuple[int, Sequence[ListingFailure]]]  # path -> (passed, failures)
    profiles: tuple[str, ...]
    default_profile: str
    suffix: str  # the program file suffix
    program_dir: str  # where its programs live, from the repository root
    rtl_dir: str  # its RTL, from the repository root
    commit_module: str = ""  # declares SCHEMA, its commit record on golden.isa.record
    coverage_module: str = ""  # CLASSES: its coverage models on golden.coverage, the ISA bins first
    # make regress ISA=...: the pytest file whose --regress ids are the regression's runs (tb/regress.py), and
    # for each kind of test id that records a run, the id's pattern and the record's file name from its
    # named groups (the file the test writes in REGRESS_DIR, which a resumed regression hands back to it)
    regress_tests: str = ""
    regress_records: tuple[tuple[str, str], ...] = ()

    @property
    def table(self) -> ModuleType:
        return importlib.import_module(self.table_module)

    @property
    def commit_schema(self) -> Schema:
        schema: Schema = importlib.import_module(self.commit_module).SCHEMA
        return schema

    @property
    def coverage(self) -> ModuleType:
        return importlib.import_module(self.coverage_module)


# -- G80: its existing functions, unchanged ------------------------------------------------------


@dataclass
class _G80Image:
    words: list[int]
    data: dict[int, int]
    directives: list[tuple[str, str, Any]]


def _g80_assemble(text: str, file: str) -> Image:
    from .g80.assembler import assemble

    seen: list[tuple[str, str, Any]] = []
    names = ["grid", "block", "registers", "shared", "buffer", "param", "const", "expect", "global_size", "max_steps"]
    program = assemble(text, file, directives={n: (lambda a, line, n=n: seen.append((n, a, line))) for n in names})
    return _G80Image(program.words, {}, program.directives)


def _g80_disassemble(words: Sequence[int]) -> list[str]:
    from .g80.disassembler import format_listing

    return format_listing(words)[0]


def _g80_check_listing(path: str) -> tuple[int, Sequence[ListingFailure]]:
    from .g80.listing import check_rows, read_listing

    rows = read_listing(path)
    return check_rows(rows) if rows else (0, [])


# -- LG --------------------------------------------------------------------------------------------


def _lg_assemble(text: str, file: str) -> Image:
    from .lg.asm import assemble

    return assemble(text, file)


def _lg_disassemble(words: Sequence[int]) -> list[str]:
    from .lg.disasm import format_listing

    return format_listing(words)[0]


def _lg_check_listing(path: str) -> tuple[int, Sequence[ListingFailure]]:
    from .lg.listing import check_listing

    return check_listing(path)


# -- Fermi -----------------------------------------------------------------------------------------


def _fermi_assemble(text: str, file: str) -> Image:
    from .fermi.asm import assemble

    return assemble(text, file)


def _fermi_disassemble(words: Sequence[int]) -> list[str]:
    from .fermi.disasm import format_listing

    return format_listing(words)[0]


def _fermi_check_listing(path: str) -> tuple[int, Sequence[ListingFailure]]:
    from .fermi.listing import check_listing

    return check_listing(path)


ISAS: dict[str, Isa] = {
    "g80": Isa(
        "g80", "NVIDIA G80 SM_1.0 (SASS)", "golden.g80.table", _g80_assemble, _g80_disassemble, _g80_check_listing,
        ("g80", "flexgrip"), "g80", ".sass", "programs", "rtl", "golden.g80.commit", "golden.g80.coverage",
        regress_tests="tests/test_rtl_lockstep.py",
        regress_records=((r"::test_lockstep\[(?P<tag>.+)-(?P<sim>[a-z]+)-sp(?P<sp>\d+)\]$", "{tag}_{sim}_sp{sp}_s1.json"),),
    ),
    "lg": Isa(
        "lg", "CS3220 LG GPU ISA 1.1", "golden.lg.table", _lg_assemble, _lg_disassemble, _lg_check_listing,
        ("seed", "ta2013"), "seed", ".lgs", "programs/lg", "rtl/lg", "golden.lg.commit", "golden.lg.coverage",
        regress_tests="tests/test_lg_lockstep.py",
        regress_records=((r"::test_lockstep\[(?P<tag>.+)-(?P<sim>[a-z]+)\]$", "{tag}_{sim}.json"),
                         (r"::test_bad_program_ends_in_its_error_line\[(?P<tag>.+)\]$", "bad-{tag}.json")),
    ),
    # words are 64-bit integers (the value CUDA 5 cuobjdump prints); no RTL
    "fermi": Isa(
        "fermi", "NVIDIA Fermi sm_20 (SASS)", "golden.fermi.table", _fermi_assemble, _fermi_disassemble, _fermi_check_listing,
        ("sm20",), "sm20", ".sass", "programs/fermi", "", "golden.fermi.commit", "golden.fermi.coverage",
    ),
}  # fmt: skip


def get(name: str) -> Isa:
    """The ISA of that name; a UserError names the known ones."""
    try:
        return ISAS[name]
    except KeyError:
        raise UserError(f"unknown ISA {name!r} (known: {', '.join(ISAS)}; set ISA= or --isa to one of them)") from None
