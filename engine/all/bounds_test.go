package all_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// TestOptionBounds feeds every numeric option of every engine absurd
// values and requires Resolve to refuse each with ErrInvalidOptions, so
// that config checking catches it before an engine allocates, panics or
// fails at run time.
func TestOptionBounds(t *testing.T) {
	shared, err := (&engine.Options{}).WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range engine.Names() {
		d, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if d.NewOptions == nil {
			continue
		}
		typ := reflect.TypeOf(d.NewOptions()).Elem()
		for i := range typ.NumField() {
			f := typ.Field(i)
			var absurd []any
			switch f.Type.Kind() {
			case reflect.Int, reflect.Int64:
				absurd = []any{int64(-1), int64(math.MaxInt64), int64(1) << 50}
				if f.Type == reflect.TypeFor[time.Duration]() {
					// 1<<50 ns is 13 days, a fair tombstone grace
					// (Cassandra's gc_grace): a century instead.
					absurd[2] = int64(100 * 365 * 24 * time.Hour)
				}
			case reflect.Float64:
				absurd = []any{-1.0, math.MaxFloat64, math.Inf(1), math.NaN()}
			default:
				continue
			}
			key := f.Tag.Get("toml")
			for _, v := range absurd {
				t.Run(fmt.Sprintf("%s/%s=%v", name, key, v), func(t *testing.T) {
					p := reflect.ValueOf(d.NewOptions())
					fv := p.Elem().Field(i)
					switch x := v.(type) {
					case int64:
						fv.SetInt(x)
					case float64:
						fv.SetFloat(x)
					}
					r, ok := p.Elem().Interface().(engine.Resolver)
					if !ok {
						t.Fatalf("%s's options %s are no engine.Resolver", name, typ)
					}
					if _, err := r.Resolve(shared); !errors.Is(err, engine.ErrInvalidOptions) {
						t.Errorf("Resolve with %s = %v: %v, want engine.ErrInvalidOptions", key, v, err)
					}
				})
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no numeric engine option found")
	}
}

// TestSharedOptionBounds opens every engine, RocksDB first, with a write
// buffer of 1 PiB, which RocksDB would try to allocate or abort on: Open
// must refuse it for a library caller as for the command line, with
// ErrInvalidOptions and before the directory is made.
func TestSharedOptionBounds(t *testing.T) {
	names := engine.Names()
	if !slices.Contains(names, "rocksdb") {
		t.Fatalf("rocksdb is not registered: %v", names)
	}
	for _, name := range append([]string{"rocksdb"}, slices.DeleteFunc(names, func(n string) bool { return n == "rocksdb" })...) {
		dir := filepath.Join(t.TempDir(), "db")
		db, err := engine.Open(name, dir, &engine.Options{WriteBufferSize: 1 << 50})
		if err == nil {
			db.Close()
		}
		if !errors.Is(err, engine.ErrInvalidOptions) {
			t.Errorf("open %s with write_buffer_size 1<<50 = %v, want an error wrapping engine.ErrInvalidOptions", name, err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("open %s with write_buffer_size 1<<50 made its directory (%v)", name, err)
		}
	}
}
