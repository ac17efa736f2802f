package all_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestResolveOverrides: an override goes the way of a config file's key,
// beside the file's own, into the options an engine runs with and the
// record of them; a bad one is refused in one line naming the choices.
func TestResolveOverrides(t *testing.T) {
	config := "cache_size = \"32MiB\"\n[rocksdb]\nblock_size = 8192\n"
	var sets []engine.Override
	for _, s := range []string{"rocksdb.max_background_jobs=8", "cache_size=16MiB", "etcd.endpoints=127.0.0.1:1,127.0.0.1:2"} {
		o, err := engine.ParseOverride(s)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, o)
	}
	opts, err := engine.Resolve("rocksdb", config, "test.toml", sets)
	if err != nil {
		t.Fatal(err)
	}
	eff, err := engine.Effective("rocksdb", opts)
	if err != nil {
		t.Fatal(err)
	}
	own := eff["rocksdb"].(map[string]any)
	if own["max_background_jobs"] != int64(8) || own["block_size"] != int64(8192) || eff["cache_size"] != int64(16<<20) {
		t.Errorf("effective options %v: want max_background_jobs 8, block_size 8192 (the file's), cache_size 16MiB (the override's)", eff)
	}
	etcd, err := engine.Resolve("etcd", config, "test.toml", sets)
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := engine.Effective("etcd", etcd); !strings.Contains(strings.Join(asStrings(e["etcd"].(map[string]any)["endpoints"]), ","), "127.0.0.1:1,127.0.0.1:2") {
		t.Errorf("etcd endpoints from a comma-separated override: %v", e["etcd"])
	}

	for _, c := range []struct{ set, want string }{
		{"nosuch.x=1", `no engine "nosuch"; choose from badger, badger3, bbolt`},
		{"rocksdb.nosuch=1", `no key "nosuch"; rocksdb's keys are max_background_jobs,`},
		{"nosuch=1", `no key "nosuch"; the shared keys are sync, cache_size`},
		{"rocksdb.max_background_jobs=-3", "max_background_jobs"},
	} {
		o, err := engine.ParseOverride(c.set)
		if err == nil {
			_, err = engine.Resolve("pebble", "", "", []engine.Override{o})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.set, err, c.want)
		}
		if err != nil && !errors.Is(err, engine.ErrConfig) && !errors.Is(err, engine.ErrInvalidOptions) {
			t.Errorf("%s: %v wraps neither ErrConfig nor ErrInvalidOptions", c.set, err)
		}
	}
	if _, err := engine.ParseOverride("rocksdb.max_background_jobs"); !errors.Is(err, engine.ErrConfig) {
		t.Errorf("an override without =: %v", err)
	}
}

func equalMaps(a, b map[string]any) bool {
	return strings.Join(flat(a), ";") == strings.Join(flat(b), ";")
}

func flat(m map[string]any) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if sub, ok := m[k].(map[string]any); ok {
			for _, s := range flat(sub) {
				out = append(out, k+"."+s)
			}
			continue
		}
		out = append(out, k+"="+strings.Join(asStrings(m[k]), ","))
	}
	return out
}

func asStrings(v any) []string {
	switch v := v.(type) {
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, asStrings(x)...)
		}
		return out
	case []string:
		return v
	default:
		return []string{fmt.Sprint(v)}
	}
}

// TestOptionsJSONRoundTrip: every engine's resolved options, the
// defaults and ones with every shared option changed, survive the JSON of
// a child's job exactly, typed as they were (engine.Spec).
func TestOptionsJSONRoundTrip(t *testing.T) {
	changed := engine.Options{Sync: engine.SyncBatch, CacheSize: 64<<20 + 1, WriteBufferSize: 96 << 20,
		DisableCompression: true, MaxOpenFiles: 777, BloomBitsPerKey: -1}
	for _, name := range engine.Names() {
		for _, given := range []*engine.Options{nil, &changed} {
			opts, err := engine.Resolved(name, given)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b, err := json.Marshal(engine.Spec{Name: name, Options: opts})
			if err != nil {
				t.Fatal(err)
			}
			var back engine.Spec
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("%s: %s: %v", name, b, err)
			}
			if back.Name != name || !reflect.DeepEqual(back.Options, opts) {
				t.Errorf("%s: after JSON %+v (%+v), want %+v (%+v)", name, back.Options, back.Options.Engine, opts, opts.Engine)
			}
		}
	}
	for _, bad := range []string{
		`{"name": "rocksdb", "options": {"cache_size": 1, "no_such_key": 2}}`,
		`{"name": "rocksdb", "options": {"rocksdb": {"no_such_key": 2}}}`,
		`{"name": "pebble", "options": {"rocksdb": {"max_background_jobs": 2}}}`,
		`{"name": "xodus", "options": {"xodus": {}}}`,
	} {
		var s engine.Spec
		if err := json.Unmarshal([]byte(bad), &s); !errors.Is(err, engine.ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", bad, err)
		}
	}
	var s engine.Spec
	if err := json.Unmarshal([]byte(`{"name": "nosuch", "options": {}}`), &s); !errors.Is(err, engine.ErrUnknownEngine) {
		t.Errorf("an unknown engine: %v, want ErrUnknownEngine", err)
	}
}

// TestResolvedIdempotent: every engine's options, resolved once as a
// parent process resolves them for a child, resolve to themselves, and
// are what a config file without settings resolves to.
func TestResolvedIdempotent(t *testing.T) {
	for _, name := range engine.Names() {
		r, err := engine.Resolved(name, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, err := engine.Resolved(name, &r)
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Errorf("%s: Resolved(Resolved) = %+v, %v; want %+v", name, again, err, r)
		}
		if fromConfig, err := engine.Resolve(name, "", "", nil); err != nil || !reflect.DeepEqual(fromConfig, r) {
			t.Errorf("%s: Resolve of no config = %+v, %v; want %+v", name, fromConfig, err, r)
		}
	}
}
