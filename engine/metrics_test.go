package engine_test

import (
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

func TestMetricsSince(t *testing.T) {
	before := engine.Metrics{engine.MetricCompactBytes: 100, engine.MetricCacheHits: 5, engine.MetricMemtableBytes: 1 << 20, engine.MetricStalls: 2}
	after := engine.Metrics{engine.MetricCompactBytes: 350, engine.MetricCacheHits: 5, engine.MetricMemtableBytes: 4096, engine.MetricCacheMisses: 9}
	got := after.Since(before)
	want := engine.Metrics{engine.MetricCompactBytes: 250, engine.MetricCacheHits: 0, engine.MetricMemtableBytes: 4096}
	if len(got) != len(want) {
		t.Errorf("Since = %v, want %v", got, want)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %d (%v), want %d", k, g, ok, v)
		}
	}
	// A gauge needs only the reading at the end; nothing known is nil.
	if got := (engine.Metrics{engine.MetricMemtableBytes: 7}).Since(nil); got[engine.MetricMemtableBytes] != 7 {
		t.Errorf("gauge without a reading before: %v", got)
	}
	if got := (engine.Metrics{}).Since(nil); got != nil {
		t.Errorf("no metrics: %v, want nil", got)
	}
}

func TestMetricNamesIn(t *testing.T) {
	after := engine.Metrics{engine.MetricCompactBytes: 350, engine.MetricCacheHits: 5, engine.MetricMemtableBytes: 4096, engine.MetricCacheMisses: 9}
	names := engine.MetricNamesIn(after, engine.Metrics{"zeta": 1, engine.MetricStallTime: 1}, nil)
	if w := []string{engine.MetricCompactBytes, engine.MetricStallTime, engine.MetricCacheHits, engine.MetricCacheMisses, engine.MetricMemtableBytes, "zeta"}; strings.Join(names, ",") != strings.Join(w, ",") {
		t.Errorf("MetricNamesIn = %v, want %v", names, w)
	}
}
