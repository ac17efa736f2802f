package mixed

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/workload/querymix"
)

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Writers, c.Readers = 0, 0 }, "-writers 1 or more"},
		{func(c *Config) { c.Duration = 0 }, "-duration 30s"},
		{func(c *Config) { c.Duration = -time.Second }, "positive duration"},
		{func(c *Config) { c.Rate = -1 }, "points per second"},
		{func(c *Config) { c.Window = time.Hour }, "shorter -window or more -points"},
		{func(c *Config) { c.Writers = 100 }, "lower -writers or raise -series"},
		{func(c *Config) { c.Skew = 1 }, "-skew 0.99"},
		{func(c *Config) { c.Mix = querymix.Mix{Last: -1, Scan: 1} }, "weights of 0 or more"},
		{func(c *Config) { c.MultiSeries = 65 }, "between 1 and -series"},
		{func(c *Config) { c.Series = 10_000 }, "lower -series or raise -points"},
	} {
		cfg := smallConfig()
		c.change(&cfg)
		err := cfg.WithDefaults().Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", cfg, err, c.want)
		}
	}
	if err := smallConfig().WithDefaults().Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
	cfg := smallConfig()
	cfg.Window = time.Hour
	cfg.Mix = querymix.Mix{Last: 1}
	if err := cfg.Validate(); err != nil {
		t.Errorf("a window no query uses: %v", err)
	}
}

func TestParseSkew(t *testing.T) {
	for s, want := range map[string]float64{"uniform": 0, "zipfian": DefaultZipf, "0.5": 0.5, "0": 0} {
		if got, err := ParseSkew(s); err != nil || got != want {
			t.Errorf("ParseSkew(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"1", "-0.1", "zipf1", "2"} {
		if _, err := ParseSkew(s); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("ParseSkew(%q): %v", s, err)
		}
	}
}

// TestChooser checks that zipfian draws favor the first series as the
// distribution says (about 1/zeta(n) of draws for series 0), and stay in
// range, and that uniform draws are even.
func TestChooser(t *testing.T) {
	const n, draws = 1000, 200_000
	r := rand.New(rand.NewPCG(3, 4))
	z := newChooser(n, DefaultZipf)
	var counts [n]int
	for range draws {
		s := z.next(r)
		if s < 0 || s >= n {
			t.Fatalf("draw %d out of [0, %d)", s, n)
		}
		counts[s]++
	}
	want := draws / z.zetan
	if got := float64(counts[0]); got < 0.9*want || got > 1.1*want {
		t.Errorf("series 0 drawn %v times, want about %.0f", got, want)
	}
	if counts[0] < 10*counts[n/2] {
		t.Errorf("series 0 drawn %d times, series %d %d times: not skewed", counts[0], n/2, counts[n/2])
	}
	u := newChooser(n, 0)
	counts = [n]int{}
	for range draws {
		counts[u.next(r)]++
	}
	if counts[0] > 2*draws/n || counts[n-1] > 2*draws/n {
		t.Errorf("uniform draws: series 0 %d, last %d, want about %d", counts[0], counts[n-1], draws/n)
	}
}
