package etcd_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/etcd"
)

// fakeEtcd writes a script that prints out for --version and otherwise
// exits with code, and returns its path.
func fakeEtcd(t *testing.T, out string, code int) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "etcd")
	script := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = --version ]; then echo '%s'; exit 0; fi\nexit %d\n", out, code)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// binaryVersion is what "bin --version" reports, or a skip without bin.
func binaryVersion(t *testing.T, bin string) string {
	t.Helper()
	path, err := exec.LookPath(bin)
	if err != nil {
		t.Skipf("no %s binary: scripts/setup.sh installs it", bin)
	}
	out, err := exec.Command(path, "--version").Output()
	m := regexp.MustCompile(`etcd Version: (\S+)`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("%s --version = %q, %v", path, out, err)
	}
	return string(m[1])
}

// TestNotEtcd checks that a binary that is not etcd, or too old an etcd,
// is refused in one line before anything is written or started.
func TestNotEtcd(t *testing.T) {
	for _, tc := range []struct{ name, bin string }{
		{"false", "false"},
		{"no version", fakeEtcd(t, "hello", 0)},
		{"etcd 3.3", fakeEtcd(t, "etcd Version: 3.3.25", 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := engine.Open("etcd", dir, &engine.Options{Engine: &etcd.Options{Binary: tc.bin}})
			if !errors.Is(err, etcd.ErrNotEtcd) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.bin) {
				t.Fatalf("Open with binary %s = %v, want ErrNotEtcd in one line naming it", tc.bin, err)
			}
			t.Log(err)
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("a refused binary left %d entries in the directory", len(left))
			}
		})
	}
}

// TestDefaultBinary checks that the default binary is the etcd that
// scripts/etcd/go.mod pins, built as scripts/build-etcd.sh builds it, and
// that a local cluster reports that version.
func TestDefaultBinary(t *testing.T) {
	got := binaryVersion(t, etcd.DefaultBinary)
	mod, err := os.ReadFile("../../scripts/etcd/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^require go.etcd.io/etcd/server/v3 v(\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatalf("scripts/etcd/go.mod pins no go.etcd.io/etcd/server/v3:\n%s", mod)
	}
	want := string(m[1])
	if got != want || etcd.Version() != want {
		t.Fatalf("%s reports etcd %s (Version %q), want %s as scripts/etcd/go.mod pins: run make setup",
			etcd.DefaultBinary, got, etcd.Version(), want)
	}
	if b := etcd.Build(); !strings.HasPrefix(b, "release, ") || !strings.Contains(b, "go.etcd.io/etcd/server/v3 v"+want) {
		t.Errorf("Build = %q, want a release build of go.etcd.io/etcd/server/v3 v%s", b, want)
	}
}

// layoutVersion reads the etcd version recorded in dir's etcd.json.
func layoutVersion(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "etcd.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Version string `json:"etcd_version"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return l.Version
}

// TestVersionRecorded checks that a local cluster records the version
// its members run, and records it on reopen in a directory written
// before it was recorded.
func TestVersionRecorded(t *testing.T) {
	t.Parallel()
	want := binaryVersion(t, etcd.DefaultBinary)
	dir := t.TempDir()
	db := openDB(t, dir, nil)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got := layoutVersion(t, dir); got != want {
		t.Fatalf("etcd.json records etcd_version %q, want %s", got, want)
	}
	file := filepath.Join(dir, "etcd.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "etcd_version")
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db = openDB(t, dir, nil)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got := layoutVersion(t, dir); got != want {
		t.Fatalf("after reopening a directory without etcd_version, etcd.json records %q, want %s", got, want)
	}
}

// TestDebianBinary runs a local cluster on Debian's etcd ("etcd", 3.4),
// which [etcd] binary keeps reachable: the description names the version
// its members report. The default binary, of another minor release, is
// then refused that directory in one line, leaving it as it was.
func TestDebianBinary(t *testing.T) {
	t.Parallel()
	v := binaryVersion(t, "etcd")
	dir := t.TempDir()
	debian := &etcd.Options{Binary: "etcd"}
	db := openDB(t, dir, debian)
	if d := db.Describe(); !strings.HasPrefix(d, "etcd "+v+", local cluster of 3 members") || !strings.Contains(d, ", binary /") {
		t.Errorf("Describe = %q, want etcd %s, local cluster of 3 members and the binary's path", d, v)
	}
	// A run records this version, not the driver's (the default binary's).
	if got := db.Version(); got != v {
		t.Errorf("Version = %q, want %s, the version the members run", got, v)
	}
	if err := db.Put([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got := layoutVersion(t, dir); got != v {
		t.Fatalf("etcd.json records etcd_version %q, want %s", got, v)
	}

	if def := etcd.Version(); def != "" && !sameRelease(def, v) {
		before, _ := os.ReadFile(filepath.Join(dir, "etcd.json"))
		_, err := etcd.Open(dir, engine.Options{})
		if !errors.Is(err, engine.ErrInvalidOptions) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "etcd "+v) {
			t.Fatalf("Open of an etcd %s directory with etcd %s = %v, want ErrInvalidOptions in one line naming %s", v, def, err, v)
		}
		t.Log(err)
		if after, _ := os.ReadFile(filepath.Join(dir, "etcd.json")); !bytes.Equal(before, after) {
			t.Errorf("a refused Open changed etcd.json:\n%s\nto\n%s", before, after)
		}
	}

	db = openDB(t, dir, debian)
	if got, err := db.Get([]byte("k")); err != nil || string(got) != "v" {
		t.Errorf("Get after reopening with etcd %s = %q, %v; want v", v, got, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameRelease reports whether versions a and b share major.minor.
func sameRelease(a, b string) bool {
	f, g := strings.SplitN(a, ".", 3), strings.SplitN(b, ".", 3)
	return len(f) > 1 && len(g) > 1 && f[0] == g[0] && f[1] == g[1]
}
