package steady

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/badger"
	"github.com/tsbench/storage/engine/memory"
	_ "github.com/tsbench/storage/engine/pebble"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/querymix"
)

// smallConfig expires data within a second and a half of wall time.
func smallConfig() Config {
	return Config{
		Duration: 1500 * time.Millisecond, Rate: 5_000, Writers: 2, Readers: 2,
		Series: 50, Batch: 25, Speedup: 400, Retention: 40 * time.Second,
		Mix: querymix.Mix{Last: 1, Recent: 1, Range: 1, Scan: 1, Multi: 1}, Window: 5 * time.Second,
		Interval: 100 * time.Millisecond, Seed: 3,
	}
}

// checkClean fails unless the run passed, retention deleted something,
// every query kind ran and read points, and the final check found
// exactly what the model expects.
func checkClean(t *testing.T, res *Result, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// A loaded machine may leave batches unsent; what was sent must add up.
	if res.Written == 0 || res.Written+res.Unsent != res.Scheduled {
		t.Errorf("wrote %d of %d scheduled points, %d unsent", res.Written, res.Scheduled, res.Unsent)
	}
	// The ttl method makes no passes: the engine drops points itself.
	if (res.Retention.Passes == 0 && res.Config.Method != MethodTTL) || res.Retention.Expired == 0 {
		// Retention follows the committed data: on a machine too slow to
		// commit past the window in a short run (an engine per shard
		// opened with its fsyncs) it never comes due, and that is no fault.
		front := time.Duration(0)
		if n := len(res.Intervals); n > 0 {
			front = res.Intervals[n-1].DataTime
		}
		if due := res.Config.Retention + res.Config.BucketWidth; front < due {
			t.Logf("retention never came due: the committed data reached %v of data time, retention starts after %v", front, due)
		} else {
			t.Errorf("retention did nothing though the committed data reached %v of data time: %+v", front, res.Retention)
		}
	}
	var read int64
	for _, q := range res.Queries {
		read += q.Verify.Read
		if !q.Verify.OK() {
			t.Errorf("%s queries: %+v", q.Kind, q)
		}
	}
	if len(res.Queries) != len(querymix.QueryKinds) || read == 0 {
		t.Errorf("%d query kinds ran and read %d points, want %d kinds", len(res.Queries), read, len(querymix.QueryKinds))
	}
	if f, r := res.Final, res.Retention; f == nil || !f.OK() || f.Read != res.Written-r.Expired+r.Lingering {
		t.Errorf("final check %+v, want the %d written less the %d expired, but for the %d still held", f, res.Written, r.Expired, r.Lingering)
	}
	if len(res.Intervals) < 2 || res.Write == nil {
		t.Errorf("%d intervals, write latency %v", len(res.Intervals), res.Write)
	}
	if res.WrongAnswers() != 0 {
		t.Errorf("%d wrong answers", res.WrongAnswers())
	}
}

// checkEveryKind fails unless every query kind ran and read points.
func checkEveryKind(t *testing.T, res *Result) {
	t.Helper()
	for _, q := range res.Queries {
		if q.Count == 0 || q.Verify.Read == 0 {
			t.Errorf("%s queries: %+v", q.Kind, q)
		}
	}
}

// TestPickCoversTheMix: a reader's first queries go through every kind
// the mix weighs, however light, and never one it leaves out; then its
// draws follow the weights.
func TestPickCoversTheMix(t *testing.T) {
	r := &runner{cfg: Config{Seed: 1, Mix: querymix.Mix{Last: 1000, Recent: 1000, Scan: 1, Multi: 1}}}
	rd := newReader(r, 0)
	var firsts []string
	for range 4 {
		firsts = append(firsts, querymix.QueryKinds[rd.pick()])
	}
	if want := []string{querymix.KindLast, querymix.KindRecent, querymix.KindScan, querymix.KindMulti}; !slices.Equal(firsts, want) {
		t.Errorf("first kinds %v, want %v", firsts, want)
	}
	var drawn [kinds]int
	for range 10_000 {
		drawn[rd.pick()]++
	}
	if drawn[slices.Index(querymix.QueryKinds, querymix.KindRange)] != 0 || drawn[0] < 4_500 || drawn[0] > 5_500 {
		t.Errorf("10k draws by kind %v, want about 5k of last and none of range", drawn)
	}
}

func TestRunMemory(t *testing.T) {
	res, err := Run(memory.New(), t.TempDir(), smallConfig())
	checkClean(t, res, err)
	checkEveryKind(t, res)
	if _, err := measure.ReadMemory(); err == nil && (res.Cost.Memory == nil || res.Cost.Memory.Private <= 0) {
		t.Errorf("the run's memory by kind %+v, want its peaks", res.Cost.Memory)
	}
}

// TestRunMethods runs every retention method with late batches, points
// out of order and churn on pebble, whose deletes are real; the ttl
// method on badger, which has an expiry.
func TestRunMethods(t *testing.T) {
	for _, method := range Methods {
		t.Run(string(method), func(t *testing.T) {
			dir := t.TempDir()
			cfg := smallConfig()
			cfg.Method, cfg.Late, cfg.LateWindow, cfg.OutOfOrder, cfg.Churn, cfg.ChurnEvery = method, 0.1, 5*time.Second, 0.3, 0.1, 10*time.Second
			name, opts := "pebble", (*engine.Options)(nil)
			if method == MethodTTL {
				cfg = ttlConfig(cfg)
				name, opts = "badger", &engine.Options{Expiry: cfg.Expiry()}
			}
			var db engine.Engine
			if method == MethodShards {
				cfg.Open = func(d string) (engine.Engine, error) { return engine.Open(name, d, nil) }
			} else {
				var err error
				if db, err = engine.Open(name, dir, opts); err != nil {
					t.Fatal(err)
				}
				defer db.Close()
			}
			res, err := Run(db, dir, cfg)
			checkClean(t, res, err)
			checkEveryKind(t, res)
			if res.SeriesIDs <= cfg.Series {
				t.Errorf("churn made no new series: %d ids", res.SeriesIDs)
			}
			if want := float64(res.Disk.Used) / float64(res.Final.Read); res.BytesPerPoint != want || want <= 0 {
				t.Errorf("%.1f bytes/point, want disk %d over the %d points held", res.BytesPerPoint, res.Disk.Used, res.Final.Read)
			}
			if method == MethodShards && (res.Retention.ShardsDropped == 0 || res.Retention.ShardsOpened <= res.Retention.ShardsDropped) {
				t.Errorf("shards: %+v", res.Retention)
			}
			// Badger hides an entry from reads once it expires.
			if r := res.Retention; method == MethodTTL && r.Lingering >= r.Expired {
				t.Errorf("ttl: badger still held %d of the %d expired points", r.Lingering, r.Expired)
			}
		})
	}
}

// TestRunCatchesLostDelete checks that the checks can fail: an engine
// whose DeleteRange does nothing keeps expired points, which queries and
// the final check must report.
func TestRunCatchesLostDelete(t *testing.T) {
	res, err := Run(noDelete{memory.New()}, t.TempDir(), smallConfig())
	if !errors.Is(err, ErrVerification) || res.Final == nil || res.Final.Expired == 0 {
		t.Fatalf("Run = %v, final %+v; want expired points found", err, res.Final)
	}
}

type noDelete struct{ engine.Engine }

func (noDelete) DeleteRange(_, _ []byte) error { return nil }
