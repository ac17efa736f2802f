package steady

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tsbench/storage/engine"
)

// Defaults of the Targets.
const (
	DefaultMaxWriteP99 = 100 * time.Millisecond
	DefaultMaxQueryP99 = 100 * time.Millisecond
	// maxProbes bounds a search: a doubling ramp from 1k to the
	// harness's limit and a narrowing to within searchPrecision take
	// fewer.
	maxProbes = 16
	// searchPrecision is how close the passing and failing rates are
	// when the search stops.
	searchPrecision = 1.1
)

// Targets are what a rate must meet to be sustained (FindRate).
type Targets struct {
	// MaxWriteP99 bounds the write p99, from the intended starts.
	// Default DefaultMaxWriteP99.
	MaxWriteP99 time.Duration `json:"max_write_p99_ns"`
	// MaxQueryP99 bounds the query p99, every kind. Default
	// DefaultMaxQueryP99.
	MaxQueryP99 time.Duration `json:"max_query_p99_ns"`
}

func (t Targets) withDefaults() Targets {
	if t.MaxWriteP99 == 0 {
		t.MaxWriteP99 = DefaultMaxWriteP99
	}
	if t.MaxQueryP99 == 0 {
		t.MaxQueryP99 = DefaultMaxQueryP99
	}
	return t
}

// The signals that stop a rate, in the order a probe checks them.
const (
	LimitError   = "error"   // an engine error or a wrong answer
	LimitBacklog = "backlog" // batches unsent, or more than a second's points behind the schedule late in the run
	LimitStall   = "stall"   // the engine stalled writes for over 5% of the run
	LimitDisk    = "disk"    // retention fell more than a bucket behind: the disk grows
	LimitWrite   = "write p99"
	LimitQuery   = "query p99"
	LimitHarness = "harness" // the rate reached what the writers can generate
)

// Search is how FindRate found the highest sustained rate.
type Search struct {
	Targets Targets `json:"targets"`
	// Rate is the highest rate that passed, 0 if none did.
	Rate float64 `json:"rate"`
	// Limit is the signal that failed the lowest failing rate.
	Limit string `json:"limit"`
	// Probes are the runs, in order.
	Probes []Probe `json:"probes"`
}

// Probe is one run of a search at one rate.
type Probe struct {
	Rate       float64       `json:"rate"`
	Limit      string        `json:"limit,omitempty"` // "" if it passed
	WriteP99   time.Duration `json:"write_p99_ns"`
	QueryP99   time.Duration `json:"query_p99_ns"`
	MaxBacklog int64         `json:"max_backlog_points"`
	StallTime  time.Duration `json:"stall_ns"`
	Error      string        `json:"error,omitempty"`
}

// judge is the first signal res fails on, "" if it passed.
func (t Targets) judge(res *Result, err error) (Probe, string) {
	p := Probe{Rate: res.Config.Rate, StallTime: time.Duration(res.EngineMetrics[engine.MetricStallTime])}
	if res.Write != nil {
		p.WriteP99 = res.Write.P99
	}
	if res.Query != nil {
		p.QueryP99 = res.Query.P99
	}
	n := len(res.Intervals)
	for _, iv := range res.Intervals[n-n/3:] {
		p.MaxBacklog = max(p.MaxBacklog, iv.Backlog)
	}
	switch {
	case err != nil:
		p.Error = res.Error
		return p, LimitError
	case res.Unsent > 0 || float64(p.MaxBacklog) > res.Config.Rate:
		return p, LimitBacklog
	case p.StallTime > res.Elapsed/20:
		return p, LimitStall
	case res.RetentionLag > res.Config.BucketWidth:
		return p, LimitDisk
	case p.WriteP99 > t.MaxWriteP99:
		return p, LimitWrite
	case res.Query != nil && p.QueryP99 > t.MaxQueryP99:
		return p, LimitQuery
	}
	return p, ""
}

// FindRate searches the highest rate the engine cfg.Open opens sustains
// for cfg.Duration, as pebble's write-throughput search does: from
// cfg.Rate it doubles the rate while runs pass, halves it while they
// fail, then narrows the interval between the highest passing and the
// lowest failing rate to within 10%. Each probe is a whole Run on a
// fresh store in a directory of its own under dir, deleted after it. It
// returns the Result of the highest passing probe (of the last probe if
// none passed) with the Search in it; its error is an engine's or an
// invalid config's, not a failing rate's.
func FindRate(dir string, cfg Config, t Targets) (*Result, error) {
	if cfg.Open == nil {
		return nil, fmt.Errorf("%w: the rate search needs Config.Open to open a fresh engine for each probe", ErrInvalidConfig)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.WithDefaults()
	t = t.withDefaults()
	ceiling := maxRate(cfg.Writers)
	s := &Search{Targets: t}
	var best, last *Result
	lo, hi := 0.0, math.Inf(1)
	rate := cfg.Rate
search:
	for len(s.Probes) < maxProbes {
		c := cfg
		c.Rate = rate
		res, err := probe(filepath.Join(dir, fmt.Sprintf("probe-%02d", len(s.Probes)+1)), c)
		if res == nil {
			return nil, err // the engine could not open
		}
		p, limit := t.judge(res, err)
		p.Limit = limit
		s.Probes = append(s.Probes, p)
		last = res
		if res.WrongAnswers() > 0 {
			s.Limit = LimitError
			break // a wrong answer is no matter of rate
		}
		if limit == "" {
			lo, best = rate, res
		} else {
			hi, s.Limit = rate, limit
		}
		if cfg.Probed != nil {
			cfg.Probed(found(s, lo, best, last))
		}
		switch {
		case lo == ceiling:
			s.Limit = LimitHarness
			break search
		case math.IsInf(hi, 1):
			rate = min(2*rate, ceiling)
		case lo == 0:
			rate /= 2
			if rate*cfg.Duration.Seconds() < float64(2*cfg.Batch) {
				break search // too low to schedule two batches: nothing passes
			}
		case hi/lo > searchPrecision:
			rate = math.Round(math.Sqrt(lo * hi))
		default:
			break search
		}
	}
	return found(s, lo, best, last), nil
}

// found is what a search found so far: the highest passing probe's
// result (the last probe's if none passed) with a copy of the search, its
// rate lo.
func found(s *Search, lo float64, best, last *Result) *Result {
	res := *cmp.Or(best, last)
	sc := *s
	sc.Rate, sc.Probes = lo, slices.Clone(s.Probes)
	res.Search = &sc
	return &res
}

// probe runs cfg on a fresh store in dir and deletes it.
func probe(dir string, cfg Config) (*Result, error) {
	defer os.RemoveAll(dir)
	var db engine.Engine
	if cfg.Method != MethodShards {
		var err error
		if db, err = cfg.Open(dir); err != nil {
			return nil, err
		}
	}
	res, err := Run(db, dir, cfg)
	if db != nil {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close: %w", cerr)
		}
	}
	return res, err
}
