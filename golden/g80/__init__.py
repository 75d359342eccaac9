"""The G80 SM_1.0 ISA package: its encoding table (`table`, on its forms `form` and operand kinds
`syntax`, `memsyntax`, `conditions`), its decoder, assembler, disassembler and listing checker on
the engines of `golden.isa`, its semantics (`execute`, `arith`), the SM and its state (`sm`,
`state`, `memory`, `commit`, `hw`), its profiles (`profile`), its coverage points (`coverage`) and
the FlexGripPlus profile's support (decode, kernel bundles, export and findings). `isa` gathers
the entry points most callers want.
"""
