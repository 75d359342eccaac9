"""The Fermi (GF100, sm_20) instruction set: its table, assembler, disassembler and model."""
