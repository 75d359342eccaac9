"""RTL code coverage: Verilator's coverage.dat read into per-module figures.

Verilator (`--coverage`) writes one record per coverage point:

    C '<key>\\x02<value>\\x01<key>\\x02<value>...' <count>

with keys f (file), l (line), page (`v_line/MODULE`, `v_branch/MODULE`, `v_expr/MODULE`,
`v_toggle/MODULE`, `v_user/MODULE`), o (comment: the signal for toggle points, the kind of branch)
and h (hierarchy). Runs are merged with `verilator_coverage --write` first (scripts/rtl_code_coverage.py);
the installed pyucis has no reader for this format, so it is parsed here (a few lines).
A point is covered when its count is nonzero.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

KINDS = {"v_line": "line", "v_branch": "branch", "v_expr": "expression", "v_toggle": "toggle", "v_user": "user"}
SHOWN = ("line", "branch", "expression", "toggle")


@dataclass
class CodePoint:
    kind: str
    module: str
    file: str
    line: int
    comment: str
    hier: str
    count: int


@dataclass
class CodeCoverage:
    points: list[CodePoint] = field(default_factory=list)
    source: str = ""

    @classmethod
    def load(cls, path: str | Path) -> CodeCoverage:
        path = Path(path)
        out = cls(source=str(path))
        for number, raw in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            if not raw.startswith("C '"):
                continue
            end = raw.rfind("'")
            try:
                count = int(raw[end + 1 :].strip())
            except ValueError:
                raise ValueError(f"{path}:{number}: not a Verilator coverage record (no count after the key): {raw[:80]!r}") from None
            keys = dict(item.split("\x02", 1) for item in raw[3:end].split("\x01") if "\x02" in item)
            page = keys.get("page", "")
            prefix, _, module = page.partition("/")
            kind = KINDS.get(prefix)
            if kind is None:
                raise ValueError(f"{path}:{number}: unknown coverage page {page!r}")
            out.points.append(CodePoint(kind, module, keys.get("f", ""), int(keys.get("l", 0) or 0), keys.get("o", ""), keys.get("h", ""), count))
        if not out.points:
            raise ValueError(f"{path}: no coverage records (was the model built with --coverage?)")
        return out

    def by_module(self) -> dict[str, dict[str, tuple[int, int]]]:
        """module -> kind -> (covered, total) points, over every instance of the module."""
        acc: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
        for p in self.points:
            c = acc[p.module][p.kind]
            c[0] += p.count > 0
            c[1] += 1
        return {m: {k: (v[0], v[1]) for k, v in kinds.items()} for m, kinds in sorted(acc.items())}

    def totals(self) -> dict[str, tuple[int, int]]:
        out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for p in self.points:
            out[p.kind][0] += p.count > 0
            out[p.kind][1] += 1
        return {k: (v[0], v[1]) for k, v in out.items()}

    def uncovered_lines(self) -> dict[tuple[str, int], list[CodePoint]]:
        """(file, line) -> its line/branch/expression points never hit in any module (a function of
        an included header is counted once per module using it: covered if any copy is).
        Toggles are listed apart."""
        hit: dict[tuple[str, int, str, str], bool] = {}
        first: dict[tuple[str, int, str, str], CodePoint] = {}
        for p in self.points:
            if p.kind == "toggle":
                continue
            key = (p.file, p.line, p.kind, p.comment)
            hit[key] = hit.get(key, False) or p.count > 0
            first.setdefault(key, p)
        out: dict[tuple[str, int], list[CodePoint]] = defaultdict(list)
        for key, h in hit.items():
            if not h:
                out[(key[0], key[1])].append(first[key])
        return dict(sorted(out.items()))

    def untoggled(self) -> dict[str, list[str]]:
        """module -> signals with a bit that never toggled (a point's comment is `sig[bit]:0->1`)."""
        out: dict[str, set[str]] = defaultdict(set)
        for p in self.points:
            if p.kind == "toggle" and p.count == 0:
                out[p.module].add(re.sub(r"(\[\d+\])*(:.*)?$", "", p.comment))
        return {m: sorted(s) for m, s in sorted(out.items())}


def _pct(c: int, t: int) -> str:
    return f"{100.0 * c / t:5.1f}%" if t else "    -"


def _source_line(file: str, line: int, root: Path) -> str:
    path = Path(file) if Path(file).is_absolute() else root / file
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()[line - 1].rstrip()
    except (OSError, IndexError):
        return "(source not found)"


def _rel(file: str, root: Path) -> str:
    try:
        return str(Path(file).resolve().relative_to(root))
    except ValueError:
        return file


def render_code_text(cc: CodeCoverage, root: Path, max_lines: int = 200) -> list[str]:
    lines = ["", "=" * 100, f"RTL code coverage (Verilator --coverage, {cc.source})", "",
             f"{'module':<28}" + "".join(f"{k:>22}" for k in SHOWN)]  # fmt: skip
    for module, kinds in [*cc.by_module().items(), ("(all)", cc.totals())]:
        cells = "".join(f"{(f'{c}/{t} ' + _pct(c, t)) if t else '-':>22}" for c, t in (kinds.get(k, (0, 0)) for k in SHOWN))
        lines.append(f"{module:<28}{cells}")
    unc = cc.uncovered_lines()
    lines += ["", f"uncovered lines / branches / expressions: {len(unc)} source lines"]
    for (file, line), pts in list(unc.items())[:max_lines]:
        what = ", ".join(sorted({p.kind + (f" {p.comment}" if p.comment and p.kind != "line" else "") for p in pts}))
        lines.append(f"  {_rel(file, root)}:{line}: [{what}] {_source_line(file, line, root).strip()}")
    if len(unc) > max_lines:
        lines.append(f"  ... ({len(unc) - max_lines} more in the HTML report)")
    unt = cc.untoggled()
    lines += ["", "signals with a bit that never toggled, per module"]
    for module, sigs in unt.items():
        lines.append(f"  {module}: {len(sigs)}: {', '.join(sigs[:12])}{' ...' if len(sigs) > 12 else ''}")
    return lines


def code_section_html(cc: CodeCoverage, root: Path) -> list[str]:
    parts = ['<h2 id="code">RTL code coverage</h2>',
             f'<p class="small">Verilator --coverage of rtl/, runs merged with verilator_coverage --write ({escape(cc.source)}). '
             "A point is covered when its count is nonzero.</p>",
             "<table><tr><th>module</th>" + "".join(f"<th>{k}</th>" for k in SHOWN) + "</tr>"]  # fmt: skip
    for module, kinds in [*cc.by_module().items(), ("(all)", cc.totals())]:
        cells = "".join(f"<td class='num'>{c}/{t} = {100.0 * c / t:.1f}%</td>" if t else "<td>-</td>" for c, t in (kinds.get(k, (0, 0)) for k in SHOWN))
        parts.append(f"<tr><td>{escape(module)}</td>{cells}</tr>")
    parts.append("</table>")
    unc = cc.uncovered_lines()
    parts.append(f"<h3>Uncovered lines, branches, expressions ({len(unc)} source lines)</h3>")
    by_file: dict[str, list[str]] = defaultdict(list)
    for (file, line), pts in unc.items():
        what = ", ".join(sorted({p.kind + (f" {p.comment}" if p.comment and p.kind != "line" else "") for p in pts}))
        by_file[_rel(file, root)].append(f"<tr><td class='num'>{line}</td><td>{escape(what)}</td><td><code>{escape(_source_line(file, line, root))}</code></td></tr>")
    for file, rows in by_file.items():
        parts.append(f"<details><summary>{escape(file)}: {len(rows)} lines</summary><table><tr><th>line</th><th>points</th><th>source</th></tr>"
                     + "".join(rows) + "</table></details>")  # fmt: skip
    parts.append("<h3>Signals with a bit that never toggled</h3>")
    for module, sigs in cc.untoggled().items():
        parts.append(f"<details><summary>{escape(module)}: {len(sigs)} signals</summary>{escape(', '.join(sigs))}</details>")
    return parts
