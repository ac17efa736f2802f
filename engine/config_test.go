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

	o, err = engine.ParseConfig("testplain", text, "test.toml")
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
		{"bad size", "testmem", "cache_size = \"64 MB\"\n", engine.ErrConfig, "64MiB"},
		{"fractional size", "testmem", "cache_size = \"1.5\"\n", engine.ErrConfig, "not a whole number"},
		// One file configures every engine, so a mistake in the table of
		// an engine that is not run is still found.
		{"unknown key in another engine's table", "testplain", "[testmem]\nlevle = 1\n", engine.ErrConfig, "levle"},
		{"bad value in another engine's table", "testplain", "[testmem]\nlevel = \"high\"\n", engine.ErrConfig, "level"},
		{"value another engine refuses", "testplain", "[testmem]\nlevel = -1\n", engine.ErrInvalidOptions, "[testmem]"},
		{"table for another engine without options", "testmem", "[testplain]\nx = 1\n", engine.ErrConfig, "testplain"},
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

func TestParseConfigSizes(t *testing.T) {
	const text = `
cache_size = "64MiB"
write_buffer_size = "64M"
max_open_files = "1k"
bloom_bits_per_key = -1

[testmem]
level = "2KiB"
`
	o, err := engine.ParseConfig("testmem", text, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	if o.CacheSize != 64<<20 || o.WriteBufferSize != 64e6 || o.MaxOpenFiles != 1000 || o.BloomBitsPerKey != -1 {
		t.Errorf("shared options = %+v", o)
	}
	if eo := o.Engine.(*testmemOptions); eo.Level != 2048 {
		t.Errorf("level = %d, want 2048", eo.Level)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "67108864": 64 << 20, "64MiB": 64 << 20, "64M": 64e6, "1.5GiB": 3 << 29,
		"512 KiB": 512 << 10, "1e6": 1e6, "10k": 1e4, "2T": 2e12, "1TiB": 1 << 40} {
		if got, err := engine.ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1.5", "0.3KiB", "64mb", "64 MB", "MiB", "1e999", "9999999T"} {
		if got, err := engine.ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestEffective(t *testing.T) {
	o, err := engine.ParseConfig("testmem", "cache_size = \"1MiB\"\n[testmem]\nmode = \"fast\"\n", "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.Effective("testmem", o)
	if err != nil {
		t.Fatal(err)
	}
	own, _ := got["testmem"].(map[string]any)
	// Level is resolved to the driver's default; the shared keys have
	// theirs.
	if got["cache_size"] != int64(1<<20) || got["sync"] != "none" || got["max_open_files"] != int64(engine.DefaultMaxOpenFiles) ||
		own["level"] != int64(3) || own["mode"] != "fast" {
		t.Errorf("Effective = %v", got)
	}
	if got, err := engine.Effective("testplain", engine.Options{}); err != nil || got["testplain"] != nil || got["bloom_bits_per_key"] != int64(10) {
		t.Errorf("Effective of an engine without options = %v, %v", got, err)
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
