"""Fault sites enumerated from the design itself: Verilator's elaborated netlist (`--json-only`).

A state bit is a bit of a variable that a clocked process (`always @(posedge ...)`) assigns with a
non-blocking assignment: the flip-flops, and the arrays written that way (register file, flag and
address registers, shared/constant/instruction memory, warp table, SIMT stacks). Blocking
assignments inside clocked processes are the loop variables of `for` statements, not state, and
are left out. No list of signals is written by hand: a new register in rtl/ becomes a fault site
by being one.

Each site is one variable of one instance (`u_sched.w_pc`, an array of 24 words of 24 bits), with
its unit (the instance under the top level), word width and number of words; a fault picks a word
and a bit. Paths are those of cocotb's handles under the top level (generate-block names as
Verilator gives them, e.g. `lanes[0]`).
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from .. import mutants
from ..runner import SM_FILE_LIST, _environment, read_file_list

TOPLEVEL = "sm_top"
_RANGE = re.compile(r"\[?(-?\d+):(-?\d+)\]?")


@dataclass(frozen=True)
class Site:
    path: str  # handle path under the top level, dot-separated (u_sched.w_pc)
    unit: str  # the instance directly under the top level (u_sched)
    width: int  # bits per word
    words: int  # 1 for a vector, the number of elements for an unpacked array
    low: int = 0  # index of the first element of an array (declared [low:high] or [high:low])

    @property
    def bits(self) -> int:
        return self.width * self.words

    def to_dict(self) -> dict:
        return asdict(self)


def _span(text: str) -> tuple[int, int]:
    m = _RANGE.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"Verilator range {text!r} is not [a:b]")
    a, b = int(m.group(1)), int(m.group(2))
    return abs(a - b) + 1, min(a, b)


def _children(node: object):
    if isinstance(node, dict):
        for value in node.values():
            if isinstance(value, dict):
                yield value
            elif isinstance(value, list):
                yield from (v for v in value if isinstance(v, dict))
    elif isinstance(node, list):
        yield from (v for v in node if isinstance(v, dict))


class _Netlist:
    def __init__(self, tree: dict) -> None:
        self.dtypes: dict[str, dict] = {}
        self._index_dtypes(tree)
        self.modules = {m["addr"]: m for m in tree["modulesp"] if m.get("type") == "MODULE"}

    def _index_dtypes(self, node: dict) -> None:
        stack = [node]
        while stack:
            n = stack.pop()
            if n.get("type", "").endswith("DTYPE") and "dtypep" in n:
                self.dtypes.setdefault(n["addr"], n)
            stack.extend(_children(n))

    def shape(self, dtype: str) -> tuple[int, int, int]:
        """(bits per word, words, first index) of a variable's type."""
        d = self.dtypes[dtype]
        kind = d["type"]
        if kind == "UNPACKARRAYDTYPE":
            words, low = _span(d["declRange"])
            width, inner, _ = self.shape(d["refDTypep"])
            return width, words * inner, low
        if kind == "PACKARRAYDTYPE":
            words, _ = _span(d["declRange"])
            width, _, _ = self.shape(d["refDTypep"])
            return width * words, 1, 0
        if kind == "BASICDTYPE":
            if "range" in d:
                return _span(d["range"])[0], 1, 0
            return (32 if d.get("keyword") in ("integer", "int") else 1), 1, 0
        if "refDTypep" in d:  # typedefs and references
            return self.shape(d["refDTypep"])
        raise ValueError(f"unsupported Verilator type {kind} in the fault-site enumeration")

    def module_state(self, module: dict) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """(variables assigned non-blocking in clocked processes as (scope prefix, name, dtype)), cells (prefix+name, module addr)."""
        variables: dict[str, tuple[str, str]] = {}  # var addr -> (prefix + name, dtype)
        state: set[str] = set()
        cells: list[tuple[str, str]] = []

        def visit(node: dict, prefix: str, clocked: bool) -> None:
            kind = node.get("type")
            if kind == "GENBLOCK" and not node.get("implied"):
                prefix = f"{prefix}{node['name']}."
            elif kind == "VAR":
                variables[node["addr"]] = (prefix + node["name"], node["dtypep"])
            elif kind == "CELL":
                cells.append((prefix + node["name"], node["modp"]))
            elif kind == "ALWAYS" and node.get("sentreep"):
                clocked = True
            elif kind == "ASSIGNDLY" and clocked:
                stack = list(node.get("lhsp", []))
                while stack:
                    n = stack.pop()
                    if n.get("type") == "VARREF" and n.get("access") == "WR":
                        state.add(n["varp"])
                    stack.extend(_children(n))
                return
            for child in _children(node):
                visit(child, prefix, clocked)

        for stmt in module.get("stmtsp", []):
            visit(stmt, "", False)
        return [variables[a] for a in sorted(state, key=lambda a: variables[a][0]) if a in variables], cells


