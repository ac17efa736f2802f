package crash

import (
	"context"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/suite"
)

var testConfig = Config{Kills: 1, Batch: 5, ValueSize: 40, Seed: 3, Window: time.Second, Fault: FaultKill, CutBatches: 50, Kill: KillProcess}

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
			// An engine ordered within prefixes is read batch by batch, and
			// finds the same.
			byBatch, err := verify(db, batchKeySize, testConfig)
			if err != nil || !reflect.DeepEqual(byBatch, s) {
				t.Errorf("read batch by batch: %+v, %v; want %+v", byBatch, err, s)
			}
			// The damaged copy merged into an intact one's scan shows
			// through, as a member alone read after the cluster does.
			intact := memory.New()
			write(t, intact, 4)
			merged, err := Verify(intact, testConfig)
			if err != nil {
				t.Fatal(err)
			}
			merged.merge(s)
			for _, scan := range []Scan{s, merged} {
				var tl Tally
				tl.Add(Round{Acks: 4, Acked: acked, Scan: &scan})
				st := tl.Finish()
				if st.LostBatches != tc.lost || st.TornBatches != tc.torn || !strings.Contains(st.Failure(), tc.problemWord) {
					t.Errorf("stats %+v, want %d lost, %d torn, a failure saying %q", st, tc.lost, tc.torn, tc.problemWord)
				}
			}
			var tl Tally
			tl.Add(Round{Acks: 4, Acked: acked, Scan: &s})
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
	for _, change := range []func(c *Config){
		func(c *Config) { c.Kills = 0 },
		func(c *Config) { c.Batch = MaxBatch + 1 },
		func(c *Config) { c.ValueSize = keySize - 1 },
		func(c *Config) { c.Window = 0 },
		func(c *Config) { c.Fault = "flood" },
		func(c *Config) { c.Fault = "" },
		func(c *Config) { c.CutBatches = 0 },
		func(c *Config) { c.CutBatches = MaxCutBatches + 1 },
	} {
		c := testConfig
		change(&c)
		if err := c.Validate(); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("Validate(%+v) = %v, want ErrInvalidConfig", c, err)
		}
	}
}

func TestCutAt(t *testing.T) {
	mid := 0
	for round := 1; round <= 40; round++ {
		acks, into := testConfig.CutAt(round)
		if a, i := testConfig.CutAt(round); acks < 1 || acks > int64(testConfig.CutBatches) || into < 0 || into > 1 || a != acks || i != into {
			t.Fatalf("round %d: cut after %d acks and %v of a batch, then %d and %v: want a repeatable cut after 1 to %d acks",
				round, acks, into, a, i, testConfig.CutBatches)
		}
		if into > 0 {
			mid++
		}
	}
	if mid < 10 || mid > 30 {
		t.Errorf("%d of 40 cuts strike inside a commit, want about half", mid)
	}
}

