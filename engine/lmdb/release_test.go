package lmdb

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/internal/builddir"
)

// TestBuildRefusesUnknown runs a copy of the build script in a checkout
// of its own: a release it does not pin exits 2 with one line listing
// those it does, and leaves nothing built.
func TestBuildRefusesUnknown(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{filepath.Base(installer.Script), "lib.sh"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "scripts", name))
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
	script := filepath.Join(root, filepath.FromSlash(installer.Script))
	out, err := exec.Command(script, "0.9.1").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("%s 0.9.1: %v, want exit status 2; output:\n%s", script, err, out)
	}
	want := "build-lmdb: LMDB 0.9.1 is not a release this script builds: choose one of 0.9.19, 0.9.28, 0.9.31, 0.9.33, 0.9.35"
	if msg := installer.ScriptError(string(out), err); msg != want || strings.Count(string(out), "\n") != 1 {
		t.Errorf("%s 0.9.1 said %q, want one line: %q", script, out, want)
	}
	if left, _ := filepath.Glob(filepath.Join(root, "build", "lmdb", "*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// olderRelease is the release of LMDB that make test's set-up builds
// beside the linked one.
const olderRelease = "0.9.33"

// TestOlderRelease resolves the older release set-up built: its library,
// a release build, lacking nothing this program calls.
func TestOlderRelease(t *testing.T) {
	if builddir.Find("lmdb/"+olderRelease+"/lib") == "" {
		t.Skipf("LMDB %s is not built: run %s %s (make test does)", olderRelease, installer.Script, olderRelease)
	}
	r, err := installRelease(olderRelease)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != olderRelease || !strings.HasSuffix(r.Dir, filepath.Join("build", "lmdb", olderRelease, "lib")) || r.Lacks != "" {
		t.Errorf("installRelease(%s) = %+v", olderRelease, r)
	}
	if want := "release, built from source with -O2 -DNDEBUG"; r.Build != want {
		t.Errorf("installRelease(%s).Build = %q, want %q", olderRelease, r.Build, want)
	}
}
