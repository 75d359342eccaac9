"""The LG cores' testbench.

harness.py and test_lg_smoke.py run a program on rtl/lg and collect what leaves the core; the
lock-step testbench (make sim ISA=lg) is program.py (a program and its `;!` header lines),
golden_run.py (the model alone, its frames), scoreboard.py and test_lg_lockstep.py (the model
stepped per commit, the frame-buffer stream), frames.py (the diff image), lockstep.py (build and
run on the project's core or one's own) and sim.py (the command line).
"""
