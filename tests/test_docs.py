"""The manual (`make docs`): it builds with warnings as errors, its generated reference pages say
what the code holds, it renders offline in headless Chromium, and the make targets' one source
(scripts/targets.toml) agrees with the Makefile and with `make help`."""

from __future__ import annotations

import html
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from pngshot import CHROMIUM, png_rgb, screenshot

ROOT = Path(__file__).resolve().parents[1]
BUILT = ROOT / "build" / "docs" / "html"
STAMP = ROOT / "build" / "docs" / "html.ok"  # make docs touches it after a build without warnings
SOURCES = [ROOT / "docs", ROOT / "golden", ROOT / "tb", ROOT / "randgen", ROOT / "scripts", ROOT / "requirements.txt"]


def _newest_source() -> float:
    newest = 0.0
    for top in SOURCES:
        for p in [top] if top.is_file() else top.rglob("*"):
            if p.is_file() and "__pycache__" not in p.parts:
                newest = max(newest, p.stat().st_mtime)
    return newest


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built manual: make docs's when `make test` just built it cleanly from these sources, else a fresh build."""
    if STAMP.exists() and (BUILT / "index.html").exists() and STAMP.stat().st_mtime > _newest_source():
        return BUILT
    out = tmp_path_factory.mktemp("docs")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)  # fmt: skip
    assert done.returncode == 0, f"the manual does not build without warnings:\n{done.stderr[-4000:]}"
    return out / "html"


def _text(page: Path) -> str:
    """The visible text of a built page's article (tags dropped, entities decoded)."""
    body = re.search(r"<article[^>]*>(.*)</article>", page.read_text(encoding="utf-8"), re.S)
    assert body, page
    return html.unescape(re.sub(r"<[^>]+>", " ", body.group(1)))


