"""The golden model's fast paths (the scoreboard's cost per commit) against the general
paths they shortcut, on generated inputs of every class. The general paths are what the vectors
(../shared/vectors: fp32.txt, int.txt; tests/test_vectors.py, tests/test_fp.py) and the programs
check; each fast path must give the same bits wherever it is taken, and leave the rest to the
general path (faults included):

- `fp.fmad` on 32-lane uint32 arrays (`_fmad_normal`, float64) and `_fmad_bits`'s float64 shortcut
  against FP_SFU.md 4.2's datapath step by step (`_fmad_datapath`): denormals, zeros, NaN
  payloads, infinities, results at the normal/denormal and overflow edges, rounding ties;
- the integer ALU with `flags=False` (no $c write) against the same call with its flags;
- `SM.shared_load_uniform` (g [offset] of one warp) against `SM.shared_load`;
- `Memory.load_words` / `store_words` and the whole-warp GLD/GST/LLD/LST path of `SM` (`Batch.full`)
  against the byte-wise loads and stores, commit records included;
- the scoreboard's `_port_keys` (all requests in one array) against the per-request keys.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from golden.errors import MemoryFault
from golden.g80.arith import fp, intops
from golden.g80.assembler import assemble
from golden.g80.memory import Memory
from golden.g80.profile import FLEXGRIP, G80, Profile
from golden.g80.sm import SM, Batch, _mask_bits
from golden.g80.state import SHARED_BYTES, Launch

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
LANES = 32

# ---------------------------------------------------------------------------------------------
# f32 operands by class


def _f32(sign: int, exp: int, frac: int) -> int:
    return (sign << 31) | (exp << 23) | frac


_FRAC = st.one_of(st.integers(0, (1 << 23) - 1), st.sampled_from([0, 1, 2, (1 << 22), (1 << 22) + 1, (1 << 23) - 2, (1 << 23) - 1]))
NORMAL = st.builds(_f32, st.integers(0, 1), st.integers(1, 254), _FRAC)
EDGE_NORMAL = st.builds(_f32, st.integers(0, 1), st.sampled_from([1, 2, 3, 24, 25, 100, 126, 127, 128, 200, 252, 253, 254]), _FRAC)
MODERATE = st.builds(_f32, st.integers(0, 1), st.integers(64, 190), _FRAC)  # products and sums far from the range's ends
DENORMAL = st.builds(_f32, st.integers(0, 1), st.just(0), st.integers(1, (1 << 23) - 1))
ZERO = st.sampled_from([0, 0x80000000])
INFINITY = st.sampled_from([0x7F800000, 0xFF800000])
NAN = st.builds(_f32, st.integers(0, 1), st.just(255), st.integers(1, (1 << 23) - 1))  # every payload, quiet or signalling
F32 = st.one_of(NORMAL, NORMAL, EDGE_NORMAL, DENORMAL, ZERO, INFINITY, NAN)


def _as_float(bits: int) -> float:
    return float(np.uint32(bits).view(np.float32))


@st.composite
def fmad_lanes(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """32 lanes of (a, b, c). Most lanes are all-normal (the fast paths' domain); c is often made
    from the truncated product itself: its negation (exact cancellation), the product scaled by a
    power of two near 1 (exponents a few apart: rounding ties and carries), or scaled so that the
    sum lands near 2^-126, 2^-125 or 2^127/2^128 (the shortcut's edges)."""
    a, b, c = [], [], []
    # half the examples: operands whose products and sums stay normal, so that every lane takes the
    # shortcut and fp.fmad's 32-lane path (_fmad_normal) answers; the others mix every class and edge
    uniform = draw(st.booleans())
    for _ in range(LANES):
        x = draw(MODERATE if uniform else F32)
        y = draw(MODERATE if uniform else F32)
        how = draw(st.sampled_from(["any", "cancel", "near", "near"] if uniform else ["any", "cancel", "near", "near", "tiny", "huge"]))
        z = draw(MODERATE if uniform else F32)
        p = _as_float(x) * _as_float(y)
        if how != "any" and np.isfinite(p) and p != 0:
            trunc = float((np.array([p]).view(np.int64) & fp._TRUNC24).view(np.float64)[0])  # the product as the datapath truncates it
            if how == "cancel":
                want = -trunc
            elif how == "near":
                want = -trunc * 2.0 ** draw(st.integers(-3, 3)) * draw(st.sampled_from([1.0, -1.0]))
            elif how == "tiny":
                want = -trunc + draw(st.sampled_from([1.0, -1.0])) * 2.0 ** draw(st.integers(-128, -123))
            else:
                want = draw(st.sampled_from([1.0, -1.0])) * 2.0 ** draw(st.integers(126, 128)) - trunc
            with np.errstate(all="ignore"):
                w = np.float32(want)
            if np.isfinite(w):
                z = int(np.array([w], np.float32).view(np.uint32)[0])
                # a few units of the last place either way
                z = (z & 0x80000000) | max(0, min(0x7F7FFFFF, (z & 0x7FFFFFFF) + draw(st.integers(-2, 2))))
        a.append(x)
        b.append(y)
        c.append(z)
    return tuple(np.array(v, np.uint32) for v in (a, b, c))  # type: ignore[return-value]


@SETTINGS
@given(fmad_lanes(), st.booleans())
def test_fmad_fast_paths_agree_with_the_datapath(lanes: tuple[np.ndarray, np.ndarray, np.ndarray], sat: bool) -> None:
    a, b, c = lanes
    want = fp._fmad_datapath(a.astype(np.int64), b.astype(np.int64), c.astype(np.int64))
    if sat:
        want = fp.saturate(want)
    got, flags = fp.fmad(a, b, c, sat)  # 32-lane arrays: _fmad_normal when every lane is normal, else run_lanes/_fmad_bits
    assert got.dtype == np.uint32 and got.shape == (LANES,)
    bad = np.flatnonzero(got.astype(np.int64) != want)
    assert bad.size == 0, [f"fmad({a[i]:#010x}, {b[i]:#010x}, {c[i]:#010x}) = {got[i]:#010x}, datapath {want[i]:#010x}" for i in bad[:4]]
    assert np.array_equal(flags, fp.fp_flags(want.astype(np.uint32)))
    assert fp.fmad(a, b, c, sat, flags=False)[1] is None
    if not sat:  # _fmad_bits's own float64 shortcut, lane by lane
        assert np.array_equal(fp._fmad_bits(a.astype(np.int64), b.astype(np.int64), c.astype(np.int64)), want)


@SETTINGS
@given(st.lists(MODERATE, min_size=LANES, max_size=LANES), st.lists(MODERATE, min_size=LANES, max_size=LANES),
       st.lists(MODERATE, min_size=LANES, max_size=LANES), st.integers(0, LANES - 1), st.tuples(EDGE_NORMAL, EDGE_NORMAL, EDGE_NORMAL), st.booleans())  # fmt: skip
def test_fmad_normal_takes_or_declines(a: list[int], b: list[int], c: list[int], lane: int, edge: tuple[int, int, int], use_edge: bool) -> None:
    """`_fmad_normal` either gives the datapath's bits for all 32 lanes or declines (None), never a
    partly right answer; it declines only when some lane's result is outside its range (one lane
    of normal operands at the exponent range's edges in half the examples)."""
    x, y, z = (np.array(v, np.uint32) for v in (a, b, c))
    if use_edge:
        x[lane], y[lane], z[lane] = edge
    want = fp._fmad_datapath(x.astype(np.int64), y.astype(np.int64), z.astype(np.int64))
    got = fp._fmad_normal(x, y, z)
    if got is not None:
        assert np.array_equal(got.astype(np.int64), want)
    else:
        mag = want & 0x7FFFFFFF
        assert ((mag < 0x01000000) | (mag >= 0x7F000000)).any()  # some result below 2^-125 or from 2^127 up


def test_fmad_normal_declines_every_class_but_normal() -> None:
    one = np.full(LANES, 0x3F800000, np.uint32)
    for special in (0, 0x80000000, 1, 0x807FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF):
        for k in range(3):
            ops = [one.copy(), one.copy(), one.copy()]
            ops[k][5] = special
            assert fp._fmad_normal(*ops) is None, (k, hex(special))


# ---------------------------------------------------------------------------------------------
# integer ALU: flags=False gives the same result

U32S = st.lists(st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF])),
                min_size=8, max_size=8).map(lambda v: np.array(v, np.uint32))  # fmt: skip
