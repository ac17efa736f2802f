package timeseries

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsbench/storage/workload/points"
)

func TestConfigValidate(t *testing.T) {
	ok := Config{Points: 100, Series: 10, Batch: 10}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(*Config)
		says string
	}{
		{"zero points", func(c *Config) { c.Points = 0 }, "-points"},
		{"negative points", func(c *Config) { c.Points = -5 }, "-points"},
		{"too many points", func(c *Config) { c.Points = points.MaxPoints + 1 }, "fewer -points"},
		{"zero series", func(c *Config) { c.Series = 0 }, "-series"},
		{"negative series", func(c *Config) { c.Series = -1 }, "-series"},
		{"zero batch", func(c *Config) { c.Batch = 0 }, "-batch"},
		{"negative batch", func(c *Config) { c.Batch = -1 }, "-batch"},
		{"series above points", func(c *Config) { c.Series = 101; c.Batch = 1 }, "lower -series or raise -points"},
		{"batch above series", func(c *Config) { c.Batch = 11 }, "lower -batch or raise -series"},
		{"negative settle timeout", func(c *Config) { c.SettleTimeout = -1 }, "settle timeout"},
	} {
		cfg := ok
		c.edit(&cfg)
		err := cfg.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v; want ErrInvalidConfig saying %q", c.name, err, c.says)
		}
	}
}

// TestStepAccounting pins how many points each step handles, per series,
// when N is odd or not a multiple of the series.
func TestStepAccounting(t *testing.T) {
	cfg := Config{Points: 10, Series: 4, Batch: 2}
	g := points.Generator{Series: cfg.Series}
	n, h := cfg.Points, cfg.Points/2
	// Series 0 and 1 get 3 points, 2 and 3 get 2 (indices 0..9, round robin).
	// The delete removes indices 0..4: two of series 0, one of each other.
	// The second write adds indices 10..14: two of series 2, one of each other.
	want := []struct{ written, deleted, kept, final int64 }{
		{3, 2, 1, 2}, {3, 1, 2, 3}, {2, 1, 1, 3}, {2, 1, 1, 2},
	}
	for s, w := range want {
		s := int64(s)
		got := [4]int64{g.Count(0, n, s), g.Count(0, h, s), g.Count(h, n, s), g.Count(h, n+h, s)}
		if got != [4]int64{w.written, w.deleted, w.kept, w.final} {
			t.Errorf("series %d: written, deleted, kept, final = %v, want %v", s, got, w)
		}
	}
	labels := []string{"Write 10 values", "Query 10 values", "Delete 5 values", "Compaction", "Query 5 values", "Write 5 values"}
	for i, name := range StepNames {
		if got := Label(name, cfg); got != labels[i] {
			t.Errorf("Label(%s) = %q, want %q", name, got, labels[i])
		}
	}
	odd := Config{Points: 100_000_001}
	if got := Label(StepQueryAfterDelete, odd); got != "Query 50000001 values" {
		t.Errorf("odd N: %q", got)
	}
	if got := Label(StepDelete, Config{Points: 100_000_000}); got != "Delete 50M values" {
		t.Errorf("%q", got)
	}
}
