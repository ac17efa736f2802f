package main

import (
	"errors"
	"flag"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tsbench/storage/workload/micro"
)

// microFlags are the settings of the micro benchmarks (package
// workload/micro); -benchmarks turns them on instead of the time-series
// workload.
type microFlags struct {
	benchmarks []string
	num        int64
	valueSize  int64
	key        micro.KeyType
	order      micro.Order
	ratio      float64
}

// Flags of one kind of run that the other refuses.
var (
	microOnlyFlags  = []string{"num", "value-size", "key", "order", "compression-ratio"}
	seriesOnlyFlags = []string{"points", "series", "settle", "reuse-iterator"}
)

func (m *microFlags) on() bool { return len(m.benchmarks) > 0 }

// define adds the micro flags to fs, with their defaults.
func (m *microFlags) define(fs *flag.FlagSet) {
	fs.Func("benchmarks", "run the classic key-value micro benchmarks instead of the time-series workload: a comma-separated `list` of "+
		strings.Join(micro.Names(), ", ")+"; or default (db_bench's and LmdbJava's, each once) or all", func(v string) error {
		b, err := micro.ParseBenchmarks(v)
		m.benchmarks = b
		return unprefixed(err, micro.ErrInvalidConfig)
	})
	m.num = micro.DefaultNum
	fs.Var((*countValue)(&m.num), "num", "`count` of entries a micro benchmark fill writes (fillsync and fill100K write a thousandth, as in db_bench)")
	m.valueSize = micro.DefaultValueSize
	fs.Var((*countValue)(&m.valueSize), "value-size", "`bytes` per value in the micro benchmarks (fill100K's are 100,000)")
	m.key = micro.DefaultKeyType
	fs.Func("key", "key `type` of the micro benchmarks: int4 (4-byte integer), str16 (16 decimal digits) or ts24 (the time-series key) (default str16)", func(v string) error {
		k, err := micro.ParseKeyType(v)
		m.key = k
		return unprefixed(err, micro.ErrInvalidConfig)
	})
	m.order = micro.DefaultOrder
	fs.Func("order", "`order` of the micro benchmark write, which readKey follows: seq or random (default random)", func(v string) error {
		o, err := micro.ParseOrder(v)
		m.order = o
		return unprefixed(err, micro.ErrInvalidConfig)
	})
	m.ratio = micro.DefaultCompressionRatio
	fs.Func("compression-ratio", "`fraction` of each micro benchmark value that is random, the rest repeating it, so that compression shrinks values to about it: above 0, at most 1 (default 0.5)", func(v string) error {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r > 0 && r <= 1) {
			return errors.New("use a fraction above 0 and at most 1, such as 0.5")
		}
		m.ratio = r
		return nil
	})
}

// checkMode refuses the flags of the kind of run not asked for, allows
// -format gobench only for the micro benchmarks, and checks their
// settings.
func checkMode(s *settings, fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if s.micro.on() && set["workload"] && s.workload != workloadMicro {
		return inputErrorf("-benchmarks runs the micro benchmarks, not -workload %s: drop one of them", s.workload)
	}
	if s.micro.on() {
		s.workload = workloadMicro
	}
	if _, ok := workloads[s.workload]; !ok {
		return inputErrorf("-workload %q: use one of %s", s.workload, workloadNames())
	}
	if s.workload != workloadMixed && s.workload != workloadSteady {
		for _, n := range mixedOnlyFlags {
			if set[n] {
				return inputErrorf("-%s is a setting of the mixed workload: add -workload mixed", n)
			}
		}
	}
	if err := refuseSteadyFlags(s, set); err != nil {
		return err
	}
	if set["fault"] && s.workload != workloadCrash {
		return inputErrorf("-fault is a setting of the crash check: add -workload crash")
	}
	if s.dataset != "" && s.workload != workloadSeries && s.workload != workloadMixed {
		return inputErrorf("-dataset keeps the points of -workload ts or mixed, not of %s: drop -dataset", s.workload)
	}
	switch {
	case s.workload == workloadCrash:
		return checkCrashMode(s, set)
	case s.workload == workloadMixed:
		return checkMixedMode(s, set)
	case s.workload == workloadSteady:
		return checkSteadyMode(s, set)
	case set["kills"]:
		return inputErrorf("-kills is a setting of the crash check: add -workload crash")
	case s.workload == workloadMicro && !s.micro.on():
		// -workload micro alone runs the default benchmarks.
		b, err := micro.ParseBenchmarks("default")
		if err != nil {
			return err
		}
		s.micro.benchmarks = b
	}
	if !s.micro.on() {
		for _, n := range microOnlyFlags {
			if set[n] {
				return inputErrorf("-%s is a setting of the micro benchmarks: add -benchmarks (a list, default or all), or size the time-series run with -points and -series", n)
			}
		}
		if s.batch > maxSeriesBatch {
			return inputErrorf("-batch %d is above the maximum of %d points per batch", s.batch, maxSeriesBatch)
		}
		gobenchOut(s)
		return nil
	}
	for _, n := range seriesOnlyFlags {
		if set[n] {
			return inputErrorf("-%s is a setting of the time-series workload, which -benchmarks replaces: drop -%s (the micro benchmarks are sized by -num and -value-size)", n, n)
		}
	}
	// Checked here so that the message shows the number given.
	switch m := s.micro; {
	case m.valueSize > micro.MaxValueSize:
		return inputErrorf("-value-size %d is above the maximum of %d bytes", m.valueSize, micro.MaxValueSize)
	case s.batch > micro.MaxBatch:
		return inputErrorf("-batch %d is above the maximum of %d writes per batch", s.batch, micro.MaxBatch)
	}
	gobenchOut(s)
	return invalidConfig(microConfig(s).Validate(), micro.ErrInvalidConfig)
}

// gobenchOut writes -out to a .txt file in the gobench format with
// -format gobench: benchstat's inputs are conventionally .txt files.
func gobenchOut(s *settings) {
	if s.format == "gobench" && strings.EqualFold(filepath.Ext(s.out), ".txt") {
		s.outFormat = "gobench"
	}
}

// microConfig is what the micro benchmarks of every engine of the run
// get; checkMode has bounded the sizes.
func microConfig(s *settings) micro.Config {
	m := s.micro
	return micro.Config{
		Benchmarks:       m.benchmarks,
		Num:              m.num,
		KeyType:          m.key,
		Order:            m.order,
		ValueSize:        int(m.valueSize),
		CompressionRatio: m.ratio,
		Batch:            int(s.batch),
		Seed:             s.seed,
	}
}
