"""Integer ALU of the G80 SM, bit-exact and vectorised over lanes (ISA.md sections 3.1-3.9).

Every function takes per-lane operands as numpy uint32 arrays of one shape (Python ints and 0-d
arrays broadcast) and returns ``(result, flags)``: ``result`` uint32, ``flags`` uint8 holding the
``$c`` nibble (bit0 Z, bit1 S, bit2 C, bit3 O; ISA.md section 2.1). Instruction fields (op, width,
signedness, ...) are plain Python values: one instruction applies to every lane.

16-bit operations read the low 16 bits of their 32-bit inputs and return their result in the low
16 bits with the upper 16 bits zero (the caller merges half registers).

No carry or bit is ever lost, but wide types are used only where a value needs them: a 16-bit sum
(17 bits) fits uint32, the carry out of a 32-bit sum is recovered exactly from the wrapped uint32
sum (it is below the first operand), products are exact modulo 2^32 in uint32 except the high
24x24 half, which is formed in int64, and I2I works in int64. Half-width arrays and no np.where on
lane masks roughly double the throughput over a uint64 datapath. The FlexGripPlus deviations (ISA.md section 9, FLEXGRIPPLUS.md sections 4, 6, 9) are selected by the ``Profile``
switches; the default ``G80`` profile is silicon.

Decisions where the references leave room (also in the docstrings below):

* ``i2i`` with an 8- or 16-bit destination returns the clamped value sign- (signed destination)
  or zero-extended to 16 bits, as the vector file prints it (``i2i s8 ... -> 0000ff80``); S is
  then bit 15. A caller writing an 8-bit value to a full register should extend it again.
* ``sat_all_ones`` (FlexGripPlus saturation) also forces C = 0 on the saturated lanes, as
  ``integer_add_subtract.vhd`` does; lanes that do not saturate keep the adder's C.
* With ``carry16_from_sext`` the 16-bit operand is sign-extended to 32 bits *before* it is negated
  (``-signed(sext(b))`` in ``integer_add_subtract.vhd``); O then compares bit 15 of the operands
  and of the sum.
* ``sign_flag_signed_only`` treats as "signed": ISET (S = true anyway), signed min/max, SHR.S32 /
  SHR.S16, ISAD.S16/S32, IMUL with either operand signed, the signed IMAD kinds (s16, sat s16,
  s24, sat s24, hi s24, sat hi s24) and I2I with a signed destination. IADD (even with sat), LOP,
  SHL, unsigned shifts and unsigned types get S = 0.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from golden.g80.profile import G80, Profile

U32 = np.uint32
I64 = np.int64

ArrayLike = npt.ArrayLike
Result = tuple[np.ndarray, np.ndarray | None]  # (result, flags); flags None when the caller passed flags=False

_MASK = {16: 0xFFFF, 32: 0xFFFFFFFF}
_IADD_OPS = ("add", "sub", "subr", "addc")
# IMAD multiply kinds in ISA.md 3.3 order: (is_24bit, signed, high, saturating add).
IMAD_KINDS: tuple[tuple[bool, bool, bool, bool], ...] = (
    (False, False, False, False),  # 0 u16
    (False, True, False, False),  # 1 s16
    (False, True, False, True),  # 2 sat s16
    (True, False, False, False),  # 3 u24
    (True, True, False, False),  # 4 s24
    (True, True, False, True),  # 5 sat s24
    (True, False, True, False),  # 6 hi u24
    (True, True, True, False),  # 7 hi s24
    (True, True, True, True),  # 8 sat hi s24
)
# I2I source type field (ISA.md 3.9): (bits, signed). 2 and 3 are both u8 (from a half / a full
# register: the value is the low 8 bits either way), 6 and 7 both s8.
I2I_SOURCES: tuple[tuple[int, bool], ...] = ((16, False), (32, False), (8, False), (8, False), (16, True), (32, True), (8, True), (8, True))


def _u32(x: ArrayLike) -> np.ndarray:
    """Operand as uint32 without copying when it already is one (never modified in place)."""
    return np.asarray(x, dtype=U32)


def _check_width(width: int) -> int:
    if width not in _MASK:
        raise ValueError(f"width must be 16 or 32, not {width!r}")
    return _MASK[width]


def _sext(x: np.ndarray, bits: int) -> np.ndarray:
    """Sign-extend the low ``bits`` of uint32 ``x`` to 32 bits, modulo 2^32 (still uint32)."""
    top = 1 << (bits - 1)
    x = x & U32((top << 1) - 1)
    x ^= U32(top)
    x += U32((0x100000000 - top) & 0xFFFFFFFF)  # == x - top modulo 2^32
    return x


def _u8(b: np.ndarray) -> np.ndarray:
    """A bool array as 0/1 uint8 without a copy."""
    return np.asarray(b).view(np.uint8)


def _flags(res: np.ndarray, width: int, c: np.ndarray | None = None, o: np.ndarray | None = None, sign: bool = True) -> np.ndarray:
    """Pack the $c nibble. ``res`` is already reduced to the operation width (upper bits zero), so
    Z = res == 0 and S = res >= 2^(width-1) (S(x) of ISA.md section 3: bit 31 or 15). ``c``/``o`` are
    bool arrays (None: 0). ``sign=False`` forces S = 0 (FlexGripPlus unsigned/untyped ops)."""
    f = _u8(res == 0).copy() if np.ndim(res) == 0 else _u8(res == 0)
    if sign:
        f |= _u8(res >= U32(1 << (width - 1))) << 1
    if c is not None:
        f |= _u8(c) << 2
    if o is not None:
        f |= _u8(o) << 3
    return f


def _lanemask(b: np.ndarray) -> np.ndarray:
    """A bool array as uint32 0 / 0xffffffff, for branch-free per-lane selection (np.where on a
    random mask is several times slower than a few bitwise passes)."""
    m = _u8(b).astype(U32)
    np.negative(m, out=m)
    return m


def _sign_flag(prof: Profile, signed_type: bool) -> bool:
    """FlexGripPlus writes S only for signed types (FLEXGRIPPLUS.md section 4, ``sign_fl``)."""
    return signed_type or not prof.sign_flag_signed_only


def _adder(op: int, width: int, sat: bool, a: ArrayLike, b: ArrayLike, cin: ArrayLike | None, prof: Profile, signed_type: bool,
           flags: bool = True) -> Result:
    """The add/sub/subr/addc datapath shared by IADD, IMAD and ISAD (ISA.md 3.1, 3.3, 3.4).

    G80: ``sub`` is ``a + ~b + 1``, ``subr`` is ``~a + b + 1``; C is the carry out of bit
    ``width-1`` (so the inverted borrow), O the signed overflow of the operands *as fed to the
    adder* (complemented), saturation on O to 0x7fff.. / 0x8000.. chosen by S(s1).

    Everything stays in uint32: a 16-bit sum needs at most 17 bits (or, sign-extended for
    FlexGripPlus, its bits 15 and 16 are unaffected by wrapping at 2^32), and the carry out of a
    32-bit sum is recovered by comparing the wrapped sum with an operand.
    """
    mask = _check_width(width)
    if op not in (0, 1, 2, 3):
        raise ValueError(f"add op must be 0..3 ({'/'.join(_IADD_OPS)}), not {op!r}")
    s1 = _u32(a)
    s2 = _u32(b)
    if width == 16:
        if prof.carry16_from_sext:
            # FlexGripPlus sign-extends 16-bit operands to 32 bits before negating / adding
            # (FLEXGRIPPLUS.md section 4; ISA.md section 9 "16-bit add carry").
            wide = 0xFFFFFFFF
            s1 = _sext(s1, 16)
            s2 = _sext(s2, 16)
        else:
            wide = 0xFFFF
            s1 = s1 & U32(0xFFFF)  # ISA.md 3.1: 16-bit operands are truncated first
            s2 = s2 & U32(0xFFFF)
    else:
        wide = 0xFFFFFFFF
    carry: np.ndarray | int = 0  # 0, 1 or a per-lane 0/1 array
    if op in (1, 2):
        if prof.sub_negates_arith:
            # FlexGripPlus negates the operand arithmetically, no carry-in (FLEXGRIPPLUS.md section 4),
            # so C = 0 whenever the negated operand is 0.
            neg = np.negative(s2 if op == 1 else s1) & U32(wide)
        else:
            neg = (s2 if op == 1 else s1) ^ U32(wide)  # ISA.md 3.1: one's complement plus carry-in 1
            carry = 1
        if op == 1:
            s2 = neg
        else:
            s1 = neg
    elif op == 3:
        if cin is None:
            raise ValueError("addc needs a carry-in")
        carry = _u32(cin) & U32(1)
    full = s1 + s2
    if isinstance(carry, np.ndarray):
        full = full + carry  # not in place: the carry-in may be the only full-shape operand
    elif carry:
        full += U32(1)
    if not flags and not sat:
        # no $c write (the instruction's cwe is clear): C and O are not needed (a saving on every scoreboard step)
        return (full if width == 32 else full & U32(0xFFFF)), None
    # O: operands of equal sign, sum of the other sign, on the operation's top bit (ISA.md 3.1).
    t = s1 ^ full
    t &= s2 ^ full
    if width == 32:
        o = t >= U32(0x80000000)
        # carry out of bit 31: the wrapped sum is below s1 (or equal to it with a carry-in of 1)
        if isinstance(carry, np.ndarray):
            c = full < s1
            c |= (full == s1) & (carry != 0)
        else:
            c = full <= s1 if carry else full < s1
        res = full
    else:
        o = (t & U32(0x8000)) != 0
        c = (full & U32(0x10000)) != 0  # bit 16 of the (possibly sign-extended) sum
        res = full & U32(0xFFFF)
    if sat:
        if prof.sat_all_ones:
            # FlexGripPlus: bit `width` != bit `width-1` of the zero-padded sum -> all ones, O = 0,
            # and integer_add_subtract.vhd also clears C on those lanes (ISA.md section 9).
            hit = c ^ (res >= U32(1 << (width - 1)))
            res = res | (_lanemask(hit) & U32(mask))
            c = c & ~hit
            o = None
        elif o.any():
            # ISA.md 3.1: on signed overflow, 0x7fffffff if S(s1)=0 else 0x80000000; O, C kept.
            satval = ((s1 >> U32(width - 1)) & U32(1)) + U32(mask >> 1)
            satval = satval ^ res  # full lane shape even if s1 is a broadcast scalar
            satval &= _lanemask(o)
            res = res ^ satval  # satval on the overflowing lanes, res elsewhere
    return res, (_flags(res, width, c, o, _sign_flag(prof, signed_type)) if flags else None)


def iadd(op: int, width: int, sat: bool, a: ArrayLike, b: ArrayLike, cin: ArrayLike | None, prof: Profile = G80, flags: bool = True) -> Result:
    """IADD / IADD32 / IADD32I / IADD.CARRYn (ISA.md 3.1).

    ``op``: 0 add, 1 sub (a - b), 2 subr (b - a), 3 addc (a + b + cin); ``width`` 16 or 32;
    ``sat`` saturates on signed overflow; ``cin`` holds 0/1 per lane (only addc reads it, it may
    be None otherwise). IADD is untyped: under ``sign_flag_signed_only`` S is always 0.
    """
    return _adder(op, width, sat, a, b, cin, prof, False, flags)


def _mul16(signed_a: bool, signed_b: bool, a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """16x16 -> 32 product, each operand sign- or zero-extended independently (ISA.md 3.2). The
    product of the extended operands modulo 2^32 is exact, so uint32 wrapping arithmetic suffices."""
    x = _sext(_u32(a), 16) if signed_a else _u32(a) & U32(0xFFFF)
    y = _sext(_u32(b), 16) if signed_b else _u32(b) & U32(0xFFFF)
    return x * y


def _mul24(signed: bool, hi: bool, a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """24x24 -> 48 product; bits 0..31 or, with ``hi``, bits 16..47 (ISA.md 3.2)."""
    if not hi:  # bits 0..31 only: exact modulo 2^32 in uint32, as for _mul16
        x = _sext(_u32(a), 24) if signed else _u32(a) & U32(0xFFFFFF)
        return x * (_sext(_u32(b), 24) if signed else _u32(b) & U32(0xFFFFFF))
    x = _u32(a).astype(I64)
    y = _u32(b).astype(I64)
    x &= 0xFFFFFF
    y &= 0xFFFFFF
    if signed:
        x ^= 0x800000
        x -= 0x800000
        y ^= 0x800000
        y -= 0x800000
    x *= y  # |product| < 2^47: exact in int64
    x >>= 16  # arithmetic shift keeps the sign for bits 32..47
    return x.astype(U32)  # the low 32 bits (two's complement wrap)


def imul16(signed_a: bool, signed_b: bool, a: ArrayLike, b: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """IMUL 16x16 -> 32 (ISA.md 3.2): S = bit 31, Z, C = O = 0.

    ``prof`` only matters for ``sign_flag_signed_only`` (signed if either operand is: FlexGripPlus
    has a single signed bit for both).
    """
    res = _mul16(signed_a, signed_b, a, b)
    return res, (_flags(res, 32, sign=_sign_flag(prof, signed_a or signed_b)) if flags else None)


def imul24(signed: bool, hi: bool, a: ArrayLike, b: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """IMUL 24x24, low or high 32 bits of the 48-bit product (ISA.md 3.2): S = bit 31, Z, C = O = 0."""
    res = _mul24(signed, hi, a, b)
    return res, (_flags(res, 32, sign=_sign_flag(prof, signed)) if flags else None)


def imad(kind: int, addop: int, a: ArrayLike, b: ArrayLike, c: ArrayLike, cin: ArrayLike | None, prof: Profile = G80, flags: bool = True) -> Result:
    """IMAD (ISA.md 3.3): multiply as IMUL, then a 32-bit add/sub/subr/addc with ``c``.

    ``kind`` 0..8: u16, s16, sat s16, u24, s24, sat s24, hi u24, hi s24, sat hi s24 (kinds 9..15
    behave as u24 on silicon, ISA.md 3.3). ``addop``: 0 add (p + c), 1 sub (p - c), 2 subr
    (c - p), 3 addc (p + c + cin). The add has the C/O/saturation rules of ISA.md 3.1.
    """
    is24, signed, hi, sat = IMAD_KINDS[kind] if 0 <= kind < len(IMAD_KINDS) else IMAD_KINDS[3]
    prod = _mul24(signed, hi, a, b) if is24 else _mul16(signed, signed, a, b)
    return _adder(addop, 32, sat, prod, c, cin, prof, signed, flags)


def _keys(signed: bool, width: int, a: ArrayLike, b: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Operands as order-preserving unsigned keys: reduced to the width, sign bit flipped if signed
    (the silicon checking model compares (x ^ sign bit) unsigned the same way). Differences
    between keys equal differences between the typed values."""
    x = _u32(a)
    y = _u32(b)
    if width == 16:
        x = x & U32(0xFFFF)
        y = y & U32(0xFFFF)
    if signed:
        top = U32(1 << (width - 1))
        x = x ^ top
        y = y ^ top
    return x, y


