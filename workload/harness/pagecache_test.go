package harness

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident is how many of path's pages are in the page cache (mincore).
func resident(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	m, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestDropPageCache: a file just written and read is in the page cache;
// after DropPageCache of its directory none of it is.
func TestDropPageCache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "000001.ldb")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	if n := resident(t, path); n == 0 {
		t.Skip("the file system keeps no page cache for a new file here")
	}
	if err := DropPageCache(dir); err != nil {
		t.Fatal(err)
	}
	if n := resident(t, path); n != 0 {
		t.Errorf("%d pages still cached after DropPageCache", n)
	}
}
