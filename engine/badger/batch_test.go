package badger_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/badger"
	"github.com/tsbench/storage/engine/enginetest"
)

// TestBatchTooBig checks that a batch larger than one Badger transaction
// fails whole, with engine.ErrTooLarge, instead of being split.
func TestBatchTooBig(t *testing.T) {
	// A 1 MiB memtable lets a transaction hold about 150 KiB.
	db := enginetest.Open(t, "badger", t.TempDir(), &engine.Options{WriteBufferSize: 1 << 20})
	b := db.NewBatch()
	defer b.Close()
	value := make([]byte, 1<<10)
	for i := range 400 {
		b.Put(fmt.Appendf(nil, "k%03d", i), value)
	}
	if err := b.Commit(); !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("Commit of 400 KiB with a 1 MiB write buffer = %v, want engine.ErrTooLarge", err)
	}
	if _, err := db.Get([]byte("k000")); !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("Get(k000) after a failed Commit = %v, want ErrNotFound: nothing may be applied", err)
	}
}
