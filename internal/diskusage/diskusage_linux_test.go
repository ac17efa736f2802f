package diskusage

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestMeasurePreallocated fallocates space past the end of a file, as
// Pebble and RocksDB do for their logs: it counts in Actual only.
func TestMeasurePreallocated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "000001.log")
	write(t, path, make([]byte, 10000))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const prealloc = 8 << 20
	if err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, prealloc); err != nil {
		if errors.Is(err, unix.EOPNOTSUPP) {
			t.Skipf("the file system of %s cannot preallocate: %v", dir, err)
		}
		t.Fatal(err)
	}

	u, err := Measure(dir)
	if err != nil {
		t.Fatal(err)
	}
	if u.Apparent != 10000 {
		t.Errorf("Apparent = %d, want the length 10000: preallocating keeps it", u.Apparent)
	}
	if u.Actual < prealloc {
		t.Errorf("Actual = %d, want at least the %d bytes preallocated", u.Actual, prealloc)
	}
	if u.Used != 10000 {
		t.Errorf("Used = %d, want 10000: space preallocated past the end holds no data", u.Used)
	}
}
