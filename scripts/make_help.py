"""`make help`: the make targets and their variables, from scripts/targets.toml.

Standard library only, so `make help` runs on the system python3 before .venv exists. The manual's
make-targets page (docs/_ext/g80docs.py) reads the same file through `load()`.
"""

from __future__ import annotations

import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "targets.toml"
COLUMN = 24  # where descriptions start: after "make check-listing" and most usage lines
WIDTH = 130


@dataclass(frozen=True)
class Variable:
    name: str
    default: str
    meaning: str


@dataclass(frozen=True)
class Target:
    name: str
    usage: str
    description: str
    variables: tuple[Variable, ...]


class TargetsError(Exception):
    """scripts/targets.toml is malformed: the message names the entry and the key."""


def load(path: Path = SOURCE) -> list[Target]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise TargetsError(f"{path}: {e}") from None
    out = []
    for i, t in enumerate(data.get("target", []), 1):
        where = f"{path}: target {i} ({t.get('name', 'no name')})"
        missing = [k for k in ("name", "usage", "description") if not isinstance(t.get(k), str)]
        if missing:
            raise TargetsError(f"{where}: needs the text key(s) {', '.join(missing)}")
        variables = []
        for v in t.get("variables", []):
            if not all(isinstance(v.get(k), str) for k in ("name", "default", "meaning")):
                raise TargetsError(f"{where}: every [[target.variables]] needs text keys name, default and meaning (default \"\" when unset)")
            variables.append(Variable(v["name"], v["default"], v["meaning"]))
        out.append(Target(t["name"], t["usage"], t["description"], tuple(variables)))
    return out


def render(targets: list[Target]) -> str:
    lines: list[str] = []
    indent = " " * COLUMN
    for t in targets:
        body = textwrap.wrap(t.description, WIDTH - COLUMN)
        if len(t.usage) < COLUMN - 1:
            lines.append(f"{t.usage:<{COLUMN}}{body[0]}")
        else:  # a long usage line gets a line of its own
            lines += [t.usage, indent + body[0]]
        lines += [indent + b for b in body[1:]]
        for v in t.variables:
            default = f" (default {v.default})" if v.default else ""
            wrapped = textwrap.wrap(f"{v.name}: {v.meaning}{default}", WIDTH - COLUMN - 2, subsequent_indent="    ")
            lines += [indent + "  " + w for w in wrapped]
    return "\n".join(lines) + "\n"


def main() -> int:
    try:
        sys.stdout.write(render(load()))
    except (TargetsError, OSError) as e:
        print(f"make help: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
