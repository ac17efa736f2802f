package crash

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine/memory"
)

var testConfig = Config{Kills: 1, Batch: 5, ValueSize: 40, Seed: 3, Window: time.Second}

// errStop ends Write after a number of batches, as a kill would.
var errStop = errors.New("stop")

// write commits n batches to db with Write and returns one more than the
// highest batch acknowledged.
func write(t *testing.T, db *memory.DB, n int) uint64 {
	t.Helper()
	var top uint64
	err := Write(db, testConfig, func(b uint64) error {
		top = b + 1
		if n--; n == 0 {
			return errStop
		}
		return nil
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("Write: %v", err)
	}
	return top
}

func TestIntactStoreCounts(t *testing.T) {
	db := memory.New()
	acked := write(t, db, 4)
	// A second writer goes on after the last batch.
	acked = write(t, db, 3)
	if acked != 7 {
		t.Fatalf("acknowledged up to %d, want 7", acked)
	}
	s, err := Verify(db, testConfig)
	if err != nil || s.Top != 7 || len(s.Incomplete) != 0 || s.Problem != "" {
		t.Fatalf("Verify = %+v, %v; want 7 whole batches", s, err)
	}
	var tl Tally
	tl.Add(Round{Acks: 7, Acked: acked, Scan: &s, Recovery: time.Millisecond})
	if st := tl.Finish(); st.Failure() != "" || st.AcknowledgedBatches != 7 || st.RecoveryMax != time.Millisecond {
		t.Errorf("stats %+v, want 7 acknowledged, no failure", st)
	}
}

func TestDamageIsFound(t *testing.T) {
	for _, tc := range []struct {
		name        string
		damage      func(db *memory.DB)
		lost, torn  int64
		problemWord string
	}{
		{"torn batch", func(db *memory.DB) { del(db, 2, 1) }, 1, 1, "torn"},
		{"missing batch in the middle", func(db *memory.DB) { del(db, 1, 0, 1, 2, 3, 4) }, 1, 0, "lost"},
		{"first batch missing", func(db *memory.DB) { del(db, 0, 0, 1, 2, 3, 4) }, 1, 0, "lost"},
		{"acknowledged tail missing", func(db *memory.DB) { del(db, 3, 0, 1, 2, 3, 4) }, 1, 0, "lost"},
		{"wrong value", func(db *memory.DB) {
			k := make([]byte, keySize)
			key(k, 1, 3)
			db.Put(k, []byte(strings.Repeat("x", testConfig.ValueSize)))
		}, 1, 1, "wrong value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := memory.New()
			acked := write(t, db, 4)
			tc.damage(db)
			s, err := Verify(db, testConfig)
			if err != nil {
				t.Fatal(err)
			}
			var tl Tally
			tl.Add(Round{Acks: 4, Acked: acked, Scan: &s})
			st := tl.Finish()
			if st.LostBatches != tc.lost || st.TornBatches != tc.torn || !strings.Contains(st.Failure(), tc.problemWord) {
				t.Errorf("stats %+v, want %d lost, %d torn, a failure saying %q", st, tc.lost, tc.torn, tc.problemWord)
			}
			// The same damage found again is not counted twice.
			tl.Add(Round{Acked: acked, Scan: &s})
			if again := tl.Finish(); again.LostBatches != tc.lost || again.TornBatches != tc.torn {
				t.Errorf("counted again: %+v", again)
			}
		})
	}
}

func TestReopenErrorCounts(t *testing.T) {
	var tl Tally
	tl.Add(Round{Acks: 3, Acked: 3, ReopenErr: errors.New("bad magic")})
	if st := tl.Finish(); st.ReopenErrors != 1 || !strings.Contains(st.Failure(), "bad magic") {
		t.Errorf("stats %+v, want the reopen error", st)
	}
}

func TestKillDelay(t *testing.T) {
	seen := map[time.Duration]bool{}
	for round := 1; round <= 20; round++ {
		d := testConfig.KillDelay(round)
		if d < 0 || d >= testConfig.Window || d != testConfig.KillDelay(round) {
			t.Fatalf("round %d: delay %v, want a repeatable delay in [0, %v)", round, d, testConfig.Window)
		}
		seen[d] = true
	}
	if len(seen) < 15 {
		t.Errorf("%d distinct delays in 20 rounds", len(seen))
	}
}

func TestValidate(t *testing.T) {
	if err := testConfig.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []Config{
		{Kills: 0, Batch: 5, ValueSize: 40, Window: time.Second},
		{Kills: 1, Batch: MaxBatch + 1, ValueSize: 40, Window: time.Second},
		{Kills: 1, Batch: 5, ValueSize: keySize - 1, Window: time.Second},
		{Kills: 1, Batch: 5, ValueSize: 40, Window: 0},
	} {
		if err := c.Validate(); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("Validate(%+v) = %v, want ErrInvalidConfig", c, err)
		}
	}
}

// del deletes entries of batch b.
func del(db *memory.DB, b uint64, entries ...uint32) {
	k := make([]byte, keySize)
	for _, i := range entries {
		key(k, b, i)
		db.Delete(k)
	}
}
