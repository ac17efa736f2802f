package harness

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSpan checks that a span charges the CPU, the writes and the memory
// of what ran inside it.
func TestSpan(t *testing.T) {
	s, err := StartSpan()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 32<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	path := filepath.Join(t.TempDir(), "f")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(buf); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
	}
	var warned []string
	c := s.End(func(kind string, err error) { warned = append(warned, kind+": "+err.Error()) })
	if c.Wall < 50*time.Millisecond || c.CPUUser+c.CPUSys < 20*time.Millisecond {
		t.Errorf("wall %v, CPU %v after 50ms of spinning", c.Wall, c.CPUUser+c.CPUSys)
	}
	if len(warned) > 0 {
		t.Logf("figures missing here: %v", warned)
		return
	}
	if c.PeakRSS < int64(len(buf)) {
		t.Errorf("peak RSS %d below the %d bytes touched", c.PeakRSS, len(buf))
	}
	if c.IO == nil || c.IO.WriteBytes < int64(len(buf)) {
		t.Errorf("I/O %+v: the %d bytes written and synced are not counted", c.IO, len(buf))
	}
}

// TestSamplePeriod checks that spans sample memory by kind by default,
// and not at all after SetSamplePeriod with a negative period.
func TestSamplePeriod(t *testing.T) {
	defer SetSamplePeriod(0)
	for _, tc := range []struct {
		period time.Duration
		want   bool
	}{{0, true}, {time.Millisecond, true}, {-1, false}} {
		SetSamplePeriod(tc.period)
		s, err := StartSpan()
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		var warned []string
		c := s.End(func(kind string, err error) { warned = append(warned, kind) })
		if slices.Contains(warned, "memory") {
			t.Skip("no memory by kind here")
		}
		if got := c.Memory != nil; got != tc.want {
			t.Errorf("period %v: memory sampled %v, want %v", tc.period, got, tc.want)
		}
		if tc.want && c.Memory.Private <= 0 {
			t.Errorf("period %v: private memory %d", tc.period, c.Memory.Private)
		}
	}
}

// BenchmarkSample is what one sample of memory by kind costs the process
// (its ns/op): a span takes one every DefaultSamplePeriod, so its share
// of a core is ns/op divided by the period's nanoseconds.
//
//	go test -run '^$' -bench Sample ./workload/harness/
func BenchmarkSample(b *testing.B) {
	sm := &sampler{}
	for b.Loop() {
		sm.sample()
	}
	if sm.err != nil {
		b.Skip(sm.err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(DefaultSamplePeriod.Nanoseconds())*100, "%core")
}

// recorder is a Progress that records what it is told.
type recorder struct {
	mu                   sync.Mutex
	begun, ended         int
	label                string
	total, last, updates int64
}

func (r *recorder) Begin(label string, total int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.begun, r.label, r.total = r.begun+1, label, total
}

func (r *recorder) Update(done int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last, r.updates = done, r.updates+1
}

func (r *recorder) End() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended++
}

// TestWatchedSpan: one sampler reports progress and calls the tick while
// the part runs; StopWatch ends the progress with the final count and
// stops the ticks, while memory is still sampled until End.
func TestWatchedSpan(t *testing.T) {
	var done, ticks atomic.Int64
	p := &recorder{}
	s, err := StartWatchedSpan(Watch{Progress: p, Label: "Write 10 values", Total: 10, Done: done.Load,
		Tick: func(time.Time) { ticks.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	for done.Load() < 10 {
		done.Add(1)
		time.Sleep(ProgressPeriod / 4)
	}
	for ticks.Load() == 0 {
		time.Sleep(ProgressPeriod / 4)
	}
	s.StopWatch()
	after := ticks.Load()
	time.Sleep(2 * ProgressPeriod)
	c := s.End(func(string, error) {})
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.begun != 1 || p.ended != 1 || p.label != "Write 10 values" || p.total != 10 || p.last != 10 || p.updates < 2 {
		t.Errorf("progress %+v: want begun and ended once, the last update 10 of 10", p)
	}
	if n := ticks.Load(); n != after {
		t.Errorf("%d ticks after StopWatch", n-after)
	}
	if c.Memory == nil || c.Memory.Samples < 2 {
		t.Errorf("memory %+v: want the samples of the whole span", c.Memory)
	}
}