PROFILES = st.sampled_from([G80, FLEXGRIP])


OPERATIONS = ["iadd", "imad", "isad", "imul16", "imul24", "iminmax", "shl", "shr", "logic", "i2i"]


def _integer_call(name: str, p: dict, a: np.ndarray, b: np.ndarray, c: np.ndarray, cin: np.ndarray, prof: Profile, flags: bool):
    w, sg = p["width"], p["signed"]
    if name == "iadd":
        return intops.iadd(p["op"], w, p["sat"], a, b, cin, prof, flags=flags)
    if name == "imad":
        return intops.imad(p["kind"], p["op"], a, b, c, cin, prof, flags=flags)
    if name == "isad":
        return intops.isad(sg, w, a, b, c, prof, flags=flags)
    if name == "imul16":
        return intops.imul16(sg, p["sat"], a, b, prof, flags=flags)
    if name == "imul24":
        return intops.imul24(sg, p["sat"], a, b, prof, flags=flags)
    if name == "iminmax":
        return intops.iminmax(p["sat"], sg, w, a, b, prof, flags=flags)
    if name == "shl":
        return intops.shl(w, a, b & np.uint32(63), prof, flags=flags)
    if name == "shr":
        return intops.shr(sg, w, a, b & np.uint32(63), prof, flags=flags)
    if name == "logic":
        return intops.logic(p["op"], w, sg, p["sat"], a, b, prof, flags=flags)
    return intops.i2i(sg, p["dst"], p["kind"] & 7, p["sat"], p["neg"], a, prof, flags=flags)


