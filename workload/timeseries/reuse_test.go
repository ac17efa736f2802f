package timeseries

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/workload/harness"
)

// counting counts the iterators made through it.
type counting struct {
	engine.Engine
	iterators atomic.Int64
}

func (c *counting) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	c.iterators.Add(1)
	return c.Engine.NewIterator(o)
}

// TestReuseIterator runs the workload with and without
// Config.ReuseIterator on an engine whose iterators take new bounds
// (memory's own, pebble's through Open) and on one whose iterators do not
// (synthetic: SetBounds reopens them): every run reads and verifies the
// same points, and only where SetBounds is native do the query steps make
// one iterator each instead of one per series.
func TestReuseIterator(t *testing.T) {
	cfg := Config{Points: 3001, Series: 30, Batch: 10, Seed: 9}
	for _, tc := range []struct {
		name   string
		open   func(t *testing.T, dir string) engine.Engine
		native bool
	}{
		{"memory", func(*testing.T, string) engine.Engine { return memory.New() }, true},
		{"pebble", func(t *testing.T, dir string) engine.Engine {
			db, err := engine.Open("pebble", dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			return db
		}, true},
		{"reopened", func(*testing.T, string) engine.Engine { return newSynthetic(cfg) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var read [2][]harness.Verification
			for i, reuse := range []bool{false, true} {
				dir := t.TempDir()
				db := &counting{Engine: tc.open(t, dir)}
				c := cfg
				c.ReuseIterator = reuse
				res, err := Run(db, dir, c)
				if err != nil {
					t.Fatalf("reuse %v: %v", reuse, err)
				}
				if res.Config.ReuseIterator != reuse {
					t.Errorf("reuse %v: the result's config says %v", reuse, res.Config.ReuseIterator)
				}
				want := 2 * cfg.Series // a fresh iterator per series in both query steps
				if reuse && tc.native {
					want = 2
				}
				if got := db.iterators.Load(); got != want {
					t.Errorf("reuse %v: %d iterators made, want %d", reuse, got, want)
				}
				checkRun(t, db, res, c)
				for _, name := range []string{StepQuery, StepQueryAfterDelete} {
					st := res.Step(name)
					if st.Verify == nil || !st.Verify.OK() || st.Latency == nil || st.Latency.Count != cfg.Series {
						t.Errorf("reuse %v: %s verified %+v, latency %+v", reuse, name, st.Verify, st.Latency)
					}
					read[i] = append(read[i], *st.Verify)
				}
				if err := db.Close(); err != nil {
					t.Errorf("reuse %v: close after the run: %v (an iterator left open?)", reuse, err)
				}
			}
			if read[0][0] != read[1][0] || read[0][1] != read[1][1] {
				t.Errorf("verified %+v without reuse, %+v with", read[0], read[1])
			}
		})
	}
}

// TestReuseIteratorError: an iterator error with a reused iterator ends
// the run like any engine error, and the iterator is closed.
func TestReuseIteratorError(t *testing.T) {
	db := memory.New()
	f := &faulty{Engine: db, failIterErr: true}
	cfg := faultCfg
	cfg.ReuseIterator = true
	res, err := Run(f, t.TempDir(), cfg)
	if !errors.Is(err, errInjected) {
		t.Fatalf("error %v, want the iterator's", err)
	}
	if n := len(res.Steps); n != 2 || !strings.Contains(res.Steps[1].Error, "series 0") {
		t.Errorf("%d steps, query error %q: want the run to stop at series 0 of the query", n, res.Steps[n-1].Error)
	}
	if err := db.Close(); err != nil {
		t.Errorf("close after the run: %v (the reused iterator left open?)", err)
	}
}

func TestReportShowsReuseIterator(t *testing.T) {
	r := syntheticReport()
	if s := r.Page().Text(); strings.Contains(s, "reuse one iterator") {
		t.Errorf("report of a run without ReuseIterator mentions it:\n%s", s)
	}
	for _, res := range r.Results {
		res.Config.ReuseIterator = true
	}
	head, _, _ := strings.Cut(r.Page().Text(), "\n\n")
	if !strings.Contains(head, "queries reuse one iterator") {
		t.Errorf("report head does not say queries reused an iterator:\n%s", head)
	}
}

// TestRunEngineMetrics: an engine that reports metrics has them in every
// step, counters over the step; one that reports none has none.
func TestRunEngineMetrics(t *testing.T) {
	dir := t.TempDir()
	db, err := engine.Open("pebble", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reported, err := engine.ReadMetrics(db)
	if err != nil || len(reported) == 0 {
		t.Fatalf("pebble's metrics at open: %v, %v", reported, err)
	}
	cfg := Config{Points: 20000, Series: 200, Batch: 100, Seed: 3}
	res, err := Run(db, dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Steps {
		for name := range reported {
			if _, ok := st.EngineMetrics[name]; !ok {
				t.Errorf("%s: pebble's %s missing from %v", st.Name, name, st.EngineMetrics)
			}
		}
	}
	// The memtable holds the last writes until Compact flushes them and
	// rewrites the tables; the query after it reads them through the
	// cache.
	if m := res.Step(StepWrite).EngineMetrics; m[engine.MetricMemtableBytes] <= 0 {
		t.Errorf("write: %v, want memtable bytes", m)
	}
	if m := res.Step(StepCompact).EngineMetrics; m[engine.MetricCompactBytes] <= 0 {
		t.Errorf("compact: %v, want bytes written by compaction", m)
	}
	if m := res.Step(StepQueryAfterDelete).EngineMetrics; m[engine.MetricCacheHits]+m[engine.MetricCacheMisses] <= 0 {
		t.Errorf("query_after_delete: %v, want cache lookups", m)
	}
	res.Engine = "pebble"
	if s := (Report{Results: []*Result{res}}).Page().Text(); !strings.Contains(s, "Engine metrics") || !strings.Contains(s, "compact_bytes") {
		t.Errorf("report lacks the engine metrics:\n%s", s)
	}

	mem, err := Run(memory.New(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range mem.Steps {
		if st.EngineMetrics != nil {
			t.Errorf("memory: %s has metrics %v, want none", st.Name, st.EngineMetrics)
		}
	}
	if s := (Report{Results: []*Result{mem}}).Page().Text(); strings.Contains(s, "Engine metrics") {
		t.Errorf("report of an engine without metrics shows the table:\n%s", s)
	}
}
