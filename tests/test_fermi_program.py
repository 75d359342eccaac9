"""The shared program format (golden/isa/program.py, golden/isa/expect.py, golden/isa/template.py)
and Fermi's launch of it (golden/fermi/program.py), without the Fermi assembler: a stand-in
assembler hands the directive lines over, as golden/fermi/asm.py does. Expected layouts are
written out by hand from the CUDA launch convention (FERMI.md), not computed by the code."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from golden.fermi.program import FermiSpec, launch, load_program
from golden.isa.expect import check, ulps
from golden.isa.program import AsmError, values
from golden.isa.source import Line, read_lines

ROOT = Path(__file__).resolve().parents[1]
LINE = Line("t.sass", 1, "", "", 0)


def _dict_style(source: str, file: str, directives: dict) -> SimpleNamespace:
    """A stand-in assembler that looks each directive up by name (as G80's and LG's do)."""
    lines, found = read_lines(source, file)
    for name, args, line in found:
        if name not in directives:
            raise AsmError(f"unknown directive .{name}", file, line.number, line.col + 1, line.source)
        directives[name](args, line)
    return SimpleNamespace(words=[0x1234] * len(lines), insns=[line.text for line in lines])


def _call_style(source: str, file: str, directives: Callable[[str, str, Line], None]) -> SimpleNamespace:
    """... and one that hands every directive line to one callback."""
    _, found = read_lines(source, file)
    for name, args, line in found:
        directives(name, args, line)
    return SimpleNamespace(words=[], insns=[])


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "k.sass"
    path.write_text(text, encoding="utf-8")
    return path


LAYOUT = """\
.grid 3 2
.block 64 2
.buffer a f32 10 = 1.5 2.5
.buffer b u32 300 = range(300)
.param a
.param u32 7
.param b
.param f64 0.5
.param s32 -2
.const 3 0x10 u32 0xdeadbeef
.expect b = b
        S2R R0, SR_TID.X;
        EXIT;
