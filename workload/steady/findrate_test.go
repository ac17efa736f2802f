package steady

import (
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// commitTime is how long slowCommits makes every commit take at least,
// so that one writer sustains at most 1s/commitTime batches a second: a
// cap far below what the race-built harness and pebble sustain on a
// loaded machine, so that the search finds the engine's cap rather than
// the machine's.
const commitTime = 20 * time.Millisecond

// slowCommits makes every commit of its engine take at least commitTime.
type slowCommits struct{ engine.Engine }

func (e slowCommits) NewBatch() engine.Batch { return slowBatch{e.Engine.NewBatch()} }

type slowBatch struct{ engine.Batch }

func (b slowBatch) Commit() error {
	time.Sleep(commitTime)
	return b.Batch.Commit()
}

// TestFindRate searches the rate of an engine whose commits cap one
// writer at 50 batches of 100 points a second, 5,000 points/s: the
// search must land near that cap (within its 10%), not far under it,
// stopped by the backlog or the write latency it causes.
//
// A one-second probe passes with up to a second's points behind, so a
// rate a few percent over the cap can pass: the search's own 10% bounds
// the answer. Retention steps a bucket, 150 ms of wall time, at a time,
// so that a retention pass delayed on a busy machine does not fall a
// bucket behind (LimitDisk).
func TestFindRate(t *testing.T) {
	batch := int64(100)
	limit := float64(batch) * float64(time.Second/commitTime)
	cfg := Config{
		Duration: time.Second, Rate: limit / 5, Writers: 1, Series: 100, Batch: batch,
		Speedup: 1000, Retention: 5 * time.Minute, BucketWidth: 150 * time.Second,
		Interval: 100 * time.Millisecond, Seed: 1,
		Open: func(dir string) (engine.Engine, error) {
			db, err := engine.Open("pebble", dir, nil)
			return slowCommits{db}, err
		},
	}
	res, err := FindRate(t.TempDir(), cfg, Targets{MaxWriteP99: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Search
	if s == nil || len(s.Probes) < 3 {
		t.Fatalf("search %+v", s)
	}
	t.Logf("found %g points/s, limited by %s; probes %+v", s.Rate, s.Limit, s.Probes)
	if s.Rate < limit/2 || s.Rate >= limit*1.1 || (s.Limit != LimitBacklog && s.Limit != LimitWrite) {
		t.Errorf("found %g points/s limited by %q, want %g to %g by backlog or write p99; probes %+v", s.Rate, s.Limit, limit/2, limit*1.1, s.Probes)
	}
	if res.Config.Rate != s.Rate || res.WrongAnswers() != 0 {
		t.Errorf("result of rate %g with %d wrong answers, want the passing rate's", res.Config.Rate, res.WrongAnswers())
	}
}
