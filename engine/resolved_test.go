package engine_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

func TestResolved(t *testing.T) {
	r, err := engine.Resolved("testmem", nil)
	if err != nil {
		t.Fatal(err)
	}
	shared, _ := (*engine.Options)(nil).WithDefaults()
	if own, ok := r.Engine.(*testmemOptions); !ok || *own != (testmemOptions{Level: 3}) {
		t.Errorf("Resolved(nil).Engine = %#v, want &testmemOptions{Level: 3}, its defaults", r.Engine)
	}
	if r.Engine = nil; r != shared {
		t.Errorf("Resolved(nil) = %+v, want the shared defaults %+v", r, shared)
	}

	var typedNil *testmemOptions
	mine := &testmemOptions{Level: 2}
	for _, c := range []struct {
		name string
		own  any
		want testmemOptions // Level -1: ErrInvalidOptions
	}{
		{"a typed nil", typedNil, testmemOptions{Level: 3}},
		{"level 2", mine, testmemOptions{Level: 2}},
		{"level -1", &testmemOptions{Level: -1}, testmemOptions{Level: -1}},
		{"another engine's options", new(int), testmemOptions{Level: -1}},
		{"a value instead of a pointer", testmemOptions{}, testmemOptions{Level: -1}},
	} {
		r, err := engine.Resolved("testmem", &engine.Options{Engine: c.own})
		if c.want.Level < 0 {
			if !errors.Is(err, engine.ErrInvalidOptions) {
				t.Errorf("Resolved with %s = %v, want ErrInvalidOptions", c.name, err)
			}
			continue
		}
		if own, ok := r.Engine.(*testmemOptions); err != nil || !ok || *own != c.want {
			t.Errorf("Resolved with %s = %#v, %v; want %+v", c.name, r.Engine, err, c.want)
		}
	}
	if *mine != (testmemOptions{Level: 2}) {
		t.Errorf("Resolved changed the caller's options to %+v", *mine)
	}
	if _, err := engine.Resolved("nosuch", nil); !errors.Is(err, engine.ErrUnknownEngine) {
		t.Errorf("Resolved(nosuch) = %v, want ErrUnknownEngine", err)
	}
}

// TestResolvedIdempotent: options resolved once, as a parent process
// hands them to a child, resolve to themselves, and Open hands them to
// the backend as they are.
func TestResolvedIdempotent(t *testing.T) {
	r, err := engine.Resolved("testmem", &engine.Options{Sync: engine.SyncBatch, CacheSize: 8 << 20, Engine: &testmemOptions{Mode: "m"}})
	if err != nil {
		t.Fatal(err)
	}
	again, err := engine.Resolved("testmem", &r)
	if err != nil || !reflect.DeepEqual(again, r) {
		t.Errorf("Resolved(Resolved) = %+v, %v; want %+v", again, err, r)
	}
	db, err := engine.Open("testmem", t.TempDir(), &r)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := testmem.lastOptions(); !reflect.DeepEqual(got, r) {
		t.Errorf("Open with resolved options handed the driver %+v, want them as they were, %+v", got, r)
	}
}

func TestOpenBackend(t *testing.T) {
	db, err := engine.OpenBackend[*memory.DB]("testmem", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if own, ok := testmem.lastOptions().Engine.(*testmemOptions); !ok || own.Level != 3 {
		t.Errorf("OpenBackend handed the driver %#v, want its options resolved, level 3", testmem.lastOptions().Engine)
	}
	if _, err := engine.OpenBackend[*memory.DB]("testmem", t.TempDir(), &engine.Options{Engine: &testmemOptions{Level: -1}}); !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("OpenBackend with level -1 = %v, want ErrInvalidOptions", err)
	}
	type other struct{ engine.Backend }
	if _, err := engine.OpenBackend[other]("testmem", t.TempDir(), nil); err == nil {
		t.Errorf("OpenBackend as another type succeeded")
	}
}

// TestResolvedOnce follows an engine's options through a run: Resolve
// (the parent's flags over a config) resolves them once, the JSON hop
// to the child (Spec) and the spelling results record (Spec.Effective)
// not again, and Open once more, checking what it is handed.
func TestResolvedOnce(t *testing.T) {
	for _, config := range []string{"", "[testmem]\nmode = \"fast\"\n"} {
		testmemResolves.Store(0)
		o, err := engine.Resolve("testmem", config, "test.toml", []engine.Override{{Engine: "testmem", Key: "level", Value: "7"}, {Key: "cache_size", Value: "8388608"}})
		if err != nil {
			t.Fatal(err)
		}
		if n := testmemResolves.Load(); n != 1 {
			t.Errorf("config %q: Resolve resolved %d times, want 1", config, n)
		}
		b, err := json.Marshal(engine.Spec{Name: "testmem", Options: o})
		if err != nil {
			t.Fatal(err)
		}
		var child engine.Spec
		if err := json.Unmarshal(b, &child); err != nil {
			t.Fatal(err)
		}
		if _, err := child.Effective(); err != nil {
			t.Fatal(err)
		}
		if n := testmemResolves.Load(); n != 1 {
			t.Errorf("config %q: the job's hop and Effective resolved again: %d resolutions, want 1", config, n)
		}
		db, err := engine.Open("testmem", t.TempDir(), &child.Options)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		if n := testmemResolves.Load(); n != 2 {
			t.Errorf("config %q: %d resolutions after Open, want 2 (Resolve's, and Open's check)", config, n)
		}
		if got := testmem.lastOptions(); got.CacheSize != 8<<20 || got.Engine.(*testmemOptions).Level != 7 {
			t.Errorf("config %q: Open got %+v %+v", config, got, got.Engine)
		}
	}
}

// TestResolveTyped: a typed override (a flag's value) is set as it is,
// over the file and earlier overrides, and a later text override of the
// same key (-set) wins over it.
func TestResolveTyped(t *testing.T) {
	typed := engine.Override{Key: "cache_size", Typed: int64(3 << 20)}
	text := engine.Override{Key: "cache_size", Value: "5MiB"}
	for _, c := range []struct {
		name      string
		overrides []engine.Override
		want      int64
	}{
		{"over the file", []engine.Override{typed}, 3 << 20},
		{"over an earlier text override", []engine.Override{text, typed}, 3 << 20},
		{"under a later text override", []engine.Override{typed, text}, 5 << 20},
	} {
		o, err := engine.Resolve("testmem", "cache_size = \"1MiB\"\n", "test.toml", c.overrides)
		if err != nil || o.CacheSize != c.want {
			t.Errorf("%s: cache %d, %v; want %d", c.name, o.CacheSize, err, c.want)
		}
	}
	if o, err := engine.Resolve("testmem", "", "", []engine.Override{{Key: "sync", Typed: engine.SyncBatch}, {Key: "disable_compression", Typed: true}}); err != nil || o.Sync != engine.SyncBatch || !o.DisableCompression {
		t.Errorf("typed sync and compression: %+v, %v", o, err)
	}
	for _, bad := range []engine.Override{{Key: "cache_sise", Typed: int64(1)}, {Key: "cache_size", Typed: "big"}, {Engine: "testmem", Key: "level", Typed: 3}} {
		if _, err := engine.Resolve("testmem", "", "", []engine.Override{bad}); !errors.Is(err, engine.ErrConfig) {
			t.Errorf("%v: %v, want ErrConfig", bad, err)
		}
	}
}