"""


@pytest.mark.parametrize("assemble", [_dict_style, _call_style], ids=["dict", "callable"])
def test_launch_layout_follows_the_cuda_convention(tmp_path: Path, assemble: Callable[..., SimpleNamespace]) -> None:
    spec = load_program(_write(tmp_path, LAYOUT), assemble)
    assert isinstance(spec, FermiSpec)
    # a: 40 bytes at 0x100 (the first buffer), b: 1200 bytes at the next 256-byte boundary 0x200
    assert (spec.buffers["a"].addr, spec.buffers["b"].addr) == (0x100, 0x200)
    assert spec.global_size == 0x200 + 0x500
    run = launch(spec)
    bank0 = bytes(run.const_banks[0][:0x48])
    want = bytes(8)  # c[0x0][0x0..0x7]: left zero
    want += struct.pack("<6I", 64, 2, 1, 3, 2, 1)  # ntid.x/y/z at 0x8, nctaid.x/y/z at 0x14
    want += struct.pack("<Q", 0x100)  # 0x20: a
    want += struct.pack("<I", 7) + bytes(4)  # 0x28: 7, then padding to 8 bytes for the pointer
    want += struct.pack("<Q", 0x200)  # 0x30: b
    want += struct.pack("<d", 0.5)  # 0x38: the double, 8-byte aligned already
    want += struct.pack("<i", -2) + bytes(4)  # 0x40: -2; the rest of the bank is zero
    assert bank0 == want
    assert run.const_banks[1][0x100:0x104] == struct.pack("<I", 0x1000)  # MOV R1, c[0x1][0x100]: the stack top
    assert run.const_banks[3][0x10:0x14] == struct.pack("<I", 0xDEADBEEF)
    assert run.grid == (3, 2, 1) and run.block == (64, 2, 1)
    assert run.global_memory[0x100:0x108] == struct.pack("<2f", 1.5, 2.5)
    assert run.global_memory[0x200 + 4 * 299 : 0x200 + 4 * 300] == struct.pack("<I", 299)


@pytest.mark.parametrize(
    ("directive", "message"),
    [
        (".registers 64", r"k.sass:1:1: error: .registers: 64 registers a thread: sm_20 has 1..63"),
        (".shared 0xc004", r"k.sass:1:1: error: .shared: 49156 bytes: a block has at most"),
        (".block 32 32 2", r"k.sass:1:1: error: .block: block \(32, 32, 2\): at most"),
        (".grid 70000", r"k.sass:1:1: error: .grid: grid \(70000, 1\)"),
        (".const 0 0x8 u32 5", r"k.sass:1:1: error: .const: c\[0x0\]\[0x8..0xc\] overlaps the launch dimensions"),
        (".const 1 0xfe u32 5", r"k.sass:1:1: error: .const: c\[0x1\]\[0xfe..0x102\] overlaps the stack pointer"),
        (".const 2 0xfffe u32 5", r"k.sass:1:1: error: .const: c\[0x2\]\[0xfffe\] \+ 4 bytes is past"),
        (".buffer x f16 4", r"k.sass:1:1: error: .buffer: expected '.buffer NAME TYPE COUNT"),
        (".param nothing", r"k.sass:1:1: error: .param: unknown buffer 'nothing'"),
    ],
)
def test_a_bad_launch_names_its_line(tmp_path: Path, directive: str, message: str) -> None:
    path = _write(tmp_path, f"{directive}\n        EXIT;\n")
    with pytest.raises(AsmError, match=message):
        load_program(path, _dict_style)


def test_an_unknown_directive_is_an_error_at_its_line_for_a_single_callback(tmp_path: Path) -> None:
    path = _write(tmp_path, "        EXIT;\n.headerflags @\"EF_CUDA_SM20\"\n")
    with pytest.raises(AsmError, match=r"k.sass:2:1: error: unknown directive .headerflags \(known: .grid"):
        load_program(path, _call_style)


def test_the_parameter_area_is_bounded(tmp_path: Path) -> None:
    params = "".join(".param u32 1\n" for _ in range(1017))  # 0x20 + 1017 * 4 = 0x1004 > 0x1000
    with pytest.raises(AsmError, match=r"k.sass:1017:1: error: .param: the parameters end at c\[0x0\]\[0x1004\]"):
        load_program(_write(tmp_path, params + "EXIT;\n"), _dict_style)


def test_initialisers_of_64_bit_types() -> None:
    # 0x3ff0000000000000 is 1.0 (IEEE binary64: exponent 1023, fraction 0)
    assert values("0x3ff0000000000000 -2.5", "f64", None, LINE).tolist() == [1.0, -2.5]
    assert values("-1 0x8000000000000000", "u64", None, LINE).tolist() == [2**64 - 1, 2**63]
    assert values("-1 200", "s8", None, LINE).tolist() == [-1, -56]  # 200 wraps to 200 - 256
    r = values("random(3)", "u64", 4, LINE)
    assert r.dtype == np.uint64 and r.size == 4 and len(set(r.tolist())) == 4


def test_float_distance_in_ulp_for_both_widths() -> None:
    one32, one64 = np.array([1.0], np.float32).view(np.uint32), np.array([1.0], np.float64).view(np.uint64)
    next32 = np.array([np.nextafter(np.float32(1), np.float32(2))], np.float32).view(np.uint32)
    assert ulps(one32, next32).tolist() == [1]
    three_up = np.array([1.0 + 3 * 2.0**-52], np.float64).view(np.uint64)
    assert ulps(one64, three_up, 64).tolist() == [3]
    # -0 and +0 are 0 apart; the smallest subnormals either side of zero are 2 apart
    assert ulps(np.array([0x8000000000000000], np.uint64), np.array([0], np.uint64), 64).tolist() == [0]
    assert ulps(np.array([0x8000000000000001], np.uint64), np.array([1], np.uint64), 64).tolist() == [2]


def test_expectations_of_a_f64_buffer(tmp_path: Path) -> None:
    src = ".buffer d f64 2 = 1.0 2.0\n.expect d ulp=1 = d * 3\n.expect d = d * 3\n.expect d f64 3.0\n        EXIT;\n"
    spec = load_program(_write(tmp_path, src), _dict_style)
    mem = bytearray(launch(spec).global_memory)
    final = np.array([3.0, np.nextafter(6.0, 7.0)], np.float64)  # the second one ulp above 6
    mem[0x100:0x110] = final.tobytes()
    results = check(spec, lambda addr, n: bytes(mem[addr : addr + n]))
    assert [r.passed for r in results] == [True, False, True]
    assert "1 of 2 elements differ: [1] expected 6.0 (0x4018000000000000) got 6.000000000000001 (0x4018000000000001)" in results[1].detail


def test_kernel_templates_of_both_isas_are_generated() -> None:
    """scripts/gen_kernels.py --check covers programs/fermi/kernels/ as well as programs/kernels/."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_kernels.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    templates = sorted(p.name.removesuffix(".sass.in") for p in (ROOT / "programs" / "fermi" / "kernels").glob("*.sass.in"))
    assert len(templates) >= 12
    for name in templates:
        assert (ROOT / "programs" / "fermi" / "kernels" / f"{name}.sass").exists()
        assert (ROOT / "bench" / "fermi" / "kernels" / f"{name}.sass").exists()


