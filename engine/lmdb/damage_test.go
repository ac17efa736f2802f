package lmdb

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
)

// write stores n entries with values of size bytes in a new store in dir,
// opened with opts, and closes it.
func write(t *testing.T, dir string, opts *engine.Options, n, size int) {
	t.Helper()
	db := enginetest.Open(t, "lmdb", dir, opts)
	b := db.NewBatch()
	for i := range n {
		b.Put(binary.BigEndian.AppendUint32([]byte("k"), uint32(i)), make([]byte, size))
	}
	if err := errors.Join(b.Commit(), b.Close(), db.Close()); err != nil {
		t.Fatal(err)
	}
}

// TestCheckDamage checks that Check reports leaf pages whose header no
// longer says so as engine.ErrCorrupt (engine/all checks that it passes
// an intact store).
func TestCheckDamage(t *testing.T) {
	dir := t.TempDir()
	// A small map, since the data file is as long as the map.
	small := &engine.Options{Engine: &Options{MapSize: 1 << 20}}
	write(t, dir, small, 2000, 10)
	const pageSize, leaf = 4096, 0x02 // os page size; P_LEAF
	path := filepath.Join(dir, dataFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := 0
	for off := 2 * pageSize; off+pageSize <= len(data); off += pageSize {
		if flags := binary.LittleEndian.Uint16(data[off+10:]); flags == leaf {
			binary.LittleEndian.PutUint16(data[off+10:], 0)
			damaged++
		}
	}
	if damaged == 0 {
		t.Fatal("found no leaf page to damage")
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db := enginetest.Open(t, "lmdb", dir, small)
	if err := engine.Check(db); !errors.Is(err, engine.ErrCorrupt) {
		t.Fatalf("Check with %d damaged leaf pages = %v, want engine.ErrCorrupt", damaged, err)
	}
}

// TestTruncatedDataFile checks that a data file shorter than its meta
// page says fails Open with ErrCorrupt, rather than faulting when LMDB
// reads the missing pages.
func TestTruncatedDataFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, nil, 20000, 100)
	// Intact, it opens.
	if err := enginetest.Open(t, "lmdb", dir, nil).Close(); err != nil {
		t.Fatal(err)
	}
	// 2 MiB of data live in far more than the first 64 KiB.
	if err := os.Truncate(filepath.Join(dir, dataFile), 64<<10); err != nil {
		t.Fatal(err)
	}
	if db, err := engine.Open("lmdb", dir, nil); !errors.Is(err, engine.ErrCorrupt) {
		if err == nil {
			db.Close()
		}
		t.Fatalf("open of a truncated data file = %v, want ErrCorrupt", err)
	}
}
