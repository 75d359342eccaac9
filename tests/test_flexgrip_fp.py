"""The `flexgrip` profile's FPU, SFU and RRO (golden.g80.arith.flexgrip_fp, flexgrip_sfu,
flexgrip_rro) and its integer switches (golden.g80.arith.intops under FLEXGRIP) against FlexGripPlus's
own VHDL under GHDL (tb/flexgrip_units: fpu_single, sfu, rro, scalar_processor), against observations
of FlexGripPlus recorded in ../shared/reference/FLEXGRIPPLUS.md, and against numpy where
FlexGripPlus is IEEE or close to the true function; the SFU ROM module against a regeneration
from the VHDL; plus run-flexgrip's handling of undefined (`uuuuuuuu`) words in FlexGripPlus dumps.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT, SHARED, TESTDATA

from golden.g80.arith import flexgrip_fp as ffp
from golden.g80.arith import flexgrip_rro as frro
from golden.g80.arith import flexgrip_sfu as fsfu
from golden.g80.flexgrip_bundle import read_expected, run_bundle

sys.path.insert(0, str(ROOT / "tb" / "flexgrip_units"))
import harness

KERNELS = TESTDATA / "vectors" / "flexgrip_kernels"


def _bits(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float32).view(np.uint32)


# ---------------------------------------------------------------------------------------------
# FlexGripPlus's VHDL under GHDL, bit for bit (a few thousand operands per operation here;
# scripts/flexgrip_units.py runs 100,000)

UNIT_COUNTS = {"fadd_rm0": 3000, "fmul_rm0": 3000, "fmad_rm0": 3000, "f2u": 2000, "f2s": 2000, "u2f": 2000, "s2f": 2000,
               "fadd_rm2": 500, "fmul_rm2": 500, "fmad_rm2": 500, "fadd_rm1": 300, "fmul_rm1": 300, "fmad_rm1": 300,
               "fadd_rm3": 300, "fmul_rm3": 300, "fmad_rm3": 300, "fneg": 200, "fabs": 200, "fmov": 200}  # fmt: skip
UNIT_COUNTS.update({name: 200 for name in harness.OPS if name.startswith("fset")})
UNIT_COUNTS.update({"rro_sincos": 2000, "rro_ex2": 2000})
# the scalar processor (integer ALU): the operations the profile's integer switches shape
UNIT_COUNTS.update({name: 500 for name, op in harness.OPS.items() if op.unit == "sp"})
# FlexGripPlus's SFU is slow to simulate (its squarer's processes loop on every delta cycle)
UNIT_COUNTS.update(dict.fromkeys(("rcp", "rsq", "lg2", "ex2", "sin", "cos"), 640 if harness.backend() == "llvm" else 160))


@pytest.mark.skipif(harness.unavailable() is not None, reason=str(harness.unavailable()))
def test_units_match_flexgrip_vhdl(tmp_path: Path) -> None:
    res = harness.run_ops(UNIT_COUNTS, seed=20261124, build_dir=tmp_path)  # one GHDL simulation per unit
    for name, count in UNIT_COUNTS.items():
        assert res.counts.get(name, 0) >= count, name
    assert not res.mismatches, "\n".join(m for v in res.mismatches.values() for m in v[:5])


@pytest.mark.skipif(harness.unavailable() is not None, reason=str(harness.unavailable()))
def test_unit_check_tells_the_profiles_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scalar-processor comparison has teeth: with G80's integer semantics in place of the
    `flexgrip` switches, FlexGripPlus's VHDL disagrees on subtraction carries, saturation,
    LOP.PASS_B and the S flag."""
    from golden.g80.profile import G80

    monkeypatch.setattr(harness, "FLEXGRIP", G80)
    res = harness.run_ops({"isub32": 200, "iadd32_sat": 200, "lop_pass_b32": 200, "iadd16": 200}, seed=5, build_dir=tmp_path)
    assert set(res.mismatches) == {"isub32", "iadd32_sat", "lop_pass_b32", "iadd16"}


# ---------------------------------------------------------------------------------------------
# independent facts


def test_vectoradd_float_observation() -> None:
    """FLEXGRIPPLUS.md section 10: FlexGripPlus (GHDL) adds 0x3e9b2e17 + 0x410cb1f8 to 0x41118b68,
    one ulp below IEEE's 0x41118b69 (its adder drops the bits it shifts out)."""
    assert ffp.fadd_bits(0x3E9B2E17, 0x410CB1F8) == 0x41118B68
    ieee = _bits(np.float32(np.uint32(0x3E9B2E17).view(np.float32)) + np.uint32(0x410CB1F8).view(np.float32))
    assert int(ieee) == 0x41118B69