def isad(signed: bool, width: int, a: ArrayLike, b: ArrayLike, c: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """ISAD (ISA.md 3.4): ``|a - b|`` exact on the typed operands, plus ``c`` with a 32-bit add.

    All four flags come from that 32-bit add, also for the 16-bit types (the result is 32 bits).
    """
    _check_width(width)
    x, y = _keys(signed, width, a, b)
    d = np.maximum(x, y)
    d -= np.minimum(x, y)  # |x - y| < 2^32: exact in uint32
    return _adder(0, 32, False, d, c, None, prof, signed, flags)


def iset(signed: bool, width: int, cond: int, a: ArrayLike, b: ArrayLike, prof: Profile = G80) -> Result:
    """ISET (ISA.md 3.5): ``cond`` is the l=1/e=2/g=4 mask; result all ones of the width when true
    (S only), 0 when false (Z only); C = O = 0. FlexGripPlus agrees (S = 1 iff true there too), so
    ``prof`` changes nothing."""
    mask = _check_width(width)
    x, y = _keys(signed, width, a, b)
    cond &= 7
    if cond in (0, 7):
        true = np.full(np.broadcast(x, y).shape, cond == 7)
    else:
        # each code 1..6 is one comparison or the complement of one
        true = {1: np.less, 2: np.equal, 3: np.less_equal, 4: np.greater, 5: np.not_equal, 6: np.greater_equal}[cond](x, y)
    t8 = _u8(true)
    res = t8 * U32(mask)
    return res, t8 + np.uint8(1)  # false -> 1 (Z), true -> 2 (S)


def iminmax(is_min: bool, signed: bool, width: int, a: ArrayLike, b: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """IMIN / IMAX (ISA.md 3.6): S/Z from the result on the width, C = O = 0."""
    x, y = _keys(signed, width, a, b)
    res = np.minimum(x, y) if is_min else np.maximum(x, y)
    if signed:
        res ^= U32(1 << (width - 1))  # undo the key bias
    return res, (_flags(res, width, sign=_sign_flag(prof, signed)) if flags else None)


def _shift_count(width: int, count: ArrayLike) -> np.ndarray:
    # ISA.md 3.7: the count is unsigned and does not wrap; b16 uses its low 16 bits.
    n = _u32(count)
    return n & U32(0xFFFF) if width == 16 else n


def shl(width: int, a: ArrayLike, count: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """SHL (ISA.md 3.7). ``count`` is unsigned and does not wrap (the full 32-bit value for b32,
    the low 16 bits for b16): count >= width gives 0. C = bit ``width-count`` of the input when
    0 < count < width, O = sign changed when count == 1. SHL is untyped for FlexGripPlus's S.

    numpy defines shifts by >= the type's bit count as 0 (sign fill for signed right shifts),
    which is exactly the silicon behaviour for counts >= 32.
    """
    mask = _check_width(width)
    x = _u32(a)
    n = _shift_count(width, count)
    if width == 16:
        x = x & U32(mask)
    res = x << n
    if width == 16:
        res &= U32(mask)
    if not flags:
        return res, None
    if prof.no_shift_flags:
        return res, _flags(res, width, sign=_sign_flag(prof, False))
    # last bit out: bit width-n of x. n = 0 shifts by `width` (0: x has no bits there), n > width
    # wraps to a huge count (0); only n == width would read bit 0, so it is excluded.
    c = (x >> (U32(width) - n)) & U32(1)
    c = (c != 0) & (n != U32(width))
    o = (((res ^ x) >> U32(width - 1)) != 0) & (n == U32(1))
    return res, _flags(res, width, c, o, _sign_flag(prof, False))


def shr(signed: bool, width: int, a: ArrayLike, count: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """SHR / SHR.S32 / SHR.U16 (ISA.md 3.7). Counts >= width give 0 or all sign bits.
    C = bit ``count-1`` of the input when 0 < count < width, O = sign changed when count == 1."""
    mask = _check_width(width)
    x = _u32(a)
    n = _shift_count(width, count)
    if width == 16:
        x = x & U32(mask)
    if signed:
        v = _sext(x, width) if width == 16 else x
        # int32 >> int32 (a uint32 count would promote to int64); counts above 32 act as 32
        res = (v.view(np.int32) >> np.minimum(n, U32(32)).view(np.int32)).view(U32)
        if width == 16:
            res &= U32(mask)
    else:
        res = x >> n
    if not flags:
        return res, None
    if prof.no_shift_flags:
        return res, _flags(res, width, sign=_sign_flag(prof, signed))
    # last bit out: bit n-1 of x (n = 0 wraps to a huge count: 0); n == width would read the sign bit
    c = (x >> (n - U32(1))) & U32(1)
    c = (c != 0) & (n != U32(width))
    o = (((res ^ x) >> U32(width - 1)) != 0) & (n == U32(1))
    return res, _flags(res, width, c, o, _sign_flag(prof, signed))


def logic(op: int, width: int, not1: bool, not2: bool, a: ArrayLike, b: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """LOP (ISA.md 3.8): op 0 and, 1 or, 2 xor, 3 pass_b (``mov2``: the second operand), after the
    optional inversions of either source. Flags S/Z, C = O = 0.

    FlexGripPlus (``pass_b_is_not1``): op 3 is NOT src1 and the inversion bits are ignored
    (FLEXGRIPPLUS.md sections 6, 9). LOP is untyped for FlexGripPlus's S.
    """
    mask = _check_width(width)
    x = _u32(a)
    y = _u32(b)
    if prof.pass_b_is_not1:
        not1 = not2 = False
    if op == 3:
        if prof.pass_b_is_not1:
            res = ~x
        else:
            res = ~y if not2 else np.broadcast_to(y, np.broadcast(x, y).shape).copy()
    else:
        if not1:
            x = ~x
        if not2:
            y = ~y
        if op == 0:
            res = x & y
        elif op == 1:
            res = x | y
        elif op == 2:
            res = x ^ y
        else:
            raise ValueError(f"logic op must be 0..3, not {op!r}")
    if width == 16:
        res &= U32(mask)
    return res, (_flags(res, width, sign=_sign_flag(prof, False)) if flags else None)


def i2i(dst_signed: bool, dst_bits: int, src_type: int, abs_: bool, neg: bool, a: ArrayLike, prof: Profile = G80, flags: bool = True) -> Result:
    """I2I integer -> integer conversion (ISA.md 3.9).

    ``src_type`` is the ISA field (0 u16, 1 u32, 2/3 u8, 4 s16, 5 s32, 6/7 s8). The source is
    extended, split into sign and magnitude; ``abs_`` clears the sign, ``neg`` toggles it; the
    value is then clamped to the destination range (unsigned: negative -> 0).

    Result representation: for ``dst_bits`` 8 or 16 the value in the low 16 bits, sign-extended
    (signed destination) or zero-extended to 16 bits, upper 16 bits zero, S = bit 15 (what the
    vector file shows: ``i2i s8 ... -> 0000ff80``); for 32 the full register, S = bit 31.

    FlexGripPlus (``i2i_no_clamp``): extend, two's-complement abs and negate, then truncate to the
    destination bits (no clamping).
    """
    if dst_bits not in (8, 16, 32):
        raise ValueError(f"dst_bits must be 8, 16 or 32, not {dst_bits!r}")
    bits, src_signed = I2I_SOURCES[src_type & 7]
    v = _u32(a).astype(I64)  # wide enough for -(2^32 - 1) .. 2^32 - 1
    if bits < 32:
        v &= (1 << bits) - 1
    if src_signed:
        top = 1 << (bits - 1)
        v ^= top
        v -= top
    if prof.i2i_no_clamp:
        if prof.i2i_neg_before_abs:
            # ScalarProcessor/convert_int_int.vhd negates first (cvt_neg_in) and then takes the absolute value
            # of a negative signed result (abs_saturate_in = "10"): -|x| comes out as |x|
            if neg:
                np.negative(v, out=v)
            if abs_ and src_signed:
                np.abs(v, out=v)
        else:
            if abs_ and src_signed:
                np.abs(v, out=v)
            if neg:
                np.negative(v, out=v)
        v &= (1 << dst_bits) - 1
        if dst_signed:
            top = 1 << (dst_bits - 1)
            v ^= top
            v -= top
    else:
        # sign-magnitude: abs clears the sign, neg toggles it (ISA.md 3.9)
        if abs_:
            np.abs(v, out=v)
        if neg:
            np.negative(v, out=v)
        if dst_signed:
            lo, hi = -(1 << (dst_bits - 1)), (1 << (dst_bits - 1)) - 1
        else:
            lo, hi = 0, (1 << dst_bits) - 1
        np.clip(v, lo, hi, out=v)
    width = 32 if dst_bits == 32 else 16
    res = v.astype(U32)  # two's complement wrap
    if width == 16:
        res &= U32(0xFFFF)  # 8/16-bit destinations: extended to 16 bits (see the docstring)
    return res, (_flags(res, width, sign=_sign_flag(prof, dst_signed)) if flags else None)
