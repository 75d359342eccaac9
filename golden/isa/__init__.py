"""The ISA-independent machinery every instruction set plugs into.

- `bits`: bit fields of instruction words;
- `form`: the generic form (one row of an encoding table) and its masks, encode and decode;
- `syntax`: the operand spelling protocol (Operand, Mods, ParseContext, SyntaxProblem);
- `decoder`: matching a word to its form in a table, and the nearest form of a word that has none;
- `assembler`: splitting an instruction's text and choosing among a mnemonic's forms;
- `source`: program text: lines, comments, labels, directives, located errors;
- `program`: the program format (directives, buffers, parameters, expectations) and its loader;
- `expect`: checking a program's expectations after a run;
- `template`: kernel templates with `#size` lines;
- `rows`: listing rows and the "N passed, M failed" summary;
- `record`: the commit record schema (documented fields, which ones the scoreboard compares).

It imports no ISA: golden.g80, golden.lg and golden.fermi build on it, and golden.isas registers them.
"""
