package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/workload/harness"
)

// fakeClock is a settable time source.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func newFakeProgress(mode string) (*progress, *bytes.Buffer, *fakeClock) {
	var buf bytes.Buffer
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	p := newProgress(&buf, mode, "pebble")
	p.now = clock.now
	return p, &buf, clock
}

func TestProgressLog(t *testing.T) {
	p, buf, clock := newFakeProgress("log")
	p.Begin("Write 1M values", 1_000_000)
	for i := int64(1); i <= 100; i++ { // 20 s of updates, five a second
		clock.add(200 * time.Millisecond)
		p.Update(i * 10_000)
	}
	p.End()
	p.Begin("Compaction", 500_000) // counts nothing until it is done
	for range 12 {
		clock.add(time.Second)
		p.Update(0)
	}
	p.Update(500_000)
	p.End()
	p.Begin("Settle", 0)
	clock.add(1500 * time.Millisecond)
	p.End()
	fmt.Fprintf(p, "settle timed out\n")
	p.Begin("Write 500k values", 500_000)
	clock.add(4 * time.Second)
	p.stopping() // -max-time
	p.Update(200_000)
	p.End()

	want := []string{
		"pebble: Write 1M values: started (1M points)",
		"pebble: Write 1M values:  50% 500k/1M 50k/s ETA 10s",
		"pebble: Write 1M values: 100% 1M/1M 50k/s ETA 0s",
		"pebble: Write 1M values: done in 20s (50k points/s wall)",
		"pebble: Compaction: started (500k points)",
		"pebble: Compaction: running for 10s",
		"pebble: Compaction: done in 12s (41.7k points/s wall)",
		"pebble: Settle: started",
		"pebble: Settle: done in 1.5s",
		"pebble: settle timed out",
		"pebble: Write 500k values: started (500k points)",
		"pebble: Write 500k values: stopped after 4s, 200k of 500k points (50k points/s wall)",
	}
	got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProgressSeconds: a part that counts the seconds of its duration
// (mixed, steady) shows no rate: "done in 20s (0.952 points/s)" counted
// seconds as points.
func TestProgressSeconds(t *testing.T) {
	p, buf, clock := newFakeProgress("log")
	harness.InSeconds(p)
	p.Begin("Mixed, 1 writer and 1 reader, for 20s", 20)
	for i := int64(1); i <= 20; i++ {
		clock.add(time.Second)
		p.Update(i)
	}
	p.End()
	want := []string{
		"pebble: Mixed, 1 writer and 1 reader, for 20s: started (20 seconds)",
		"pebble: Mixed, 1 writer and 1 reader, for 20s:  50% 10s/20s ETA 10s",
		"pebble: Mixed, 1 writer and 1 reader, for 20s: 100% 20s/20s ETA 0s",
		"pebble: Mixed, 1 writer and 1 reader, for 20s: done in 20s",
	}
	if got := strings.TrimSuffix(buf.String(), "\n"); got != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestProgressBarRedrawsAtMostFiveTimesASecond(t *testing.T) {
	p, buf, clock := newFakeProgress("bar")
	p.Begin("Query 1M values", 1_000_000)
	for i := int64(1); i <= 1000; i++ { // 1 s of updates every millisecond
		clock.add(time.Millisecond)
		p.Update(i * 1000)
	}
	p.End()
	out := buf.String()
	if n := strings.Count(out, "\r"); n > 1+5+1 { // Begin, 5 redraws, End
		t.Errorf("%d redraws in one second:\n%q", n, out)
	}
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "pebble: Query 1M values: done in 1s (1M points/s wall)\n") {
		t.Errorf("bar should end with one final line, got %q", out)
	}
	if !strings.Contains(out, "pebble: Query 1M values: [=========               ]  40% 400k/1M 1M/s ETA 600ms") {
		t.Errorf("no 40%% bar in %q", out)
	}
}

func TestApprox(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0, "0"}, {950, "950"}, {999.4, "999"}, {999.6, "1k"}, {1500, "1.5k"}, {123456, "123k"}, {999999, "1M"}, {2.5e9, "2.5G"}} {
		if got := approx(tc.v); got != tc.want {
			t.Errorf("approx(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
