"""Instruction words -> NVIDIA cuobjdump text.

Single instructions print their markers explicitly (`.S` join, `.E` exit). In a program the
exit marker of the last instruction is implicit, as cuobjdump prints it; a program whose last
64-bit normal instruction has no exit marker starts with `.explicit_exit` so that assembling the
text gives the same words back.
"""

from __future__ import annotations

from collections.abc import Sequence

from .decoder import IllegalInstruction, Instruction, decode, size_of
from .form import LONG, MARK_EXIT


def ends_with_exit(insns: Sequence[Instruction]) -> bool:
    """Whether the program's exit can be left implicit (see assembler.assemble)."""
    last = insns[-1]
    return last.form.fmt != LONG or last.marker == MARK_EXIT


def render_program(insns: Sequence[Instruction]) -> list[str]:
    """Texts of a program's instructions, the last exit marker implicit."""
    implicit = ends_with_exit(insns)
    return [insn.render(implicit_exit=implicit and i == len(insns) - 1) for i, insn in enumerate(insns)]


def format_listing(words: Sequence[int], base: int = 0, keep_going: bool = False) -> tuple[list[str], list[IllegalInstruction]]:
    """Re-assemblable text: `/*addr*/ TEXT ; // w0 w1`. Illegal words raise, or with keep_going
    are printed as comments and returned."""
    insns: list[Instruction] = []
    errors: list[IllegalInstruction] = []
    bad: dict[int, str] = {}
    i = 0
    while i < len(words):
        addr = base + 4 * i
        try:
            insn = decode(words[i : i + 2], addr)
        except IllegalInstruction as e:
            if not keep_going:
                raise
            errors.append(e)
            n = size_of(words[i]) // 4 if len(words) - i >= size_of(words[i]) // 4 else 1
            bad[addr] = " ".join(f"{w:08x}" for w in words[i : i + n])
            i += n
            continue
        insns.append(insn)
        i += insn.size // 4
    lines: list[str] = []
    if insns and not ends_with_exit(insns):
        lines.append(".explicit_exit")
    texts = dict(zip((insn.addr for insn in insns), render_program(insns), strict=True)) if insns else {}
    addr = base
    end = base + 4 * len(words)
    while addr < end:
        if addr in bad:
            lines.append(f"// /*{addr:04x}*/ illegal: {bad[addr]}")
            addr += 4 * len(bad[addr].split())
            continue
        insn = next(x for x in insns if x.addr == addr)
        hexwords = " ".join(f"{w:08x}" for w in insn.words)
        lines.append(f"/*{addr:04x}*/ {texts[addr]:<48} // {hexwords}")
        addr += insn.size
    return lines, errors
