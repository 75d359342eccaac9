"""Bit-exact Fermi arithmetic: the numeric kernels the Fermi model calls, over numpy lane arrays.

FP32 patterns travel as uint32, FP64 and 64-bit integers as uint64. Round-to-nearest add/multiply
are vectorised through numpy; directed roundings, fused multiply-adds and conversions are exact
(Fraction / integer arithmetic). MUFU and RRO are approximations of silicon (sfu.py).
See docs/design/fermi-arith.md.
"""

from golden.fermi.arith.compare import dcmp, dmnmx, fcmp, fmnmx
from golden.fermi.arith.convert import f2f, f2i, i2f, i2i
from golden.fermi.arith.fp32 import fadd, ffma, fmul
from golden.fermi.arith.fp64 import dadd, dfma, dmul
from golden.fermi.arith.integer import bfe, bfi, flo, imul, isad, popc, prmt, shl, shr
from golden.fermi.arith.sfu import mufu, rro

__all__ = [
    "bfe", "bfi", "dadd", "dcmp", "dfma", "dmnmx", "dmul", "f2f", "f2i", "fadd", "fcmp", "ffma", "flo", "fmnmx",
    "fmul", "i2f", "i2i", "imul", "isad", "mufu", "popc", "prmt", "rro", "shl", "shr",
]
