# Convenience wrapper around CMake. The real build is CMakeLists.txt.
#
#   make run     build, then run evprof on the example log
#   make check   build, then the quick tiers: the unit and cli tests, what
#                to run before each commit (tests/TESTING.md)
#   make test    build, then every test that needs no client: unit, cli
#                and slow (the client tests are `make clients`)
#   make install build, then install the binary, man page, libraries,
#                headers, pkg-config and CMake files under PREFIX
#                (default /usr/local; DESTDIR=... stages them, as usual)
#   make golden  rewrite tests/golden/ from the current output (after an
#                intended change; review with git diff tests/golden)
#   make asan    every test (all tiers) with AddressSanitizer + UBSan
#                (build-asan/)
#   make fuzz    libFuzzer on the decoder for FUZZ_SECONDS (needs clang)
#   make fuzz-cli  every subcommand on mutated logs under ASan/UBSan for
#                FUZZ_SECONDS (tests/fuzz/cli_fuzz.py; crashes go to
#                tests/fuzz/regress/, which `make test` replays)
#   make bench   throughput and memory benchmark (bench/run.sh)
#   make clients install the real clients from the registries (GHC,
#                Chromium, speedscope's app, Go's pprof, tmux) and run every
#                test that checks evprof against one of them (the client
#                label); FlameGraph where github.com answers, else its
#                checks "not checked"
#   make deps    install missing Debian packages (as root)
#   make clean   remove the build directories

BUILD       ?= build
ASAN_BUILD  ?= build-asan
FUZZ_BUILD  ?= build-fuzz
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
EXAMPLE     ?= examples/nfib.eventlog
# What `make run` runs: the default report of the example log.
RUN_ARGS    ?= $(EXAMPLE)
FUZZ_SECONDS ?= 60
# libFuzzer's input size limit (longer seeds are cut, which tests truncation)
FUZZ_MAX_LEN ?= 65536
# seeds larger than this stay out of the fuzzing corpus
FUZZ_SEED_MAX ?= 1048576
SHARED_CORPUS ?= ../shared/corpus
PREFIX      ?= /usr/local

# ctest's labels (tests/CMakeLists.txt): unit, cli, slow, client
CTEST       = cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

.PHONY: all deps configure build run check test install golden asan fuzz fuzz-cli bench clients clean

all: build

deps:
	@bash scripts/deps.sh

configure: deps
	cmake -S . -B $(BUILD)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/evprof $(RUN_ARGS)

check: build
	$(CTEST) -L '^(unit|cli)$$'

test: build
	$(CTEST) -L '^(unit|cli|slow)$$'

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

golden: build
	bash tests/cli/golden.sh $(BUILD)/evprof --update

asan: deps
	cmake -S . -B $(ASAN_BUILD) -DEVPROF_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)

fuzz: deps
	@command -v clang >/dev/null || { echo "make fuzz needs clang (make deps installs it)"; exit 1; }
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DEVPROF_FUZZ=ON -DBUILD_TESTING=ON
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_decoder
	mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/artifacts
	for f in $(SHARED_CORPUS)/*/*.eventlog tests/data/*/*.eventlog tests/fuzz/bad/* \
	         tests/fuzz/regress/*; do \
	    [ -f "$$f" ] && [ $$(wc -c < "$$f") -le $(FUZZ_SEED_MAX) ] && \
	    cp -n "$$f" $(FUZZ_BUILD)/corpus/$$(basename $$(dirname "$$f"))-$$(basename "$$f"); \
	done; true
	$(FUZZ_BUILD)/tests/fuzz/fuzz_decoder -max_total_time=$(FUZZ_SECONDS) \
	    -max_len=$(FUZZ_MAX_LEN) -artifact_prefix=$(FUZZ_BUILD)/artifacts/ \
	    -print_final_stats=1 $(FUZZ_BUILD)/corpus

fuzz-cli: deps
	cmake -S . -B $(ASAN_BUILD) -DEVPROF_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target evprof hostile_log
	python3 tests/fuzz/cli_fuzz.py --evprof $(ASAN_BUILD)/evprof --seconds $(FUZZ_SECONDS) \
	    --regress tests/fuzz/regress tests/data tests/fuzz/bad $(SHARED_CORPUS)

# bench/run.sh builds its own Release tree (build-bench/) and its logs
# (bench/out/); BENCH_SHAPES picks shapes (default all), BENCH_FULL=1 the
# full sizes (docs/BENCH.md)
bench: deps
	bash bench/run.sh $(BENCH_SHAPES)

clients: deps
	bash scripts/clients.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) build-bench
