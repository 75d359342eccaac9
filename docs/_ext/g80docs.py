"""Sphinx directives that generate the manual's reference tables from the code at build time.

Each directive reads the structure it documents (the make-targets source, the semantic profiles,
the FlexGripPlus findings, the encoding table, the commit record) and builds docutils nodes from
it, so a page cannot say something the code no longer does. Nodes are built directly rather than
as generated markup so that no value (a `|` in a usage line, a `*` in a pattern) is read as syntax.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]

Cell = str | nodes.Node | Sequence[nodes.Node]


def _code(text: str) -> nodes.literal:
    return nodes.literal(text, text)


def _cell(value: Cell) -> nodes.entry:
    entry = nodes.entry()
    if isinstance(value, str):
        entry += nodes.paragraph(value, value)
    elif isinstance(value, nodes.Node):
        entry += value if isinstance(value, nodes.paragraph) else nodes.paragraph("", "", value)
    else:
        entry += nodes.paragraph("", "", *value)
    return entry


def table(headers: Sequence[str], rows: Iterable[Sequence[Cell]], widths: Sequence[int] | None = None) -> nodes.table:
    """A plain table: one header row, then `rows` (each cell text, a node or a list of inline nodes)."""
    tgroup = nodes.tgroup(cols=len(headers))
    for w in widths or [1] * len(headers):
        tgroup += nodes.colspec(colwidth=w)
    head = nodes.thead()
    row = nodes.row()
    for h in headers:
        row += _cell(h)
    head += row
    tgroup += head
    body = nodes.tbody()
    for values in rows:
        row = nodes.row()
        for v in values:
            row += _cell(v)
        body += row
    tgroup += body
    t = nodes.table(classes=["g80-generated"])
    t += tgroup
    return t


def _codes(names: Iterable[str], sep: str = ", ") -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for i, n in enumerate(names):
        if i:
            out.append(nodes.Text(sep))
        out.append(_code(n))
    return out


def _section_id(directive: SphinxDirective, key: str) -> str:
    return nodes.make_id(f"{directive.env.docname.split('/')[-1]}-{key}")


def link(directive: SphinxDirective, key: str, text: str) -> nodes.reference:
    """`text` as code, linking to the subsection `section(directive, ..., key, ...)` makes on the same page."""
    ref = nodes.reference("", "", internal=True, refid=_section_id(directive, key))
    ref += _code(text)
    return ref


def section(directive: SphinxDirective, title: str, key: str, children: Iterable[nodes.Node]) -> nodes.section:
    """A subsection of the page the directive is on, with an id derived from `key`."""
    sec = nodes.section(ids=[_section_id(directive, key)])
    sec += nodes.title(title, title)
    for c in children:
        sec += c
    return sec


def _load_script(name: str) -> ModuleType:
    """A stdlib-only module of scripts/ (not a package) by path."""
    path = ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_g80docs_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


class MakeTargets(SphinxDirective):
    """The make targets and their variables, from scripts/targets.toml (what `make help` prints)."""

    def run(self) -> list[nodes.Node]:
        make_help = _load_script("make_help")
        targets = make_help.load()
        # a target that reads variables links to its table of them
        rows = [(link(self, t.name, t.usage) if t.variables else _code(t.usage), t.description) for t in targets]
        out: list[nodes.Node] = [table(["target", "what it does"], rows, [4, 10])]
        for t in targets:
            if not t.variables:
                continue
            rows = [(_code(v.name), _code(v.default) if v.default else "(unset)", v.meaning) for v in t.variables]
            out.append(section(self, f"make {t.name}", t.name, [nodes.paragraph("", "", _code(t.usage)), table(["variable", "default", "meaning"], rows, [2, 3, 8])]))
        return out


class Profiles(SphinxDirective):
    """Every switch of golden.g80.profile.Profile: group, value in each profile, meaning, findings it models."""

    def run(self) -> list[nodes.Node]:
        from golden.g80.flexgrip_findings import switch_findings
        from golden.g80.profile import PROFILES, Profile

        by_switch = switch_findings()
        names = list(PROFILES)
        groups: dict[str, list[tuple[Cell, ...]]] = {}
        for f in dataclasses.fields(Profile):
            if f.name == "name":
                continue
            group, doc, _ = Profile.switch_doc(f.name)
            values = [_code(repr(getattr(PROFILES[p], f.name))) for p in names]
            findings = _codes(by_switch.get(f.name, [])) or "none found in lock-step: documented in ISA.md section 9, FLEXGRIPPLUS.md"
            groups.setdefault(group, []).append((_code(f.name), *values, doc, findings))
        out: list[nodes.Node] = [table(["profile", "switches that differ from g80"], [(_code(p), _codes(PROFILES[p].describe()) or "(none: the reference)") for p in names], [2, 12])]
        for group, rows in groups.items():
            out.append(section(self, group.capitalize(), group, [table(["switch", *names, "meaning", "findings it models"], rows, [3, 1, 1, 8, 3])]))
        return out


class Findings(SphinxDirective):
    """Every FlexGripPlus finding (golden.g80.flexgrip_findings.FINDINGS), each field as the dataclass holds it."""

    def run(self) -> list[nodes.Node]:
        from golden.g80.flexgrip_findings import FINDINGS, Finding

        kinds = {"profile": "profile switch", "waiver": "waiver", "loader": "loader", "open": "open"}
        summary = [(link(self, f.name, f.name), kinds.get(f.handling.split(":")[0].split()[0], f.handling.split()[0]), "yes" if f.bug else "no") for f in FINDINGS]
        out: list[nodes.Node] = [table(["finding", "handling", "FlexGripPlus bug"], summary, [4, 2, 1])]
        for f in FINDINGS:
            items = nodes.field_list()
            for fld in dataclasses.fields(Finding):
                if fld.name == "name":
                    continue
                value = getattr(f, fld.name)
                if value in ((), frozenset(), None):
                    continue  # a waiver's keys on a finding that is not one
                text = _value(value)
                field = nodes.field()
                field += nodes.field_name(fld.name, fld.name)
                body = nodes.field_body()
                body += nodes.paragraph("", "", _code(text) if fld.name in ("forms", "fields", "when", "dut_value", "program") else nodes.Text(text))
                field += body
                items += field
            out.append(section(self, f.name, f.name, [items]))
        return out


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, frozenset):
        return ", ".join(sorted(value))
    if isinstance(value, tuple):
        return ", ".join(str(v) if not isinstance(v, tuple) else "(" + ", ".join(f"{x:#x}" if isinstance(x, int) else str(x) for x in v) + ")" for v in value)
    if isinstance(value, int):
        return f"{value:#x}"
    return str(value)


def _bits(bf: Any) -> str:
    """A field's bit positions: w0[msb:lsb] / w1[...] per piece, high piece first (64-bit forms: w1 is bits 32-63)."""
    parts = []
    for lsb, width in reversed(bf.pieces):
        word, lo = divmod(lsb, 32)
        hi = lo + width - 1
        parts.append(f"w{word}[{hi}]" if width == 1 else f"w{word}[{hi}:{lo}]")
    return " ".join(parts)


