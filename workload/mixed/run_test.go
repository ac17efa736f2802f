package mixed

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	_ "github.com/tsbench/storage/engine/pebble"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

func smallConfig() Config {
	return Config{
		Duration: 700 * time.Millisecond, Writers: 2, Readers: 3,
		Series: 64, Batch: 16, Points: 6400, Seed: 7,
		Mix: querymix.Mix{Last: 1, Recent: 1, Range: 1, Scan: 1, Multi: 1}, Window: 50 * time.Millisecond, MultiSeries: 4,
	}
}

// checkClean fails unless every kind of the mix ran, read something and
// verified clean, and the final check found every acknowledged point.
func checkClean(t *testing.T, res *Result, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	w := res.Operation(KindWrite)
	if w == nil || w.Count == 0 || w.Latency == nil || w.Latency.Count == 0 || len(w.PerSecond) == 0 {
		t.Fatalf("writes: %+v", w)
	}
	for _, kind := range querymix.QueryKinds {
		op := res.Operation(kind)
		if op == nil || op.Count == 0 || op.Points == 0 || op.Latency.P99 <= 0 {
			t.Errorf("%s: %+v", kind, op)
			continue
		}
		if !op.Verify.OK() || op.Verify.Read != op.Points {
			t.Errorf("%s: verify %+v, %d points", kind, op.Verify, op.Points)
		}
	}
	var sum int64
	for _, n := range w.PerSecond {
		sum += n
	}
	if sum != w.Count {
		t.Errorf("per-second write counts sum to %d, not the %d written", sum, w.Count)
	}
	if f := res.Final; f == nil || !f.OK() || f.Read != res.Config.Points+w.Count {
		t.Errorf("final check %+v, want every one of %d preloaded and %d written points", f, res.Config.Points, w.Count)
	}
}

func TestRunMemory(t *testing.T) {
	res, err := Run(memory.New(), t.TempDir(), smallConfig())
	checkClean(t, res, err)
	if res.Preload == nil || res.Preload.Points != 6400 || res.Preload.Time <= 0 {
		t.Errorf("preload %+v", res.Preload)
	}
	if _, err := measure.ReadMemory(); err == nil && (res.Cost.Memory == nil || res.Cost.Memory.Private <= 0) {
		t.Errorf("the run's memory by kind %+v, want its peaks", res.Cost.Memory)
	}
}

// TestRunPebble runs the workload on an engine from engine.Open, whose
// contract (concurrent calls, snapshots, SetBounds) the race detector
// then checks under this load.
func TestRunPebble(t *testing.T) {
	dir := t.TempDir()
	db, err := engine.Open("pebble", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := smallConfig()
	cfg.Skew = DefaultZipf
	res, err := Run(db, dir, cfg)
	checkClean(t, res, err)
	if err := db.Close(); err != nil {
		t.Fatalf("close after the run: %v", err)
	}
	if res.Disk.Used <= 0 || res.BytesPerPoint != float64(res.Disk.Used)/float64(res.Final.Read) {
		t.Errorf("disk %+v, %.1f bytes/point over the %d points held", res.Disk, res.BytesPerPoint, res.Final.Read)
	}
}

func TestRunWithoutPreload(t *testing.T) {
	cfg := smallConfig()
	cfg.Points = 0
	res, err := Run(memory.New(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Preload != nil || res.Final.Read != res.Operation(KindWrite).Count {
		t.Errorf("preload %+v, final %+v", res.Preload, res.Final)
	}
}

func TestRunReadersOnly(t *testing.T) {
	cfg := smallConfig()
	cfg.Writers, cfg.Mix = 0, querymix.Mix{Last: 1, Scan: 1}
	res, err := Run(memory.New(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Operation(KindWrite) != nil || res.Operation(querymix.KindRecent) != nil || res.Operation(querymix.KindScan).Points == 0 {
		t.Errorf("operations %+v", res.Operations)
	}
	if res.Final.Read != cfg.Points {
		t.Errorf("final check read %d of %d", res.Final.Read, cfg.Points)
	}
}

// lossy drops the puts of every third committed batch while reporting
// success, and can corrupt values: what verification is for.
type lossy struct {
	*memory.DB
	commits atomic.Int64
	corrupt bool
}

func (l *lossy) NewBatch() engine.Batch { return &lossyBatch{Batch: l.DB.NewBatch(), l: l} }

type lossyBatch struct {
	engine.Batch
	l *lossy
}

func (b *lossyBatch) Put(k, v []byte) {
	if b.l.corrupt {
		v = points.AppendValue(nil, 42)
	}
	b.Batch.Put(k, v)
}

func (b *lossyBatch) Commit() error {
	if b.l.commits.Add(1)%3 == 0 {
		b.Batch.Reset() // dropped, yet acknowledged
		return nil
	}
	return b.Batch.Commit()
}

func TestRunDetectsLostWrites(t *testing.T) {
	cfg := smallConfig()
	cfg.Points = 0
	res, err := Run(&lossy{DB: memory.New()}, t.TempDir(), cfg)
	if !errors.Is(err, ErrVerification) {
		t.Fatalf("Run on an engine that drops writes: %v", err)
	}
	if res.Final.Missing == 0 || !strings.Contains(res.Error, "final check") {
		t.Errorf("final check %+v, error %q", res.Final, res.Error)
	}
	missing := int64(0)
	for _, op := range res.Operations[1:] {
		missing += op.Verify.Missing
	}
	if missing == 0 {
		t.Errorf("no query saw a lost write: %+v", res.Operations)
	}
}

func TestRunDetectsWrong(t *testing.T) {
	cfg := smallConfig()
	cfg.Points = 0
	res, err := Run(&lossy{DB: memory.New(), corrupt: true}, t.TempDir(), cfg)
	if !errors.Is(err, ErrVerification) {
		t.Fatalf("Run on an engine that corrupts values: %v", err)
	}
	for _, op := range res.Operations[1:] {
		if op.Points > 0 && op.Verify.Wrong == 0 {
			t.Errorf("%s read %d corrupt points and found none wrong", op.Kind, op.Points)
		}
	}
}
