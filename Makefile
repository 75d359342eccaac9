# G80 / FlexGripPlus SM verification: see docs/reference/make-targets.md for what each target does.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
SETUP := $(VENV)/.setup-done
TESTDATA := testdata
TEST ?= iadd
ISA ?= g80
DUT ?= rtl
RTL ?=
SIM ?=
FLEXGRIP_DIR ?= ../shared/flexgripplus
export FLEXGRIP_DIR
# Python writes its bytecode under build/pycache even where the environment says PYTHONDONTWRITEBYTECODE:
# otherwise every short run compiles golden/ and tb/ again, and start-up is a large part of a short run
export PYTHONPYCACHEPREFIX ?= $(CURDIR)/build/pycache
export PYTHONDONTWRITEBYTECODE :=
NUM_SP ?= 8
SEED ?= 1
PROFILE ?= $(if $(filter flexgrip,$(DUT)),flexgrip,g80)
WAVES ?= 0
LOCKSTEP ?= 1
VISIBILITY ?= lean
DEFINES ?=
WAIVE ?=
# make regress DUT=flexgrip: run our RTL (Verilator, same SP count) for the cycle column where no earlier run left one
RTL_CYCLES ?= 1
# ISA=lg: its own folder under G80's, which a G80 regression starting over leaves in place
REGRESS = $(BUILD)/regress$(if $(filter lg,$(ISA)),/lg)
COVERAGE = $(BUILD)/coverage
COVERAGE_RTL ?= 1
COVERAGE_CODE ?= 0
# programs whose lock-step runs on a Verilator --coverage model give the RTL code coverage (COVERAGE_CODE=1)
COVERAGE_CODE_PROGRAMS ?= vecadd cf_ifelse cf_barrier cov_fp_forms cov_int_forms
BUILD := build
LISTINGS ?= $(wildcard $(TESTDATA)/vectors/listings/*.txt)
PYTEST_ARGS ?=
# constrained-random programs (randgen/): make random SEED=n COUNT=k [PRESET=...] [CONFIG=file.toml] [KNOBS="length=80; depth=3"]
COUNT ?= 10
PRESET ?= default
CONFIG ?=
KNOBS ?=
SHRINK ?= 1
RANDOM ?= 0
RANDOM_SEED ?= 1000
BATCH ?=
# Where the long jobs' tasks run (make faults, random, regress, mutants; tb/cluster.py, docs/guides/cluster.md):
# an embedded Dask cluster of JOBS workers (default: the cores; JOBS=1 with no CLUSTER runs in make's
# own process), a running scheduler (CLUSTER=tcp://host:8786), or batch jobs (CLUSTER=slurm|lsf|sge|pbs,
# options in the TOML file CLUSTER_CONFIG)
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
CLUSTER ?=
CLUSTER_CONFIG ?=
CLUSTER_ARGS = --jobs $(JOBS) $(if $(CLUSTER),--cluster '$(CLUSTER)') $(if $(CLUSTER_CONFIG),--cluster-config '$(CLUSTER_CONFIG)')

# Settings the running targets share, checked before any recipe: a wrong value is make's one line
# (`Makefile:N: *** ...  Stop.`, exit 2) instead of a run of the wrong thing (make regress has no
# tool of its own that would refuse an unknown DUT). The lists are the tools' own (tests/test_first_contact.py).
DUTS := rtl flexgrip
NUM_SPS := 8 16 32
# the instruction sets (golden/isas.py); ISA=lg takes DUT=rtl (rtl/lg/) or a name for the user's own core (RTL=);
# ISA=fermi has no DUT yet: make sim runs its programs on the golden model alone
ISAS := g80 lg fermi
BAD_ISA = ISA=$(ISA) is not an instruction set: use ISA=g80 (NVIDIA G80 SM_1.0), ISA=lg (CS3220 LG GPU) or ISA=fermi (NVIDIA Fermi sm_20, golden model only)
ifneq ($(filter bench,$(MAKECMDGOALS)),)
ifeq ($(filter $(ISAS),$(ISA)),)
$(error $(BAD_ISA))
endif
endif
ifneq ($(filter sim random regress faults coverage mutants,$(MAKECMDGOALS)),)
ifeq ($(filter $(ISAS),$(ISA)),)
$(error $(BAD_ISA))
endif
# the targets built for G80 alone refuse LG instead of running G80 under an LG setting
ifeq ($(ISA),lg)
ifneq ($(filter faults,$(MAKECMDGOALS)),)
$(error make faults: fault campaigns run on G80 only (ISA=g80); LG: make sim/regress/random ISA=lg)
endif
ifneq ($(filter mutants,$(MAKECMDGOALS)),)
$(error make mutants: the mutation score is G80's only (ISA=g80); LG: make sim/regress/random ISA=lg)
endif
ifneq ($(filter regress,$(MAKECMDGOALS)),)
ifneq ($(DUT),rtl)
$(error make regress ISA=lg runs the project's LG core (DUT=rtl); a core of your own: make sim ISA=lg DUT=$(DUT) RTL='files' TEST=name)
endif
ifneq ($(RANDOM),0)
$(error make regress ISA=lg runs the programs of programs/lg (RANDOM=0); random LG programs: make random ISA=lg)
endif
endif
endif
# the targets that need a DUT refuse ISA=fermi, which has none yet, and say what runs instead
FERMI_NO_DUT = $(firstword $(filter faults mutants regress,$(MAKECMDGOALS)))
ifeq ($(ISA),fermi)
ifneq ($(FERMI_NO_DUT),)
$(error make $(FERMI_NO_DUT) ISA=fermi: there is no Fermi DUT yet to run it on; Fermi programs run on the golden model: make sim ISA=fermi TEST=name (docs/guides/fermi.md))
endif
ifneq ($(filter sim,$(MAKECMDGOALS)),)
ifneq ($(filter command line environment,$(origin DUT)),)
$(error make sim ISA=fermi: DUT=$(DUT): there is no Fermi DUT yet; make sim ISA=fermi runs the golden model alone (leave DUT out))
endif
endif
endif
ifeq ($(filter lg fermi,$(ISA)),)
ifeq ($(filter $(DUTS),$(DUT)),)
$(error DUT=$(DUT) is not a DUT: use DUT=rtl (the Verilog SM of rtl/) or DUT=flexgrip (FlexGripPlus under GHDL))
endif
endif
ifeq ($(filter $(NUM_SPS),$(NUM_SP)),)
$(error NUM_SP=$(NUM_SP) is not an SP count: use NUM_SP=8, 16 or 32)
endif
endif

.PHONY: setup sim random mutants regress coverage rtl-vectors test lint docs check-listing bench faults faults-rerun clean help

# the targets and their variables: scripts/targets.toml, also the source of the manual's make-targets page
help:
	@python3 scripts/make_help.py

$(SETUP): scripts/setup.sh requirements.txt pyproject.toml
	bash scripts/setup.sh

setup: $(SETUP)

# The main job: assemble the program and check that disassembly gives back the same words, run it
# on the golden model against its expectations, then on the RTL in lock-step with the model.
# TEST is a name of programs/ or a path (a .sass program; a .txt FlexGripPlus kernel bundle runs in
# lock-step only). A model run that fails does not stop the lock-step run (a bad/ program's
# fault is then seen on both sides), but fails the target. DUT=flexgrip: no separate model run;
# scripts/sim.py ends with the two verdicts (lock-step; the .expect lines on FlexGripPlus's memory,
# broken lines named by the known findings that break them) and the exit code they give.
# `sim.py --check` comes first so that a wrong setting, a missing simulator or FlexGripPlus checkout
# ends in its one line before any run.
PROGRAM = $(if $(filter %.sass %.txt,$(TEST)),$(TEST),programs/$(TEST).sass)
SIM_ARGS = --dut $(DUT) $(if $(SIM),--sim $(SIM)) --num-sp $(NUM_SP) --seed $(SEED) --profile $(PROFILE) \
	$(if $(filter 1,$(WAVES)),--waves) $(if $(DEFINES),--defines $(DEFINES)) $(if $(WAIVE),--waive $(WAIVE)) \
	$(if $(filter 0,$(LOCKSTEP)),--free-running) $(if $(MEM_ORDER),--mem-order $(MEM_ORDER)) --visibility $(VISIBILITY)
# ISA=lg: the LG program programs/lg/$(TEST).lgs (or TEST=path/to/x.lgs; the default three_triangles)
# assembled, on the golden model alone against its ;! expect lines (frames as build/sim/lg/<test>/frame_N.png),
# then on the LG core (DUT=rtl, or DUT=name RTL='files' for a core of your own) in lock-step
# (docs/guides/lg-lockstep.md). One tool does the three steps and checks its settings first.
LG_TEST = $(if $(filter command line environment override,$(origin TEST)),$(TEST),three_triangles)
LG_SIM_ARGS = --dut $(DUT) $(if $(RTL),--rtl '$(RTL)') $(if $(SIM),--sim $(SIM)) $(if $(filter 1,$(WAVES)),--waves)
# ISA=fermi: the Fermi program programs/fermi/$(TEST).sass (kernels/NAME, bad/NAME, or a path; the default
# integer) assembled, its words round-tripped through the disassembler, then run on the golden model
# against its .expect lines; no Fermi DUT exists yet, which the run's last line says (docs/guides/fermi.md).
FERMI_TEST = $(if $(filter command line environment override,$(origin TEST)),$(TEST),integer)
ifeq ($(ISA),lg)
sim: $(SETUP)
	$(PY) scripts/sim.py --isa lg $(LG_TEST) $(LG_SIM_ARGS)
else ifeq ($(ISA),fermi)
sim: $(SETUP)
	$(PY) scripts/sim.py --isa fermi $(FERMI_TEST)
else
sim: $(SETUP)
	@$(PY) scripts/sim.py $(PROGRAM) $(SIM_ARGS) --check
	$(if $(filter %.sass,$(PROGRAM)),$(PY) -m golden roundtrip $(PROGRAM) -o $(BUILD))
	@status=0; \
	$(if $(and $(filter %.sass,$(PROGRAM)),$(filter-out flexgrip,$(DUT))),echo "$(PY) -m golden run $(PROGRAM) --profile $(PROFILE)"; \
	$(PY) -m golden run $(PROGRAM) --profile $(PROFILE) || { status=1; echo "make sim: the golden model alone failed (above); the lock-step run goes on"; };) \
	echo "$(PY) scripts/sim.py $(PROGRAM) ..."; \
	$(PY) scripts/sim.py $(PROGRAM) $(SIM_ARGS) || status=1; \
	exit $$status
endif

# Constrained-random programs (randgen/) in lock-step: one line per program, `N passed, M failed`;
# failures kept in build/random/failures with the command that reruns them, shrunk next to them.
# The programs run as tasks of the engine (JOBS, CLUSTER); their lines come in seed order.
# Resumable: after a Ctrl-C the same command goes on after the programs that finished (FRESH=1 starts over).
# ISA=lg: LG programs (randgen/lg.py) on the LG core (DUT=rtl, or DUT=name RTL='files'); NUM_SP is G80's,
# passed only where it means something so that an LG or Fermi run given one says so.
# ISA=fermi: Fermi programs (randgen/fermi.py) on the Fermi model alone: no Fermi DUT exists (the run says so).
RANDOM_NUM_SP = $(if $(filter-out lg fermi,$(ISA))$(filter command line,$(origin NUM_SP)),--num-sp $(NUM_SP))
random: $(SETUP)
	$(PY) -m randgen run --isa $(ISA) --seed $(SEED) --count $(COUNT) --preset $(PRESET) $(if $(CONFIG),--config $(CONFIG)) \
		$(if $(KNOBS),--knobs "$(KNOBS)") $(if $(SIM),--sim $(SIM)) $(RANDOM_NUM_SP) --dut $(DUT) $(if $(RTL),--rtl '$(RTL)') \
		$(if $(DEFINES),--defines $(DEFINES) --baseline) $(if $(filter 1,$(SHRINK)),--shrink) $(if $(BATCH),--batch $(BATCH)) $(if $(filter 1,$(FRESH)),--fresh) \
		$(CLUSTER_ARGS)

# Mutation score (tb/mutation/): mutants generated from the sources of rtl/ (operators, literals,
# conditions, dropped assignments, stuck output bits), all in one Verilator build behind a runtime
# id; each against the directed programs and the random tier until the first failing program.
# The mutants' simulator processes are tasks of the engine (JOBS, CLUSTER).
# A benchmark-like target (tens of minutes on two cores), not part of `make test`; resumes.
MUTANTS_N ?= 300
MUTANTS_SEED ?= 1
MUTANTS_RANDOM ?= ci:5,default:2,fp:1,fp16:3,tall:3,int:2
MUTANTS_QUICK ?= 40
MUTANTS_BUDGET ?= 0
mutants: $(SETUP)
	$(PY) -m tb.mutation run -n $(MUTANTS_N) --seed $(MUTANTS_SEED) --random "$(MUTANTS_RANDOM)" $(CLUSTER_ARGS) \
		--quick $(MUTANTS_QUICK) --second-budget $(MUTANTS_BUDGET) -o $(BUILD)/mutants

# Every program on both simulators at NUM_SP 8, 16 and 32, as tasks of the engine (tb/regress.py:
# batches of the test ids, each in one pytest process; JOBS, CLUSTER), one JUnit file and the records;
# RANDOM=n adds n random programs (seeds RANDOM_SEED..) on Verilator at NUM_SP 8, 16 and 32.
# ISA=lg: every program of programs/lg on the LG core on both simulators and every bad program
# against its `;! error` line (tests/test_lg_lockstep.py --regress), the same way, in build/regress/lg.
# Resumable: a regression stopped before its summary (Ctrl-C) keeps each finished run's record, and
# the next `make regress` runs only the others (their recorded outcomes count as before, so JUnit and
# summary are those of an uninterrupted run); a finished one, or FRESH=1, starts over.
# the content of what a run's outcome depends on: kept records are replayed only for the same sources
# (a resumed regression after an RTL change would otherwise report runs of the old RTL)
REGRESS_SOURCES = find rtl tb golden programs bench hdl -type f \( -name '*.v' -o -name '*.vh' -o -name '*.f' -o -name '*.py' -o -name '*.sass' -o -name '*.vhd' \
	$(if $(filter lg,$(ISA)),-o -name '*.lgs') \) \
	| LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16
# what a regression starting over removes: the folder's content but an LG regression's folder in it
REGRESS_OLD = $(filter-out $(REGRESS)/lg,$(wildcard $(REGRESS)/*))
REGRESS_ISA = $(if $(filter-out g80,$(ISA)),--isa $(ISA) )
FRESH ?= 0
regress: $(SETUP)
ifeq ($(DUT),flexgrip)
	mkdir -p $(REGRESS)_flexgrip
	$(PY) scripts/flexgrip_regress.py $(if $(filter 1,$(RTL_CYCLES)),--rtl) -o $(REGRESS)_flexgrip/summary.md --json $(REGRESS)_flexgrip/flexgrip_kernels.json
else
	@digest=$$($(REGRESS_SOURCES)); \
	if [ "$(FRESH)" != 1 ] && [ ! -f $(REGRESS)/summary.md ] && [ -n "$$(ls $(REGRESS)/runs 2>/dev/null)" ]; then \
		if [ "$$(cat $(REGRESS)/sources 2>/dev/null)" = "$$digest" ]; then \
			echo "regress: resuming: $$(ls $(REGRESS)/runs/*.json | wc -l) finished runs kept in $(REGRESS)/runs are not run again (FRESH=1 starts over)"; \
		else echo "regress: rtl/, tb/, golden/, programs/, bench/ or hdl/ changed since the interrupted regression: starting over"; rm -rf $(REGRESS_OLD); fi; \
	else rm -rf $(REGRESS_OLD); fi; mkdir -p $(REGRESS) && echo "$$digest" > $(REGRESS)/sources
	@echo "$(PY) -m tb.regress --runs $(REGRESS)/runs --junit $(REGRESS)/junit.xml $(REGRESS_ISA)$(CLUSTER_ARGS) -- $(PYTEST_ARGS)"; \
	$(PY) -m tb.regress --runs $(REGRESS)/runs --junit $(REGRESS)/junit.xml $(REGRESS_ISA)$(CLUSTER_ARGS) -- $(PYTEST_ARGS)
	$(if $(filter-out 0,$(RANDOM)),for sp in 8 16 32; do $(PY) -m randgen run --seed $(RANDOM_SEED) --count $(RANDOM) --preset $(PRESET) $(CLUSTER_ARGS) \
		--sim verilator --num-sp $$sp -o $(REGRESS)/random_sp$$sp; done | tee $(REGRESS)/random.txt || true)
	$(PY) -m golden regress-summary $(REGRESS)/runs $(REGRESS_ISA)--junit $(REGRESS)/junit.xml -o $(REGRESS)/summary.md
endif

# Functional coverage (golden/coverage): every program on the golden model with commit sampling,
# then (COVERAGE_RTL=1) the lock-step regression at NUM_SP 8 (and its smoke set at 32: one-pass
# instructions, back-to-back commits) sampling the commits the scoreboard compared and the RTL's micro-architecture (by VPI: a Verilator build with every signal visible,
# TB_FULL_VISIBILITY=1: the full-visibility Verilator build of tb/runner.py); (COVERAGE_RANDOM=n) n random programs
# from seed COVERAGE_RANDOM_SEED the same way (golden model, then lock-step on Verilator);
# (COVERAGE_CODE=1) RTL code coverage: lock-step runs of COVERAGE_CODE_PROGRAMS on a Verilator
# --coverage model (scripts/rtl_code_coverage.py). All merged into one HTML page, a text summary
# and a UCIS database, with directed and random figures apart.
COVERAGE_RANDOM ?= 0
COVERAGE_RANDOM_SEED ?= 2000
# the random programs' memory: responses up to this many cycles late (the directed runs: 8), so more loads are in flight
COVERAGE_RANDOM_LATENCY ?= 16
COVERAGE_SOURCES = directed=$(COVERAGE)/golden directed=$(COVERAGE)/rtl \
	$(if $(filter-out 0,$(COVERAGE_RANDOM)),random=$(COVERAGE)/random/golden $(if $(filter 1,$(COVERAGE_RTL)),random=$(COVERAGE)/random/rtl))
coverage: $(SETUP)
ifeq ($(ISA),lg)
	@test "$(filter command line environment,$(origin COVERAGE_RTL) $(origin COVERAGE_CODE))" = "" || { echo "make coverage ISA=lg: COVERAGE_RTL and COVERAGE_CODE are G80's; LG coverage samples the model's commit records, which lock-step checks equal to the core's (leave them out)"; exit 2; }
	rm -rf $(COVERAGE)/lg && mkdir -p $(COVERAGE)/lg/golden
	$(PY) -m golden coverage-runs --isa lg programs/lg/*.lgs -o $(COVERAGE)/lg/golden --jobs 2
	$(if $(filter-out 0,$(COVERAGE_RANDOM)),$(PY) -m randgen gen --isa lg --seed $(COVERAGE_RANDOM_SEED) --count $(COVERAGE_RANDOM) -o $(COVERAGE)/lg/random/programs > /dev/null \
		&& $(PY) -m golden coverage-runs --isa lg $(COVERAGE)/lg/random/programs/*.lgs -o $(COVERAGE)/lg/random/golden --jobs 2 --no-expect)
	$(PY) -m golden coverage-report -o $(COVERAGE)/lg/report directed=$(COVERAGE)/lg/golden $(if $(filter-out 0,$(COVERAGE_RANDOM)),random=$(COVERAGE)/lg/random/golden)
	@echo "coverage: open $(COVERAGE)/lg/report/coverage.html"
else ifeq ($(ISA),fermi)
	@test "$(filter command line environment,$(origin COVERAGE_RTL) $(origin COVERAGE_CODE))" = "" || { echo "make coverage ISA=fermi: COVERAGE_RTL and COVERAGE_CODE are G80's; no Fermi DUT exists, Fermi coverage samples the model's commit records (leave them out)"; exit 2; }
	rm -rf $(COVERAGE)/fermi && mkdir -p $(COVERAGE)/fermi/golden
	$(PY) -m golden coverage-runs --isa fermi programs/fermi/*.sass programs/fermi/kernels/*.sass -o $(COVERAGE)/fermi/golden
	$(if $(filter-out 0,$(COVERAGE_RANDOM)),$(PY) -m randgen run --isa fermi --sim golden --seed $(COVERAGE_RANDOM_SEED) --count $(COVERAGE_RANDOM) --preset $(PRESET) \
		--jobs 1 --fresh -o $(COVERAGE)/fermi/random/programs --cov $(COVERAGE)/fermi/random/golden)
	$(PY) -m golden coverage-report -o $(COVERAGE)/fermi/report directed=$(COVERAGE)/fermi/golden $(if $(filter-out 0,$(COVERAGE_RANDOM)),random=$(COVERAGE)/fermi/random/golden)
	@echo "coverage: open $(COVERAGE)/fermi/report/coverage.html"
else
	rm -rf $(COVERAGE) && mkdir -p $(COVERAGE)/golden $(COVERAGE)/rtl
	$(PY) -m golden coverage-runs programs/*.sass programs/kernels/*.sass -o $(COVERAGE)/golden --jobs 2
	$(if $(filter 1,$(COVERAGE_RTL)),TB_FULL_VISIBILITY=1 COVERAGE_DIR=$(COVERAGE)/rtl $(PY) -m pytest -n auto -q tests/test_rtl_lockstep.py -k "sp8 or sp32" $(PYTEST_ARGS))
	$(if $(filter-out 0,$(COVERAGE_RANDOM)),$(PY) -m randgen gen --seed $(COVERAGE_RANDOM_SEED) --count $(COVERAGE_RANDOM) --preset $(PRESET) -o $(COVERAGE)/random/programs > /dev/null \
		&& $(PY) -m golden coverage-runs $(COVERAGE)/random/programs/*.sass -o $(COVERAGE)/random/golden --jobs 2 --no-expect \
		$(if $(filter 1,$(COVERAGE_RTL)),&& $(PY) scripts/coverage_lockstep.py -o $(COVERAGE)/random/rtl --sim verilator --max-latency $(COVERAGE_RANDOM_LATENCY) $(COVERAGE)/random/programs/*.sass))
	$(if $(filter 1,$(COVERAGE_CODE)),$(PY) scripts/rtl_code_coverage.py -o $(COVERAGE)/code $(COVERAGE_CODE_PROGRAMS))
	$(PY) -m golden coverage-report -o $(COVERAGE)/report $(COVERAGE_SOURCES) $(if $(filter 1,$(COVERAGE_CODE)),--code $(COVERAGE)/code/coverage.dat)
	@echo "coverage: open $(COVERAGE)/report/coverage.html"
endif

# Vector files (default testdata/vectors/fp32.txt and sfu.txt) through rtl/sm1_fp_alu.v and rtl/sm1_sfu.v.
# VECTORS="a.txt b.txt" become the script's arguments, one file each.
rtl-vectors: $(SETUP)
	$(PY) scripts/rtl_vectors.py $(if $(SIM),--sim $(SIM)) $(VECTORS)

lint: $(SETUP)
	$(VENV)/bin/ruff check golden tests scripts tb randgen docs
	$$($(PY) -c 'import tb.runner as r; print(r.verilator_bin())')/verilator --lint-only -Wall -f rtl/sm.f --top-module sm_top
	$(PY) scripts/gen_rtl_isa.py --check
	$(PY) scripts/gen_sfu_rom.py --check
	$(PY) scripts/gen_flexgrip_sfu_rom.py --check
	$(PY) scripts/gen_architecture.py --check
	$$($(PY) -c 'import tb.runner as r; print(r.verilator_bin())')/verilator --lint-only -Wall -f rtl/lg/lg.f --top-module lg_core
	$(PY) scripts/gen_lg_rtl.py --check

# The manual: its reference pages are generated from the code at build time (docs/_ext), and a
# warning fails the build, so a page that no longer matches the code stops `make test`. Sphinx
# writes the pages even when a warning fails the build: html.ok marks a clean one (tests/test_docs.py
# reuses it instead of building again).
DOCS_OUT := $(BUILD)/docs
docs: $(SETUP)
	$(PY) -m sphinx -W --keep-going -q -b html -d $(DOCS_OUT)/doctrees docs $(DOCS_OUT)/html
	touch $(DOCS_OUT)/html.ok

test: $(SETUP) lint docs
	$(PY) -m pytest -n auto $(PYTEST_ARGS)

check-listing: $(SETUP)
	$(PY) -m golden check-listing $(LISTINGS)

# ISA=lg: the LG figures alone (scripts/bench_lg.py): model instructions/s, scoreboard and lock-step
# commits/s, the LG core's cycles/s free-running, lock-step against its bound
BENCH_LG_ARGS ?=
# ISA=fermi: the Fermi model's thread- and warp-instructions per second (scripts/bench_fermi.py)
BENCH_FERMI_ARGS ?=
ifeq ($(ISA),lg)
bench: $(SETUP)
	$(PY) scripts/bench_lg.py $(BENCH_LG_ARGS)
else ifeq ($(ISA),fermi)
bench: $(SETUP)
	$(PY) scripts/bench_fermi.py $(BENCH_FERMI_ARGS)
else
bench: $(SETUP)
	$(PY) scripts/bench.py
	$(if $(filter 0,$(BENCH_RTL)),,$(PY) scripts/bench_rtl.py $(BENCH_RTL_ARGS))
	$(if $(filter 0,$(BENCH_SPEED)),,$(PY) scripts/bench_speed.py $(BENCH_SPEED_ARGS))
	$(if $(filter 0,$(BENCH_FLEXGRIP)),,$(PY) scripts/flexgrip_regress.py --bench)
	$(if $(filter 0,$(BENCH_FAULTS)),,$(PY) scripts/bench_faults.py)
	$(if $(filter 0,$(BENCH_REPORT)),,$(PY) scripts/bench_report.py)
endif

# Fault-injection campaigns (tb/faults): a reference run, sites from the design, N faults as Dask
# tasks of 20-200 faults in one simulator process each (an embedded cluster of JOBS workers, or the
# cluster CLUSTER names), classified at the first divergence; database and report per campaign.
N ?= 100
MODEL ?= seu
TARGET ?= *
ENGINE ?=
faults: $(SETUP)
	$(PY) -m tb.faults run --test $(TEST) -n $(N) --dut $(DUT) --sim $(or $(SIM),$(if $(filter flexgrip,$(DUT)),ghdl,verilator)) --model $(MODEL) --target '$(TARGET)' --seed $(SEED) \
		--num-sp $(NUM_SP) $(CLUSTER_ARGS) $(if $(STOP),--stop $(STOP)) $(if $(DB),--db $(DB)) $(if $(ENGINE),--engine '$(ENGINE)')

faults-rerun: $(SETUP)
	@test -n "$(DB)" -a -n "$(ID)" || { echo "make faults-rerun DB=path/campaign.sqlite ID=n"; exit 2; }
	$(PY) -m tb.faults rerun $(DB) $(ID)

clean:
	rm -rf $(BUILD) .pytest_cache .hypothesis
