package leveldb

import (
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestConfig checks that configs/leveldb.toml loads and that the defaults
// it spells out are the real ones, so the file cannot drift from Options.
func TestConfig(t *testing.T) {
	o, err := engine.LoadConfig("leveldb", "../../configs/leveldb.toml")
	if err != nil {
		t.Fatal(err)
	}
	own, ok := o.Engine.(*Options)
	if !ok {
		t.Fatalf("Engine = %T, want *leveldb.Options", o.Engine)
	}
	o.Engine = nil
	if shared, _ := (&engine.Options{}).WithDefaults(); o != shared {
		t.Errorf("shared options = %+v, want the defaults %+v", o, shared)
	}
	if defaults, _ := (Options{}).withDefaults(); *own != defaults {
		t.Errorf("[leveldb] = %+v, want the defaults %+v", *own, defaults)
	}
}
