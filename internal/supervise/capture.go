package supervise

import (
	"fmt"
	"sync"
)

// captureLimit bounds what is kept of a child's stdout and stderr: the
// first and the last half of it.
const captureLimit = 4 << 20

// capture keeps what a child writes to its stdout and stderr: all of it
// up to captureLimit, else the first and the last half of that.
type capture struct {
	mu      sync.Mutex
	head    []byte
	tail    []byte // ring of the last bytes once head is full
	dropped int64
}

func (c *capture) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(b)
	if room := captureLimit/2 - len(c.head); room > 0 {
		k := min(room, len(b))
		c.head = append(c.head, b[:k]...)
		b = b[k:]
	}
	c.tail = append(c.tail, b...)
	if over := len(c.tail) - captureLimit/2; over > 0 {
		c.dropped += int64(over)
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return n, nil
}

// Bytes returns what was kept, with a note where a middle part was
// dropped.
func (c *capture) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]byte(nil), c.head...)
	if c.dropped > 0 {
		out = fmt.Appendf(out, "\n[... %d bytes left out ...]\n", c.dropped)
	}
	return append(out, c.tail...)
}
