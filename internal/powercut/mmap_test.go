package powercut

import (
	"bytes"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestMmap writes through a MAP_SHARED mapping, as LMDB and bbolt do:
// msync makes the pages durable; pages the kernel writes back without
// one (here at close) are visible but pending.
func TestMmap(t *testing.T) {
	s := newStore(t, Options{})
	const size = 2 * blockSize
	f, err := os.OpenFile(s.path("map"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	syncDir(t, s.mnt)

	m, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	synced, unsynced := pattern(blockSize, 1), pattern(blockSize, 2)
	copy(m, synced)
	if err := unix.Msync(m, unix.MS_SYNC); err != nil {
		t.Fatal(err)
	}
	copy(m[blockSize:], unsynced)
	if err := unix.Munmap(m); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	wantFile(t, s.path("map"), append(bytes.Clone(synced), unsynced...))
	s.cut()
	wantFile(t, s.path("map"), append(bytes.Clone(synced), make([]byte, blockSize)...))
}
