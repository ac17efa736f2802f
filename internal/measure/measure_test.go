package measure

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTakeCountsCPUAndIO(t *testing.T) {
	before, err := Take()
	if err != nil {
		t.Fatal(err)
	}
	if before.IOErr != nil {
		t.Skipf("no /proc/self/io here: %v", before.IOErr)
	}
	// Burn some CPU and write a file through to storage.
	x := 0
	for i := range 50_000_000 {
		x ^= i
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	f.Sync()
	f.Close()
	after, err := Take()
	if err != nil {
		t.Fatal(err)
	}
	d := after.Sub(before)
	if d.Wall <= 0 || d.User+d.Sys <= 0 {
		t.Errorf("no time passed: %+v (%d)", d, x)
	}
	if d.IOErr != nil || d.IO.WriteBytes < 1<<20 {
		t.Errorf("wrote 1 MiB, IO says %+v, %v", d.IO, d.IOErr)
	}
}

func TestSubWithoutIO(t *testing.T) {
	a := Sample{Time: time.Unix(0, 0), IO: IO{WriteBytes: 5}}
	b := Sample{Time: time.Unix(1, 0), IO: IO{WriteBytes: 9}, IOErr: os.ErrNotExist}
	if d := b.Sub(a); d.IOErr == nil || d.IO != (IO{}) || d.Wall != time.Second {
		t.Errorf("Sub = %+v", d)
	}
}

func TestPeakRSS(t *testing.T) {
	if err := ResetPeakRSS(); err != nil {
		t.Skipf("cannot reset peak RSS here: %v", err)
	}
	base, err := PeakRSS()
	if err != nil || base <= 0 {
		t.Fatalf("PeakRSS = %d, %v", base, err)
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	peak, err := PeakRSS()
	if err != nil || peak < base+60<<20 {
		t.Errorf("touched 64 MiB: peak %d, from %d", peak, base)
	}
}

func TestOpenFDs(t *testing.T) {
	n, err := OpenFDs()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if m, _ := OpenFDs(); m != n+1 {
		t.Errorf("opened one file: %d fds, from %d", m, n)
	}
}

func TestHistogram(t *testing.T) {
	h := NewHistogram()
	for i := 1; i <= 10000; i++ {
		h.Record(time.Duration(i) * time.Microsecond)
	}
	h.Record(2 * time.Hour) // beyond the range: clamped, but the max is exact
	p := h.Percentiles()
	near := func(got, want time.Duration) bool { return got >= want && got <= want+want/500 }
	if p.Count != 10001 || !near(p.P50, 5*time.Millisecond) || !near(p.P99, 9900*time.Microsecond) ||
		!near(p.P999, 9990*time.Microsecond) || p.Max != 2*time.Hour {
		t.Errorf("Percentiles = %+v", p)
	}
	h.Reset()
	h.Record(1234 * time.Nanosecond)
	if p := h.Percentiles(); p.Count != 1 || p.P50 != p.Max || p.P999 > p.Max {
		t.Errorf("one sample: %+v", p)
	}
	if n := testing.AllocsPerRun(1000, func() { h.Record(time.Millisecond) }); n != 0 {
		t.Errorf("Record allocates %v times", n)
	}
}

func TestHistogramMerge(t *testing.T) {
	a, b := NewHistogram(), NewHistogram()
	for i := 1; i <= 100; i++ {
		a.Record(time.Duration(i) * time.Microsecond)
	}
	b.Record(time.Second)
	a.Merge(b)
	p := a.Percentiles()
	if p.Count != 101 || p.Max != time.Second || p.P50 < 49*time.Microsecond || p.P50 > 52*time.Microsecond {
		t.Errorf("merged percentiles %+v: want 101 durations, p50 about 51µs, max 1s", p)
	}
}

// TestWindowAddTo checks a Window against Histogram.Merge: the same
// durations, added to histograms that already hold some, give the same
// distribution, and Reset empties the window.
func TestWindowAddTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	viaMerge, viaWindow := NewHistogram(), NewHistogram()
	for i := 1; i <= 100; i++ {
		viaMerge.Record(time.Duration(i) * time.Millisecond)
		viaWindow.Record(time.Duration(i) * time.Millisecond)
	}
	w, h := NewWindow(), NewHistogram()
	for range 3 {
		for range 1000 {
			d := time.Duration(rng.ExpFloat64() * float64(200*time.Microsecond))
			h.Record(d)
			w.Record(d)
		}
		h.Record(2 * time.Hour) // beyond the range: clamped, the max exact
		w.Record(2 * time.Hour)
		viaMerge.Merge(h)
		w.AddTo(viaWindow)
		h.Reset()
		w.Reset()
	}
	a, b := viaMerge.Percentiles(), viaWindow.Percentiles()
	if a != b || a.Count != 3103 || a.Max != 2*time.Hour {
		t.Errorf("added through a Window: %+v; through Merge: %+v; want both 3103 durations, max 2h", b, a)
	}
	ea, _ := viaMerge.Encode()
	eb, _ := viaWindow.Encode()
	if !bytes.Equal(ea, eb) {
		t.Error("the two histograms encode differently: their buckets differ")
	}
	w.AddTo(viaWindow) // after Reset: adds nothing
	if p := viaWindow.Percentiles(); p != b {
		t.Errorf("an emptied window added %+v to %+v", p, b)
	}
}

// BenchmarkAddTo adds the durations of one interval (a thousand, 10 µs
// to a few ms) to a total, as steady's sampler does for every writer and
// query kind: from a Histogram by Merge, and from a Window.
func BenchmarkAddTo(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	h, w := NewHistogram(), NewWindow()
	for range 1000 {
		d := 10*time.Microsecond + time.Duration(rng.ExpFloat64()*float64(200*time.Microsecond))
		h.Record(d)
		w.Record(d)
	}
	total := NewHistogram()
	b.Run("from=histogram", func(b *testing.B) {
		for b.Loop() {
			total.Merge(h)
		}
	})
	b.Run("from=window", func(b *testing.B) {
		for b.Loop() {
			w.AddTo(total)
		}
	})
}

// BenchmarkRecord records durations of 10 µs to a few ms into a
// Histogram and into a Window.
func BenchmarkRecord(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := make([]time.Duration, 1024)
	for i := range ds {
		ds[i] = 10*time.Microsecond + time.Duration(rng.ExpFloat64()*float64(200*time.Microsecond))
	}
	h, w := NewHistogram(), NewWindow()
	b.Run("into=histogram", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			h.Record(ds[i%len(ds)])
		}
	})
	b.Run("into=window", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			w.Record(ds[i%len(ds)])
		}
	})
}
