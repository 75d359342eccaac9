"""golden.g80.arith.sfu against testdata/vectors/sfu.txt, FP_SFU.md statements (sections 9-12, 14),
and the generated table module against testdata/reference/sfu_tables.json."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from conftest import TESTDATA

from golden.g80.arith import sfu, sfu_rom
from golden.g80.vectors import SFU_OPS, Vector, read_vectors, sfu_operation

ROOT = Path(__file__).resolve().parents[1]
TABLES = TESTDATA / "reference" / "sfu_tables.json"
CNAN = 0x7FFFFFFF


def u32(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.uint32)


def one(fn: Callable[[np.ndarray], np.ndarray], x: int) -> int:
    r = fn(u32(x))
    assert r.dtype == np.uint32 and r.shape == (1,)
    return int(r[0])


# ----------------------------------------------------------------------------------------------
# 1. the reference vectors (pre-op lines also check the sin/cos/ex2 follow-ups on the code)

FOLLOW_UPS = {"sin": sfu.sin, "cos": sfu.cos, "ex2": sfu.ex2}


@pytest.fixture(scope="module")
def sfu_vectors() -> list[Vector]:
    return list(read_vectors(TESTDATA / "vectors" / "sfu.txt"))


def test_sfu_ops_all_known(sfu_vectors: list[Vector]) -> None:
    unknown = sorted({v.op for v in sfu_vectors} - set(SFU_OPS))
    assert not unknown, f"sfu.txt has ops this suite does not run: {unknown}"
    follow = sorted({k for v in sfu_vectors for k in v.then} - set(FOLLOW_UPS))
    assert not follow, f"sfu.txt has follow-ups this suite does not run: {follow}"


@pytest.mark.parametrize("op", SFU_OPS)
def test_sfu_vectors(op: str, sfu_vectors: list[Vector]) -> None:
    lines = [v for v in sfu_vectors if v.op == op]
    if not lines:
        pytest.skip(f"no {op} lines in sfu.txt")
    fn = getattr(sfu, op)
    bad = []
    values = 0
    for v in lines:
        res = one(fn, sfu_operation(v).x)
        values += 1
        problems = [] if res == v.result else [f"{op} got {res:08x}"]
        for name, want in v.then.items():
            values += 1
            got = int(FOLLOW_UPS[name](u32(res))[0])
            if got != want:
                problems.append(f"{name} got {got:08x}")
        if problems:
            bad.append(f"{v.where()}: {v.text}  " + ", ".join(problems))
    assert not bad, f"{len(bad)}/{len(lines)} {op} lines differ ({values} values):\n" + "\n".join(bad[:20])


# ----------------------------------------------------------------------------------------------
# 2. the generated table module


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_sfu_rom", ROOT / "scripts" / "gen_sfu_rom.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rom_module_is_regenerated_from_json() -> None:
    text = _generator().render(TABLES)
    checked_in = (ROOT / "golden" / "g80" / "arith" / "sfu_rom.py").read_text(encoding="utf-8")
    assert text == checked_in, "golden/g80/arith/sfu_rom.py is stale: run .venv/bin/python scripts/gen_sfu_rom.py"


def test_rom_fields_match_signed_values_and_image() -> None:
    # 9.1: a '-' column is stored as an n-bit field with an implied sign bit: value = field - 2^n;
    # the ROM image holds A, then B_field << 10 | C_field (<< 11 for sin), zero elsewhere
    data = json.loads((TABLES).read_text(encoding="utf-8"))
    rom = sfu_rom.ROM_IMAGE_26BIT
    layout = {"rcp": (0x000, 0x200, 10), "rsqrt": (0x080, 0x280, 10), "sin": (0x100, 0x300, 11), "ex2": (0x140, 0x340, 10), "lg2": (0x180, 0x380, 10)}
    used = set()
    for fn, (a_base, bc_base, c_bits) in layout.items():
        up = fn.upper()
        values = {col: getattr(sfu_rom, f"{up}_{col}") for col in "ABC"}
        fields = {col: getattr(sfu_rom, f"{up}_{col}_FIELD") for col in "ABC"}
        for k, col in enumerate("ABC"):
            bits = getattr(sfu_rom, f"{up}_STORED_BITS")[k]
            negative = data[fn]["coefficients"][col]["implied_sign"] == "-"
            for v, f in zip(values[col], fields[col], strict=True):
                assert 0 <= f < 1 << bits
                assert v == (f - (1 << bits) if negative else f), (fn, col)
        for i in range(data[fn]["entries"]):
            assert rom[a_base + i] == fields["A"][i]
            assert rom[bc_base + i] == fields["B"][i] << c_bits | fields["C"][i]
            used.update((a_base + i, bc_base + i))
    assert all(rom[w] == 0 for w in range(1024) if w not in used)


# ----------------------------------------------------------------------------------------------
# 3. directed tests: values stated in FP_SFU.md


def _sq_by_rows(r: int) -> int:
    """9.2 written out: row i adds r >> (18 - i) when r[i] is set; the sum is halved."""
    return sum(r >> (18 - i) for i in range(17) if r >> i & 1) >> 1


def test_sq_is_the_truncated_multiplier() -> None:
    assert _sq_by_rows(0x1FFFF) == 32759  # 9.2: not floor(0x1ffff^2 / 2^19) = 32767
    assert int(sfu.SQ_TABLE[0x1FFFF]) == 32759
    assert int(sfu.SQ_TABLE.max()) == 32759
    assert sfu.SQ_TABLE.tolist() == [_sq_by_rows(r) for r in range(1 << 17)]


@pytest.mark.parametrize(
    ("x", "expect"),
    [  # 11.1 and trap 11
        (0x3F800000, 0x3F800000), (0x3F800001, 0x3F7FFFFE), (0xC0000021, 0xBEFFFFBE),
        (0x00000000, 0x7F800000), (0x80000000, 0xFF800000), (0x00000001, 0x7F800000), (0x807FFFFF, 0xFF800000),
        (0x7F800000, 0x00000000), (0xFF800000, 0x80000000), (0x7FC00000, CNAN), (0xFF800001, CNAN),
        (0x7E800000, 0x00800000), (0xFE800000, 0x80800000),  # rcp(+-2^126) = +-2^-126
        (0x7E800001, 0x00000000), (0x7F000000, 0x00000000), (0xFF7FFFFF, 0x80000000),  # larger -> +-0
        (0x40000000, 0x3F000000), (0x00800000, 0x7E800000),  # exact powers of two
    ],
)  # fmt: skip
def test_rcp(x: int, expect: int) -> None:
    assert one(sfu.rcp, x) == expect


@pytest.mark.parametrize(
    ("x", "expect"),
    [  # 11.2 and trap 11
        (0x40000000, 0x3F3504F2), (0x3F000000, 0x3FB504F2), (0x40800000, 0x3F000000), (0x3F800000, 0x3F800000),
        (0x3E800000, 0x40000000),  # rsqrt(1/4) = 2, exact power of 4
        (0x00000000, 0x7F800000), (0x80000000, 0xFF800000), (0x80000001, 0xFF800000),
        (0xBF800000, CNAN), (0xFF800000, CNAN), (0x7F800000, 0x00000000), (0x7FC00000, CNAN),
    ],
)  # fmt: skip
def test_rsqrt(x: int, expect: int) -> None:
    assert one(sfu.rsqrt, x) == expect


@pytest.mark.parametrize(
    ("x", "expect"),
    [  # 11.3 and trap 12
        (0x40000000, 0x3F800000), (0x40800000, 0x40000000), (0x7F000000, 0x42FE0000),
        (0x3F000000, 0xBF7FFFFE), (0x3E800000, 0xBFFFFFFF), (0x00800000, 0xC2FBFFFF),
        (0x3F800000, 0x00000000), (0x00000000, 0xFF800000), (0x80000000, 0xFF800000), (0x00000001, 0xFF800000),
        (0xBF800000, CNAN), (0x7F800000, 0x7F800000), (0xFF800000, CNAN), (0x7FC00000, CNAN),
    ],
)  # fmt: skip
def test_lg2(x: int, expect: int) -> None:
    assert one(sfu.lg2, x) == expect


def test_presin_sin_cos_chain() -> None:
    # 12.1 example chain; sin(-0) = -0; cos(+-0) = 1.0
    assert one(sfu.presin, 0x3F800000) == 0x00517CC1
    assert one(sfu.sin, 0x00517CC1) == 0x3F576AA3
    assert one(sfu.cos, 0x00517CC1) == 0x3F0A5141
    assert one(sfu.presin, 0x80000000) == 0x80000000
    assert one(sfu.sin, 0x80000000) == 0x80000000
    assert one(sfu.cos, 0x80000000) == 0x3F800000
    assert one(sfu.cos, 0x00000000) == 0x3F800000


def test_rro_special_codes() -> None:
    # 10: NaN -> 0x40000000, inf -> 0x40800000, zero -> 0, each with the input's sign; FTZ
    for fn in (sfu.presin, sfu.preex2):
        assert one(fn, 0x7FC00000) == 0x40000000
        assert one(fn, 0xFF800001) == 0xC0000000
        assert one(fn, 0x7F800000) == 0x40800000
        assert one(fn, 0xFF800000) == 0xC0800000
        assert one(fn, 0x807FFFFF) == 0x80000000
    # preex2: |x| >= 128 -> the infinity code; 7.23 fixed point truncated toward zero
    assert one(sfu.preex2, 0x43000000) == 0x40800000
    assert one(sfu.preex2, 0xC3000000) == 0xC0800000
    assert one(sfu.preex2, 0x3FC00000) == 0x00C00000
    assert one(sfu.preex2, 0x3EFFFFFB) == 0x003FFFFE  # 0xfffffb >> 2, truncated (not rounded)
    # presin: no wide argument reduction, exponent >= 33 gives V = 0
    assert one(sfu.presin, 0x50000000) == 0x00000000  # 2^33
    assert one(sfu.presin, 0xD0800000) == 0x80000000  # -2^34


def test_sin_cos_of_special_codes() -> None:
    # 12.1: K[7] set (NaN code, infinity code) -> CNAN, for both
    for code in (0x40000000, 0x40800000, 0xC0800000, 0x7FFFFFFF):
        assert one(sfu.sin, code) == CNAN
        assert one(sfu.cos, code) == CNAN


def test_sin_cos_quadrants() -> None:
    # 12.1 applied to the document's chain presin(1.0) = 0x00517cc1 -> sin 0x3f576aa3, cos 0x3f0a5141:
    # only K[1:0] matter, odd quadrants mirror the fraction (ones' complement), quadrants 2 and 3
    # and a negative code flip the sign, cos = sin one quadrant on with the code's sign dropped
    g0 = 0x517CC1
    mirrored = ~g0 & 0x7FFFFF
    sin_1, cos_1 = 0x3F576AA3, 0x3F0A5141
    assert one(sfu.sin, 0x02000000 | g0) == sin_1  # K = 4: quadrant 0 again
    assert one(sfu.sin, 0x01000000 | g0) == sin_1 | 0x80000000  # K = 2
    assert one(sfu.sin, 0x80000000 | g0) == sin_1 | 0x80000000  # sin(-1)
    assert one(sfu.sin, 0x00800000 | mirrored) == sin_1  # quadrant 1 mirrors back onto G0
    assert one(sfu.sin, 0x01800000 | mirrored) == sin_1 | 0x80000000  # quadrant 3
    assert one(sfu.sin, 0x00800000 | g0) == cos_1  # cos = sin of the next quadrant
    assert one(sfu.cos, 0x80000000 | g0) == cos_1  # cos(-1) = cos(1)
    assert one(sfu.cos, 0x00800000 | mirrored) == cos_1 | 0x80000000  # K = 2 after the +1: negative
    # the code is not unpacked as a float: a "denormal" code is not flushed
    assert one(sfu.sin, 0x00000001) != 0


def test_ex2() -> None:
    # 12.2 examples
    assert one(sfu.ex2, 0x00C00000) == 0x403504F3  # preex2(1.5) -> 2^1.5
    assert one(sfu.ex2, 0x40800000) == 0x7F800000  # +inf code
    assert one(sfu.ex2, 0xC0800000) == 0x00000000  # -inf code
    assert one(sfu.ex2, 0x40000000) == CNAN
    assert one(sfu.ex2, 0x00000000) == 0x3F800000
    assert one(sfu.ex2, 0x80000000) == 0x3F800000
    assert one(sfu.ex2, one(sfu.preex2, 0xC2FC0000)) == 0x00800000  # ex2(-126) = 2^-126 exactly
    assert one(sfu.ex2, one(sfu.preex2, 0xC2FC0001)) == 0x00000000  # x < -126 -> +0 (FTZ)
    assert one(sfu.ex2, one(sfu.preex2, 0x42FFFFFF)) == 0x7F7FFFA8  # ex2(127.99999)
    assert one(sfu.ex2, 0x3F800000) == 0x7F000000  # 2^127 fits


def test_ex2_sat() -> None:
    # 12.2 / trap 7: .sat applies to every output, including the special codes
    def sat(x: int) -> int:
        return int(sfu.ex2(u32(x), sat=True)[0])

    assert sat(0x40800000) == 0x3F800000  # SAT(+inf) = 1.0
    assert sat(0x40000000) == CNAN
    assert sat(0xC0800000) == 0x00000000
    assert sat(0x00000000) == 0x3F800000  # 2^0 = 1.0
    assert sat(0x00C00000) == 0x3F800000  # any positive code -> >= 1.0 -> 1.0
    assert sat(0x80800000) == 0x3F000000  # 2^-1 (exact for a zero fraction): below 1.0, unchanged


# ----------------------------------------------------------------------------------------------
# 4. vectorisation


SFU_FUNCS: list[tuple[str, Callable[[np.ndarray], np.ndarray]]] = [
    ("rcp", sfu.rcp), ("rsqrt", sfu.rsqrt), ("lg2", sfu.lg2), ("presin", sfu.presin), ("preex2", sfu.preex2),
    ("sin", sfu.sin), ("cos", sfu.cos), ("ex2", sfu.ex2), ("ex2.sat", lambda x: sfu.ex2(x, sat=True)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "fn"), SFU_FUNCS, ids=[n for n, _ in SFU_FUNCS])
def test_vectorised_equals_lane_by_lane(name: str, fn: Callable[[np.ndarray], np.ndarray]) -> None:
    rng = np.random.default_rng(7)
    x = rng.integers(0, 1 << 32, 500, dtype=np.uint32)
    x[:8] = [0, 0x80000000, 1, 0x7F800000, 0xFF800000, 0x7FC00000, 0x40800000, 0x3F800000]
    res = fn(x)
    assert res.shape == (500,) and res.dtype == np.uint32
    for i in range(500):
        assert int(fn(x[i : i + 1])[0]) == int(res[i]), (name, hex(int(x[i])))


def test_scalar_and_2d_inputs() -> None:
    assert int(sfu.rcp(np.uint32(0x40000000))) == 0x3F000000
    r = sfu.rcp(np.array([[0x40000000, 0x3F800000]], dtype=np.uint32))
    assert r.shape == (1, 2) and r.tolist() == [[0x3F000000, 0x3F800000]]


# ----------------------------------------------------------------------------------------------
# 5. the generated Verilog ROM include of rtl/sm1_sfu.v

VH_PATH = ROOT / "rtl" / "gen" / "sm1_sfu_rom.vh"


def test_rom_include_is_regenerated_from_json() -> None:
    text = _generator().render_verilog(TABLES)
    assert text == VH_PATH.read_text(encoding="utf-8"), "rtl/gen/sm1_sfu_rom.vh is stale: run .venv/bin/python scripts/gen_sfu_rom.py"


def test_rom_include_holds_the_image_and_constants() -> None:
    # read back from the Verilog text itself: every case item is the JSON's ROM word, the words
    # left to `default` are the zero ones, and the localparams are the JSON's 9.3 constants
    data = json.loads((TABLES).read_text(encoding="utf-8"))
    text = VH_PATH.read_text(encoding="utf-8")
    assert text.startswith("// Generated by scripts/gen_sfu_rom.py") and "do not edit" in text.splitlines()[0]
    items: dict[int, int] = {}
    block = None
    for line in text.splitlines():  # case (addr[9:6]) of 64-word blocks, each a case (addr[5:0])
        if m := re.match(r"\s*4'h([0-9a-f]): case \(addr\[5:0\]\)", line):
            block = int(m[1], 16)
        elif m := re.match(r"\s*6'h([0-9a-f]{2}): sm1_sfu_rom = 26'h([0-9a-f]{7});$", line):
            assert block is not None
            items[block << 6 | int(m[1], 16)] = int(m[2], 16)
    assert "    sm1_sfu_rom = 26'h0000000;" in text  # the words of no block
    rom = data["rom_image_26bit"]
    assert len(items) == 2 * sum(data[fn]["entries"] for fn in ("rcp", "rsqrt", "sin", "ex2", "lg2"))
    assert [items.get(addr, 0) for addr in range(1024)] == rom
    params = dict(re.findall(r"^localparam (?:integer|\[\d+:0\]) (SM1_SFU_\w+) = (?:\d+'h)?([0-9a-f]+);", text, re.M))
    for fn in ("rcp", "rsqrt", "sin", "ex2", "lg2"):
        interp = data[fn]["interp"]
        up = fn.upper()
        assert int(params[f"SM1_SFU_{up}_A_SH"]) == interp["A_shift"]
        assert int(params[f"SM1_SFU_{up}_C_SH"]) == interp["C_shift"]
        assert int(params[f"SM1_SFU_{up}_BIAS"], 16) == interp["bias"]
    bases = {"RCP": 0x000, "RSQRT": 0x080, "SIN": 0x100, "EX2": 0x140, "LG2": 0x180, "BC": 0x200}  # the JSON's rom_image text
    assert {k: int(params[f"SM1_SFU_ROM_{k}"], 16) for k in bases} == bases


def test_generator_check_exits_1_when_either_file_is_stale(tmp_path: Path) -> None:
    gen = _generator()
    json_path = TABLES
    py, vh = tmp_path / "sfu_rom.py", tmp_path / "sm1_sfu_rom.vh"
    args = ["--json", str(json_path), "--out", str(py), "--vh-out", str(vh)]
    assert gen.main([*args, "--check"]) == 1  # neither exists
    assert gen.main(args) == 0
    assert py.read_text(encoding="utf-8") == (ROOT / "golden" / "g80" / "arith" / "sfu_rom.py").read_text(encoding="utf-8")
    assert vh.read_text(encoding="utf-8") == VH_PATH.read_text(encoding="utf-8")
    assert gen.main([*args, "--check"]) == 0
    for stale in (py, vh):
        good = stale.read_text(encoding="utf-8")
        stale.write_text(good.replace("3fffffe", "3fffffd", 1), encoding="utf-8")  # rcp A[0], in both files
        assert gen.main([*args, "--check"]) == 1, stale.name
        stale.write_text(good, encoding="utf-8")
    assert gen.main([*args, "--check"]) == 0


def test_generator_refuses_a_layout_the_rtl_does_not_decode(tmp_path: Path) -> None:
    gen = _generator()
    data = json.loads((TABLES).read_text(encoding="utf-8"))
    bad_word = json.loads(json.dumps(data))
    bad_word["rom_image_26bit"][0x300] ^= 1  # sin B/C word 0 no longer matches the fields
    bad_sign = json.loads(json.dumps(data))
    bad_sign["lg2"]["coefficients"]["C"]["implied_sign"] = "+"
    for name, bad in (("word", bad_word), ("sign", bad_sign)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(ValueError):
            gen.render_verilog(path)
