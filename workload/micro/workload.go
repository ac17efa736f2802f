package micro

import (
	"errors"
	"flag"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
	"github.com/tsbench/storage/workload/suite"
)

func init() { suite.Register("micro", microSuite{}) }

// microSuite is the workload micro: -benchmarks picks it.
type microSuite struct{}

func (microSuite) Info() suite.Info {
	return suite.Info{
		About:     "the micro benchmarks",
		Selects:   "benchmarks",
		Shared:    []string{suite.FlagBatch, suite.FlagSeed, suite.FlagPercentiles, suite.FlagCold},
		ResultKey: "benchmarks",
	}
}

// Defaults are the Config's defaults but for the batch, seed,
// percentiles and -cold, which are the command's (Configure).
func (microSuite) Defaults() Config {
	return Config{Num: DefaultNum, ValueSize: DefaultValueSize, KeyType: DefaultKeyType, Order: DefaultOrder, CompressionRatio: DefaultCompressionRatio}
}

// Flags set the config's own fields; a job carries them to the engine's
// process, a Go child or the JVM worker, under their JSON names.
func (microSuite) Flags(fs *flag.FlagSet, s *Config) {
	fs.Func("benchmarks", "run the classic key-value micro benchmarks instead of the time-series workload: a comma-separated `list`, in the order to run them (a name may repeat), of "+
		strings.Join(Names(), ", ")+"; or default (db_bench's and LmdbJava's, each once) or all", func(v string) error {
		b, err := ParseBenchmarks(v)
		s.Benchmarks = b
		return suite.Unprefixed(err, ErrInvalidConfig)
	})
	fs.Var((*suite.Count)(&s.Num), "num", "`count` of entries a micro benchmark fill writes (fillsync and fill100K write a thousandth, as in db_bench)")
	fs.Func("value-size", "`bytes` per value in the micro benchmarks (fill100K's are 100,000) (default "+strconv.Itoa(DefaultValueSize)+")", func(v string) error {
		n, err := suite.ParseCount(v)
		s.ValueSize = int(n)
		return err
	})
	fs.Func("key", "key `type` of the micro benchmarks: int4 (4-byte integer), str16 (16 decimal digits, db_bench's) or ts24 (the time-series key) (default str16)", func(v string) error {
		k, err := ParseKeyType(v)
		s.KeyType = k
		return suite.Unprefixed(err, ErrInvalidConfig)
	})
	fs.Func("order", "`order` of the micro benchmark write, which readKey follows: seq or random (default random)", func(v string) error {
		o, err := ParseOrder(v)
		s.Order = o
		return suite.Unprefixed(err, ErrInvalidConfig)
	})
	fs.Func("compression-ratio", "`fraction` of each micro benchmark value that is random, the rest repeating it, so that compression shrinks values to about it: above 0, at most 1 (default 0.5, as db_bench's)", func(v string) error {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r > 0 && r <= 1) {
			return errors.New("use a fraction above 0 and at most 1, such as 0.5")
		}
		s.CompressionRatio = r
		return nil
	})
	positive := func(dst *int, example string) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return errors.New("use a count of at least 1, such as " + example)
			}
			*dst = n
			return nil
		}
	}
	fs.Func("forks", "measure each micro benchmark of the JVM engines as JMH does, in this `count` of fresh JVMs one after the other, each running that benchmark alone (-warmup-iterations, then -iterations), and report the mean with its 99.9% error; Go engines ignore it (default 0: one JVM per engine, one warmup and one measured pass per benchmark)", positive(&s.Forks, "-forks 3"))
	fs.Func("warmup-iterations", "`count` of untimed passes of a micro benchmark in each JVM fork before the measured ones; with -forks (default "+strconv.Itoa(DefaultIterations)+")", positive(&s.WarmupIterations, "-warmup-iterations 3"))
	fs.Func("iterations", "`count` of measured passes of a micro benchmark in each JVM fork; with -forks (default "+strconv.Itoa(DefaultIterations)+")", positive(&s.Iterations, "-iterations 3"))
}

// Configure runs the default benchmarks for -workload micro alone, and
// bounds the sizes before Validate, so that a message shows the number
// given.
func (microSuite) Configure(s *Config, c *suite.Common, _ suite.Given) error {
	if len(s.Benchmarks) == 0 {
		s.Benchmarks = slices.Clone(DefaultBenchmarks)
	}
	switch {
	case s.ValueSize > MaxValueSize:
		return suite.Invalidf("-value-size %d is above the maximum of %d bytes", s.ValueSize, MaxValueSize)
	case c.Batch > MaxBatch:
		return suite.Invalidf("-batch %d is above the maximum of %d writes per batch", c.Batch, MaxBatch)
	}
	s.Batch, s.Seed, s.Percentiles, s.Cold = int(c.Batch), c.Seed, c.Percentiles, c.Cold
	if err := s.Validate(); err != nil {
		return suite.Invalid(err, ErrInvalidConfig)
	}
	d := s.WithDefaults()
	s.WarmupIterations, s.Iterations = d.WarmupIterations, d.Iterations
	return nil
}

func (microSuite) Start(s Config, options map[string]any) *Result {
	return &Result{Header: harness.Header{Options: options}, Config: s}
}

// Run runs the benchmarks; Run opens the engine anew for every fill and
// closes it at the end.
func (microSuite) Run(cfg Config, e *suite.Engine) (*Result, error) {
	e.Progress.SetUnit("ops")
	cfg.Progress, cfg.Log = e.Progress, e.Progress
	res, err := Run(OpenerFor(e.Name, e.Options), e.Dir, cfg)
	if res != nil {
		res.Options = e.Effective
	}
	return res, err
}

func (microSuite) Fields(res *Result) suite.Fields {
	return suite.Fields{Header: &res.Header, Err: &res.Error}
}

// Failure is the error that made an engine's run fail: its own or its
// first failed benchmark's.
func (microSuite) Failure(res *Result) string {
	return suite.FirstFailure(res.Error, res.Benchmarks, func(b Bench) (string, string) { return b.Name, b.Error })
}

func (microSuite) Report(runID string, env harness.Environment, rs []*Result) report.Renderer {
	return &Report{Schema: results.SchemaVersion, RunID: runID, Env: env, Results: rs}
}

// jvmBenchmarks are the benchmarks the JVM worker runs: the LmdbJava
// report's.
var jvmBenchmarks = []string{Write, ReadKey, ReadSeqLmdb, ReadRevLmdb, ReadCrc, ReadXxh64}

// JVM refuses -cold and -percentiles, which the JVM worker does not
// measure, and a list of benchmarks none of which it runs; of a list
// with some, it runs those, and reports the others as not supported in
// its columns.
func (microSuite) JVM(s Config, _ suite.Common) error {
	if s.Cold || len(s.Percentiles) > 0 {
		return suite.Invalidf("the JVM engines run the micro benchmarks without -cold and -percentiles: drop them")
	}
	if !slices.ContainsFunc(s.Benchmarks, func(b string) bool { return slices.Contains(jvmBenchmarks, b) }) {
		return suite.Invalidf("the JVM engines run the LmdbJava report's benchmarks (%s), none of %s", strings.Join(jvmBenchmarks, ", "), strings.Join(s.Benchmarks, ", "))
	}
	return nil
}

// Samples and CompareMetrics make the workload's reports ones
// that benchmark-storage compare reads (suite.Comparer).

func (microSuite) Samples(results []*Result) []report.Samples {
	return Report{Results: results}.Samples()
}

func (microSuite) CompareMetrics() []report.CompareMetric { return CompareMetrics }
