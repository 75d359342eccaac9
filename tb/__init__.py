"""The cocotb + pyuvm lock-step testbench (docs/design/architecture.md, "The testbench").

Modules: `config` (the run's configuration, in ConfigDB), `dut` (the DUT adapter interface),
`adapters/` (one adapter per DUT: `rtl`, ...), `sequences` (load/launch items, sequences and the
driver), `sm_env` (environment and test), `scoreboard`, `report`, `coverage_subscriber`,
`kernels` (what is loaded), `lockstep` (one run from Python), `runner` (builds through
cocotb_tools.runner), `mutants` (broken variants of the RTL for the mutation suite); the RTL's port agents `commit_agent` and `mem_agent`; `test_sm` and the
RTL unit tests `test_*_unit` are cocotb test modules started through the runner.
"""