def test_every_fermi_program_has_expectations_and_every_bad_one_an_error_line() -> None:
    """Each program of programs/fermi/ checks something, and each of programs/fermi/bad/ says which
    error it must end in (tests/test_fermi_programs.py assembles and runs them all on the model)."""
    programs = sorted((ROOT / "programs" / "fermi").glob("*.sass")) + sorted((ROOT / "programs" / "fermi" / "kernels").glob("*.sass"))
    assert len(programs) >= 12 + 11
    for path in programs:
        assert ".expect " in path.read_text(encoding="utf-8"), f"{path}: no .expect"
    bad = sorted((ROOT / "programs" / "fermi" / "bad").glob("*.sass"))
    assert len(bad) >= 6
    for path in bad:
        assert "// error: " in path.read_text(encoding="utf-8"), f"{path}: no '// error:' line"


FERMI = ROOT / "programs" / "fermi"
PROGRAMS = sorted(FERMI.glob("*.sass")) + sorted((FERMI / "kernels").glob("*.sass")) + sorted((ROOT / "bench" / "fermi" / "kernels").glob("*.sass"))
PARAM_COMMENT = re.compile(r"^\.param\s.*#.*c\[0x0\]\[(0x[0-9a-f]+)\]")


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_fermi_programs_launch_where_their_comments_say(path: Path) -> None:
    """Every Fermi program's directives load within sm_20's limits, and each parameter sits at the
    c[0x0] offset its comment names (the offset the code reads it from, worked out by hand)."""
    spec = load_program(path, _dict_style)
    said = [int(m.group(1), 16) for m in map(PARAM_COMMENT.match, path.read_text(encoding="utf-8").splitlines()) if m]
    layout = [0x20 + offset for offset, _ in spec.param_layout(8)]
    assert said == layout[: len(said)] and len(said) in (0, len(layout)), f"{path}: comments {said}, launch {layout}"
    assert launch(spec).const_banks[0][0x8:0xC] == struct.pack("<I", spec.block[0])


DIRECTIVE_ERRORS = [p for p in sorted((FERMI / "bad").glob("*.sass")) if "// error: ." in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", DIRECTIVE_ERRORS, ids=lambda p: p.name)
def test_bad_directives_end_in_one_located_error_line(path: Path) -> None:
    """The bad programs whose fault is a directive fail in the program format itself, with the
    message their `// error:` line names, at the directive's line."""
    want = re.search(r"// error: (.*)", path.read_text(encoding="utf-8")).group(1).strip()
    with pytest.raises(AsmError) as info:
        load_program(path, _call_style)
    head = info.value.format().splitlines()[0]
    assert want in head and head.startswith(f"{path}:") and ": error: " in head, head
