"""The CS3220 "LG" GPU ISA 1.1 (Georgia Tech, Spring 2013) as an ISA package.

A 32-bit instruction word, an 8-bit opcode in bits 31:24, 16-bit scalar registers, 64 vector
registers of four 16-bit elements and a fixed-function graphics pipeline. Sources: the seed
(../shared/seeds/004_eb6d6cefbe84d076.txt), ../shared/reference/LG.md and the course material
it names. The encoding table (table.py) is the one source the assembler, disassembler, golden
model, coverage model and the RTL's decode constants read.
"""
