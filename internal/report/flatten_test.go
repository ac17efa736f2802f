package report

import (
	"slices"
	"testing"
	"time"
)

// TestFlattenMaps: maps of any value type flatten in key order, each
// figure's unit read from its key.
func TestFlattenMaps(t *testing.T) {
	type counts map[string]int64
	v := struct {
		Options map[string]any `json:"options"`
		Metrics counts         `json:"engine_metrics"`
		None    counts         `json:"none"`
		Wait    time.Duration  `json:"wait_ns"`
	}{
		Options: map[string]any{"sync": "none", "cache_size": int64(64)},
		Metrics: counts{"stalls": 3, "compact_bytes": 1 << 20, "stall_ns": 5},
		Wait:    time.Second,
	}
	var got []string
	for _, f := range Flatten("", v) {
		got = append(got, f.Metric+" "+f.Unit+" "+Float(f.Value)+" "+f.Text)
	}
	want := []string{
		"options.cache_size  64 ", "options.sync  0 none",
		"engine_metrics.compact_bytes bytes 1048576 ", "engine_metrics.stall_ns ns 5 ", "engine_metrics.stalls  3 ",
		"wait_ns ns 1000000000 ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Flatten = %q\nwant      %q", got, want)
	}
}