def _spelling(form: Any) -> str:
    """The assembler's spelling: mnemonic, each modifier group as [.A|.B] (optional when one option is empty), operands by role."""
    text = form.mnemonic
    for m in form.mods:
        options = [t for t, _ in m.options]
        shown = "|".join(o for o in options if o)
        if not shown:
            continue
        text += f"[{shown}]" if "" in options else f"{{{shown}}}"
    roles = [o.role for o in form.operands]
    if form.guard == "ctrl":
        roles.insert(0, "[Cn.cond]")
    elif form.guard == "dst" and roles:
        roles[0] += " [(Cn.cond)]"
    return f"{text} {', '.join(roles)}" if roles else text


class Forms(SphinxDirective):
    """The instruction forms of golden/g80/table.py, grouped by functional unit and format."""

    def run(self) -> list[nodes.Node]:
        from golden.g80.form import SIZE
        from golden.g80.table import CATALOG, FORMS

        out: list[nodes.Node] = []
        fmt_rows = [(_code(fmt), str(SIZE[fmt] * 8), _codes(f"{n} {_bits(bf)}" for n, bf in fields.items())) for fmt, fields in CATALOG.items()]
        out.append(section(self, "Formats and their fields", "formats", [table(["format", "bits", "fields (name, bit positions)"], fmt_rows, [1, 1, 12])]))
        units = {"int": "Integer unit and control", "fp": "Floating-point unit", "sfu": "Special-function unit"}
        for unit, title in units.items():
            rows = []
            for f in sorted((f for f in FORMS if f.unit == unit), key=lambda f: (f.family, f.name)):
                used = set(f.fixed)
                for piece in [*f.mods, *f.operands]:
                    used |= piece.fields()
                if f.guard != "none":
                    used |= {"pcond", "preg"}
                fixed = _codes(f"{k}={v:#x}" for k, v in f.fixed.items())
                fields = _codes(f"{n} {_bits(f.fields[n])}" for n in sorted(used - set(f.fixed)))
                free = f.extract(f.match_value)
                if "pcond" in free:  # unguarded: the condition printed as nothing
                    free["pcond"] = f.guard_default
                example = f.render(f.extract(f.encode(free)))
                rows.append((_code(f.name), f.family, f.fmt, _code(_spelling(f)), _code(example), fixed, fields or "(none)", f.doc))
            out.append(section(self, title, unit, [table(["form", "family", "format", "spelling", "example: free fields 0, no guard", "identified by", "operand and modifier fields", "what it does"], rows, [2, 2, 1, 5, 4, 3, 6, 4])]))
        return out


