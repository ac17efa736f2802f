package micro

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/workload/suite"
)

func TestConfigDefaults(t *testing.T) {
	c := Config{}.WithDefaults()
	if c.Num != 1_000_000 || c.KeyType != KeyStr16 || c.ValueSize != 100 || c.CompressionRatio != 0.5 ||
		c.Batch != 1000 || c.Order != OrderRandom || !slices.Equal(c.Benchmarks, DefaultBenchmarks) {
		t.Errorf("defaults: %+v", c)
	}
	if err := (Config{}).Validate(); err != nil {
		t.Errorf("zero Config: %v", err)
	}
	if c.WarmupIterations != 0 || c.Iterations != 0 {
		t.Errorf("iterations without forks: %+v", c)
	}
	if f := (Config{Forks: 2}).WithDefaults(); f.WarmupIterations != DefaultIterations || f.Iterations != DefaultIterations {
		t.Errorf("forks without iterations: %+v", f)
	}
	for _, name := range DefaultBenchmarks {
		if lookup(name) == nil {
			t.Errorf("default benchmark %q is not defined", name)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Num: -1}, "-num"},
		{Config{Num: 1 << 33, KeyType: KeyInt4}, "exceeds"},
		{Config{KeyType: "int8"}, "key type"},
		{Config{Order: "sorted"}, "order"},
		{Config{ValueSize: -1}, "value size"},
		{Config{ValueSize: MaxValueSize + 1}, "value size"},
		{Config{CompressionRatio: 1.5}, "compression ratio"},
		{Config{CompressionRatio: -0.5}, "compression ratio"},
		{Config{Batch: -3}, "batch"},
		{Config{Benchmarks: []string{"fillseq", "readfast"}}, `"readfast"`},
		{Config{Forks: MaxForks + 1}, "forks"},
		{Config{Iterations: 5}, "add -forks"},
		{Config{Forks: 2, WarmupIterations: -1}, "warmup iterations"},
		{Config{Percentiles: []float64{99, 100.5}}, "percentile 100.5"},
	} {
		err := c.cfg.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want an ErrInvalidConfig naming %q", c.cfg, err, c.want)
		}
	}
}

// TestSuiteSharedSettings: the command's -percentiles and -cold reach the
// Config, and the JVM engines, which measure neither, refuse them.
func TestSuiteSharedSettings(t *testing.T) {
	c := suite.Common{Batch: 100, Seed: 3, Percentiles: []float64{99.99}, Cold: true}
	s := microSuite{}.Defaults()
	if err := (microSuite{}).Configure(&s, &c, nil); err != nil {
		t.Fatal(err)
	}
	if !s.Cold || !slices.Equal(s.Percentiles, c.Percentiles) || s.Batch != 100 || s.Seed != 3 {
		t.Errorf("configured %+v from %+v", s, c)
	}
	for _, jvm := range []Config{{Benchmarks: []string{ReadKey}, Cold: true}, {Benchmarks: []string{ReadKey}, Percentiles: []float64{99.9}}} {
		if err := (microSuite{}).JVM(jvm, c); !errors.Is(err, suite.ErrInvalid) || !strings.Contains(err.Error(), "without -cold and -percentiles") {
			t.Errorf("JVM(%+v) = %v", jvm, err)
		}
	}
	if err := (microSuite{}).JVM(Config{Benchmarks: []string{ReadKey}}, c); err != nil {
		t.Errorf("JVM of a warm readKey: %v", err)
	}
}

func TestParseBenchmarks(t *testing.T) {
	for in, want := range map[string][]string{
		"fillseq,fillrandom": {FillSeq, FillRandom},
		" FILLSEQ , readSeq": {FillSeq, ReadSeqLmdb},
		"readseq,READSEQ":    {ReadSeq, ReadSeq},
		"fill100k":           {Fill100K},
		"readrandom,default": append([]string{ReadRandom}, DefaultBenchmarks...),
		"all":                Names(),
	} {
		got, err := ParseBenchmarks(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseBenchmarks(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fillseq,,readseq", "fillseq,nope"} {
		if _, err := ParseBenchmarks(in); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("ParseBenchmarks(%q) = %v, want ErrInvalidConfig", in, err)
		}
	}
}

func TestFillCounts(t *testing.T) {
	for _, c := range []struct {
		name      string
		num, want int64
	}{
		{FillSeq, 1_000_000, 1_000_000},
		{FillSync, 1_000_000, 1000},
		{FillSync, 100_000, 100},
		{FillSync, 50, 50},
		{FillSync, 100_000_000, 10_000},
		{Fill100K, 1_000_000, 1000},
		{Fill100K, 1000, 10},
		{Fill100K, 3, 3},
	} {
		if got := lookup(c.name).fillCount(c.num); got != c.want {
			t.Errorf("%s with num %d writes %d entries, want %d", c.name, c.num, got, c.want)
		}
	}
}

func TestStorageOverhead(t *testing.T) {
	// The LmdbJava report's LevelDB row: 1M entries of a 4-byte key and a
	// 100-byte value in 107,036,672 bytes, 2.92% over the 104,000,000 of
	// a flat array (the report truncates to 2.91).
	s := NewStorage(diskUsage(107_036_672), 1_000_000, 4, 100)
	if s.Flat != 104_000_000 || s.BytesPerEntry != 107.036672 || s.Overhead < 2.9198 || s.Overhead > 2.9199 {
		t.Errorf("LevelDB row: %+v", s)
	}
	// Its LMDB row: 65.00%.
	if s := NewStorage(diskUsage(171_601_920), 1_000_000, 4, 100); int(s.Overhead*100+0.5) != 6500 {
		t.Errorf("LMDB row: overhead %.4f%%", s.Overhead)
	}
	// An empty store has no overhead to speak of.
	if s := NewStorage(diskUsage(4096), 0, 16, 100); s.Flat != 0 || s.Overhead != 0 || s.BytesPerEntry != 0 {
		t.Errorf("empty store: %+v", s)
	}
}

// diskUsage is a store of used bytes with a preallocated megabyte on top,
// so that figures taken from the wrong size show.
func diskUsage(used int64) diskusage.Usage {
	return diskusage.Usage{Used: used, Actual: used + 1<<20, Apparent: used, Files: 1}
}
