# arrayc: set-up, build, demo and tests. On a fresh Debian 12 machine:
#   make demo    set up, build, run one example with timing
#   make test    set up, build, then every check: rustfmt, the crate layering (scripts/check-layers.sh),
#                clippy (warnings are errors), cargo
#                unit/integration tests, lit, example pytest, language server pytest (pytest-lsp)
#   make fuzz    set up, build, fuzz every entry point for a long run (FUZZ_ITERS inputs each)
#   make bench   set up (plus numexpr, JAX, matplotlib), build, run the benchmark suite (about
#                10-15 minutes on 2 cores): benchmarks/REPORT.md, report.png, fig14.png
# One build profile (release) for everything, so the test binaries and the `arrayc` the lit and
# pytest suites run share one build. Parallelism is cargo's default (CARGO_BUILD_JOBS if set).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

# rustup installs cargo into ~/.cargo/bin, which a fresh (non-login) shell may not have on PATH.
export PATH := $(or $(CARGO_HOME),$(HOME)/.cargo)/bin:$(PATH)

CARGO    ?= cargo
PYTHON   ?= python3
LLVM_BIN ?= /usr/lib/llvm-22/bin
LIT      ?= $(LLVM_BIN)/lit
ARRAYC     := target/release/arrayc
# The demo: the Jacobi heat equation on a 102x102 grid, 1000 sweeps (its default input), about half a second.
DEMO       ?= examples/heat.arr
DEMO_ARGS  ?=

.PHONY: all setup build demo test lint unit lit pytest fuzz bench bench-setup clean

all: build

setup:
	@PYTHON=$(PYTHON) bash scripts/setup.sh

build: setup
	$(CARGO) build --release -p arrayc-tools -p arrayc-aot -p arrayc-aot-dist

demo: build
	@echo
	@echo "== $(strip $(ARRAYC) run $(DEMO) $(DEMO_ARGS)) --time"
	@TIMEFORMAT='== wall time (compile + JIT + run): %3R s'; time $(strip $(ARRAYC) run $(DEMO) $(DEMO_ARGS)) --time

# Everything, in order; stops at the first failing suite.
test: build lint
	$(CARGO) test --workspace --release
	$(LIT) -v lit-tests
	ARRAYC=$(abspath $(ARRAYC)) $(PYTHON) -m pytest -q tests/examples
	ARRAYC=$(abspath $(ARRAYC)) $(PYTHON) -m pytest -q -rs tests/lsp

# Formatting and lints, warnings as errors (rustfmt.toml holds the style).
lint: setup
	$(CARGO) fmt --check
	CARGO=$(CARGO) bash scripts/check-layers.sh
	$(CARGO) clippy --workspace --release --all-targets -- -D warnings

# The suites one by one (each builds first).
unit: setup
	$(CARGO) test --workspace --release

lit: build
	$(LIT) -v lit-tests

pytest: build
	ARRAYC=$(abspath $(ARRAYC)) $(PYTHON) -m pytest -q tests/examples
	ARRAYC=$(abspath $(ARRAYC)) $(PYTHON) -m pytest -q -rs tests/lsp

# Long fuzzing runs (make test runs short ones): FUZZ_ITERS mutated inputs per entry point of
# tools/tests/fuzz.rs (front end, pipeline, MLIR importer, .npy reader, language server), FUZZ_ITERS
# calls of the Python modules of libraries from `arrayc build --lib` (tests/fuzz/libfuzz.py), then DIFF_COUNT generated
# programs of tests/fuzz/differential.py under every fusion configuration against NumPy (about
# 2 s per program on 2 cores), each with its figures.
FUZZ_ITERS ?= 10000
FUZZ_SEED  ?= 1
DIFF_COUNT ?= 100

fuzz: build
	ARRAYC_FUZZ_ITERS=$(FUZZ_ITERS) ARRAYC_FUZZ_SEED=$(FUZZ_SEED) $(CARGO) test --release -p arrayc-tools --test fuzz -- --nocapture
	ARRAYC=$(abspath $(ARRAYC)) $(PYTHON) tests/fuzz/libfuzz.py --iters $(FUZZ_ITERS) --seed $(FUZZ_SEED)
	ARRAYC=$(abspath $(ARRAYC)) $(PYTHON) tests/fuzz/differential.py --count $(DIFF_COUNT) --seed $(FUZZ_SEED)

# The benchmark suite of issue 4 against NumPy, numexpr and JAX. BENCH_ARGS is passed on, e.g.
# make bench BENCH_ARGS="--repeats 5" or BENCH_ARGS="--only heat,sor --quick".
BENCH_ARGS ?=

bench-setup: setup
	@PYTHON=$(PYTHON) bash scripts/bench-setup.sh

bench: bench-setup build
	ARRAYC=$(abspath $(ARRAYC)) $(PYTHON) benchmarks/harness.py $(BENCH_ARGS)

clean:
	$(CARGO) clean
	rm -rf .pytest_cache out
	find lit-tests -type d -name Output -prune -exec rm -rf {} +
	find . -path ./target -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
