package micro

import (
	"fmt"
	"io"
	"strings"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// Defaults of Config's zero fields: db_bench's baseline (1M entries of
// 16-byte keys and 100-byte values compressible to half) with its batch
// size, and random order for write and readKey as in the LmdbJava
// report's harder case.
const (
	DefaultNum              = 1_000_000
	DefaultValueSize        = 100
	DefaultCompressionRatio = 0.5
	DefaultBatch            = 1000
	DefaultKeyType          = KeyStr16
	DefaultOrder            = OrderRandom
	// DefaultIterations is the warmup and the measured iterations per
	// fork when Forks is set: the 2016 report's test 4 (JMH -f 3 -wi 3 -i 3).
	DefaultIterations = 3
)

// Limits Validate enforces, so that a typo cannot ask for terabytes.
const (
	MaxValueSize = 64 << 20
	MaxBatch     = 1_000_000
	// MaxForks bounds Forks, and MaxIterations WarmupIterations and
	// Iterations.
	MaxForks      = 100
	MaxIterations = 1000
)

// Order is the order write puts its entries in, which readKey reads back.
// The db_bench fills fix their own order in their names.
type Order string

const (
	// OrderSeq writes entries 0, 1, 2, ...: ascending key order.
	OrderSeq Order = "seq"
	// OrderRandom writes every entry once in a seeded random order.
	OrderRandom Order = "random"
)

// ParseOrder reads an order name, ignoring case.
func ParseOrder(s string) (Order, error) {
	for _, o := range []Order{OrderSeq, OrderRandom} {
		if strings.EqualFold(s, string(o)) {
			return o, nil
		}
	}
	return "", fmt.Errorf("%w: order %q: use %s or %s", ErrInvalidConfig, s, OrderSeq, OrderRandom)
}

// Config says which benchmarks run and on what data. A zero field means
// its default. Compression and cache size are engine settings: set
// engine.Options.DisableCompression and CacheSize in the Opener.
type Config struct {
	// Benchmarks are run in this order (see Benchmarks for the names);
	// a name may repeat. Default DefaultBenchmarks.
	Benchmarks []string `json:"benchmarks"`
	// Num is the number of entries a fill writes (fillsync and fill100K
	// write fewer, as in db_bench). Default 1M.
	Num int64 `json:"num"`
	// KeyType is the key encoding. Default str16.
	KeyType KeyType `json:"key_type"`
	// Order is write's order, which readKey follows. Default random.
	Order Order `json:"order"`
	// ValueSize is the length of each value in bytes (fill100K's are
	// 100,000). Default 100.
	ValueSize int `json:"value_size"`
	// CompressionRatio is the fraction of each value that is random; the
	// rest repeats it, so compressors shrink values to about this fraction.
	// In (0, 1]; 1 is incompressible. Default 0.5.
	CompressionRatio float64 `json:"compression_ratio"`
	// Batch is the number of writes per committed batch of fillbatch,
	// fillrandbatch and write. Default 1000.
	Batch int `json:"batch"`
	// Seed determines random orders and value contents; engines given the
	// same seed get the same data in the same order.
	Seed uint64 `json:"seed"`
	// Forks, for the JVM engines, measures each benchmark as JMH does: in
	// Forks fresh JVMs one after the other, each running that benchmark
	// alone, WarmupIterations untimed passes and then Iterations measured
	// ones; the benchmark's µs/op is the mean over all measured iterations
	// of all forks, with its error (MeanError). Go engines ignore it (the
	// report says so). Default 0: one JVM for all benchmarks, each one
	// warmup pass and one measured pass.
	Forks int `json:"forks,omitempty"`
	// WarmupIterations is the untimed passes per fork before the measured
	// ones; only with Forks. Default 3 with Forks.
	WarmupIterations int `json:"warmup_iterations,omitempty"`
	// Iterations is the measured passes per fork; only with Forks.
	// Default 3 with Forks.
	Iterations int `json:"iterations,omitempty"`
	// Cold makes each read benchmark (a Get or a scan) start with the
	// store's files out of the page cache (harness.DropPageCache, outside
	// its figures), so that it reads from disk what the engine does not
	// cache in its own memory. Default false: warm, the store just
	// written.
	Cold bool `json:"cold,omitempty"`
	// Percentiles are latency percentiles (0 < q <= 100) each benchmark
	// records beside p50, p99, p99.9 and max (Bench.Percentiles), such as
	// 99.99. Default none.
	Percentiles []float64 `json:"percentiles,omitempty"`
	// Progress is told how each benchmark advances; nil is silent.
	Progress harness.Progress `json:"-"`
	// Log receives warnings, such as a figure the OS does not provide;
	// nil discards them.
	Log io.Writer `json:"-"`
}

// WithDefaults returns c with every zero field set to its default.
func (c Config) WithDefaults() Config {
	if len(c.Benchmarks) == 0 {
		c.Benchmarks = append([]string(nil), DefaultBenchmarks...)
	}
	if c.Num == 0 {
		c.Num = DefaultNum
	}
	if c.KeyType == "" {
		c.KeyType = DefaultKeyType
	}
	if c.Order == "" {
		c.Order = DefaultOrder
	}
	if c.ValueSize == 0 {
		c.ValueSize = DefaultValueSize
	}
	if c.CompressionRatio == 0 {
		c.CompressionRatio = DefaultCompressionRatio
	}
	if c.Batch == 0 {
		c.Batch = DefaultBatch
	}
	if c.Forks > 0 && c.WarmupIterations == 0 {
		c.WarmupIterations = DefaultIterations
	}
	if c.Forks > 0 && c.Iterations == 0 {
		c.Iterations = DefaultIterations
	}
	return c
}

// Validate reports the first setting that cannot run, zero fields
// counting as their defaults, as an error wrapping ErrInvalidConfig that
// says how to fix it.
func (c Config) Validate() error {
	c = c.WithDefaults()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidConfig, fmt.Sprintf(format, args...))
	}
	for _, name := range c.Benchmarks {
		if lookup(name) == nil {
			return bad("unknown benchmark %q: choose from %s", name, strings.Join(Names(), ", "))
		}
	}
	if t, err := ParseKeyType(string(c.KeyType)); err != nil || t != c.KeyType {
		return bad("key type %q: use %s, %s or %s", c.KeyType, KeyInt4, KeyStr16, KeyTS24)
	}
	if o, err := ParseOrder(string(c.Order)); err != nil || o != c.Order {
		return bad("order %q: use %s or %s", c.Order, OrderSeq, OrderRandom)
	}
	switch {
	case c.Num < 0:
		return bad("num is %d; use a positive number such as -num 1M", c.Num)
	case c.Num > c.KeyType.MaxNum():
		return bad("num %d exceeds the %d distinct %s keys; lower -num or choose a longer key type", c.Num, c.KeyType.MaxNum(), c.KeyType)
	case c.ValueSize < 0 || c.ValueSize > MaxValueSize:
		return bad("value size %d is outside 1..%d bytes; choose a size such as -value-size 100", c.ValueSize, MaxValueSize)
	case !(c.CompressionRatio > 0 && c.CompressionRatio <= 1):
		return bad("compression ratio %g is outside (0, 1]: it is the fraction of a value that is random, 0.5 by default", c.CompressionRatio)
	case c.Batch < 0 || c.Batch > MaxBatch:
		return bad("batch %d is outside 1..%d; use a size such as -batch 1000", c.Batch, MaxBatch)
	case c.Forks < 0 || c.Forks > MaxForks:
		return bad("forks %d is outside 1..%d; use a count such as -forks 3", c.Forks, MaxForks)
	case c.Forks == 0 && (c.WarmupIterations != 0 || c.Iterations != 0):
		return bad("warmup iterations and iterations are per fork: add -forks, such as -forks 3")
	case c.WarmupIterations < 0 || c.WarmupIterations > MaxIterations || c.Iterations < 0 || c.Iterations > MaxIterations:
		return bad("warmup iterations %d and iterations %d must be within 1..%d; use counts such as -warmup-iterations 3 -iterations 3", c.WarmupIterations, c.Iterations, MaxIterations)
	}
	if err := measure.CheckPercentiles(c.Percentiles); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	return nil
}
