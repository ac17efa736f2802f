package enginetest

import (
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
)

// estimateData writes 1 MiB of incompressible values under "e/" and a few
// small entries under "s/", compacts so that LSM engines have them in
// tables, and returns the exact bytes of keys and values of each range.
func estimateData(t *testing.T, db engine.Engine) (big, small int64) {
	t.Helper()
	b := db.NewBatch()
	defer b.Close()
	for i := range 256 {
		k, v := fmt.Sprintf("e/%03d", i), randomBytes(uint64(i), 4<<10)
		b.Put([]byte(k), v)
		big += int64(len(k) + len(v))
	}
	for i := range 16 {
		k := fmt.Sprintf("s/%02d", i)
		b.Put([]byte(k), []byte("small"))
		small += int64(len(k) + len("small"))
	}
	commit(t, b)
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	return big, small
}

// testEstimateSize checks the engine's estimate, native or not, within
// the slack of an estimate: compression, block granularity and overhead.
func testEstimateSize(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	if _, ok := db.(engine.SizeEstimator); !ok {
		t.Fatalf("%T is not an engine.SizeEstimator: open the engine with engine.Open", db)
	}
	big, small := estimateData(t, db)
	const slack = 64 << 10
	for _, c := range []struct {
		name       string
		start, end string
		lo, hi     int64
	}{
		{"1 MiB range", "e/", "e0", big / 2, big*2 + slack},
		{"small range", "s/", "s0", 0, small + slack},
		{"empty range past the keys", "z", "zz", 0, slack},
	} {
		got, err := engine.EstimateSize(db, []byte(c.start), []byte(c.end))
		if err != nil {
			t.Fatalf("EstimateSize(%s): %v", c.name, err)
		}
		t.Logf("EstimateSize(%s) = %d; it holds %d bytes", c.name, got, map[bool]int64{true: big, false: small}[c.start == "e/"])
		if got < c.lo || got > c.hi {
			t.Errorf("EstimateSize(%s) = %d, want %d to %d", c.name, got, c.lo, c.hi)
		}
	}
	if got, err := engine.EstimateSize(db, nil, nil); err != nil || got < big/2 {
		t.Errorf("EstimateSize(nil, nil) = %d, %v; want at least %d", got, err, big/2)
	}
}

// testEstimateSizeFallback checks the fallback, which scans and is exact.
func testEstimateSizeFallback(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	big, small := estimateData(t, db)
	for _, c := range []struct {
		start, end string
		want       int64
	}{{"e/", "e0", big}, {"s/", "s0", small}, {"z", "zz", 0}, {"", "", big + small}} {
		var start, end []byte
		if c.start != "" {
			start, end = []byte(c.start), []byte(c.end)
		}
		if got, err := engine.EstimateSize(hidden{db}, start, end); err != nil || got != c.want {
			t.Errorf("fallback EstimateSize(%s, %s) = %d, %v; want exactly %d", show(start), show(end), got, err, c.want)
		}
	}
}
