package micro

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/goleveldb"
	"github.com/tsbench/storage/internal/measure"
)

// testEngine is a pure-Go engine, so the tests need no C library.
const testEngine = "goleveldb"

func small(benchmarks ...string) Config {
	return Config{Benchmarks: benchmarks, Num: 3000, Batch: 100, Seed: 7}
}

// TestRunEveryBenchmark runs every benchmark, with every key type, on a
// real engine, and checks the counts, the verification and the storage
// figures each reports.
func TestRunEveryBenchmark(t *testing.T) {
	every := append(Names(), ReadRandom, ReadSeq, Overwrite, ReadKey, ReadCrc, DeleteRandom, ReadRandom, ReadSeq, ReadCrc)
	// The key type only changes the keys: the other types run the
	// benchmarks that write and read them in every way.
	some := []string{FillRandom, ReadRandom, ReadSeq, ReadReverse, ReadCrc, Write, ReadKey, Overwrite, ReadXxh64, DeleteRandom, ReadRandom}
	for _, kt := range KeyTypes {
		t.Run(string(kt), func(t *testing.T) {
			t.Parallel()
			all := some
			if kt == DefaultKeyType {
				all = every
			}
			cfg := small(all...)
			cfg.KeyType, cfg.Percentiles = kt, []float64{50, 99.99}
			res, err := Run(OpenerFor(testEngine, engine.Options{}), t.TempDir(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Benchmarks) != len(all) || res.Error != "" {
				t.Fatalf("%d results of %d, error %q", len(res.Benchmarks), len(all), res.Error)
			}
			// A model of what the store holds.
			var loaded int64
			vsize, deleted := 0, false
			for i, b := range res.Benchmarks {
				bm := lookup(b.Name)
				if bm.kind == kindFill {
					loaded, vsize, deleted = bm.fillCount(cfg.Num), bm.valueSize(cfg.WithDefaults()), false
				}
				want, entries := loaded, loaded
				switch {
				case bm.kind == kindScan && deleted:
					want, entries = 0, 0
				case bm.kind == kindGet && deleted:
					entries = 0 // every Get must find nothing
				case bm.kind == kindOverwrite:
					deleted = false
				case bm.kind == kindDelete:
					deleted, entries = true, 0
				}
				if b.Error != "" || b.Ops != want || b.KeySize != kt.Size() || b.ValueSize != vsize {
					t.Errorf("#%d %s: %d ops of %d+%d bytes, want %d of %d+%d; error %q", i, b.Name, b.Ops, b.KeySize, b.ValueSize, want, kt.Size(), vsize, b.Error)
				}
				if want > 0 && (b.Time <= 0 || b.OpsPerSec <= 0 || b.MicrosPerOp <= 0 || b.Latency == nil) {
					t.Errorf("#%d %s: no timing: %+v", i, b.Name, b)
				} else if l := b.Latency; l != nil {
					// The asked percentiles, of the same samples as Latency.
					p50, p9999 := b.Percentiles[measure.PercentileKey(50)], b.Percentiles[measure.PercentileKey(99.99)]
					if len(b.Percentiles) != 2 || p50 != l.P50 || p9999 < l.P999 || p9999 > l.Max {
						t.Errorf("#%d %s: percentiles %v of latency %+v", i, b.Name, b.Percentiles, l)
					}
				}
				switch bm.kind {
				case kindGet, kindScan:
					if b.Verify == nil || !b.Verify.OK() || b.Storage != nil {
						t.Errorf("#%d %s: verify %+v, storage %v", i, b.Name, b.Verify, b.Storage)
					} else if b.Verify.Read != entries {
						t.Errorf("#%d %s: read %d, want %d", i, b.Name, b.Verify.Read, entries)
					}
				default:
					if b.Storage == nil || b.Storage.Disk.Used <= 0 || b.Storage.Reopened.Used <= 0 || b.Verify != nil {
						t.Errorf("#%d %s: storage %+v, verify %v", i, b.Name, b.Storage, b.Verify)
					} else if b.Storage.Entries != entries || b.Storage.Flat != entries*int64(kt.Size()+vsize) {
						t.Errorf("#%d %s: storage %+v, want %d entries of %d+%d bytes", i, b.Name, b.Storage, entries, kt.Size(), vsize)
					}
				}
			}
		})
	}
}

// TestRunCold: with Cold a read benchmark reads the store from the disk,
// as the OS counts the process's reads, where the same read warm, the
// store just written and in the page cache, reads nothing from it. Not
// parallel: the OS counts the reads of the whole process.
func TestRunCold(t *testing.T) {
	var st unix.Statfs_t
	if err := unix.Statfs(t.TempDir(), &st); err != nil || st.Type == unix.TMPFS_MAGIC {
		t.Skipf("the temporary directory is in memory (tmpfs) or unknown (%v): nothing is read from a disk", err)
	}
	read := func(cold bool) int64 {
		t.Helper()
		cfg := small(FillSeq, ReadSeq)
		cfg.Cold = cold
		res, err := Run(OpenerFor(testEngine, engine.Options{}), t.TempDir(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if f, r := res.Benchmarks[0], res.Benchmarks[1]; f.Cold || r.Cold != cold {
			t.Errorf("cold %v: fillseq cold %v, readseq cold %v", cold, f.Cold, r.Cold)
		}
		got := res.Benchmarks[1].IO
		if got == nil {
			t.Skip("this system does not count a process's I/O (/proc/self/io)")
		}
		return got.ReadBytes
	}
	if n := read(false); n != 0 {
		t.Errorf("warm readseq read %d bytes from the disk, want none", n)
	}
	if n := read(true); n == 0 {
		t.Error("cold readseq read nothing from the disk")
	}
}

// TestReadWithoutFill loads the store for a read nothing filled, and
// says so.
func TestReadWithoutFill(t *testing.T) {
	res, err := Run(OpenerFor(testEngine, engine.Options{}), t.TempDir(), small(ReadKey, ReadRandom))
	if err != nil {
		t.Fatal(err)
	}
	if b := res.Benchmarks[0]; !strings.Contains(b.Setup, "write loaded 3k entries first, untimed") || b.Verify.Read != 3000 {
		t.Errorf("readKey on an empty store: %+v", b)
	}
	if b := res.Benchmarks[1]; b.Setup != "" {
		t.Errorf("second read loaded again: %q", b.Setup)
	}
}

// lossy acknowledges every write but drops the Put of one key and
// corrupts the value of another, as a buggy engine might.
type lossy struct {
	engine.Engine
	drop, corrupt []byte
}

func (l *lossy) Put(k, v []byte) error {
	switch {
	case bytes.Equal(k, l.drop):
		return nil
	case bytes.Equal(k, l.corrupt):
		return l.Engine.Put(k, append([]byte("x"), v[1:]...))
	}
	return l.Engine.Put(k, v)
}

// TestVerificationCatchesLoss checks that every kind of read notices a
// lost entry and a wrong value, and that the run records the failures
// instead of stopping.
func TestVerificationCatchesLoss(t *testing.T) {
	open := func(dir string, sync bool) (engine.Engine, error) {
		db, err := OpenerFor(testEngine, engine.Options{})(dir, sync)
		if err != nil {
			return nil, err
		}
		return &lossy{Engine: db, drop: KeyStr16.Append(nil, 10), corrupt: KeyStr16.Append(nil, 2000)}, nil
	}
	reads := []string{ReadRandom, ReadKey, ReadSeq, ReadReverse, ReadCrc, ReadXxh64}
	res, err := Run(open, t.TempDir(), small(append([]string{FillRandom}, reads...)...))
	if !errors.Is(err, ErrVerification) {
		t.Fatalf("Run = %v, want ErrVerification", err)
	}
	for _, b := range res.Benchmarks[1:] {
		v := b.Verify
		if v == nil || v.OK() || b.Error == "" || !strings.Contains(res.Error, b.Name+": ") {
			t.Errorf("%s: verify %+v, error %q", b.Name, v, b.Error)
			continue
		}
		switch lookup(b.Name).kind {
		case kindGet:
			if v.Missing != 1 || v.Wrong != 1 || v.Read != 2999 || v.Expected != 3000 {
				t.Errorf("%s: %+v, want 1 missing and 1 wrong of 3000", b.Name, v)
			}
		case kindScan:
			if v.Read != 2999 || v.Missing != 1 {
				t.Errorf("%s: %+v, want 2999 read and 1 missing", b.Name, v)
			}
		}
	}
}

// TestSessionCounts drives a Session as a testing.B does: counts above
// and below the number of entries.
func TestSessionCounts(t *testing.T) {
	s, err := NewSession(OpenerFor(testEngine, engine.Options{}), t.TempDir(), small())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run := func(name string, n int64) Bench {
		t.Helper()
		if err := s.Prepare(name); err != nil {
			t.Fatalf("Prepare(%s): %v", name, err)
		}
		b, err := s.Run(name, n)
		if err != nil || b.Ops != n {
			t.Fatalf("Run(%s, %d): %d ops, %v", name, n, b.Ops, err)
		}
		return b
	}
	if b := run(FillSeq, 500); b.Storage.Entries != 500 {
		t.Errorf("fillseq 500: %+v", b.Storage)
	}
	// Without Prepare, a read works on what the last fill wrote.
	if b, err := s.Run(ReadSeq, 0); err != nil || b.Ops != 500 || b.Verify.Read != 500 {
		t.Errorf("readseq after fillseq 500: %d ops, %+v, %v", b.Ops, b.Verify, err)
	}
	// Prepare loads Num entries, which reads go round.
	if b := run(ReadSeq, 7777); b.Verify.Read != 7777 || b.Setup != "" {
		t.Errorf("readseq 7777 of 3000 entries: %+v, setup %q", b.Verify, b.Setup)
	}
	for _, name := range []string{ReadReverse, ReadCrc, ReadXxh64, ReadRandom, ReadKey} {
		if b := run(name, 3777); !b.Verify.OK() {
			t.Errorf("%s 3777 of 3000 entries: %+v", name, b.Verify)
		}
	}
	run(Overwrite, 4000) // Prepare loads Num entries first
	run(ReadRandom, 10)
	// A partial overwrite leaves contents the session does not track.
	if b, err := s.Run(Overwrite, 10); err != nil || b.Ops != 10 {
		t.Fatalf("overwrite 10: %v", err)
	}
	if _, err := s.Run(ReadSeq, 0); !errors.Is(err, ErrUnverifiable) {
		t.Errorf("readseq after a partial overwrite: %v, want ErrUnverifiable", err)
	}
	run(ReadSeq, 100) // Prepare reloads
	run(DeleteRandom, 3000)
	if b, err := s.Run(ReadRandom, 0); err != nil || b.Verify.Expected != 0 || b.Ops != 3000 {
		t.Errorf("readrandom after deleting everything: %+v, %v", b.Verify, err)
	}
	if _, err := s.Run(ReadSeq, 10); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("readseq of 10 entries of an empty store: %v", err)
	}
}

func TestNewSessionRefusesUsedDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "precious"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(OpenerFor(testEngine, engine.Options{}), dir, small(FillSeq)); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("Run in a used directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "precious")); err != nil {
		t.Errorf("the file is gone: %v", err)
	}
}
