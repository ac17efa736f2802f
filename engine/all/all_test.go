package all_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/all"
)

func TestAllEnginesRegistered(t *testing.T) {
	want := []string{"badger", "badger3", "bbolt", "cassandra", "etcd", "goleveldb", "hyperleveldb", "kyotocabinet", "leveldb", "lmdb", "pebble", "pebble1", "rocksdb", "sqlite"}
	jvm := []string{"chroniclemap", "leveldbjni", "lmdbjava", "lmdbjni", "lwjgl", "mapdb", "mvstore", "rocksdbjni", "xodus"}
	if got := engine.Names(); !slices.Equal(got, slices.Sorted(slices.Values(append(slices.Clone(want), jvm...)))) {
		t.Fatalf("engine.Names() = %v, want %v and %v", got, want, jvm)
	}
	if got := engine.GroupNames("jvm"); !slices.Equal(got, jvm) || !slices.Equal(engine.Groups(), []string{"jvm"}) {
		t.Fatalf("engine.GroupNames(jvm) = %v, Groups() = %v; want %v, [jvm]", got, engine.Groups(), jvm)
	}
	// All, what a run of every engine takes, leaves out Cassandra's
	// cluster of JVMs and the older majors of pure-Go engines
	// (engine.Driver.OnlyByName), and the JVM engines.
	byName := []string{"badger3", "cassandra", "pebble1"}
	if got, wantAll := engine.AllNames(), slices.DeleteFunc(slices.Clone(want), func(n string) bool { return slices.Contains(byName, n) }); !slices.Equal(got, wantAll) {
		t.Fatalf("engine.AllNames() = %v, want %v", got, wantAll)
	}
	if m := all.Missing(); len(m) != 0 {
		t.Errorf("all.Missing() = %v in a build with cgo, want none", m)
	}
	for _, name := range want {
		// Only the version, which reports print after the engine's name:
		// "1.23", "v1.1.5", not "pebble v1.1.5".
		v := engine.Version(name)
		if bare := strings.TrimPrefix(v, "v"); bare == "" || !unicode.IsDigit(rune(bare[0])) {
			t.Errorf("engine %s reports library version %q, want a bare version such as 1.23 or v1.1.5", name, v)
		}
		// Every figure must be traceable to a build: a release or debug
		// build of a C library, or the Go module version. Whether a C
		// library is the release build is each backend's own test.
		b := engine.Build(name)
		if !strings.HasPrefix(b, "release") && !strings.HasPrefix(b, "debug: ") && !strings.HasPrefix(b, "Go module v") {
			t.Errorf("engine %s reports build %q, want a release or debug build or a Go module version", name, b)
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/extras.md")

// TestExtrasTable pins docs/engine-layer.md's table of which optional interfaces
// each engine has of its own (found on its backend by type assertion)
// and which take the engine layer's fallback.
func TestExtrasTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("| engine | snapshot | SetBounds | EstimateSize | metrics | Checkpoint | Check | Compact beside iterators |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, name := range engine.AllNames() {
		db, err := engine.Open(name, t.TempDir(), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		be := engine.Unwrap(db)
		it, err := be.NewIterator(engine.IterOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, bounds := it.(engine.BoundsSetter)
		it.Close()
		own := func(ok bool) string {
			if ok {
				return "own"
			}
			return "fallback"
		}
		_, snap := be.(engine.Snapshotter)
		_, est := be.(engine.SizeEstimator)
		_, met := be.(engine.MetricsReporter)
		_, cp := be.(engine.Checkpointer)
		check := "none"
		if _, ok := be.(engine.Checker); ok {
			check = "own"
		}
		beside := "yes"
		if engine.LimitsOf(db).ExclusiveCompact {
			beside = "no (`ExclusiveCompact`)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", name,
			own(snap), own(bounds), own(est), own(met), own(cp), check, beside)
		if err := db.Close(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	golden := filepath.Join("testdata", "extras.md")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("extras table changed (go test ./engine/all -run ExtrasTable -update, then copy it into docs/engine-layer.md):\n%s", b.String())
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "engine-layer.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), string(want)) {
		t.Errorf("docs/engine-layer.md does not hold testdata/extras.md: copy it in")
	}
}
