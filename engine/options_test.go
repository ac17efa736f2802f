package engine_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

func TestWithDefaults(t *testing.T) {
	defaults := engine.Options{
		Sync:            engine.SyncNone,
		CacheSize:       engine.DefaultCacheSize,
		WriteBufferSize: engine.DefaultWriteBufferSize,
		MaxOpenFiles:    engine.DefaultMaxOpenFiles,
		BloomBitsPerKey: engine.DefaultBloomBitsPerKey,
	}
	var nilOpts *engine.Options
	if got, err := nilOpts.WithDefaults(); err != nil || got != defaults {
		t.Errorf("nil.WithDefaults() = %+v, %v; want %+v", got, err, defaults)
	}
	if got, err := (&engine.Options{}).WithDefaults(); err != nil || got != defaults {
		t.Errorf("zero.WithDefaults() = %+v, %v; want %+v", got, err, defaults)
	}

	set := engine.Options{Sync: engine.SyncBatch, CacheSize: engine.SizeMin, WriteBufferSize: 2 * engine.SizeMin, DisableCompression: true, MaxOpenFiles: 3, BloomBitsPerKey: -1}
	orig := set
	if got, err := set.WithDefaults(); err != nil || got != orig {
		t.Errorf("WithDefaults changed set fields: %+v, %v; want %+v", got, err, orig)
	}
	zero := engine.Options{}
	zero.WithDefaults()
	if zero != (engine.Options{}) {
		t.Errorf("WithDefaults modified its receiver: %+v", zero)
	}

	for _, bad := range []engine.Options{
		{Sync: "always"},
		{CacheSize: -1},
		{WriteBufferSize: -1},
		{MaxOpenFiles: -1},
	} {
		if _, err := bad.WithDefaults(); !errors.Is(err, engine.ErrInvalidOptions) {
			t.Errorf("%+v.WithDefaults() = %v, want ErrInvalidOptions", bad, err)
		}
	}
}

// TestOpenBounds checks that Open keeps every caller, not only the
// command line, within the bounds of the shared options: a value past one
// is refused before the backend or the directory is touched, with one
// line naming the key, the value, the bound and the fix; the bound itself
// is taken.
func TestOpenBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		opts engine.Options
		want string // in the message; "" for an accepted value
	}{
		{"write buffer 1<<50", engine.Options{WriteBufferSize: 1 << 50}, "write_buffer_size 1024TiB is above the maximum of 16GiB; lower it"},
		{"write buffer 2^63-1", engine.Options{WriteBufferSize: 1<<63 - 1}, "write_buffer_size 9223372036854775807 (8388608.00TiB) is above the maximum of 16GiB"},
		{"write buffer just past", engine.Options{WriteBufferSize: engine.WriteBufferSizeLimit + 1}, "write_buffer_size 17179869185 (16.00GiB) is above"},
		{"write buffer at the bound", engine.Options{WriteBufferSize: engine.WriteBufferSizeLimit}, ""},
		{"cache without its unit", engine.Options{CacheSize: 64}, "cache_size 64 is 64 bytes: sizes are in bytes unless they name a unit; write 64MiB (at least 64KiB)"},
		{"write buffer without its unit", engine.Options{WriteBufferSize: 8}, "write_buffer_size 8 is 8 bytes"},
		{"cache at the minimum", engine.Options{CacheSize: engine.SizeMin}, ""},
		{"max open files past", engine.Options{MaxOpenFiles: engine.MaxOpenFilesLimit + 1}, "max_open_files 16777217 is above the maximum of 16777216; lower it"},
		{"max open files at the bound", engine.Options{MaxOpenFiles: engine.MaxOpenFilesLimit}, ""},
		{"bloom bits past", engine.Options{BloomBitsPerKey: engine.BloomBitsPerKeyLimit + 1}, "bloom_bits_per_key 101 is above the maximum of 100; lower it"},
		{"bloom bits at the bound", engine.Options{BloomBitsPerKey: engine.BloomBitsPerKeyLimit}, ""},
		{"bloom filter off", engine.Options{BloomBitsPerKey: -1}, ""},
		{"cache larger than memory", engine.Options{CacheSize: 1 << 62}, "cache_size 4194304TiB is more than this machine's memory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.opts.CacheSize > 0 && runtime.GOOS != "linux" {
				t.Skip("the machine's memory is known on Linux only")
			}
			dir := filepath.Join(t.TempDir(), "db")
			db, err := engine.Open("testmem", dir, &c.opts)
			if c.want == "" {
				if err != nil {
					t.Fatalf("Open with %+v = %v, want it to open", c.opts, err)
				}
				db.Close()
				return
			}
			if err == nil {
				db.Close()
				t.Fatalf("Open with %+v succeeded, want engine.ErrInvalidOptions", c.opts)
			}
			msg := err.Error()
			if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("Open with %+v = %q, want one line wrapping engine.ErrInvalidOptions that says %q", c.opts, msg, c.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused Open made its directory (%v)", err)
			}
		})
	}
}

func TestOptionsFor(t *testing.T) {
	got, err := engine.OptionsFor[testmemOptions](engine.Options{}, "testmem")
	if err != nil || got == nil || *got != (testmemOptions{}) {
		t.Errorf("nil Engine: %+v, %v; want a new zero value", got, err)
	}
	var typedNil *testmemOptions
	got, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: typedNil}, "testmem")
	if err != nil || got == nil {
		t.Errorf("typed nil Engine: %v, %v; want a new zero value", got, err)
	}
	mine := &testmemOptions{Level: 3}
	got, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: mine}, "testmem")
	if err != nil || got != mine {
		t.Errorf("own type: %v, %v; want the same pointer", got, err)
	}
	type otherOptions struct{ Level int }
	_, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: &otherOptions{}}, "testmem")
	if !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("another engine's options: %v, want ErrInvalidOptions", err)
	}
	_, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: testmemOptions{}}, "testmem")
	if !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("a value instead of a pointer: %v, want ErrInvalidOptions", err)
	}
}
