# memplan: `make demo` and `make check` are all a new user needs.
BUILD ?= build
# The shared inputs: ../shared, else the folder the build was configured with
# (MEMPLAN_SHARED_DIR; without it the tests that need them are skipped).
SHARED = $(shell test -d ../shared && echo ../shared || sed -n 's/^MEMPLAN_SHARED_DIR:PATH=//p' $(BUILD)/CMakeCache.txt 2>/dev/null)
MODEL ?= $(SHARED)/models/resnet18.mlir
STRATEGY ?= auto
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all deps configure build check demo bench clean fuzz fuzz-diff check-asan check-tsan

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD)

check: build
	@./scripts/install-deps.sh chromium chromium-driver  # the picture test
	cmake --build $(BUILD) --target check-memplan

demo: build
	./scripts/demo.sh $(BUILD) $(MODEL) $(STRATEGY)

bench: build
	@./scripts/install-deps.sh --bench  # jemalloc, mimalloc: the runtime's yardsticks
	cmake -S . -B $(BUILD) > /dev/null  # find them if they just arrived
	cmake --build $(BUILD) --target memplan-bench
	./scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)

# Robustness (not part of `make check`): libFuzzer targets built with clang in
# build-fuzz, each run FUZZ_SECONDS; unit tests under ASan+UBSan in build-asan.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
ASAN_BUILD ?= build-asan
ASAN_FLAGS ?= -fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all -fno-omit-frame-pointer

fuzz:
	@./scripts/install-deps.sh --fuzz
	test -f $(FUZZ_BUILD)/build.ninja || cmake -G Ninja -S . -B $(FUZZ_BUILD) \
	  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang \
	  -DCMAKE_CXX_COMPILER=clang++ -DMEMPLAN_ENABLE_FUZZERS=ON
	cmake --build $(FUZZ_BUILD) --target memplan-fuzzers
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./fuzz/run.sh $(FUZZ_BUILD)
	$(MAKE) fuzz-diff FUZZ_SECONDS=$(FUZZ_SECONDS)

# Differential fuzzer (fuzz/diff): random memref programs planned by
# tensor-mem-plan and tensor programs of issue 21's shapes through
# memplan-pipeline (FUZZ_FAMILY=mixed: every other seed), each run unplanned
# and planned for FUZZ_SECONDS; findings in FUZZ_DIFF_OUT.
FUZZ_DIFF_OUT ?= /tmp/memplan-fuzz-diff
FUZZ_JOBS ?= 2
FUZZ_FAMILY ?= mixed
fuzz-diff: build
	python3 fuzz/diff/run.py --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS) \
	  --seeds $$(date +%s) --out $(FUZZ_DIFF_OUT) --family $(FUZZ_FAMILY) \
	  --memplan-opt $(BUILD)/bin/memplan-opt --runtime-lib $(BUILD)/lib/libmemplan_runtime.so

check-asan: deps
	test -f $(ASAN_BUILD)/build.ninja || cmake -G Ninja -S . -B $(ASAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS=$(ASAN_FLAGS)" \
	  "-DCMAKE_EXE_LINKER_FLAGS=$(ASAN_FLAGS)" "-DCMAKE_SHARED_LINKER_FLAGS=$(ASAN_FLAGS)"
	cmake --build $(ASAN_BUILD) --target MemPlanCoreTests MemPlanRuntimeTests
	ctest --test-dir $(ASAN_BUILD) -R '^MemPlan(Core|Runtime)Tests$$' --output-on-failure

# The runtime's threaded unit tests (and the out-of-memory ones) under
# ThreadSanitizer in build-tsan: only the runtime library and its tests are
# built; the long single-threaded randomized tests are left to check-asan.
TSAN_BUILD ?= build-tsan
TSAN_FLAGS ?= -fsanitize=thread -fno-omit-frame-pointer
check-tsan: deps
	test -f $(TSAN_BUILD)/build.ninja || cmake -G Ninja -S . -B $(TSAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS=$(TSAN_FLAGS)" \
	  "-DCMAKE_EXE_LINKER_FLAGS=$(TSAN_FLAGS)" "-DCMAKE_SHARED_LINKER_FLAGS=$(TSAN_FLAGS)"
	cmake --build $(TSAN_BUILD) --target MemPlanRuntimeTests
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/bin/MemPlanRuntimeTests \
	  --gtest_filter='RuntimeThreads.*:RuntimeThreadCache.*:RuntimeSizeCache.*:RuntimeDecommit.*:RuntimeOutOfMemory.*:BFCInvariants.TwoThreads:RuntimePurge.IdleHeapPurgedByTheOthers:RuntimePurge.FragCapHoldsOverAllHeaps:RuntimePlan.Threads*:RuntimeReplay.Threads*:RuntimeSingleThread.*:RuntimePurge.PurgeThread*'
