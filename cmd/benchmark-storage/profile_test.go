package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestProfile checks that -profile leaves each engine process's CPU and
// heap profiles, in pprof's gzipped format, named after the engine.
func TestProfile(t *testing.T) {
	a, _ := pureGoEngines(t)
	dir := t.TempDir()
	runOK(t, append([]string{"-engine", a, "-path", t.TempDir(), "-profile", dir}, tinyRun...)...)
	for _, kind := range []string{"cpu", "heap"} {
		b, err := os.ReadFile(filepath.Join(dir, a+"-"+kind+".pprof"))
		if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s profile: %v, %d bytes, want a gzipped pprof profile", kind, err, len(b))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
