package bench

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/timeseries"
)

// TestQueryCatchesCorruptValue checks that the query step still checks
// every entry the C engines write straight into its buffer: one value
// stored wrong in the engine fails the step, naming the point.
func TestQueryCatchesCorruptValue(t *testing.T) {
	const bad = 901 // the sequence number stored wrong, which the delete step keeps
	cfg := timeseries.Config{Points: 1001, Series: 10, Batch: 10, Seed: 7}
	// The engines whose iterators copy many entries per cgo call
	// (engine.EntryAppender).
	for _, name := range []string{"hyperleveldb", "kyotocabinet", "leveldb", "lmdb", "rocksdb", "sqlite"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db, err := engine.Open(name, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			it, err := engine.Unwrap(db).NewIterator(engine.IterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, bulk := it.(engine.EntryAppender)
			if err := it.Close(); err != nil || !bulk {
				t.Fatalf("%s's iterator is no engine.EntryAppender (%v): the test would not read as the query step does", name, err)
			}
			res, err := timeseries.Run(&corrupting{Engine: db, seq: bad}, dir, cfg)
			if !errors.Is(err, timeseries.ErrVerification) {
				t.Fatalf("Run: %v, want timeseries.ErrVerification", err)
			}
			st := res.Step(timeseries.StepQuery)
			if v := st.Verify; v.Wrong != 1 || v.Missing != 0 || v.Unexpected != 0 || !strings.Contains(v.First, "seq 901") {
				t.Errorf("query: Verify = %+v, want the one wrong value of seq %d", v, bad)
			}
		})
	}
}

// corrupting stores the value of one point with its last byte changed.
type corrupting struct {
	engine.Engine
	seq uint64
}

func (c *corrupting) NewBatch() engine.Batch {
	return &corruptingBatch{Batch: c.Engine.NewBatch(), seq: c.seq}
}

type corruptingBatch struct {
	engine.Batch
	seq uint64
	val []byte
}

func (b *corruptingBatch) Put(key, value []byte) {
	if _, _, seq, _ := tskey.ParseKey(key); seq == b.seq {
		b.val = append(b.val[:0], value...)
		b.val[len(b.val)-1] ^= 1
		value = b.val
	}
	b.Batch.Put(key, value)
}
