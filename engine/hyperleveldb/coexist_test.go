package hyperleveldb

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/leveldb"
)

// TestCoexistVersions checks that HyperLevelDB and LevelDB, which share C
// names upstream, each answer for themselves in one process.
func TestCoexistVersions(t *testing.T) {
	if got := leveldb.Version(); got != "1.23" {
		t.Errorf("leveldb.Version() = %q, want LevelDB's 1.23", got)
	}
	if got := Version(); got != "1.0.2 (LevelDB 1.14)" {
		t.Errorf("Version() = %q, want HyperLevelDB's release and the LevelDB it names, 1.0.2 (LevelDB 1.14)", got)
	}
	for name, want := range map[string]string{"leveldb": "1.23", "hyperleveldb": "1.0.2 (LevelDB 1.14)"} {
		if got := engine.Version(name); got != want {
			t.Errorf("engine.Version(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestCoexistSymbols checks that the loaded HyperLevelDB library exports
// nothing but its renamed C API, so no LevelDB symbol (C or C++) can bind
// to its code, and that it refers to none of LevelDB's, so it cannot run
// LevelDB's code.
func TestCoexistSymbols(t *testing.T) {
	library, err := libraryFile()
	if err != nil {
		t.Fatal(err)
	}
	nm := func(flag string) []string {
		out, err := exec.Command("nm", "-D", flag, library).Output()
		if err != nil {
			t.Fatalf("nm -D %s %s: %v (nm is in binutils)", flag, library, err)
		}
		var names []string
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) >= 2 {
				names = append(names, f[len(f)-1])
			}
		}
		return names
	}
	defined := nm("--defined-only")
	if len(defined) == 0 {
		t.Fatalf("%s exports no symbol", library)
	}
	for _, s := range defined {
		if !strings.HasPrefix(s, "hyperleveldb_") {
			t.Errorf("%s exports %s; only hyperleveldb_* may be exported", library, s)
		}
	}
	for _, s := range nm("--undefined-only") {
		// "7leveldb" is namespace leveldb in a mangled C++ name.
		if strings.HasPrefix(s, "leveldb_") || strings.Contains(s, "7leveldb") {
			t.Errorf("%s refers to LevelDB's %s", library, s)
		}
	}
}

// TestCoexistEngines writes and reads both engines, interleaved, in one
// process.
func TestCoexistEngines(t *testing.T) {
	const n = 2000
	dbs := map[string]engine.Engine{}
	for _, name := range []string{"leveldb", "hyperleveldb"} {
		db, err := engine.Open(name, t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[name] = db
	}
	value := func(name string, i int) []byte { return []byte(fmt.Sprintf("%s-%d", name, i)) }
	for i := range n {
		for name, db := range dbs {
			if err := db.Put([]byte(fmt.Sprintf("k%05d", i)), value(name, i)); err != nil {
				t.Fatalf("%s: Put: %v", name, err)
			}
		}
	}
	for name, db := range dbs {
		if f, ok := db.(engine.Flusher); ok {
			if err := f.Flush(); err != nil {
				t.Fatalf("%s: Flush: %v", name, err)
			}
		}
		it := enginetest.NewIterator(t, db, engine.IterOptions{})
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			if want := value(name, i); !bytes.Equal(it.Value(), want) {
				t.Fatalf("%s: entry %d = %q, want %q", name, i, it.Value(), want)
			}
			i++
		}
		if err := it.Close(); err != nil {
			t.Fatalf("%s: iterate: %v", name, err)
		}
		if i != n {
			t.Fatalf("%s: scan found %d entries, want %d", name, i, n)
		}
		if got, err := db.Get([]byte("k00042")); err != nil || !bytes.Equal(got, value(name, 42)) {
			t.Fatalf("%s: Get = %q, %v; want %q", name, got, err, value(name, 42))
		}
	}
}
