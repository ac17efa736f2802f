package all_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
)

// TestCrossOpen writes a store with each engine, removes its ENGINE
// marker, and opens it with every engine. Another engine must refuse it
// with ErrWrongEngine and leave every file as it was; its own engine
// must either adopt it (Driver.Recognize) and read back what it wrote,
// or refuse it the same way.
func TestCrossOpen(t *testing.T) {
	names := engine.AllNames()
	for _, owner := range names {
		t.Run(owner, func(t *testing.T) {
			dir := t.TempDir()
			db := enginetest.Open(t, owner, dir, nil)
			for i := range 100 {
				if err := db.Put(fmt.Appendf(nil, "k%03d", i), []byte("v")); err != nil {
					t.Fatal(err)
				}
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(dir, "ENGINE")); err != nil {
				t.Fatal(err)
			}
			before := files(t, dir)
			// The owner last: adopting the store writes its marker.
			others := append(slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == owner }), owner)
			for _, other := range others {
				db, err := engine.Open(other, dir, nil)
				if other == owner && err == nil {
					if v, err := db.Get([]byte("k042")); err != nil || string(v) != "v" {
						t.Errorf("%s adopted its store but reads k042 = %q, %v", owner, v, err)
					}
					if err := db.Close(); err != nil {
						t.Fatal(err)
					}
					t.Logf("%s recognised and adopted its store", owner)
					return
				}
				if err == nil {
					db.Close()
					t.Fatalf("%s opened a %s store without its marker", other, owner)
				}
				if d, _ := engine.Lookup(owner); other == owner && d.Recognize != nil {
					t.Errorf("%s has a Recognize but refused its own store: %v", owner, err)
				}
				if !errors.Is(err, engine.ErrWrongEngine) {
					t.Errorf("%s opening a %s store: %v, want ErrWrongEngine", other, owner, err)
				}
				if after := files(t, dir); !equal(before, after) {
					t.Fatalf("%s opening a %s store changed its files:\nbefore %v\nafter  %v", other, owner, before, after)
				}
			}
		})
	}
}

// files lists every file under dir with its size.
func files(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.Size()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equal(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
