package enginetest

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
)

// checkpointData writes entries of every size the suite uses, and returns
// them in order.
func checkpointData(t *testing.T, db engine.Engine) []kv {
	t.Helper()
	want := putAll(t, db, "\x00", "a", "b", "c")
	b := db.NewBatch()
	defer b.Close()
	for i := range 300 {
		k, v := fmt.Sprintf("d/%03d", i), string(randomBytes(uint64(i), 4<<10))
		b.Put([]byte(k), []byte(v))
		want = append(want, kv{k, v})
	}
	commit(t, b)
	put(t, db, "e", "")
	return append(want, kv{"e", ""})
}

// testCheckpoint takes a checkpoint with an iterator open, keeps writing,
// and opens the checkpoint beside the engine: it must hold the state at
// the checkpoint and be independent of the engine.
func testCheckpoint(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	if _, ok := db.(engine.Checkpointer); !ok {
		t.Fatalf("%T is not an engine.Checkpointer: open the engine with engine.Open", db)
	}
	want := checkpointData(t, db)
	it := newIter(t, db, nil, nil)
	cp := filepath.Join(t.TempDir(), "checkpoint")
	if err := engine.Checkpoint(db, cp); err != nil {
		t.Fatalf("Checkpoint: %v", err)
	}
	closeIter(t, it)
	put(t, db, "a", "after")
	deleteRange(t, db, "d/", "d0")
	if err := engine.Checkpoint(db, cp); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Checkpoint to an existing path = %v, want an error wrapping fs.ErrExist", err)
	}

	copied := mustOpen(t, open, cp)
	wantScan(t, copied, nil, nil, want)
	put(t, copied, "b", "in the copy")
	wantGet(t, db, "b", "vb")
	wantGet(t, db, "a", "after")
	copied = reopen(t, open, cp, copied)
	wantGet(t, copied, "b", "in the copy")
	wantGet(t, copied, "a", "va")
}

// testCopy checks engine.Copy, the fallback of Checkpoint, from the engine
// and from a snapshot into another engine of the same kind.
func testCopy(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	want := checkpointData(t, db)
	s, err := engine.NewSnapshot(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put(t, db, "a", "after the snapshot")

	dst := mustOpen(t, open, t.TempDir())
	put(t, dst, "z", "kept")
	if err := engine.Copy(dst, s); err != nil {
		t.Fatalf("Copy from a snapshot: %v", err)
	}
	wantScan(t, dst, nil, nil, append(want, kv{"z", "kept"}))

	dst2 := mustOpen(t, open, t.TempDir())
	if err := engine.Copy(dst2, db); err != nil {
		t.Fatalf("Copy from the engine: %v", err)
	}
	want[1].v = "after the snapshot"
	wantScan(t, dst2, nil, nil, want)
}
