package steady

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestModelLife checks life and ids against generation, point by point:
// every id a slot holds lives exactly in the rounds it holds it.
func TestModelLife(t *testing.T) {
	m := model{series: 7, batch: 3, step: 10, churnEvery: 4, churnPer: 3}
	const rounds = 60
	seen := map[uint64][]int64{}
	for r := range int64(rounds) {
		for j := range m.series {
			id := m.id(j, r)
			seen[id] = append(seen[id], r)
			if got, _, _ := m.point(r*m.series + j); got != id {
				t.Fatalf("point(%d) has series %d, want %d", r*m.series+j, got, id)
			}
		}
	}
	if len(seen) <= int(m.series) {
		t.Fatalf("churn made %d ids, want more than %d", len(seen), m.series)
	}
	for id, rs := range seen {
		from, to := m.life(id)
		if from != rs[0] || (to < rounds && to != rs[len(rs)-1]+1) || int64(len(rs)) != min(to, rounds)-from {
			t.Errorf("id %d: life [%d, %d), rounds %v", id, from, to, rs)
		}
	}
	for _, span := range [][2]int64{{8, 20}, {0, rounds}, {5, 6}, {3, 4}, {30, 30}} {
		want := map[uint64]bool{}
		for r := span[0]; r < span[1]; r++ {
			for j := range m.series {
				want[m.id(j, r)] = true
			}
		}
		var got []uint64
		m.ids(span[0], span[1], func(id uint64) { got = append(got, id) })
		for i, id := range got {
			if !want[id] || (i > 0 && id <= got[i-1]) {
				t.Errorf("ids(%d, %d) = %v: not those of the rounds %v in increasing order", span[0], span[1], got, want)
				break
			}
		}
		if len(got) != len(want) {
			t.Errorf("ids(%d, %d) gave %d ids, want %d", span[0], span[1], len(got), len(want))
		}
	}
}

func TestModelNoChurn(t *testing.T) {
	m := model{series: 5, batch: 5, step: 10}
	if from, to := m.life(3); from != 0 || to < 1<<62 {
		t.Errorf("life(3) = [%d, %d), want forever", from, to)
	}
	if from, to := m.life(8); from != to {
		t.Errorf("life(8) = [%d, %d), want never", from, to)
	}
	if m.committedRounds(2, 13) != 3 || m.committedRounds(3, 13) != 2 || m.committedRounds(4, 3) != 0 {
		t.Errorf("committedRounds wrong")
	}
}

// TestLateness checks the late fraction and bound.
func TestLateness(t *testing.T) {
	m := model{series: 5, batch: 5, step: 10}
	late := 0
	for b := range int64(100_000) {
		d := m.lateness(b, 0.05, 20)
		if d < 0 || d > 20 {
			t.Fatalf("batch %d late by %d slots, want 0..20", b, d)
		}
		if d > 0 {
			late++
		}
	}
	if late < 4500 || late > 5500 {
		t.Errorf("%d of 100000 batches late, want about 5%%", late)
	}
}

func TestValidate(t *testing.T) {
	ok := Config{Duration: time.Minute, Rate: 100_000, Series: 1000, Batch: 1000, Speedup: 20, Retention: 10 * time.Minute}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Duration = 0 }, "-duration"},
		{func(c *Config) { c.Rate = 1e12 }, "lower -rate"},
		{func(c *Config) { c.Speedup = 1 }, "nothing would expire"},
		{func(c *Config) { c.Late = 1.5 }, "-late 1.5 is not a fraction"},
		{func(c *Config) { c.OutOfOrder = -0.1 }, "-out-of-order"},
		{func(c *Config) { c.Churn = 2 }, "-churn"},
		{func(c *Config) { c.Method = "fifo" }, "delete, bucket, shards or ttl"},
		{func(c *Config) { c.Method, c.Speedup = MethodTTL, 1000 }, "is 600ms of wall time"},
		{func(c *Config) { c.Method = MethodShards }, "Config.Open"},
		{func(c *Config) { c.Late, c.LateWindow = 0.1, 10*time.Minute }, "-late-window"},
		{func(c *Config) { c.Rate, c.Duration = 10, time.Second }, "fewer than two batches"},
	} {
		cfg := ok
		c.change(&cfg)
		err := cfg.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v, want one naming %q", err, c.want)
		}
	}
}