@SETTINGS
@given(st.sampled_from(OPERATIONS), PROFILES, U32S, U32S, U32S, U32S,
       st.fixed_dictionaries({"width": st.sampled_from([16, 32]), "signed": st.booleans(), "sat": st.booleans(), "neg": st.booleans(),
                              "op": st.integers(0, 3), "kind": st.integers(0, 15), "dst": st.sampled_from([8, 16, 32])}))  # fmt: skip
def test_integer_results_do_not_depend_on_the_flags(name: str, prof: Profile, a: np.ndarray, b: np.ndarray, c: np.ndarray, cin: np.ndarray,
                                                    p: dict) -> None:  # fmt: skip
    """An instruction without a $c write skips the flags (and, for the adder, C and O unless it
    saturates): the result must be the same array as with them."""
    cin = cin & np.uint32(1)
    full = _integer_call(name, p, a, b, c, cin, prof, True)
    bare = _integer_call(name, p, a, b, c, cin, prof, False)
    assert full[1] is not None and bare[1] is None
    assert bare[0].dtype == full[0].dtype and np.array_equal(bare[0], full[0])


# ---------------------------------------------------------------------------------------------
# SM memory paths


def _sm(profile: Profile, blocks: int = 3, seed: int = 0) -> SM:
    """Several one-warp blocks resident at once, shared and global memory filled with random bytes."""
    sm = SM(assemble("RET").words, Launch(grid=(blocks, 1), block=(32, 1, 1), registers=4), Memory("global", 8192), {}, profile)
    rng = np.random.default_rng(seed)
    sm.shared.data[:] = rng.integers(0, 256, sm.shared.size, dtype=np.uint8)
    sm.gmem.data[:] = rng.integers(0, 256, sm.gmem.size, dtype=np.uint8)
    return sm


def _batch(sm: SM, warp: int, mask: int, full: bool | None = None) -> Batch:
    """A one-warp batch as SM._execute makes it: `full` when every lane executes (or as given, to
    force the general path)."""
    b = Batch([sm.warps[warp]])
    b.exec = _mask_bits(mask).copy()
    b.full = mask == 0xFFFFFFFF if full is None else full
    b.records = None
    return b


MASKS = st.one_of(st.just(0xFFFFFFFF), st.just(0), st.integers(0, 2**32 - 1), st.sampled_from([1, 0x80000000, 0xFFFFFFFE, 0x7FFFFFFF]))


@SETTINGS
@given(PROFILES, st.integers(0, 2), st.one_of(st.integers(-64, SHARED_BYTES + 64), st.integers(-(1 << 20), 1 << 20)),
       st.sampled_from([1, 2, 4]), st.booleans(), MASKS, st.integers(0, 3))  # fmt: skip
def test_shared_load_uniform_agrees_with_shared_load(prof: Profile, warp: int, offset: int, size: int, signed: bool, mask: int, seed: int) -> None:
    """g [offset] of one warp: the broadcast read gives what the general path gives in every lane
    (lanes that do not execute included), for every block slot, size and signedness, and declines
    (None) exactly where the general path faults; the flexgrip profile's 14-bit wrap included."""
    sm = _sm(prof, seed=seed)
    assume(warp < len(sm.warps))
    b = _batch(sm, warp, mask)
    got = sm.shared_load_uniform(b, offset, size, signed)
    try:
        want = sm.shared_load(b, sm.mem_address(b, 0, offset, False, size), size, signed)
    except MemoryFault:
        assert got is None or not b.exec.any()  # the general path faults only for a lane that executes
        return
    if got is None:
        wrapped = offset & ((1 << prof.shared_addr_bits) - 1) if prof.shared_addr_bits else offset
        assert wrapped < 0 or wrapped + size > SHARED_BYTES  # declined only out of range (the general path then reads nothing)
        return
    assert got.dtype == want.dtype and np.array_equal(got, want), (offset, size, signed, hex(mask))


def test_shared_load_uniform_declines_several_warps() -> None:
    sm = _sm(G80)
    b = Batch(sm.warps[:2])
    assert sm.shared_load_uniform(b, 0x10, 4, False) is None


