# Every target installs what is missing first (scripts/setup.sh is quick
# when nothing is), so each works from a fresh clone.

GO      ?= go
BIN     := bin/benchmark-storage
ARGS    ?=
# -race catches data races in the adapters; benchmarks never use it.
# -count=1 runs every test, none replayed from Go's test cache. make test
# sets GORACE's atexit_sleep_ms=0: a race-built binary otherwise sleeps a
# second at exit, which each of the 53 test binaries did. -ldflags=-w
# links them without DWARF, which only a debugger reads: a panic's or a
# race report's stack comes from the binary's own tables, files and
# lines included. Linking the 53 took 92 s of CPU without DWARF, 127 s
# with it.
TESTFLAGS ?= -race -timeout 30m -p 3 -count=1 -ldflags=-w
# cgo compiles C into the binary (the engines' bindings, SQLite through
# go-sqlite3): build it as release code, as set-up builds the C libraries.
export CGO_CFLAGS ?= -O2 -g -DNDEBUG

.PHONY: all setup build run test bench repro-hyperleveldb clean

all: build

setup:
	@scripts/setup.sh

# -buildvcs=auto records the commit in the binary (-version, every
# report) wherever git can tell it, whatever GOFLAGS says.
build: setup
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/benchmark-storage

# A small default run of every engine; pass flags with ARGS="-points 10M".
run: build
	$(BIN) $(ARGS)

# go vet and the JVM worker's tests run beside the Go tests, whose
# packages wait on processes (clusters, children) much of their time:
# two cores had room for them. Their output shows when they fail.
# -trimpath keeps the checkout's path out of what the tests compile, so
# that a fresh clone finds in Go's build cache the packages an earlier
# clone compiled and vetted: in a second clone, compiling the tests took
# 80 s of CPU with it against 144 s without, and go vet 32 s against 78 s.
# Every JVM the tests start (Maven, the worker's, a Cassandra node's)
# compiles with C1 alone (JDK_JAVA_OPTIONS, which java reads and notes
# on stderr): a JVM that lives seconds spends much of its CPU in C2, the
# optimizing compiler, whose code the tests do not run long enough to
# gain from: the worker's tests under Maven took 17 s of CPU against 35 s,
# and the docs' command over the nine JVM stores 16 s against 27 s.
# Benchmarks never use it.
test: setup
	CGO_ENABLED=0 $(GO) build -trimpath -o /dev/null ./cmd/benchmark-storage
	@# An older RocksDB and LMDB beside the linked ones, for the tests of
	@# -engine NAME@VERSION (a 73 MB jar, and LMDB compiled, once).
	@scripts/install-rocksdb.sh 10.0.1
	@scripts/build-lmdb.sh 0.9.33
	@mkdir -p build
	@export JDK_JAVA_OPTIONS="-XX:TieredStopAtLevel=1 $$JDK_JAVA_OPTIONS"; \
	$(GO) vet -trimpath ./... >build/vet.log 2>&1 & vet=$$!; \
	scripts/build-jvm.sh test >build/jvm-test.log 2>&1 & jvm=$$!; \
	GORACE="atexit_sleep_ms=0 $$GORACE" $(GO) test -trimpath $(TESTFLAGS) ./...; rc=$$?; \
	wait $$vet || { cat build/vet.log; echo "go vet failed" >&2; rc=1; }; \
	wait $$jvm || { cat build/jvm-test.log; echo "the JVM worker's tests failed" >&2; rc=1; }; \
	exit $$rc

# Go benchmarks for every engine and operation; compare runs with benchstat.
# Micro benchmarks size themselves (b.N); a time-series step needs its earlier
# steps on the same points, so those get a fixed size.
bench: setup
	{ $(GO) test -run '^$$' -bench 'Micro' -count 6 ./bench && \
	  $(GO) test -run '^$$' -bench 'TimeSeries' -benchtime 200000x -count 6 ./bench; } | tee bench.txt

# HyperLevelDB's compaction race, in C against the library alone (minutes;
# results/hyperleveldb-race): ARGS="--assert 20000000 100000".
repro-hyperleveldb: setup
	repro/hyperleveldb/run.sh $(ARGS)

clean:
	rm -rf bin build
