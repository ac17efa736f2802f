package mixed

import (
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// TestRunEngineMetrics: an engine that reports metrics has them over the
// mixed run, in the report too; one that reports none has none.
func TestRunEngineMetrics(t *testing.T) {
	dir := t.TempDir()
	db, err := engine.Open("pebble", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reported, err := engine.ReadMetrics(db)
	if err != nil || len(reported) == 0 {
		t.Fatalf("pebble's metrics at open: %v, %v", reported, err)
	}
	cfg := smallConfig()
	cfg.Duration /= 2
	res, err := Run(db, dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for name := range reported {
		if _, ok := res.EngineMetrics[name]; !ok {
			t.Errorf("pebble's %s missing from %v", name, res.EngineMetrics)
		}
	}
	if m := res.EngineMetrics; m[engine.MetricMemtableBytes] <= 0 {
		t.Errorf("metrics %v: want the memtable's bytes", m)
	}
	res.Engine = "pebble"
	if s := (Report{Results: []*Result{res}}).Page().Text(); !strings.Contains(s, "Engine metrics") {
		t.Errorf("report lacks the engine metrics:\n%s", s)
	}

	mem, err := Run(memory.New(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if mem.EngineMetrics != nil {
		t.Errorf("memory: metrics %v, want none", mem.EngineMetrics)
	}
	if s := (Report{Results: []*Result{mem}}).Page().Text(); strings.Contains(s, "Engine metrics") {
		t.Errorf("report of an engine without metrics shows the table:\n%s", s)
	}
}
