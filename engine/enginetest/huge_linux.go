package enginetest

import (
	"syscall"
	"testing"
)

// huge returns n bytes that cost no memory while nothing writes them: an
// anonymous private mapping of zero pages, reserved nowhere, so that a
// value one byte over a limit of gigabytes can be offered to an engine
// that must refuse it unread. It is unmapped when the test ends.
func huge(t *testing.T, n int) []byte {
	t.Helper()
	if n <= smallHuge {
		return make([]byte, n)
	}
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot map %d bytes for a value over the engine's limit: %v", n, err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return b
}
