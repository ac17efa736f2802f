package enginetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
)

// testMetrics checks what the engine reports: known names only, no
// negative values, and counters that do not go back across writes and a
// compaction.
func testMetrics(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	if _, ok := db.(engine.MetricsReporter); !ok {
		t.Fatalf("%T is not an engine.MetricsReporter: open the engine with engine.Open", db)
	}
	read := func(when string) engine.Metrics {
		t.Helper()
		m, err := engine.ReadMetrics(db)
		if err != nil {
			t.Fatalf("ReadMetrics %s: %v", when, err)
		}
		for name, v := range m {
			if !slices.Contains(engine.MetricNames(), name) {
				t.Errorf("metric %q %s is not one of engine.MetricNames(); add it there or leave it out", name, when)
			}
			if v < 0 {
				t.Errorf("metric %s = %d %s, want >= 0", name, v, when)
			}
		}
		return m
	}
	before := read("at open")
	b := db.NewBatch()
	defer b.Close()
	for i := range 512 {
		b.Put(fmt.Appendf(nil, "m/%04d", i), randomBytes(uint64(i), 2<<10))
	}
	commit(t, b)
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	for i := range 64 {
		wantGet(t, db, fmt.Sprintf("m/%04d", i*8), string(randomBytes(uint64(i*8), 2<<10)))
	}
	after := read("after writes, a compaction and reads")
	t.Logf("metrics at open %v, after %v", before, after)
	for name, v := range after {
		if name != engine.MetricMemtableBytes && v < before[name] {
			t.Errorf("counter %s went back from %d to %d", name, before[name], v)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.ReadMetrics(db); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("ReadMetrics after Close = %v, want engine.ErrClosed", err)
	}
}

// testMetricsFallback checks that an engine without metrics reports none.
func testMetricsFallback(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	if m, err := engine.ReadMetrics(hidden{db}); err != nil || len(m) != 0 {
		t.Errorf("ReadMetrics of an engine without MetricsReporter = %v, %v; want none", m, err)
	}
}
