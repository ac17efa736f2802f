package rocksdb

import (
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestConfig checks that configs/rocksdb.toml loads and that the defaults
// it spells out are the real ones, so the file cannot drift from Options.
// max_background_jobs depends on the host, so the file gives it as 0.
func TestConfig(t *testing.T) {
	o, err := engine.LoadConfig("rocksdb", "../../configs/rocksdb.toml")
	if err != nil {
		t.Fatal(err)
	}
	own, ok := o.Engine.(*Options)
	if !ok {
		t.Fatalf("Engine = %T, want *rocksdb.Options", o.Engine)
	}
	o.Engine = nil
	if shared, _ := (&engine.Options{}).WithDefaults(); o != shared {
		t.Errorf("shared options = %+v, want the defaults %+v", o, shared)
	}
	defaults, _ := (Options{}).withDefaults()
	defaults.MaxBackgroundJobs = 0
	if *own != defaults {
		t.Errorf("[rocksdb] = %+v, want the defaults %+v", *own, defaults)
	}
}