def _tree(defines: tuple[str, ...], parameters: tuple[tuple[str, object], ...]) -> dict:
    files = read_file_list(SM_FILE_LIST)
    _environment("verilator")
    mutant_names, defines = mutants.split_defines(defines)
    with tempfile.TemporaryDirectory() as tmp:
        # a MUTANT_* variant (tb/mutants.py) is a patched copy of the sources, as the runner builds it
        sources = mutants.apply(mutant_names, list(files.sources), Path(tmp) / "rtl") if mutant_names else list(files.sources)
        cmd = ["verilator", "--json-only", "--top-module", TOPLEVEL, "-Mdir", tmp, *(f"-I{d}" for d in files.includes),
               *(f"-D{d}=1" for d in defines), *(f"-G{k}={v}" for k, v in parameters), *map(str, sources)]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"verilator --json-only failed:\n{done.stderr[-2000:]}")
        return json.loads((Path(tmp) / f"V{TOPLEVEL}.tree.json").read_text(encoding="utf-8"))


@cache
def enumerate_sites(defines: tuple[str, ...] = (), parameters: tuple[tuple[str, object], ...] = ()) -> tuple[Site, ...]:
    """Every state variable of every instance of the SM, in hierarchy order."""
    net = _Netlist(_tree(defines, parameters))
    top = next((m for m in net.modules.values() if m.get("origName") == TOPLEVEL and m.get("level") == 1), None)
    if top is None:
        raise RuntimeError(f"no top module {TOPLEVEL} in Verilator's netlist")
    sites: list[Site] = []

    def walk(module: dict, prefix: str) -> None:
        state, cells = net.module_state(module)
        for name, dtype in state:
            width, words, low = net.shape(dtype)
            path = prefix + name
            sites.append(Site(path, path.split(".")[0], width, words, low))
        for name, addr in cells:
            walk(net.modules[addr], f"{prefix}{name}.")

    walk(top, "")
    return tuple(sites)


def select(sites: tuple[Site, ...], pattern: str) -> list[Site]:
    """The sites whose path matches `pattern`: fnmatch patterns separated by commas (`u_sched.w_*`,
    `*w_pc`; a unit name alone selects its whole subtree); an empty result is an error naming what exists."""
    if not pattern or pattern == "*":
        return list(sites)
    parts = [p.strip() for p in pattern.split(",") if p.strip()]
    chosen = [s for s in sites if any(fnmatch.fnmatchcase(s.path, p) or s.unit == p for p in parts)]
    if not chosen:
        units = sorted({s.unit for s in sites})
        raise ValueError(f"TARGET={pattern!r} matches no state variable (units: {', '.join(units)}; patterns match paths like u_sched.w_pc)")
    return chosen


def per_unit(sites: list[Site]) -> dict[str, int]:
    """State bits per unit."""
    out: dict[str, int] = {}
    for s in sites:
        out[s.unit] = out.get(s.unit, 0) + s.bits
    return out


def units_of(sites: list[Site] | tuple[Site, ...]) -> dict[str, tuple[int, int]]:
    """(sites, state bits) per unit, as a campaign's database keeps them (CampaignDB.set_units)."""
    out: dict[str, tuple[int, int]] = {}
    for s in sites:
        n_sites, bits = out.get(s.unit, (0, 0))
        out[s.unit] = (n_sites + 1, bits + s.bits)
    return out