ADDRESSES = st.lists(st.one_of(st.integers(0, 8191).map(lambda x: x & ~3), st.integers(-8, 8200), st.sampled_from([0, 8188, 8192, -4])),
                     min_size=LANES, max_size=LANES).map(lambda v: np.array(v, np.int64))  # fmt: skip


@SETTINGS
@given(ADDRESSES, st.lists(st.integers(0, 2**32 - 1), min_size=LANES, max_size=LANES), st.booleans())
def test_memory_words_agree_with_byte_accesses(addr: np.ndarray, values: list[int], duplicate: bool) -> None:
    """Whole-word gathers and scatters: the same words as `load(addr, 4)` and the same memory image
    as `store(addr, 4, ...)` (duplicates: the highest lane's value stays), or a decline (None/False,
    memory untouched) wherever an address is misaligned or outside, which the general path reports."""
    if duplicate:
        addr = addr.copy()
        addr[7] = addr[3]
    value = np.array(values, np.uint32)
    image = np.random.default_rng(0).integers(0, 256, 8192, dtype=np.uint8)
    fast, slow = Memory("m", 8192, image), Memory("m", 8192, image)
    try:
        want = slow.load(addr, 4)
    except MemoryFault:
        want = None
    got = fast.load_words(addr)
    if got is not None:
        assert want is not None and np.array_equal(got, want)
    else:
        assert want is None or (addr & 3).any()  # declined: a fault, or misaligned words the byte path reads
    before = fast.data.copy()
    stored = fast.store_words(addr, value)
    try:
        slow.store(addr, 4, value)
        slow_ok = True
    except MemoryFault:
        slow_ok = False
    if stored:
        assert slow_ok and np.array_equal(fast.data, slow.data)
    else:
        assert np.array_equal(fast.data, before)


@SETTINGS
@given(PROFILES, st.lists(st.integers(0, 2047), min_size=LANES, max_size=LANES), st.lists(st.integers(0, 2**32 - 1), min_size=LANES, max_size=LANES),
       st.sampled_from(["global", "local"]), st.booleans())  # fmt: skip
def test_whole_warp_loads_and_stores_agree_with_the_general_path(prof: Profile, words: list[int], values: list[int], space: str, misalign: bool) -> None:
    """GLD/GST/LLD/LST of a warp whose 32 lanes all execute (`Batch.full`) against the same access
    with the general, lane-selecting path: loaded words, memory afterwards, the commit record."""
    from golden.g80.commit import Commit

    addr = np.array(words, np.int64) * 4
    if misalign:
        addr[5] += 2
    value = np.array(values, np.uint32)
    results = []
    for full in (True, False):
        sm = _sm(prof, blocks=1)
        b = _batch(sm, 0, 0xFFFFFFFF, full)
        b.records = [Commit(0, 0, 0, 0, 0, 8, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, False)]
        try:
            if space == "global":
                loaded = sm.global_load(b, addr, 4, False)
                sm.global_store(b, addr, 4, [value])
                image = sm.gmem.data.copy()
            else:
                sm._local().data[:] = np.random.default_rng(1).integers(0, 256, sm._local().size, dtype=np.uint8)
                limit = sm.config.local_bytes
                local = addr % max(limit - 4, 4) & ~3 | (addr & 3)
                loaded = sm.local_load(b, local, 4, False)
                sm.local_store(b, local, 4, [value])
                image = sm._local().data.copy()
        except MemoryFault as exc:
            results.append(("fault", str(exc)))
            continue
        m = b.records[0].mem[0]
        results.append((loaded[0].tolist(), image.tobytes(), (m.space, m.size, m.lanes, m.addr.dtype, m.addr.tolist(), m.data.dtype, m.data.tolist())))
    assert results[0] == results[1]


# ---------------------------------------------------------------------------------------------
# the scoreboard's memory-port keys


def _port_keys_per_request(stores: list) -> np.ndarray:
    """The keys of one (space, byte address, value) per enabled byte, request by request and byte by byte."""
    keys = []
    for r in stores:
        for j in range(r.be.bit_length()):
            if r.be >> j & 1:
                keys.append((int(r.local) << 60) | ((r.addr + j) << 8) | ((r.wdata >> (8 * j)) & 0xFF))
    return np.array(sorted(keys), np.int64)


@SETTINGS
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 1 << 20), st.one_of(st.integers(0, 2**64 - 1), st.just(2**64 - 1), st.integers(0, 255)),
                          st.integers(0, 2**600 - 1)), min_size=0, max_size=5))  # fmt: skip
def test_port_keys_agree_with_a_byte_loop(reqs: list[tuple[bool, int, int, int]]) -> None:
    from tb.mem_agent import MemRequest
    from tb.scoreboard import _port_keys

    stores = [MemRequest(0, local, line * 64, be, True, data, 0) for local, line, be, data in reqs]
    assert np.array_equal(_port_keys(stores), _port_keys_per_request(stores))
