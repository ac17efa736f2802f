// Package logtail keeps the end of a server process's output in memory
// (etcd's members, Cassandra's nodes and its probe): the output is only
// needed when something fails, to quote in the error, and a file would
// count in the store's size.
package logtail

import (
	"bytes"
	"sync"
)

// Size is how many bytes of output a Tail keeps.
const Size = 16 << 10

// Tail is an io.Writer that keeps the last Size bytes written to it; it is
// safe for concurrent use (a process's stdout and stderr).
type Tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - Size; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// Lines returns the last n non-empty lines kept, trimmed.
func (t *Tail) Lines(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return LastLines(t.buf, n)
}

// LastLines returns the last n non-empty lines of b, trimmed.
func LastLines(b []byte, n int) []string {
	var out []string
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			out = append(out, string(l))
		}
	}
	return out[max(0, len(out)-n):]
}
