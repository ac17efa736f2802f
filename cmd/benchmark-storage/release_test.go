package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/builddir"
)

// olderRocksDB is the release of RocksDB that make test's set-up installs
// beside the linked one (scripts/install-rocksdb.sh 10.0.1).
const olderRocksDB = "10.0.1"

// needRocksDB skips a test in a build without the RocksDB engine.
func needRocksDB(t *testing.T) {
	t.Helper()
	if !slices.Contains(engine.Names(), "rocksdb") {
		t.Skip("this build has no rocksdb (cgo)")
	}
}

// TestReleaseBadInput: each mistake in naming a release is one line,
// exit status 2, and nothing run or created.
func TestReleaseBadInput(t *testing.T) {
	needRocksDB(t)
	for _, c := range []struct{ engines, want string }{
		{"rocksdb@", "rocksdb@ names no version: write rocksdb@VERSION, or rocksdb for the linked " + engine.Version("rocksdb")},
		{"rocksdb@9.9.9", "RocksDB 9.9.9 is not a release this script installs: choose one of 10.0.1, "},
		{"rocksdb,rocksdb@" + engine.Version("rocksdb"), "rocksdb and rocksdb@" + engine.Version("rocksdb") + " are the same release of rocksdb, " + engine.Version("rocksdb") + "; name it once"},
		{"bbolt@1.4.0", "bbolt@1.4.0: bbolt has no release but the one this program links"},
		{"rocksdb@9.9.9,rocksdb@9.9.9", "rocksdb@9.9.9 is listed twice"},
		{"rocksdb@" + olderRocksDB + " -dataset", "-dataset keeps one dataset per engine, not per release of its library"},
	} {
		t.Run(c.engines, func(t *testing.T) {
			dir := t.TempDir()
			engines, dataset, _ := strings.Cut(c.engines, " ")
			args := []string{"-engine", engines, "-path", dir}
			if dataset != "" {
				args = append(args, dataset, filepath.Join(t.TempDir(), "datasets"))
			}
			code, stdout, stderr := runCmd(t, args...)
			if code != exitBadInput || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("-engine %s: exit %d, stdout %q, stderr %q; want exit %d and one line saying %q", c.engines, code, stdout, stderr, exitBadInput, c.want)
			}
			checkUntouched(t, dir)
		})
	}
}

// TestReleasesSideBySide runs an older release of RocksDB and of LMDB
// beside the linked one, and checks that the report names each release
// as its engine process read it from the library it loaded.
func TestReleasesSideBySide(t *testing.T) {
	for _, c := range []struct {
		engine, older, script string
		lacks                 string // the line said before the run
	}{
		{"rocksdb", olderRocksDB, "scripts/install-rocksdb.sh", "rocksdb@" + olderRocksDB + ": its library lacks rocksdb_compactionjobinfo_elapsed_micros, "},
		{"lmdb", "0.9.33", "scripts/build-lmdb.sh", ""},
	} {
		t.Run(c.engine, func(t *testing.T) {
			if !slices.Contains(engine.Names(), c.engine) {
				t.Skipf("this build has no %s (cgo)", c.engine)
			}
			if builddir.Find(c.engine+"/"+c.older+"/lib") == "" {
				t.Skipf("%s %s is not installed: run %s %s (make test does)", c.engine, c.older, c.script, c.older)
			}
			older := c.engine + "@" + c.older
			code, stdout, stderr := runChildren(t, append([]string{"-engine", older + "," + c.engine, "-format", "json", "-path", t.TempDir()}, tinyRun...)...)
			if code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			if said := strings.Contains(stderr, "benchmark-storage: "+older+": its library lacks"); c.lacks != "" && !strings.Contains(stderr, c.lacks) || c.lacks == "" && said {
				t.Errorf("stderr does not say what %s lacks as %q:\n%s", older, c.lacks, stderr)
			}
			rep := decodeReport(t, stdout)
			want := map[string]string{older: c.older, c.engine: engine.Version(c.engine)}
			if len(rep.Results) != 2 {
				t.Fatalf("%d results, want 2", len(rep.Results))
			}
			for _, res := range rep.Results {
				checkVerified(t, res)
				if res.Version != want[res.Engine] {
					t.Errorf("%s ran version %q, want %q", res.Engine, res.Version, want[res.Engine])
				}
			}
			for name, v := range want {
				if got := rep.Env.EngineVersions[name]; got != v || !strings.HasPrefix(rep.Env.EngineBuilds[name], "release") {
					t.Errorf("the environment says %s is %q, %q; want %q, a release build", name, got, rep.Env.EngineBuilds[name], v)
				}
			}
		})
	}
}
