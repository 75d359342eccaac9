"""Fault sites of a VHDL design (FlexGripPlus under GHDL): its signals as GHDL's VPI lists them,
kept where the VHDL assigns them in a clocked process.

GHDL's VPI gives the hierarchy and every signal with its width (walked in the simulator by
tb/faults/test_campaign.py), but not which signals are flip-flops, nor memories (arrays of vectors
are not visible through it, nor are process variables). Which signals hold state comes from the
VHDL text: in each architecture, the targets of signal assignments inside a process that waits
for a clock edge (`rising_edge`, `falling_edge`, `'event`). Each VPI scope is mapped to its entity
through the instantiations (`label : entity work.e port map` or `label : e port map`); a scope that
is no instance (a generate block) belongs to the entity around it. Written for FlexGripPlus's
coding style, not a VHDL parser: a state signal it misses is a site not sampled, it never makes a
combinational signal a site unless that signal is also assigned in a clocked process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_COMMENT = re.compile(r"--[^\n]*")
_ARCH = re.compile(r"\barchitecture\s+\w+\s+of\s+(\w+)\s+is\b", re.I)
_PROCESS = re.compile(r"\bprocess\b(.*?)\bend\s+process\b", re.S | re.I)
_CLOCKED = re.compile(r"rising_edge\s*\(|falling_edge\s*\(|'\s*event\b", re.I)
# an assignment starts after a statement or a branch; `if a <= b` (a comparison) does not
_TARGET = re.compile(r"(?:;|\bthen\b|\belse\b|\bbegin\b|=>)\s*(\w+)(?:\.\w+)*\s*(?:\([^;]*?\))?\s*<=", re.I)
_INSTANCE = re.compile(r"\b(\w+)\s*:\s*(?:entity\s+(?:\w+\.)?(\w+)(?:\s*\(\s*\w+\s*\))?|component\s+(\w+)|(\w+))\s+(?:generic|port)\s+map\b", re.I)


@dataclass(frozen=True)
class VhdlState:
    clocked: dict[str, frozenset[str]]  # entity -> signals assigned in its clocked processes
    instances: dict[tuple[str, str], str]  # (entity, instance label) -> the instantiated entity


def read_design(files: list[Path]) -> VhdlState:
    clocked: dict[str, set[str]] = {}
    instances: dict[tuple[str, str], str] = {}
    for path in files:
        text = _COMMENT.sub("", path.read_text(encoding="utf-8", errors="replace"))
        archs = list(_ARCH.finditer(text))
        for k, m in enumerate(archs):
            entity = m.group(1).lower()
            body = text[m.end() : archs[k + 1].start() if k + 1 < len(archs) else len(text)]
            targets = clocked.setdefault(entity, set())
            for p in _PROCESS.finditer(body):
                if _CLOCKED.search(p.group(1)):
                    targets.update(t.lower() for t in _TARGET.findall(p.group(1)))
            for i in _INSTANCE.finditer(body):
                child = next(g for g in i.groups()[1:] if g)
                if child.lower() not in ("process", "block"):
                    instances[(entity, i.group(1).lower())] = child.lower()
    return VhdlState({e: frozenset(s) for e, s in clocked.items()}, instances)


def _scopes(path: str) -> list[str]:
    return path.split(".")


UNIT_DEPTH = 3  # u_gpu.ustreamingmultiprocessor.upipelineexecute: FlexGripPlus's SM is one instance, its units a level down


def state_sites(signals: list[tuple[str, int]], design: VhdlState, top: str) -> list[tuple[str, str, int]]:
    """(path, unit, width) of the VPI signals (path, width) that hold state; the unit is the instance
    scope UNIT_DEPTH levels down (generate indices dropped), or the signal's own scope when shallower."""
    out = []
    for path, width in signals:
        parts = _scopes(path)
        entity = top.lower()
        for scope in parts[:-1]:
            label = scope.split("(")[0].lower()
            entity = design.instances.get((entity, label), entity)
        if parts[-1].lower() in design.clocked.get(entity, ()):
            out.append((path, ".".join(p.split("(")[0] for p in parts[: min(UNIT_DEPTH, len(parts) - 1)]), width))
    return out
