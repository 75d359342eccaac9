"""The LG core's testbench: running a program on rtl/lg and collecting what leaves the core."""
