# G80 / FlexGripPlus SM verification: see docs/reference/make-targets.md for what each target does.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
SETUP := $(VENV)/.setup-done
TESTDATA := testdata
TEST ?= iadd
DUT ?= rtl
SIM ?=
FLEXGRIP_DIR ?= ../shared/flexgripplus
export FLEXGRIP_DIR
# Python writes its bytecode under build/pycache even where the environment says PYTHONDONTWRITEBYTECODE:
# otherwise every short run compiles golden/ and tb/ again (issue 19, start-up)
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
REGRESS = $(BUILD)/regress
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

.PHONY: setup sim random mutants regress coverage rtl-vectors test lint check-listing bench faults faults-rerun clean help

help:
	@echo "make setup              install simulators and the Python environment (.venv)"
	@echo "make sim TEST=iadd      programs/\$$(TEST).sass (or TEST=path/to/x.sass): round trip, golden model, then the DUT (default the RTL) in lock-step"
	@echo "                        (DUT=rtl|flexgrip SIM=verilator|icarus NUM_SP=8|16|32 SEED=n WAVES=0|1 PROFILE=g80|flexgrip DEFINES=MUTANT_X"
	@echo "                        LOCKSTEP=0: compare the commit trace after the run; VISIBILITY=full: every signal VPI-visible on Verilator;"
	@echo "                        MEM_ORDER=request: memory responses in request order, not each after its own latency)"
	@echo "make random SEED=n COUNT=k  k constrained-random programs from seed n in lock-step (PRESET= CONFIG= KNOBS= SIM= NUM_SP= DUT= DEFINES= SHRINK=0|1)"
	@echo "                        BATCH=k: k programs per simulator process (a failure is rerun alone)"
	@echo "make mutants            mutation score: MUTANTS_N RTL mutants generated from rtl/ (tb/mutation), each against the directed programs"
	@echo "                        (programs/bad: the RTL must stop as unmutated) and the random tier (MUTANTS_RANDOM=preset:count,...) until"
	@echo "                        the first failure; report in $(BUILD)/mutants/report.md (JOBS=n); resumes, and draws again when rtl/ changed"
	@echo "make regress            every program on both simulators at NUM_SP 8/16/32 (JUnit + one-page summary in $(REGRESS))"
	@echo "                        DUT=flexgrip: every program and bundle on FlexGripPlus (GHDL), summary in $(REGRESS)_flexgrip"
	@echo "make coverage           functional coverage of every program (golden model, and RTL lock-step with micro-architecture unless COVERAGE_RTL=0;"
	@echo "                        COVERAGE_RANDOM=n adds n random programs; RTL code coverage with COVERAGE_CODE=1): HTML, text, UCIS in $(COVERAGE)/report"
	@echo "make rtl-vectors        FP/SFU vector files through the RTL FP unit and SFU (VECTORS=\"a.txt b.txt\" SIM=icarus|verilator)"
	@echo "make test               lint + the whole pytest suite (what .ci/run runs)"
	@echo "make lint               ruff check, generated files against a regeneration"
	@echo "make check-listing      check-listing over $(TESTDATA)/vectors/listings (LISTINGS=files)"
	@echo "make bench              golden-model speed (thread-instructions per second), then the RTL issue rate, the issue and"
	@echo "                        memory bounds of the kernels and the lock-step testbench speed (BENCH_RTL=0 skips;"
	@echo "                        BENCH_RTL_ARGS=\"--sim icarus --num-sp 8 --suite bench\"); faults per minute of small SEU campaigns"
	@echo "                        on vecadd and reduce_pass2 (scripts/bench_faults.py, BENCH_FAULTS=0 skips)"
	@echo "make faults TEST=vecadd N=200  fault-injection campaign on the RTL (SIM=verilator|icarus DUT=rtl|flexgrip MODEL=seu|stuck0|stuck1 TARGET=pattern SEED=n JOBS=1 STOP=early|verify|off):"
	@echo "                        SQLite database and HTML report in build/faults/<campaign>/ (DB=path to choose); resumes an interrupted one"
	@echo "make faults-rerun DB=... ID=n   one fault of a campaign again, alone, with waveforms"
	@echo "make clean              remove build outputs"

$(SETUP): scripts/setup.sh requirements.txt pyproject.toml
	bash scripts/setup.sh

setup: $(SETUP)

