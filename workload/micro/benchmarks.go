package micro

import (
	"fmt"
	"strings"
)

// The benchmarks, by the names their suites gave them.
const (
	FillSeq       = "fillseq"
	FillRandom    = "fillrandom"
	FillSync      = "fillsync"
	Fill100K      = "fill100K"
	FillBatch     = "fillbatch"
	FillRandBatch = "fillrandbatch"
	Overwrite     = "overwrite"
	ReadRandom    = "readrandom"
	ReadSeq       = "readseq"
	ReadReverse   = "readreverse"
	DeleteRandom  = "deleterandom"
	Write         = "write"
	ReadKey       = "readKey"
	ReadSeqLmdb   = "readSeq"
	ReadRevLmdb   = "readRev"
	ReadCrc       = "readCrc"
	ReadXxh64     = "readXxh64"
)

// DefaultBenchmarks is the set run when Config.Benchmarks is empty: every
// benchmark once, except readSeq and readRev (the same code as readseq
// and readreverse), in an order where each finds the data it needs, like
// db_bench's default list.
var DefaultBenchmarks = []string{
	FillSeq, FillSync, FillRandom, Overwrite, ReadRandom, ReadSeq, ReadReverse,
	FillBatch, FillRandBatch, Write, ReadKey, ReadCrc, ReadXxh64, DeleteRandom, Fill100K,
}

// Info describes a benchmark.
type Info struct {
	// Name is how the benchmark is asked for.
	Name string
	// Suite is where it comes from: "db_bench" (LevelDB, 2011) or
	// "LmdbJava" (2016).
	Suite string
	// About says what it does, in one line.
	About string
}

type kind int

const (
	kindFill      kind = iota // a fresh store, then writes
	kindOverwrite             // rewrite every entry with new values
	kindDelete                // delete every entry
	kindGet                   // point reads
	kindScan                  // iteration
)

type hashKind int

const (
	hashNone hashKind = iota
	hashCRC32
	hashXXH64
)

// benchmark is how a benchmark runs; every engine runs it through the same
// code.
type benchmark struct {
	Info
	kind    kind
	order   Order // fills: the fixed order; "" means Config.Order
	batch   bool  // fills: Config.Batch writes per commit, else one Put each
	sync    bool  // fills: on a store opened with engine.SyncBatch
	large   bool  // fills: fill100K's count and value size
	written bool  // gets: in the order the data was written (readKey)
	reverse bool  // scans: from the last entry back
	hash    hashKind
}

// LargeValueSize is fill100K's value size.
const LargeValueSize = 100_000

var benchmarks = []benchmark{
	{Info: Info{FillSeq, "db_bench", "write Num entries in key order, one Put each, into a new store"}, kind: kindFill, order: OrderSeq},
	{Info: Info{FillRandom, "db_bench", "write Num entries in random order, one Put each, into a new store"}, kind: kindFill, order: OrderRandom},
	{Info: Info{FillSync, "db_bench", "write Num/1000 entries (100 to 10,000) in random order into a new store, each Put synced to stable storage"}, kind: kindFill, order: OrderRandom, sync: true},
	{Info: Info{Fill100K, "db_bench", "write Num/1000 entries (at least 10) of 100,000-byte values in random order into a new store"}, kind: kindFill, order: OrderRandom, large: true},
	{Info: Info{FillBatch, "db_bench", "write Num entries in key order, Batch per committed batch, into a new store"}, kind: kindFill, order: OrderSeq, batch: true},
	{Info: Info{FillRandBatch, "db_bench", "write Num entries in random order, Batch per committed batch, into a new store"}, kind: kindFill, order: OrderRandom, batch: true},
	{Info: Info{Overwrite, "db_bench", "rewrite every entry with a new value, in random order, one Put each"}, kind: kindOverwrite},
	{Info: Info{ReadRandom, "db_bench", "Get every entry once, in random order"}, kind: kindGet},
	{Info: Info{ReadSeq, "db_bench", "iterate over every entry in key order"}, kind: kindScan},
	{Info: Info{ReadReverse, "db_bench", "iterate over every entry in reverse key order"}, kind: kindScan, reverse: true},
	{Info: Info{DeleteRandom, "db_bench", "delete every entry, in random order, one Delete each"}, kind: kindDelete},
	{Info: Info{Write, "LmdbJava", "bulk-load Num entries into a new store in Order, Batch per committed batch"}, kind: kindFill, batch: true},
	{Info: Info{ReadKey, "LmdbJava", "Get every entry once, in the order it was written"}, kind: kindGet, written: true},
	{Info: Info{ReadSeqLmdb, "LmdbJava", "iterate over every entry in key order (the code of readseq)"}, kind: kindScan},
	{Info: Info{ReadRevLmdb, "LmdbJava", "iterate over every entry in reverse key order (the code of readreverse)"}, kind: kindScan, reverse: true},
	{Info: Info{ReadCrc, "LmdbJava", "iterate in key order computing a CRC32 (IEEE) over every key and value"}, kind: kindScan, hash: hashCRC32},
	{Info: Info{ReadXxh64, "LmdbJava", "iterate in key order computing an XXH64 over every key and value"}, kind: kindScan, hash: hashXXH64},
}

// Benchmarks describes every benchmark, db_bench's first.
func Benchmarks() []Info {
	out := make([]Info, len(benchmarks))
	for i, b := range benchmarks {
		out[i] = b.Info
	}
	return out
}

// Names lists every benchmark name, db_bench's first.
func Names() []string {
	out := make([]string, len(benchmarks))
	for i, b := range benchmarks {
		out[i] = b.Name
	}
	return out
}

func lookup(name string) *benchmark {
	for i := range benchmarks {
		if benchmarks[i].Name == name {
			return &benchmarks[i]
		}
	}
	return nil
}

// ParseBenchmarks reads a comma-separated list of benchmark names, in any
// case; "default" stands for DefaultBenchmarks and "all" for every
// benchmark once.
func ParseBenchmarks(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch strings.ToLower(f) {
		case "":
			return nil, fmt.Errorf("%w: empty benchmark name in %q; separate names with single commas", ErrInvalidConfig, s)
		case "default":
			out = append(out, DefaultBenchmarks...)
			continue
		case "all":
			out = append(out, Names()...)
			continue
		}
		// An exact name first: readseq and readSeq differ only in case
		// (and run the same code).
		name := ""
		for _, b := range benchmarks {
			if b.Name == f || (name == "" && strings.EqualFold(f, b.Name)) {
				name = b.Name
			}
		}
		out = append(out, name)
		if name == "" {
			return nil, fmt.Errorf("%w: unknown benchmark %q: choose from %s, default or all", ErrInvalidConfig, f, strings.Join(Names(), ", "))
		}
	}
	return out, nil
}

// fillCount is how many entries a fill writes by default.
func (b *benchmark) fillCount(num int64) int64 {
	switch {
	case b.sync:
		// db_bench writes num/1000; fsyncs are slow, so the count is kept
		// large enough to measure and small enough to finish.
		return min(max(num/1000, min(num, 100)), 10_000)
	case b.large:
		return max(num/1000, min(num, 10))
	}
	return num
}

// fillOrder is the order a fill writes in.
func (b *benchmark) fillOrder(cfg Config) Order {
	if b.order != "" {
		return b.order
	}
	return cfg.Order
}

// valueSize is the value size a fill writes.
func (b *benchmark) valueSize(cfg Config) int {
	if b.large {
		return LargeValueSize
	}
	return cfg.ValueSize
}
