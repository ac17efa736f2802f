package all_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
)

// TestCheckIntact checks that engine.Check finds nothing wrong with an
// intact store, reopened as the crash check reopens it, and that an
// engine without a check of its own says so with ErrNotSupported.
func TestCheckIntact(t *testing.T) {
	for _, name := range engine.AllNames() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db := enginetest.Open(t, name, dir, nil)
			b := db.NewBatch()
			for i := range 5000 {
				b.Put(fmt.Appendf(nil, "k%05d", i), fmt.Appendf(nil, "value %d", i))
			}
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
			b.Close()
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			db = enginetest.Open(t, name, dir, nil)
			switch err := engine.Check(db); {
			case errors.Is(err, engine.ErrNotSupported):
				t.Logf("%s has no integrity check", name)
			case err != nil:
				t.Errorf("Check of an intact store: %v", err)
			}
		})
	}
}
