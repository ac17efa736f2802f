# Every target installs what is missing first (scripts/setup.sh is quick
# when nothing is), so each works from a fresh clone.

GO      ?= go
BIN     := bin/benchmark-storage
ARGS    ?=
# -race catches data races in the adapters; benchmarks never use it.
TESTFLAGS ?= -race -timeout 30m

.PHONY: all setup build run test bench vet clean

all: build

setup:
	@scripts/setup.sh

build: setup
	$(GO) build -o $(BIN) ./cmd/benchmark-storage

# A small default run of every engine; pass flags with ARGS="-points 10M".
run: build
	$(BIN) $(ARGS)

test: setup
	$(GO) vet ./...
	$(GO) test $(TESTFLAGS) ./...

# Go benchmarks for every engine and operation; compare runs with benchstat.
# A fixed -benchtime keeps the time-series steps on the same data each round.
bench: setup
	$(GO) test -run '^$$' -bench . -benchtime 100000x -count 6 ./bench | tee bench.txt

clean:
	rm -rf bin build
