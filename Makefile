# The README's two commands:
#   make run   build everything and run the main job
#   make test  build, run every test, then run the whole suite again in an
#              AddressSanitizer + UndefinedBehaviorSanitizer build (clang,
#              with the libFuzzer targets run for a short fixed count)
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_RUNS  ?= 20000
# make fuzz: each target runs FUZZ_LONG_RUNS inputs or FUZZ_SECONDS, whichever
# comes first
FUZZ_LONG_RUNS ?= 10000000
FUZZ_SECONDS   ?= 1800
CTEST_ARGS ?= --output-on-failure
PREFIX     ?= /usr/local

.PHONY: all build deps run test test-main test-asan fuzz format clean install

all: build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

# the Debian packages (scripts/deps.sh: installs what is missing as root,
# else prints the apt-get line and stops)
deps:
	sh scripts/deps.sh

run: deps build
	sh scripts/run-main.sh $(BUILD)

# libixdb (shared + static), ixdb.h, ixdb.pc, the programs and their man
# pages: make install PREFIX=/tmp/x. Builds only what is installed (CMake's
# `installables` target), not the tests.
install:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS) --target installables
	cmake --install $(BUILD) --prefix $(PREFIX)

test: deps test-main test-asan

test-main: build
	cd $(BUILD) && ctest -j$(JOBS) $(CTEST_ARGS)

test-asan:
	CC=clang cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug \
	  -DIXDB_SANITIZE=ON -DIXDB_FUZZ=ON -DIX_FUZZ_RUNS=$(FUZZ_RUNS)
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest -j$(JOBS) $(CTEST_ARGS)

# Long fuzzing runs: every target 10 million inputs or 30 minutes (each goes
# on after another's crash; the exit status and scripts/fuzz-all.sh's report
# say which failed and where the input is): make fuzz [FUZZ_LONG_RUNS=N] [FUZZ_SECONDS=S]
fuzz:
	CC=clang cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug \
	  -DIXDB_SANITIZE=ON -DIXDB_FUZZ=ON
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	sh scripts/fuzz-all.sh $(ASAN_BUILD) $(FUZZ_LONG_RUNS) $(FUZZ_SECONDS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

# Comparison benchmarks (programs, not tests; docs/benchmarks-comparisons.md):
# report and plots in bench/results/. bench-quick takes under 2 minutes.
.PHONY: bench bench-quick
bench: build
	sh bench/run_all.sh $(BUILD)

bench-quick: build
	sh bench/run_all.sh $(BUILD) --quick
