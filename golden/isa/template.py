"""Kernel templates (`NAME.sass.in`): one program text, several problem sizes.

A template names its sizes on lines `#size NAME: VAR=EXPR, ...` (a variable may use earlier
ones); `${EXPR}` or `${EXPR:FORMAT}` in the text is replaced by the value of a Python expression
over one size's variables, and a line `#include FILE` inserts FILE (beside the template) there.
Nothing here knows an instruction set: G80's and Fermi's kernels are expanded alike
(scripts/gen_kernels.py writes them; docs/reference/program-format.md, "Kernel templates").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

SIZE_LINE = re.compile(r"#size\s+(\w+)\s*:\s*(.*)$")
FIELD = re.compile(r"\$\{([^}:]+)(?::([^}]*))?\}")
INCLUDE = re.compile(r"#include\s+(\S+)\s*$")


class TemplateError(Exception):
    pass


def sizes(path: Path, text: str, required: Iterable[str]) -> dict[str, dict[str, int]]:
    """The `#size NAME: VAR=EXPR, ...` lines of a template, evaluated in order; the template must
    name exactly the sizes in `required`."""
    out: dict[str, dict[str, int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = SIZE_LINE.match(line.strip())
        if not m:
            continue
        env: dict[str, int] = {}
        for item in m.group(2).split(","):
            name, eq, expr = item.partition("=")
            if not eq or not name.strip().isidentifier():
                raise TemplateError(f"{path}:{number}: expected VAR=EXPR in {item.strip()!r}")
            env[name.strip()] = evaluate(expr, env, path, number)
        out[m.group(1)] = env
    want = list(required)
    if set(out) != set(want):
        lines = " and ".join(f"'#size {s}: ...'" for s in want)
        raise TemplateError(f"{path}: needs {lines} lines (has {sorted(out) or 'none'})")
    return out


def evaluate(expr: str, env: dict[str, int], path: Path, number: int) -> int:
    try:
        value = eval(expr, {"__builtins__": {"min": min, "max": max, "len": len, "int": int}}, dict(env))
    except Exception as e:
        raise TemplateError(f"{path}:{number}: cannot evaluate {expr.strip()!r}: {e}") from None
    return value


def expand(path: Path) -> str:
    """The template's text with its `#include` lines replaced by the files they name."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = INCLUDE.match(line.strip())
        if m:
            inc = path.parent / m.group(1)
            if not inc.exists():
                raise TemplateError(f"{path}: #include {m.group(1)}: no file {inc}")
            out.append(expand(inc))
        else:
            out.append(line)
    return "\n".join(out)


def render(path: Path, size: str, required: Iterable[str], header: str) -> str:
    """One size of a template: `header` (a comment line, `{desc}` replaced by the size's variables)
    and then the text without its `#size` lines and with every `${...}` replaced."""
    text = expand(path)
    env = sizes(path, text, required)[size]
    desc = ", ".join(f"{k}={v}" for k, v in env.items())
    lines = [header.format(desc=desc)]
    for number, line in enumerate(text.splitlines(), 1):
        if SIZE_LINE.match(line.strip()):
            continue
        lines.append(FIELD.sub(lambda m, n=number: format(evaluate(m.group(1), env, path, n), m.group(2) or ""), line))
    return "\n".join(lines) + "\n"
