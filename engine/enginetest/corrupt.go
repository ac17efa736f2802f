package enginetest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
)

// testCorrupt overwrites every file of a closed engine with garbage (its
// first MiB). Opening it, or failing that reading it, must fail with an
// error wrapping engine.ErrCorrupt, and never crash or return what is not
// there.
func testCorrupt(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	b := db.NewBatch()
	defer b.Close()
	for i := range 1000 {
		b.Put(fmt.Appendf(nil, "c/%04d", i), randomBytes(uint64(i), 1<<10))
	}
	commit(t, b)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || path == filepath.Join(dir, markerFile) {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		// The first MiB is enough to spoil headers, manifests and logs;
		// a large preallocated file (LMDB's map) is not rewritten whole.
		_, err = f.WriteAt(randomBytes(uint64(files), int(min(info.Size(), 1<<20))), 0)
		return errors.Join(err, f.Close())
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Skip("the engine keeps no files in its directory")
	}
	var db2 engine.Engine
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("open of corrupted files panicked: %v", r)
			}
		}()
		db2, err = open(t, dir)
	}()
	if err != nil {
		if !errors.Is(err, engine.ErrCorrupt) {
			t.Fatalf("open of corrupted files = %v, want an error wrapping engine.ErrCorrupt", err)
		}
		return
	}
	defer db2.Close()
	got, err := scanErr(db2)
	if !errors.Is(err, engine.ErrCorrupt) {
		t.Fatalf("the engine opened its %d corrupted files, and a scan finds %d entries with error %v; want an error wrapping engine.ErrCorrupt from open or read", files, len(got), err)
	}
}

// scanErr reads every entry, returning the first error.
func scanErr(r engine.Reader) ([]kv, error) {
	it, err := r.NewIterator(engine.IterOptions{})
	if err != nil {
		return nil, err
	}
	var got []kv
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, kv{string(it.Key()), string(it.Value())})
	}
	err = it.Err()
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	return got, err
}
