# memplan: `make demo` and `make check` are all a new user needs.
BUILD ?= build
MODEL ?= ../shared/models/resnet18.mlir
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all deps configure build check demo bench clean

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
	cmake --build $(BUILD) --target check-memplan-lit
	ctest --test-dir $(BUILD) --output-on-failure

demo: build
	./scripts/demo.sh $(BUILD) $(MODEL)

bench: build
	cmake --build $(BUILD) --target memplan-bench
	./scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)