class CommitSchema(SphinxDirective):
    """Every registered ISA's commit record (golden/isas.py; each declared on golden/isa/record.py),
    field by field. An ISA whose model is still to come declares none and has no section."""

    def run(self) -> list[nodes.Node]:
        from golden.isa.record import fields_of
        from golden.isas import ISAS

        out: list[nodes.Node] = []
        for isa in (isa for isa in ISAS.values() if isa.commit_module):
            schema = isa.commit_schema
            parts: list[nodes.Node] = [nodes.paragraph("", "", nodes.Text("Declared in "), _code(schema.source), nodes.Text("."))]
            for cls in schema.classes():
                rows = []
                for f in fields_of(cls):
                    compared = "yes" if f.compared else f"no: {f.why}"
                    rows.append((_code(f.name), _code(f.type), f.default, compared, f.doc))
                intro = nodes.paragraph(cls.__doc__, cls.__doc__)
                parts.append(section(self, cls.__name__, f"{isa.name}-{cls.__name__}", [intro, table(["field", "type", "default", "compared", "meaning"], rows, [2, 3, 2, 3, 8])]))
            out.append(section(self, f"{isa.name}: {isa.title}", isa.name, parts))
        return out


GENERATED = re.compile(r"^```\{(?:argparse|g80-[\w-]+|eval-rst)\}", re.M)


def _always_reread(app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """The pages that generate their content from the code: read again on every build.

    What they show depends on modules the build cannot list (a parser's choices come from constants
    elsewhere, a form's spelling from the syntax classes), and reading them takes a second or two.
    """
    out = []
    for docname in env.found_docs:
        path = Path(env.doc2path(docname))
        if path.suffix == ".md" and GENERATED.search(path.read_text(encoding="utf-8")):
            out.append(docname)
    return out


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("env-get-outdated", _always_reread)
    for name, directive in (("g80-make-targets", MakeTargets), ("g80-profiles", Profiles), ("g80-findings", Findings), ("g80-forms", Forms), ("g80-commit-schema", CommitSchema)):
        app.add_directive(name, directive)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
