package diskusage

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestMeasure counts a plain file, a small file in a subdirectory and a
// sparse file, whose holes count in Apparent only.
func TestMeasure(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "a"), make([]byte, 10000))
	write(t, filepath.Join(dir, "sub", "b"), []byte("xyz"))
	// A sparse file: 1 GiB long, one 4 KiB block of data in the middle.
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 4096), 512<<20); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	sparseAlloc := allocated(t, sparse)
	if sparseAlloc < 4096 || sparseAlloc > 1<<20 {
		t.Fatalf("the file system allocated %d bytes for 4 KiB written in a 1 GiB sparse file; this test needs sparse files", sparseAlloc)
	}

	u, err := Measure(dir)
	if err != nil {
		t.Fatal(err)
	}
	if u.Files != 3 {
		t.Errorf("Files = %d, want 3", u.Files)
	}
	if want := int64(10000 + 3 + 1<<30); u.Apparent != want {
		t.Errorf("Apparent = %d, want %d: the lengths, holes included", u.Apparent, want)
	}
	// The small files count their bytes, not their whole blocks; the
	// sparse file counts its allocated block, not its holes.
	if want := 10000 + 3 + sparseAlloc; u.Used != want {
		t.Errorf("Used = %d, want %d: lengths of the plain files plus the sparse file's allocated blocks", u.Used, want)
	}
	if u.Actual < u.Used || u.Actual > 1<<20 {
		t.Errorf("Actual = %d, want the allocated blocks: at least Used (%d), far below the sparse file's length", u.Actual, u.Used)
	}
}

func TestMeasureMissingDir(t *testing.T) {
	if _, err := Measure(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Fatal("Measure of a missing directory returned no error")
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// allocated returns the bytes of blocks the file system allocated to path.
func allocated(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t).Blocks * 512
}