def test_fmul_is_ieee_for_normal_results() -> None:
    rng = np.random.default_rng(3)
    a = rng.uniform(-1e3, 1e3, 4000).astype(np.float32)
    b = rng.uniform(-1e3, 1e3, 4000).astype(np.float32)
    got = ffp.fmul(_bits(a), _bits(b))
    assert np.array_equal(got, _bits(a * b))


def test_fadd_is_ieee_when_no_bit_is_shifted_out() -> None:
    """Positive operands with equal exponents: the aligned sum is exact before rounding."""
    rng = np.random.default_rng(4)
    e = rng.integers(1, 250, 4000, dtype=np.uint32) << np.uint32(23)
    a = e | rng.integers(0, 1 << 23, 4000, dtype=np.uint32)
    b = e | rng.integers(0, 1 << 23, 4000, dtype=np.uint32)
    assert np.array_equal(ffp.fadd(a, b), _bits(a.view(np.float32) + b.view(np.float32)))


# FADD results of FlexGripPlus's fpu_single under GHDL (tb/flexgrip_units) where its subtractor's
# pipeline is read before it settles (a denormal operand): the rounder combines two partial results,
# or the exception stage sees a transient exponent above 254. (a, b, rmode, FlexGripPlus's result)
FADD_TRANSIENTS = [(0x80000007, 0x8135A1D1, 0, 0x816B439C), (0x000006C7, 0x81258877, 0, 0x814B0A28),
                   (0x8013C79E, 0x0C000000, 0, 0x0B800000), (0x007FFFFF, 0x817E937B, 0, 0x817D26F8),
                   (0x0063ED7D, 0x8091638B, 0, 0xFF800000), (0x0048A5AC, 0x80800000, 0, 0xFF800000),
                   (0x00000003, 0x818BF7A2, 0, 0xFF800000), (0x807FFFFF, 0x00BB6FE4, 0, 0x7F800000),
                   (0x8057A2A9, 0x0096A7FB, 2, 0x00000000)]  # fmt: skip


@pytest.mark.parametrize(("a", "b", "rmode", "want"), FADD_TRANSIENTS)
def test_fadd_pipeline_transients(a: int, b: int, rmode: int, want: int) -> None:
    assert ffp.fadd_bits(a, b, rmode) == want


# Examples of the FlexGripPlus bugs of docs/guides/flexgrip-findings.md, "Bugs of the floating-point units",
# with the results FlexGripPlus's fpu_single gave for them
# under GHDL (tb/flexgrip_units, one run of exactly these operands).
BUG_EXAMPLES = [
    ("fmul", (0x00400000, 0x3FFFFFFF, 0), 0x00000000),  # a denormal rounding up to 2^-126 gives 0
    ("fmul", (0x7F800000, 0x40000000, 0), 0x7FC00000),  # inf * 2 is a NaN
    ("fmul", (0x7F000000, 0x7F000000, 2), 0x00000000),  # overflow under a truncating mode gives +0
    ("fmul", (0x7F000000, 0x7F000000, 1), 0x7F7FFFFF),  # rmode 01: the largest finite number
    ("fmad", (0xE7CDFBAA, 0x1F800000, 0x47CDFBAA), 0xC8CC8116),  # exact cancellation: the fill's leftover
    ("u2f", (0xFFFFFFFF,), 0x4F000000),  # the rounding carry is lost: 2^31
    ("f2u", (0xBF400000,), 0xFFFFFFFF),  # -0.75 gives all ones
    ("f2s", (0x4F000000,), 0x00000000),  # 2^31 gives 0
    ("f2s", (0xCF000000,), 0x00000000),  # -2^31 gives 0
    ("f2s", (0x4F800000,), 0x80000000),  # 2^32 gives 0x80000000
]


@pytest.mark.parametrize(("op", "args", "want"), BUG_EXAMPLES)
def test_flexgrip_bug_examples(op: str, args: tuple[int, ...], want: int) -> None:
    fn = {"fmul": lambda a, b, rm: ffp.fmul_bits(a, b, rm), "fmad": ffp.fmad_bits, "u2f": lambda x: ffp.i2f_bits(x, False),
          "f2u": ffp.f2u_bits, "f2s": ffp.f2s_bits}[op]  # fmt: skip
    assert fn(*args) == want


def test_two_negative_operands_subtract_magnitudes() -> None:
    """fpu_single sends an FADD with any negative operand to fpu_sub, which takes |a| - |b| with the
    larger's sign: (-1) + (-2) gives -(2 - 1) = -1 (a FlexGripPlus bug, docs/guides/flexgrip-findings.md,
    "Bugs of the floating-point units")."""
    assert ffp.fadd_bits(0xBF800000, 0xC0000000) == 0xBF800000


