package bbolt_test

import (
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/bbolt"
	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "bbolt", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "bbolt") }

// TestMetricsFreeBytes: deleting what was written leaves free pages in
// the file, and the engine says how many bytes they hold.
func TestMetricsFreeBytes(t *testing.T) {
	db := enginetest.Open(t, "bbolt", t.TempDir(), nil)
	value := make([]byte, 1<<10)
	for i := range 2000 {
		if err := db.Put(fmt.Appendf(nil, "k%05d", i), value); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.DeleteRange(nil, nil); err != nil {
		t.Fatal(err)
	}
	m, err := engine.ReadMetrics(db)
	if err != nil {
		t.Fatal(err)
	}
	// 2 MB of values went; at least half their pages must be free.
	if free := m[engine.MetricFreeBytes]; free < 1<<20 {
		t.Errorf("%s = %d after deleting 2000 values of 1 KiB; want at least 1 MiB", engine.MetricFreeBytes, free)
	}
}
