"""testdata/ holds exactly the files testdata/PROVENANCE.md lists, with the sha256 it records, and
each copy is still the file it was copied from when ../shared is beside the project."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from conftest import SHARED, TESTDATA

# `| `file` | `../shared/...` or how it was made | upstream | authority | `sha256` |`
_ROW = re.compile(r"^\| `(?P<path>[^`]+)` \| (?P<source>.*?) \|.*\| `(?P<sha>[0-9a-f]{64})` \|$")


def _rows() -> dict[str, tuple[str, str]]:
    rows = {}
    for line in (TESTDATA / "PROVENANCE.md").read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            assert m.group("path") not in rows, f"PROVENANCE.md lists {m.group('path')} twice"
            rows[m.group("path")] = (m.group("source"), m.group("sha"))
    return rows


ROWS = _rows()
COPIES = {path: source.strip("`").removeprefix("../shared/") for path, (source, _) in ROWS.items() if source.startswith("`../shared/")}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_file_is_listed_with_its_hash() -> None:
    files = {p.relative_to(TESTDATA).as_posix() for p in TESTDATA.rglob("*") if p.is_file() and p.name != "PROVENANCE.md"}
    assert len(ROWS) >= 20
    assert files == set(ROWS), f"not in PROVENANCE.md: {sorted(files - set(ROWS))}; listed but missing: {sorted(set(ROWS) - files)}"
    wrong = [path for path, (_, sha) in ROWS.items() if _sha256(TESTDATA / path) != sha]
    assert not wrong, f"changed since PROVENANCE.md recorded them: {wrong}"


@pytest.mark.parametrize("path", sorted(COPIES))
def test_copy_matches_its_source(path: str) -> None:
    source = SHARED / COPIES[path]
    if not source.is_file():
        pytest.skip(f"{source} is not there (no {SHARED} beside the project): nothing to compare the copy with")
    assert _sha256(source) == _sha256(TESTDATA / path), f"testdata/{path} differs from {source}: copy it again and update PROVENANCE.md"