def test_conversions_match_numpy_in_range() -> None:
    rng = np.random.default_rng(5)
    ints = rng.integers(-(1 << 24), 1 << 24, 4000).astype(np.int64)
    assert np.array_equal(ffp.conv(ffp.S2F, ints.astype(np.uint32)), _bits(ints.astype(np.float32)))
    x = rng.uniform(-1e6, 1e6, 4000).astype(np.float32)
    assert np.array_equal(ffp.conv(ffp.F2S, _bits(x)).view(np.int32), np.rint(x).astype(np.int32))


def _f(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def test_sfu_close_to_the_functions() -> None:
    """Independent sanity: FlexGripPlus's interpolation is within 2^-20 (relative) of the true
    function on ordinary inputs, exact on powers of two for RCP and LG2."""
    rng = np.random.default_rng(6)
    xs = rng.uniform(0.01, 1000.0, 300).astype(np.float32)
    for selop, fn in ((fsfu.RCP, lambda v: 1 / v), (fsfu.RSQ, lambda v: v**-0.5), (fsfu.LG2, np.log2)):
        got = fsfu.sfu(selop, xs.view(np.uint32)).view(np.float32).astype(np.float64)
        want = fn(xs.astype(np.float64))
        assert np.all(np.abs(got - want) <= 2**-20 * np.maximum(np.abs(want), 1e-3)), selop
    for k in range(-20, 21):
        assert fsfu.sfu_bits(_f(2.0**k), fsfu.RCP) == _f(2.0**-k)
        assert fsfu.sfu_bits(_f(2.0**k), fsfu.LG2) == _f(float(k))


def test_rro_then_sfu_close_to_sin_cos_ex2() -> None:
    rng = np.random.default_rng(7)
    for x in rng.uniform(-50.0, 50.0, 200).astype(np.float32).tolist():
        r = frro.rro_sincos_bits(_f(x))
        for selop, fn in ((fsfu.SIN, np.sin), (fsfu.COS, np.cos)):
            got = float(np.uint32(fsfu.sfu_bits(r, selop)).view(np.float32))
            assert abs(got - fn(np.float64(x))) < 2e-6, (x, selop)
        e = frro.rro_ex2_bits(_f(x / 4))
        got = float(np.uint32(fsfu.sfu_bits(e, fsfu.EX2)).view(np.float32))
        assert abs(got / 2.0 ** np.float64(np.float32(x / 4)) - 1) < 2e-6, x


def test_sfu_special_inputs() -> None:
    """sfu.vhd's SFU_Exceptions: RCP(+-0) = +-inf, LG2(0) = -inf, LG2(negative) = 0xffffffff, RSQ(+0) = +inf."""
    assert fsfu.sfu_bits(0x00000000, fsfu.RCP) == 0x7F800000
    assert fsfu.sfu_bits(0x80000000, fsfu.RCP) == 0xFF800000
    assert fsfu.sfu_bits(0x00000000, fsfu.LG2) == 0xFF800000
    assert fsfu.sfu_bits(0xBF800000, fsfu.LG2) == 0xFFFFFFFF
    assert fsfu.sfu_bits(0x00000000, fsfu.RSQ) == 0x7F800000


def test_sfu_rom_module_matches_the_vhdl() -> None:
    """golden/g80/arith/flexgrip_sfu_rom.py is what scripts/gen_flexgrip_sfu_rom.py makes of the VHDL."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import gen_flexgrip_sfu_rom as gen

    if not (gen.sfu_dir() / "ROM.vhd").is_file():
        pytest.skip(f"no FlexGripPlus checkout at {gen.sfu_dir()} (FLEXGRIP_DIR)")
    assert gen.OUT_PATH.read_text(encoding="utf-8") == gen.render(gen.read_rom())


# ---------------------------------------------------------------------------------------------
# undefined words in FlexGripPlus dumps (run-flexgrip)


def _bundle_with_log(tmp_path: Path, edit: callable) -> Path:
    for suffix in (".txt", ".gmem.mif", ".expected.log"):
        shutil.copy(KERNELS / f"cos_soft{suffix}", tmp_path / f"cos_soft{suffix}")
    log = tmp_path / "cos_soft.expected.log"
    log.write_text(edit(log.read_text().splitlines()))
    return tmp_path / "cos_soft.txt"


def test_undefined_words_are_counted_not_compared(tmp_path: Path) -> None:
    def edit(lines: list[str]) -> str:
        lines[5] = lines[5].split()[0] + " uuuuuuuu"
        lines[9] = lines[9].split()[0] + " XXXXXXXX"
        return "\n".join(lines) + "\n"

    path = _bundle_with_log(tmp_path, edit)
    lines = (tmp_path / "cos_soft.expected.log").read_text().splitlines()
    r = run_bundle(path)
    assert r.undefined == sorted([int(lines[5].split()[0], 16), int(lines[9].split()[0], 16)])
    assert not r.int_failed and not r.float_failed
    assert r.int_passed + r.float_passed == len(lines) - 2


def test_cli_names_undefined_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from golden.cli import main

    path = _bundle_with_log(tmp_path, lambda lines: "\n".join([*lines[:3], lines[3].split()[0] + " uuuuuuuu", *lines[4:]]) + "\n")
    addr = int((tmp_path / "cos_soft.expected.log").read_text().splitlines()[3].split()[0], 16)
    assert main(["run-flexgrip", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"1 undefined (U/X) words in the dump, not compared: {addr:#07x}" in out


def test_malformed_word_names_file_and_line(tmp_path: Path) -> None:
    log = tmp_path / "bad.expected.log"
    log.write_text("00000 00000001\n00004 12g45678\n")
    with pytest.raises(ValueError, match=r"bad.expected.log:2:"):
        read_expected(log)


# ---------------------------------------------------------------------------------------------
# FlexGripPlus applications (../shared/flexgripplus/applications) through run-flexgrip

APPS = SHARED / "flexgripplus" / "applications"


def _app_bundle(tmp_path: Path, app: str, name: str, expected: Path | None = None) -> Path:
    sys.path.insert(0, str(ROOT / "scripts"))
    import flexgrip_app_bundle

    if not (APPS / app / "TP_instructions.vhd").is_file():
        pytest.skip(f"no FlexGripPlus application {APPS / app}")
    return flexgrip_app_bundle.make_bundle(APPS / app, name, tmp_path, expected)


def test_app_bundle_reads_an_application_as_the_shared_bundle_does(tmp_path: Path) -> None:
    """scripts/flexgrip_app_bundle.py on applications/cos/soft gives the launch, parameters,
    constants and code of testdata/vectors/flexgrip_kernels/cos_soft.txt (made independently)."""
    from golden.g80.flexgrip_bundle import load_bundle

    mine, theirs = load_bundle(_app_bundle(tmp_path, "cos/soft", "cos_soft")), load_bundle(KERNELS / "cos_soft.txt")
    assert (mine.block, mine.grid, mine.registers, mine.shared, mine.blocks_per_core) == (
        theirs.block, theirs.grid, theirs.registers, theirs.shared, theirs.blocks_per_core)
    assert (mine.params, mine.consts, mine.code) == (theirs.params, theirs.consts, theirs.code)


def test_log2_soft_matches_flexgrip_dump(tmp_path: Path) -> None:
    """applications/Log2/soft (a software log2: FADD32I with a negative immediate, FMUL32I, FMAD32I,
    FADD of a negated register) against the authors' dump, which FLEXGRIPPLUS.md section 7 lists as
    consistent with the shipped input: every word exact."""
    r = run_bundle(_app_bundle(tmp_path, "Log2/soft", "Log2_soft"))
    assert not r.int_failed and not r.float_failed, (r.int_failed + r.float_failed)[:5]
    assert r.float_passed == 1024


# applications whose FlexGripPlus GHDL dump is kept in testdata/flexgrip_apps (PROVENANCE.md):
# (application folder, bundle name, words the kernel computed with FP/SFU instructions)
GHDL_APPS = [("Log2/hard", "Log2_hard", 1024), ("exp", "exp", 64), ("cos/hard", "cos_hard", 1024), ("sin/hard", "sin_hard", 64), ("nn", "nn", 1024)]


@pytest.mark.parametrize(("app", "name", "fp_words"), GHDL_APPS)
def test_app_matches_flexgrip_ghdl_output(tmp_path: Path, app: str, name: str, fp_words: int) -> None:
    """An application (LG2; RRO.EX2 + EX2; RRO.SINCOS + COS or SIN; FMAD + RSQ + RCP) against FlexGripPlus's own GHDL run: every dumped word exact."""
    dump = TESTDATA / "flexgrip_apps" / f"{name}.ghdl.log"
    r = run_bundle(_app_bundle(tmp_path, app, name, dump))
    assert not r.int_failed and not r.float_failed, (r.int_failed + r.float_failed)[:5]
    assert r.int_passed + r.float_passed == len(dump.read_text().splitlines()) and r.float_passed == fp_words
