"""`check-vectors`: run reference vectors through the model as real instructions.

Each vector line becomes the instruction golden.g80.vectors.case_of gives it (for presin/preex2, the
RRO + SIN/COS/EX2 pair), assembled from the encoding table; its inputs are placed in registers
R1-R3 (and the carry in $c0), one or more warps execute it, and the destination register and the $c1 flags written by `.C1` are
read back and compared with the line. Lines with the same instruction run together, one lane each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .assembler import assemble
from .memory import Memory
from .profile import G80, Profile
from .sm import SM
from .state import Launch, SMConfig
from .vectors import Case, Vector, case_of, read_vectors


@dataclass
class Failure:
    vector: Vector
    code: str
    diffs: list[str]

    def format(self) -> str:
        return f"{self.vector.where()}: {self.vector.text}\n    as {self.code.replace(chr(10), '; ')}: " + "; ".join(self.diffs)


def run_cases(cases: list[tuple[Vector, Case]], profile: Profile = G80) -> list[Failure]:
    """Execute cases that share one instruction text, up to 512 lanes per launch."""
    failures: list[Failure] = []
    code = cases[0][1].code
    program = assemble(code + "\nNOP")
    for start in range(0, len(cases), 512):
        chunk = cases[start : start + 512]
        n = len(chunk)
        launch = Launch((1, 1), (-(-n // 32) * 32, 1, 1), 8)
        sm = SM(program.words, launch, Memory("global", 16), {}, profile, SMConfig(max_warps=16, registers=1 << 16))
        for reg in range(3):
            sm.regs[1 + reg, :n] = np.array([c.inputs[reg] for _, c in chunk], np.uint32)
        sm.cc[0, :n] = np.array([(c.cin & 1) << 2 for _, c in chunk], np.uint8)
        sm.run()
        for lane, (vec, case) in enumerate(chunk):
            diffs = []
            for name, want in case.outputs:
                got = int(sm.cc[int(name[1]), lane]) if name[0] == "C" else int(sm.regs[int(name[1:]), lane])
                if got != want:
                    diffs.append(f"{name} = {got:0{1 if name[0] == 'C' else 8}x}, expected {want:0{1 if name[0] == 'C' else 8}x}")
            if diffs:
                failures.append(Failure(vec, case.code, diffs))
    return failures


def check_vectors(vectors: Iterable[Vector], profile: Profile = G80) -> tuple[int, list[Failure], list[str]]:
    """(passed, failures, errors) over the vectors; lines that cannot be translated are errors."""
    groups: dict[str, list[tuple[Vector, Case]]] = {}
    errors: list[str] = []
    total = 0
    for v in vectors:
        total += 1
        try:
            case = case_of(v)
        except (ValueError, KeyError, IndexError) as e:
            errors.append(f"{v.where()}: {v.text}: {e}")
            continue
        groups.setdefault(case.code, []).append((v, case))
    failures: list[Failure] = []
    for cases in groups.values():
        failures.extend(run_cases(cases, profile))
    passed = total - len(failures) - len(errors)
    return passed, failures, errors


def check_files(paths: Iterable[str], profile: Profile = G80) -> tuple[int, list[Failure], list[str]]:
    def all_vectors() -> Iterable[Vector]:
        for p in paths:
            yield from read_vectors(p)

    return check_vectors(all_vectors(), profile)
