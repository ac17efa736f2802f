//go:build !linux

package enginetest

import "testing"

// huge returns n zero bytes, or skips the test when n is more than it
// allocates for a value over the engine's limit.
func huge(t *testing.T, n int) []byte {
	t.Helper()
	if n > smallHuge {
		t.Skipf("a value of %d bytes is too large to allocate here", n)
	}
	return make([]byte, n)
}