// TestLossAllowed: under a fault the engine does not promise to survive,
// lost batches are counted but do not fail it; torn ones do.
func TestLossAllowed(t *testing.T) {
	db := memory.New()
	acked := write(t, db, 4)
	del(db, 3, 0, 1, 2, 3, 4) // the acknowledged tail lost
	s, err := Verify(db, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	tl := Tally{Stats: Stats{LossAllowed: true}}
	tl.Add(Round{Acks: 4, Acked: acked, Scan: &s})
	if st := tl.Finish(); st.LostBatches != 1 || st.Failure() != "" {
		t.Errorf("stats %+v, failure %q: want 1 lost batch and no failure", st, st.Failure())
	}
	del(db, 1, 2)
	if s, err = Verify(db, testConfig); err != nil {
		t.Fatal(err)
	}
	tl.Add(Round{Scan: &s})
	if st := tl.Finish(); st.TornBatches != 1 || !strings.Contains(st.Failure(), "torn") {
		t.Errorf("stats %+v: want the torn batch to fail", st)
	}
}

// TestLostAgain: a batch a writer writes again after a loss and that is
// lost again counts twice.
func TestLostAgain(t *testing.T) {
	db := memory.New()
	write(t, db, 10)
	for b := uint64(5); b < 10; b++ {
		del(db, b, 0, 1, 2, 3, 4)
	}
	s, err := Verify(db, testConfig)
	if err != nil {
		t.Fatal(err)
	}
	var tl Tally
	tl.Add(Round{Acks: 10, Acked: 10, From: 0, Scan: &s})
	if st := tl.Finish(); st.LostBatches != 5 {
		t.Fatalf("first round: %d lost, want 5", st.LostBatches)
	}
	// The next writer goes on from batch 5 and gets 5 to 11
	// acknowledged; 8 to 11 are lost.
	write(t, db, 7)
	for b := uint64(8); b < 12; b++ {
		del(db, b, 0, 1, 2, 3, 4)
	}
	if s, err = Verify(db, testConfig); err != nil {
		t.Fatal(err)
	}
	tl.Add(Round{Acks: 7, Acked: 12, From: 5, Scan: &s})
	if st := tl.Finish(); st.LostBatches != 9 {
		t.Errorf("after the second round: %d lost, want 5 + 4", st.LostBatches)
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

// TestReportPowerCut: a power-loss check's report names the fault and the
// sync profile, and marks allowed losses as such, not as a failure.
func TestReportPowerCut(t *testing.T) {
	cfg := testConfig
	cfg.Fault = FaultPowercut
	res := &Result{Config: cfg, Crash: &Stats{Kills: 3, AcknowledgedBatches: 40, LostBatches: 12, LossAllowed: true}}
	res.Engine, res.Options = "memory", map[string]any{"sync": "none"}
	text := Report{Results: []*Result{res}}.Page().Text()
	for _, want := range []string{"Power-loss check", "Power cuts", "power cut, sync none", "12 (allowed)", "ok"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "FAILED") || strings.Contains(text, "12 (allowed) !") {
		t.Errorf("allowed losses reported as a failure:\n%s", text)
	}
}

// TestWriterMemory: a writer reports its memory peaks as they grow, and
// the tally keeps each kind's highest over the rounds.
func TestWriterMemory(t *testing.T) {
	if _, err := measure.ReadMemory(); err != nil {
		t.Skipf("no memory by kind here: %v", err)
	}
	var reported []measure.MemoryPeaks
	n := 200
	err := Writer{
		Ack: func(uint64) error {
			if n--; n == 0 {
				return errStop
			}
			time.Sleep(100 * time.Microsecond) // several samples apart
			return nil
		},
		Memory: func(p measure.MemoryPeaks) error { reported = append(reported, p); return nil },
	}.Write(memory.New(), testConfig)
	if !errors.Is(err, errStop) {
		t.Fatalf("Write: %v", err)
	}
	if len(reported) == 0 || reported[0].Private <= 0 || reported[0].Go <= 0 {
		t.Fatalf("reported %+v, want peaks from the start on", reported)
	}
	last := reported[len(reported)-1]
	var tl Tally
	tl.Add(Round{Memory: &measure.MemoryPeaks{Private: 1, File: last.File + 1, Samples: 1}, ReopenErr: errStop})
	tl.Add(Round{Memory: &last, ReopenErr: errStop})
	tl.Add(Round{ReopenErr: errStop}) // a writer that reported nothing
	got := tl.Finish().WriterMemory
	if got == nil || got.Private != last.Private || got.File != last.File+1 || got.Samples != last.Samples+1 {
		t.Errorf("writer memory %+v, want the highest of each kind of %+v and one more file page", got, last)
	}
	var none Tally
	none.Add(Round{ReopenErr: errStop})
	if m := none.Finish().WriterMemory; m != nil {
		t.Errorf("writer memory %+v when no writer reported any", m)
	}
}

// TestSpinningReaderIsBounded: a reader that spins, busy but getting
// nowhere, which the stall watchdog cannot tell from work, is ended after
// the round's wait and counted as a failed reopen.
func TestSpinningReaderIsBounded(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	e := &suite.Engine{Name: "spinner", Stall: time.Second}
	e.Spawn = func(role, dir string, opts supervise.Options) (*supervise.Child, error) {
		return supervise.Start(context.Background(), supervise.Command{Path: sh, Args: []string{"sh", "-c", "while :; do :; done"}}, opts)
	}
	var r Round
	if err := reopen(e, t.TempDir(), &r); err != nil {
		t.Fatal(err)
	}
	if r.ReopenErr == nil || !strings.Contains(r.ReopenErr.Error(), "did not reopen and read the store within 1s") {
		t.Errorf("reopen error %v, want the reader's time bound", r.ReopenErr)
	}
}
