"""LG instruction words -> assembly text in the course's style.

The course wrote programs as `vcompmovi v3 1 -1.0f`: a lower-case mnemonic, operands separated by
single spaces, float immediates with a point and an `f` (the TA's unit tests, alexzhang007/CS3220_GPU
gpu_simulator/unit_test/*.s). The course had no disassembler, so that style is the canonical text:
integer immediates and offsets signed decimal, float immediates the shortest decimal that assembles
to the same bits in the program's float format, `jmp r7` as `ret` (the slides' name for it).
"""

from __future__ import annotations

from collections.abc import Sequence

from .asm import DEFAULT_FORMAT, FloatFormat, float_format
from .table import ALIASES, FIELDS, IllegalWord, Insn, decode


def _signed16(v: int) -> int:
    return v - 0x10000 if v & 0x8000 else v


def render(insn: Insn, fmt: FloatFormat | str = DEFAULT_FORMAT, target: str | None = None) -> str:
    """One instruction's canonical text; `target` names the branch target instead of the offset."""
    fmt = float_format(fmt) if isinstance(fmt, str) else fmt
    op = insn.op
    for alias, (name, fixed) in ALIASES.items():
        if op.mnemonic == name and all(insn.fields[k] == v for k, v in fixed.items()):
            return alias
    parts = [op.mnemonic]
    for name, kind in op.operands:
        v = insn.fields[name]
        if kind in ("r", "base"):
            parts.append(f"r{v}")
        elif kind == "v":
            parts.append(f"v{v}")
        elif kind == "off":
            parts.append(target if target is not None else str(v))  # the off field is signed already
        elif kind == "imm":
            parts.append(fmt.render(v) if op.imm == "float" else str(_signed16(v)))
        else:
            parts.append(str(v))
    return " ".join(parts)


def disassemble(words: Sequence[int], fmt: str = DEFAULT_FORMAT) -> list[str]:
    """Each word's canonical text, offsets as numbers (IllegalWord on a word that is no instruction)."""
    f = float_format(fmt)
    return [render(decode(w), f) for w in words]


def format_listing(words: Sequence[int], fmt: str = DEFAULT_FORMAT, keep_going: bool = False) -> tuple[list[str], list[str]]:
    """A program listing that assembles back to the same words: branch targets inside the program as
    labels `L<index>:`, each instruction with its index and word in a comment, the float format as a
    `.float` line when it is not the default. An illegal word raises IllegalWord naming its index, or
    with keep_going becomes a comment, and its message is returned."""
    f = float_format(fmt)
    decoded: list[Insn | None] = []
    errors: list[str] = []
    for i, w in enumerate(words):
        try:
            decoded.append(decode(w))
        except IllegalWord as e:
            if not keep_going:
                raise IllegalWord(f"word {i}: {e}") from None
            errors.append(f"word {i}: {e}")
            decoded.append(None)
    targets: dict[int, str] = {}
    for i, insn in enumerate(decoded):
        if insn is not None and any(k == "off" for _, k in insn.op.operands):
            t = i + 1 + insn.fields["off"]
            if 0 <= t < len(words):
                targets[t] = f"L{t}"
    lines = [] if f.name == DEFAULT_FORMAT else [f".float {f.name}"]
    for i, (w, insn) in enumerate(zip(words, decoded, strict=True)):
        if i in targets:
            lines.append(f"{targets[i]}:")
        if insn is None:
            lines.append(f"    ; {i:4d}: {w:08x}  illegal")
            continue
        t = i + 1 + insn.fields["off"] if "off" in insn.fields else None
        text = render(insn, f, targets.get(t) if t is not None else None)
        lines.append(f"    {text:<28} ; {i:4d}: {w:08x}")
    return lines, errors


assert FIELDS["off"].signed, "render() prints the off field as decoded: it must be the signed one"
