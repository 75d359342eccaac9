"""The G80 SM_1.0 ISA package: its encoding table (`table`, with its condition codes and memory
operand syntax), its semantics (`execute`, `arith`), the SM and its state (`sm`, `state`, `memory`,
`commit`, `hw`), its profiles (`profile`) and the FlexGripPlus profile's support (decode, kernel
bundles, export and findings), beside the ISA-independent machinery of `golden.isa`.
"""

# The engine first: golden.isa's decoder and assembler import this package's table, and the table
# imports the engine's fields and forms, so whichever G80 module a caller imports first, the cycle is
# always entered from golden.isa, where each module finds the names it needs already defined.
from .. import isa  # noqa: F401
