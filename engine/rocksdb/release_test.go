package rocksdb

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine/internal/libinfo"
	"github.com/tsbench/storage/internal/builddir"
)

// TestInstallRefuses runs a copy of the install script in a checkout of
// its own, with a user cache of its own, without network: a release it
// does not pin, and a download whose checksum differs (a fake file in
// place of the jar, in the cache), each exit 2 with one line and leave
// nothing installed.
func TestInstallRefuses(t *testing.T) {
	for _, c := range []struct {
		name, version, fakeJar, want string
	}{
		{"unknown release", "9.9.9", "", "install-rocksdb: RocksDB 9.9.9 is not a release this script installs: choose one of 10.0.1, "},
		{"checksum differs", "10.0.1", "rocksdbjni-10.0.1.jar", "install-rocksdb: rocksdbjni-10.0.1.jar has sha256 "},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, cache := t.TempDir(), t.TempDir()
			script := copyScripts(t, root)
			jar := filepath.Join(cache, "benchmark-storage", "download", c.fakeJar)
			if c.fakeJar != "" {
				if err := os.MkdirAll(filepath.Dir(jar), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(jar, []byte("not a jar"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(script, c.version)
			cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("%s %s: %v, want exit status 2; output:\n%s", script, c.version, err, out)
			}
			if msg := strings.TrimSuffix(string(out), "\n"); !strings.HasPrefix(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("%s %s said %q, want one line starting %q", script, c.version, msg, c.want)
			}
			if msg := installer.ScriptError(string(out), err); !strings.HasPrefix(msg, c.want) {
				t.Errorf("install's error = %q, want the script's line", msg)
			}
			left, _ := filepath.Glob(filepath.Join(root, "build", "rocksdb", "*"))
			if _, err := os.Stat(jar); len(left) > 0 || (c.fakeJar != "" && err == nil) {
				t.Errorf("left behind: %v, and the bad download: %v", left, err == nil)
			}
		})
	}
}

// copyScripts copies the install script and what it sources into root's
// scripts/, and returns the script's path there.
func copyScripts(t *testing.T, root string) string {
	t.Helper()
	src := filepath.Join("..", "..", "scripts")
	for _, name := range []string{filepath.Base(installer.Script), "lib.sh"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "scripts", name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, filepath.FromSlash(installer.Script))
}

// TestLacks checks the comparison of libraries: the linked one lacks
// nothing this program calls, and a file that defines no RocksDB (this
// program's own, which only imports it) lacks every function of its C
// API that the program calls.
func TestLacks(t *testing.T) {
	in, err := library()
	if err != nil {
		t.Fatal(err)
	}
	if lacks, err := libinfo.Lacks(in.Path, in.Path, "rocksdb_"); err != nil || len(lacks) > 0 {
		t.Errorf("Lacks(linked, linked) = %v, %v; want none", lacks, err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if lacks, err := libinfo.Lacks(in.Path, exe, "rocksdb_"); err != nil || !slices.Contains(lacks, "rocksdb_open") || !slices.Contains(lacks, "rocksdb_eventlistener_create") {
		t.Errorf("Lacks(linked, %s) = %v, %v; want rocksdb_open and the listener among them", exe, lacks, err)
	}
}

// olderRelease is the release of RocksDB that make test's set-up installs
// beside the linked one, for the tests that run one.
const olderRelease = "10.0.1"

// TestOlderRelease resolves the older release set-up installed: its
// library, its build read from the file, and the event listener it
// lacks (RocksDB 10.0 has none in its C API).
func TestOlderRelease(t *testing.T) {
	if builddir.Find("rocksdb/"+olderRelease+"/lib") == "" {
		t.Skipf("RocksDB %s is not installed: run %s %s (make test does)", olderRelease, installer.Script, olderRelease)
	}
	r, err := installRelease(olderRelease)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != olderRelease || !strings.HasSuffix(r.Dir, filepath.Join("build", "rocksdb", olderRelease, "lib")) {
		t.Errorf("release(%s) = %+v", olderRelease, r)
	}
	if !strings.HasPrefix(r.Build, "release") {
		t.Errorf("release(%s).Build = %q, want a release build", olderRelease, r.Build)
	}
	if !strings.Contains(r.Lacks, "rocksdb_eventlistener_create") || strings.Contains(r.Lacks, "\n") {
		t.Errorf("release(%s).Lacks = %q, want one line naming the event listener", olderRelease, r.Lacks)
	}
}

func TestLibraryVersion(t *testing.T) {
	for release, want := range map[string]string{"10.0.1": "10.0.1", "10.10.1.1": "10.10.1", "11.8.1": "11.8.1"} {
		if got := libraryVersion(release); got != want {
			t.Errorf("libraryVersion(%s) = %s, want %s", release, got, want)
		}
	}
}