# The main job: assemble the program and check that disassembly gives back the same words, run it
# on the golden model against its expectations, then on the RTL in lock-step with the model.
# TEST is a name of programs/ or a path (a .sass program; a .txt FlexGripPlus kernel bundle runs in
# lock-step only). A model run that fails does not stop the lock-step run (a bad/ program's
# fault is then seen on both sides), but fails the target.
PROGRAM = $(if $(filter %.sass %.txt,$(TEST)),$(TEST),programs/$(TEST).sass)
sim: $(SETUP)
	@test -f "$(PROGRAM)" || { echo "no program $(PROGRAM) (TEST is a name of programs/, see 'ls programs', or a path to a .sass program or kernel bundle)"; exit 2; }
	$(if $(filter %.sass,$(PROGRAM)),$(PY) -m golden roundtrip $(PROGRAM) -o $(BUILD))
	@status=0; \
	$(if $(filter %.sass,$(PROGRAM)),echo "$(PY) -m golden run $(PROGRAM) --profile $(PROFILE)"; \
	$(PY) -m golden run $(PROGRAM) --profile $(PROFILE) || { status=1; echo "make sim: the golden model alone failed (above); the lock-step run goes on"; };) \
	echo "$(PY) scripts/sim.py $(PROGRAM) ..."; \
	$(PY) scripts/sim.py $(PROGRAM) --dut $(DUT) $(if $(SIM),--sim $(SIM)) --num-sp $(NUM_SP) --seed $(SEED) --profile $(PROFILE) \
		$(if $(filter 1,$(WAVES)),--waves) $(if $(DEFINES),--defines $(DEFINES)) $(if $(WAIVE),--waive $(WAIVE)) \
		$(if $(filter 0,$(LOCKSTEP)),--free-running) $(if $(MEM_ORDER),--mem-order $(MEM_ORDER)) --visibility $(VISIBILITY) || status=1; \
	exit $$status

# Constrained-random programs (randgen/) in lock-step: one line per program, `N passed, M failed`;
# failures kept in build/random/failures with the command that reruns them, shrunk next to them.
random: $(SETUP)
	$(PY) -m randgen run --seed $(SEED) --count $(COUNT) --preset $(PRESET) $(if $(CONFIG),--config $(CONFIG)) \
		$(if $(KNOBS),--knobs "$(KNOBS)") $(if $(SIM),--sim $(SIM)) --num-sp $(NUM_SP) --dut $(DUT) \
		$(if $(DEFINES),--defines $(DEFINES) --baseline) $(if $(filter 1,$(SHRINK)),--shrink) $(if $(BATCH),--batch $(BATCH))

# Mutation score (tb/mutation/): mutants generated from the sources of rtl/ (operators, literals,
# conditions, dropped assignments, stuck output bits), all in one Verilator build behind a runtime
# id; each against the directed programs and the random tier until the first failing program.
# A benchmark-like target (tens of minutes on two cores), not part of `make test`; resumes.
MUTANTS_N ?= 300
MUTANTS_SEED ?= 1
MUTANTS_RANDOM ?= ci:5,default:2,fp:1,fp16:3,tall:3,int:2
MUTANTS_QUICK ?= 40
MUTANTS_BUDGET ?= 0
mutants: $(SETUP)
	$(PY) -m tb.mutation run -n $(MUTANTS_N) --seed $(MUTANTS_SEED) --random "$(MUTANTS_RANDOM)" --jobs $(JOBS) \
		--quick $(MUTANTS_QUICK) --second-budget $(MUTANTS_BUDGET) -o $(BUILD)/mutants

# Every program on both simulators at NUM_SP 8, 16 and 32, spread over the cores by pytest-xdist;
# RANDOM=n adds n random programs (seeds RANDOM_SEED..) on Verilator at NUM_SP 8, 16 and 32.
regress: $(SETUP)
ifeq ($(DUT),flexgrip)
	mkdir -p $(REGRESS)_flexgrip
	$(PY) scripts/flexgrip_regress.py $(if $(filter 1,$(RTL_CYCLES)),--rtl) -o $(REGRESS)_flexgrip/summary.md --json $(REGRESS)_flexgrip/flexgrip_kernels.json
