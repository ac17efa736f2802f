package workload

import (
	"errors"
	"strings"
	"testing"
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
		{"too many points", func(c *Config) { c.Points = MaxPoints + 1 }, "fewer -points"},
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
