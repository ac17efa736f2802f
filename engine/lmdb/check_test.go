package lmdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestCheck checks that Check passes an intact store and reports leaf
// pages whose header no longer says so as engine.ErrCorrupt.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	// A small map, since the data file is as long as the map.
	small := engine.Options{Engine: &Options{MapSize: 1 << 20}}
	db, err := Open(dir, small)
	if err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	for i := range 2000 {
		b.Put(fmt.Appendf(nil, "k%05d", i), fmt.Appendf(nil, "value %d", i))
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("Check of an intact store = %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
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
	if db, err = Open(dir, small); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); !errors.Is(err, engine.ErrCorrupt) {
		t.Fatalf("Check with %d damaged leaf pages = %v, want engine.ErrCorrupt", damaged, err)
	}
}