else
	rm -rf $(REGRESS) && mkdir -p $(REGRESS)
	REGRESS_DIR=$(REGRESS)/runs $(PY) -m pytest -n auto -q tests/test_rtl_lockstep.py --regress --junitxml=$(REGRESS)/junit.xml $(PYTEST_ARGS) || true
	$(if $(filter-out 0,$(RANDOM)),for sp in 8 16 32; do $(PY) -m randgen run --seed $(RANDOM_SEED) --count $(RANDOM) --preset $(PRESET) \
		--sim verilator --num-sp $$sp -o $(REGRESS)/random_sp$$sp; done | tee $(REGRESS)/random.txt || true)
	$(PY) -m golden regress-summary $(REGRESS)/runs --junit $(REGRESS)/junit.xml -o $(REGRESS)/summary.md
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
	rm -rf $(COVERAGE) && mkdir -p $(COVERAGE)/golden $(COVERAGE)/rtl
	$(PY) -m golden coverage-runs programs/*.sass programs/kernels/*.sass -o $(COVERAGE)/golden --jobs 2
	$(if $(filter 1,$(COVERAGE_RTL)),TB_FULL_VISIBILITY=1 COVERAGE_DIR=$(COVERAGE)/rtl $(PY) -m pytest -n auto -q tests/test_rtl_lockstep.py -k "sp8 or sp32" $(PYTEST_ARGS))
	$(if $(filter-out 0,$(COVERAGE_RANDOM)),$(PY) -m randgen gen --seed $(COVERAGE_RANDOM_SEED) --count $(COVERAGE_RANDOM) --preset $(PRESET) -o $(COVERAGE)/random/programs > /dev/null \
		&& $(PY) -m golden coverage-runs $(COVERAGE)/random/programs/*.sass -o $(COVERAGE)/random/golden --jobs 2 --no-expect \
		$(if $(filter 1,$(COVERAGE_RTL)),&& $(PY) scripts/coverage_lockstep.py -o $(COVERAGE)/random/rtl --sim verilator --max-latency $(COVERAGE_RANDOM_LATENCY) $(COVERAGE)/random/programs/*.sass))
	$(if $(filter 1,$(COVERAGE_CODE)),$(PY) scripts/rtl_code_coverage.py -o $(COVERAGE)/code $(COVERAGE_CODE_PROGRAMS))
	$(PY) -m golden coverage-report -o $(COVERAGE)/report $(COVERAGE_SOURCES) $(if $(filter 1,$(COVERAGE_CODE)),--code $(COVERAGE)/code/coverage.dat)
	@echo "coverage: open $(COVERAGE)/report/coverage.html"

# Vector files (default testdata/vectors/fp32.txt and sfu.txt) through rtl/sm1_fp_alu.v and rtl/sm1_sfu.v.
# VECTORS="a.txt b.txt" become the script's arguments, one file each.
rtl-vectors: $(SETUP)
	$(PY) scripts/rtl_vectors.py $(if $(SIM),--sim $(SIM)) $(VECTORS)

lint: $(SETUP)
	$(VENV)/bin/ruff check golden tests scripts tb randgen
	$$($(PY) -c 'import tb.runner as r; print(r.verilator_bin())')/verilator --lint-only -Wall -f rtl/sm.f --top-module sm_top
	$(PY) scripts/gen_rtl_isa.py --check
	$(PY) scripts/gen_sfu_rom.py --check
	$(PY) scripts/gen_flexgrip_sfu_rom.py --check
	$(PY) scripts/gen_architecture.py --check

test: $(SETUP) lint
	$(PY) -m pytest -n auto $(PYTEST_ARGS)

check-listing: $(SETUP)
	$(PY) -m golden check-listing $(LISTINGS)

bench: $(SETUP)
	$(PY) scripts/bench.py
	$(if $(filter 0,$(BENCH_RTL)),,$(PY) scripts/bench_rtl.py $(BENCH_RTL_ARGS))
	$(if $(filter 0,$(BENCH_SPEED)),,$(PY) scripts/bench_speed.py $(BENCH_SPEED_ARGS))
	$(if $(filter 0,$(BENCH_FLEXGRIP)),,$(PY) scripts/flexgrip_regress.py --bench)
	$(if $(filter 0,$(BENCH_FAULTS)),,$(PY) scripts/bench_faults.py)

# Fault-injection campaigns (tb/faults): a reference run, sites from the design, N faults in one
# simulator process per job, classified at the first divergence; database and report per campaign.
N ?= 100
MODEL ?= seu
TARGET ?= *
JOBS ?= 1
faults: $(SETUP)
	$(PY) -m tb.faults run --test $(TEST) -n $(N) --dut $(DUT) --sim $(or $(SIM),$(if $(filter flexgrip,$(DUT)),ghdl,verilator)) --model $(MODEL) --target '$(TARGET)' --seed $(SEED) \
		--num-sp $(NUM_SP) --jobs $(JOBS) $(if $(STOP),--stop $(STOP)) $(if $(DB),--db $(DB))

faults-rerun: $(SETUP)
	@test -n "$(DB)" -a -n "$(ID)" || { echo "make faults-rerun DB=path/campaign.sqlite ID=n"; exit 2; }
	$(PY) -m tb.faults rerun $(DB) $(ID)

clean:
	rm -rf $(BUILD) .pytest_cache .hypothesis
