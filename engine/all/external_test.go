package all_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestBuildsAsDependency builds and runs a program in a module of its own
// that imports engine/all, as a TSDB embedding the engines would: with a
// plain go build, so every C library must be found by ordinary means
// (pkg-config files under the install prefix), nothing pointing into this
// repository's folders.
func TestBuildsAsDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a separate module; skipped with -short")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/tsdb\n\ngo 1.26\n\nrequire github.com/tsbench/storage v0.0.0\n\nreplace github.com/tsbench/storage => " + repo + "\n",
		"main.go": `package main

import (
	"fmt"
	"os"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/all"
)

func main() {
	for _, name := range engine.AllNames() {
		db, err := engine.Open(name, os.Args[1]+"/"+name, nil)
		if err != nil {
			fmt.Println(name, err)
			os.Exit(1)
		}
		if err := db.Put([]byte("k"), []byte("v")); err != nil {
			fmt.Println(name, err)
			os.Exit(1)
		}
		if err := db.Close(); err != nil {
			fmt.Println(name, err)
			os.Exit(1)
		}
		fmt.Println(name, engine.Version(name))
	}
}
`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	// The go that built this test where it says (a -trimpath build does
	// not), and otherwise the first on PATH, which make test runs.
	gobin := "go"
	if root := runtime.GOROOT(); root != "" {
		gobin = filepath.Join(root, "bin", "go")
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		// A user's environment: no flags from this repository's Makefile.
		// -trimpath changes nothing the build finds; it keeps the
		// checkout's path out of the compiled packages, so that a fresh
		// clone's test reuses what an earlier clone's compiled.
		cmd.Env = append(os.Environ(), "CGO_CFLAGS=", "GOFLAGS=-mod=mod -trimpath")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(gobin, "build", "-o", "tsdb", ".")
	out := run(filepath.Join(dir, "tsdb"), t.TempDir())
	for _, name := range []string{"rocksdb", "leveldb", "hyperleveldb", "lmdb", "pebble"} {
		if !strings.Contains(out, name+" ") {
			t.Errorf("the program did not open %s:\n%s", name, out)
		}
	}
}
