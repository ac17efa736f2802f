package engine_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

func TestParseConfig(t *testing.T) {
	const text = `
sync = "batch"
cache_size = 1048576
disable_compression = true

[testmem]
level = 4
mode = "fast"

# Other registered engines' tables are ignored, whatever they hold.
[testplain]
anything = 1
`
	o, err := engine.ParseConfig("testmem", text, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	if o.Sync != engine.SyncBatch || o.CacheSize != 1<<20 || !o.DisableCompression || o.MaxOpenFiles != 0 {
		t.Errorf("shared options = %+v", o)
	}
	eo, ok := o.Engine.(*testmemOptions)
	if !ok || *eo != (testmemOptions{Level: 4, Mode: "fast"}) {
		t.Errorf("Engine = %#v, want &testmemOptions{Level: 4, Mode: fast}", o.Engine)
	}

	o, err = engine.ParseConfig("testplain", text[:strings.Index(text, "[testmem]")], "test.toml")
	if err != nil || o.Engine != nil {
		t.Errorf("no table for the engine: %+v, %v; want nil Engine", o, err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	cases := []struct {
		name, engine, text string
		want               error
		mentions           string
	}{
		{"malformed", "testmem", "sync = \"none\n", engine.ErrConfig, "test.toml"},
		{"unknown shared key", "testmem", "cache_sise = 1\n", engine.ErrConfig, "cache_sise"},
		{"unknown shared key lists the valid ones", "testmem", "cache_sise = 1\n", engine.ErrConfig, "cache_size, write_buffer_size"},
		{"unknown key in the engine table", "testmem", "[testmem]\nlevle = 1\n", engine.ErrConfig, "levle"},
		{"unregistered table", "testmem", "[nosuch]\nx = 1\n", engine.ErrConfig, "nosuch"},
		{"wrong type", "testmem", "cache_size = \"big\"\n", engine.ErrConfig, "cache_size"},
		{"invalid sync", "testmem", "sync = \"always\"\n", engine.ErrInvalidOptions, "sync"},
		{"table for an engine without options", "testplain", "[testplain]\nx = 1\n", engine.ErrConfig, "testplain"},
		{"unknown engine", "nosuch", "", engine.ErrUnknownEngine, "testmem"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := engine.ParseConfig(c.engine, c.text, "test.toml")
			if !errors.Is(err, c.want) {
				t.Fatalf("ParseConfig = %v, want an error wrapping %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.mentions) {
				t.Fatalf("error %q does not mention %q", err, c.mentions)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testmem.toml")
	if err := os.WriteFile(path, []byte("max_open_files = 7\n[testmem]\nlevel = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := engine.LoadConfig("testmem", path)
	if err != nil {
		t.Fatal(err)
	}
	if eo, ok := o.Engine.(*testmemOptions); o.MaxOpenFiles != 7 || !ok || eo.Level != 2 {
		t.Fatalf("LoadConfig = %+v, want max_open_files 7 and level 2", o)
	}
	if _, err := engine.LoadConfig("testmem", path+".missing"); !errors.Is(err, engine.ErrConfig) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrConfig wrapping ErrNotExist", err)
	}

	// The loaded options open the engine, which receives its own table.
	db, err := engine.Open("testmem", t.TempDir(), &o)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := testmem.lastOptions()
	if eo, ok := got.Engine.(*testmemOptions); got.MaxOpenFiles != 7 || !ok || eo.Level != 2 {
		t.Errorf("driver got %+v, want max_open_files 7 and level 2", got)
	}
}