def _rows(page: Path) -> list[list[str]]:
    """The body rows of every table of a page, each as its cells' text."""
    out = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page.read_text(encoding="utf-8"), re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        if cells:
            out.append([" ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in cells])
    return out


# -- generated pages against the code ---------------------------------------------------------------


def test_forms_page_has_one_row_per_form_with_its_bits(site: Path) -> None:
    from golden.g80.table import FORMS

    rows = {r[0]: r for r in _rows(site / "reference" / "forms.html") if len(r) == 8}
    assert set(rows) == {f.name for f in FORMS}
    # IADD's destination: ISA.md 1.3 puts a long instruction's dst in w0 bits 2-8
    assert "dst w0[8:2]" in rows["IADD"][6], rows["IADD"]
    assert rows["IADD"][2] == "long" and rows["IADD"][4].startswith("IADD")


def test_profiles_page_gives_every_switch_its_value_in_both_profiles(site: Path) -> None:
    rows = {r[0]: r for r in _rows(site / "reference" / "profiles.html") if len(r) == 5}
    source = (ROOT / "golden" / "g80" / "profile.py").read_text(encoding="utf-8")
    declared = re.findall(r"^    (\w+): (?:bool|int) = switch\(", source, re.M)
    assert declared and set(rows) == set(declared)
    # the values as FLEXGRIP = replace(G80, ...) spells them in the source
    flexgrip = dict(re.findall(r"^    (\w+)=(\w+),", source[source.index("FLEXGRIP = replace(") :], re.M))
    assert rows["global_addr_bits"][1:3] == ["0", flexgrip["global_addr_bits"]]
    assert rows["c2r_dest_r0"][1:3] == ["False", "True"] and "c2r_writes_r0" in rows["c2r_dest_r0"][4]


def test_findings_page_has_every_finding(site: Path) -> None:
    source = (ROOT / "golden" / "g80" / "flexgrip_findings.py").read_text(encoding="utf-8")
    names = re.findall(r"^    Finding\(\n        \"(\w+)\",", source, re.M)
    text = _text(site / "reference" / "findings.html")
    assert len(names) > 40
    missing = [n for n in names if n not in text]
    assert not missing


def test_cli_page_covers_every_script_with_a_parser(site: Path) -> None:
    page = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    with_parser = sorted(p.stem for p in (ROOT / "scripts").glob("*.py") if "def _parser()" in p.read_text(encoding="utf-8"))
    assert len(with_parser) > 15
    assert [s for s in with_parser if f":module: scripts.{s}\n" not in page] == []
    text = _text(site / "reference" / "cli.html")
    for option in ("--dut", "--num-sp", "--visibility", "--check", "--profile", "--shrink"):
        assert option in text, option


def test_commit_schema_lists_the_records_fields(site: Path) -> None:
    rows = {r[0] for r in _rows(site / "reference" / "commit-schema.html")}
    # DESIGN.md section 4's fields, and RegWrite's and MemWrite's
    assert {"cta", "warp", "seq", "pc", "insn", "active_mask", "exec_mask", "gpr", "cc", "addr", "mem", "next_pc", "next_mask", "done"} <= rows
    assert {"kind", "index", "values", "half", "space", "size", "lanes", "data"} <= rows


def test_api_page_documents_something_of_every_module(site: Path) -> None:
    modules = re.findall(r"^\.\. automodule:: ([\w.]+)$", (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8"), re.M)
    page = (site / "reference" / "api.html").read_text(encoding="utf-8")
    assert {"golden.g80.sm", "golden.g80.run", "tb.scoreboard", "randgen"} <= set(modules)
    assert [m for m in modules if f'id="{m}.' not in page] == []


# -- offline rendering ------------------------------------------------------------------------------


EXTERNAL = [
    re.compile(r"<(?:script|img|source|iframe|video|audio|embed)\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//", re.I),
    re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?(?:https?:)?//", re.I),
    re.compile(r"url\(\s*[\"']?(?:https?:)?//", re.I),
    re.compile(r"@import\s+[\"']?(?:url\()?\s*[\"']?(?:https?:)?//", re.I),
    re.compile(r"\b(?:importScripts|fetch|import)\s*\(\s*[\"'](?:https?:)?//", re.I),
]


def test_site_loads_nothing_from_the_network(site: Path) -> None:
    files = [p for p in site.rglob("*") if p.suffix in (".html", ".css", ".js")]
    assert len(files) > 10
    found = [(p.relative_to(site), m.group(0)) for p in files for pat in EXTERNAL for m in pat.finditer(p.read_text(encoding="utf-8", errors="replace"))]
    assert found == []
    # the patterns do catch what they are for
    assert all(any(pat.search(s) for pat in EXTERNAL) for s in ('<script src="https://cdn.x/a.js">', "<link rel=stylesheet href=//f.io/c.css>", "src: url(https://f/x.woff2)"))


def _ink(png: Path) -> tuple[float, float]:
    """(dark fraction, light fraction) of a screenshot's pixels: text on the page's light background."""
    _, _, rgb = png_rgb(png)
    n = len(rgb) // 3
    dark = light = 0
    for i in range(0, len(rgb), 3):
        level = rgb[i] + rgb[i + 1] + rgb[i + 2]
        dark += level < 3 * 100
        light += level > 3 * 230
    return dark / n, light / n


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (scripts/setup.sh installs the Debian package)")
def test_index_and_forms_render_offline_in_headless_chromium(site: Path, tmp_path: Path) -> None:
    """Each page, with every network request refused, shows a light page with text on it; an empty
    page (the control) does not pass the same check, and Chromium writes no screenshot of a page
    that fails to load."""
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>", encoding="utf-8")
    screenshot(site / "no-such-page.html", tmp_path / "missing.png")
    assert not (tmp_path / "missing.png").exists()
    shots = {}
    for name, page in (("index", site / "index.html"), ("forms", site / "reference" / "forms.html"), ("blank", blank)):
        png = tmp_path / f"{name}.png"
        done = screenshot(page, png)
        assert png.exists(), done.stderr[-2000:]
        shots[name] = _ink(png)
    for name in ("index", "forms"):
        dark, light = shots[name]
        # the index is short (a paragraph and the tables of contents): about 0.8 % of its pixels are dark
        assert light > 0.5 and dark > 0.003, (name, shots)
    assert shots["blank"][0] < 0.003, shots


# -- make targets --------------------------------------------------------------------------------


def _make_help_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_help", ROOT / "scripts" / "make_help.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_help"] = module
    spec.loader.exec_module(module)
    return module


def _phony() -> list[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return [t for line in re.findall(r"^\.PHONY:(.*)$", makefile, re.M) for t in line.split()]


def test_targets_source_lists_the_makefiles_phony_targets() -> None:
    targets = _make_help_module().load()
    names = [t.name for t in targets]
    assert len(names) == len(set(names))
    assert sorted(names) == sorted(_phony())


def test_targets_source_variables_are_the_makefiles() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assigned = dict(re.findall(r"^(\w+) \?= ?(.*)$", makefile, re.M))
    for t in _make_help_module().load():
        for v in t.variables:
            assert f"$({v.name})" in makefile, f"make {t.name}: {v.name} is not read by the Makefile"
            value = assigned.get(v.name)
            if value is not None and "$(" not in value:
                assert v.default == value.strip(), f"make {t.name}: {v.name} defaults to {value!r} in the Makefile, {v.default!r} in scripts/targets.toml"


def test_make_help_prints_every_target() -> None:
    done = subprocess.run(["make", "-s", "help"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    shown = {m.group(1) for m in re.finditer(r"^make ([\w-]+)", done.stdout, re.M)}
    assert shown == set(_phony()), sorted(shown ^ set(_phony()))
