package diskusage

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMeasure(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), make([]byte, 10000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "b"), []byte("xyz"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A sparse file: large apparent size, almost nothing allocated.
	f, err := os.Create(filepath.Join(dir, "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()

	u, err := Measure(dir)
	if err != nil {
		t.Fatal(err)
	}
	if u.Files != 3 {
		t.Errorf("Files = %d, want 3", u.Files)
	}
	if want := int64(10000 + 3 + 1<<30); u.Apparent != want {
		t.Errorf("Apparent = %d, want %d", u.Apparent, want)
	}
	if u.Actual < 10000 || u.Actual > 1<<20 {
		t.Errorf("Actual = %d, want the allocated blocks of ~10 KB of data, far below the sparse file's size", u.Actual)
	}
}

func TestMeasureMissingDir(t *testing.T) {
	if _, err := Measure(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Fatal("Measure of a missing directory returned no error")
	}
}
