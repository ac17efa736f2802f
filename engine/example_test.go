package engine_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/pebble" // registers "pebble"
)

// pointKey is a time-series key: the series name, a slash, and the
// timestamp big-endian, so that a series' points sort by time.
func pointKey(series string, ts uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(series+"/"), ts)
}

// openExample opens a pebble engine in a new temporary directory; the
// returned function closes it and removes the directory.
func openExample() (engine.Engine, func()) {
	dir, err := os.MkdirTemp("", "engine-example")
	if err != nil {
		log.Fatal(err)
	}
	db, err := engine.Open("pebble", dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	return db, func() {
		db.Close()
		os.RemoveAll(dir)
	}
}

// writePoints stores points 1 to 5 of two series in one batch.
func writePoints(db engine.Engine) {
	b := db.NewBatch()
	defer b.Close()
	for _, s := range []string{"cpu.host1", "cpu.host2"} {
		for ts := uint64(1); ts <= 5; ts++ {
			b.Put(pointKey(s, ts), fmt.Appendf(nil, "%d", ts*10))
		}
	}
	if err := b.Commit(); err != nil {
		log.Fatal(err)
	}
}

// Open an engine by the name its package registered, as database/sql
// opens a driver. The blank import of the backend's package registers it.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "engine-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	db, err := engine.Open("pebble", dir, &engine.Options{Sync: engine.SyncBatch})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close() // a second Close, after the one below, returns nil

	if err := db.Put([]byte("greeting"), []byte("hello")); err != nil {
		log.Fatal(err)
	}
	v, err := db.Get([]byte("greeting"))
	fmt.Printf("%s %v\n", v, err)
	_, err = db.Get([]byte("missing"))
	fmt.Println(errors.Is(err, engine.ErrNotFound))
	if err := db.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// hello <nil>
	// true
}

// Pass the engine's own options typed: OpenWith checks that they are the
// options of the engine named before it opens anything.
func ExampleOpenWith() {
	dir, err := os.MkdirTemp("", "engine-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	db, err := engine.OpenWith("pebble", dir, nil, &pebble.Options{BlockSize: 16 << 10})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	fmt.Println(db.Put([]byte("k"), []byte("v")))

	type wrong struct{ BlockSize int }
	_, err = engine.OpenWith("pebble", filepath.Join(dir, "other"), nil, &wrong{})
	fmt.Println(errors.Is(err, engine.ErrInvalidOptions))
	// Output:
	// <nil>
	// true
}

// Write many points at once: a batch applies all of its writes or none,
// and is empty again after Commit, ready for the next points. Size counts
// the bytes of keys and values, the same on every engine, so a writer
// can cap its batches by the engine's Limits.
func Example_batch() {
	db, done := openExample()
	defer done()

	b := db.NewBatch()
	defer b.Close()
	for ts := uint64(1); ts <= 3; ts++ {
		b.Put(pointKey("mem.host1", ts), []byte("42"))
	}
	b.Delete(pointKey("mem.host1", 9))
	fmt.Println("operations:", b.Len(), "bytes:", b.Size())
	if lim := engine.LimitsOf(db); lim.MaxBatchSize > 0 && b.Size() > lim.MaxBatchSize {
		log.Fatal("commit in parts")
	}
	if err := b.Commit(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("after Commit:", b.Len())
	// Output:
	// operations: 4 bytes: 78
	// after Commit: 0
}

// Read one series over a time range: the bounds are [lower, upper), so
// the upper bound is the first key not wanted. Key and Value are valid
// until the iterator moves; copy them to keep them.
func Example_boundedIteration() {
	db, done := openExample()
	defer done()
	writePoints(db)

	it, err := db.NewIterator(engine.IterOptions{
		LowerBound: pointKey("cpu.host1", 2),
		UpperBound: pointKey("cpu.host1", 4),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer it.Close() // a second Close returns nil
	for ok := it.First(); ok; ok = it.Next() {
		fmt.Printf("t=%d v=%s\n", binary.BigEndian.Uint64(it.Key()[len("cpu.host1/"):]), it.Value())
	}
	if err := it.Close(); err != nil {
		log.Fatal(err)
	}

	// Bounds written backwards are a mistake the engine reports, rather
	// than an empty range.
	_, err = db.NewIterator(engine.IterOptions{LowerBound: pointKey("cpu.host1", 4), UpperBound: pointKey("cpu.host1", 2)})
	fmt.Println(errors.Is(err, engine.ErrInvalidRange))
	// Output:
	// t=2 v=20
	// t=3 v=30
	// true
}

// Read several series as of one moment: a snapshot's Gets and iterators
// all see the engine as it was when it was taken.
func ExampleNewSnapshot() {
	db, done := openExample()
	defer done()
	writePoints(db)

	s, err := engine.NewSnapshot(db)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if err := db.Put(pointKey("cpu.host1", 1), []byte("overwritten")); err != nil {
		log.Fatal(err)
	}
	old, _ := s.Get(pointKey("cpu.host1", 1))
	now, _ := db.Get(pointKey("cpu.host1", 1))
	fmt.Printf("snapshot %s, engine %s\n", old, now)
	// Output:
	// snapshot 10, engine overwritten
}

// Enforce retention: delete each series' points older than a cutoff with
// one DeleteRange per series, from the series' first key to the cutoff's.
func Example_retention() {
	db, done := openExample()
	defer done()
	writePoints(db)

	const cutoff = 4 // keep points at t >= 4
	for _, s := range []string{"cpu.host1", "cpu.host2"} {
		if err := db.DeleteRange([]byte(s+"/"), pointKey(s, cutoff)); err != nil {
			log.Fatal(err)
		}
	}
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	fmt.Println("points left:", n)
	// Output:
	// points left: 4
}

// Back up a running engine: Checkpoint writes a consistent copy to a new
// directory, which Open opens like any other.
func ExampleCheckpoint() {
	db, done := openExample()
	defer done()
	writePoints(db)

	backup, err := os.MkdirTemp("", "engine-example-backup")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(backup)
	dir := filepath.Join(backup, "copy") // must not exist yet
	if err := engine.Checkpoint(db, dir); err != nil {
		log.Fatal(err)
	}
	if err := db.Put(pointKey("cpu.host1", 6), []byte("60")); err != nil {
		log.Fatal(err)
	}

	cp, err := engine.Open("pebble", dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cp.Close()
	_, err = cp.Get(pointKey("cpu.host1", 6))
	v, _ := cp.Get(pointKey("cpu.host1", 5))
	fmt.Printf("written after: %v; before: %s\n", errors.Is(err, engine.ErrNotFound), v)
	// Output:
	// written after: true; before: 50
}

// Ask an engine's limits before writing, rather than learn them from a
// failed write: CheckPut returns the error a Put would.
func ExampleLimitsOf() {
	db, done := openExample()
	defer done()

	lim := engine.LimitsOf(db)
	fmt.Println("max value:", lim.MaxValueSize, "max batch:", lim.MaxBatchSize)
	fmt.Println(lim.CheckPut([]byte("k"), []byte("v")))
	fmt.Println(engine.CommonLimits().CheckPut(nil, nil) != nil) // the empty key is not portable
	// Output:
	// max value: 3221225472 max batch: 3221225472
	// <nil>
	// true
}
