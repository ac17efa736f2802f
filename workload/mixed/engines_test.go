package mixed

import (
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
)

// TestRunEveryEngine runs a short mixed load on every registered engine:
// with -race, the detector checks that each honours the engine
// contract's concurrency rules (concurrent commits, iterators and
// snapshots), and the checks that every acknowledged write is read back.
func TestRunEveryEngine(t *testing.T) {
	for _, name := range engine.AllNames() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db, err := engine.Open(name, dir, nil)
			if err != nil {
				t.Skipf("cannot open %s here: %v", name, err)
			}
			cfg := smallConfig()
			cfg.Duration = 300 * time.Millisecond
			res, err := Run(db, dir, cfg)
			checkClean(t, res, err)
			if err := db.Close(); err != nil {
				t.Errorf("close after the run: %v", err)
			}
		})
	}
}
