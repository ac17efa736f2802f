// Package scanbuf copies entries out of an engine iterator into buffers
// reused from chunk to chunk, so that a timed scan can hand them to an
// untimed check without allocating per entry. Every workload's timed reads
// use it.
package scanbuf

import (
	"iter"

	"github.com/tsbench/storage/engine"
)

// ChunkEntries is how many entries a timed read copies out before pausing
// its timer to check them: large enough that reading the clock costs
// nothing, small enough that the buffer stays a few tens of KiB however
// long a series grows.
const ChunkEntries = 1024

// Chunk holds entries copied out of an iterator, back to back in
// engine.AppendEntry's layout.
type Chunk struct {
	data []byte
	n    int
}

// Reset empties the chunk, keeping its buffer.
func (c *Chunk) Reset() { c.data, c.n = c.data[:0], 0 }

// Add copies one entry in; k and v may be reused by the caller afterwards.
func (c *Chunk) Add(k, v []byte) {
	c.data = engine.AppendEntry(c.data, k, v)
	c.n++
}

// Fill copies in up to max entries of it with engine.AppendEntries (one
// call for many entries where the iterator can, which the C engines write
// straight into the chunk): from the first within its bounds when first
// is set, and otherwise from where the last Fill stopped. It reports
// whether entries may follow them.
func (c *Chunk) Fill(it engine.Iterator, max int, first bool) (more bool) {
	var n int
	c.data, n, more = engine.AppendEntries(it, c.data, max, first)
	c.n += n
	return more
}

// Len reports how many entries the chunk holds.
func (c *Chunk) Len() int { return c.n }

// All yields the entries in order, valid until the next Reset, Add or
// Fill.
func (c *Chunk) All() iter.Seq2[[]byte, []byte] {
	return func(yield func(k, v []byte) bool) {
		for b := c.data; len(b) > 0; {
			var k, v []byte
			k, v, b = engine.NextEntry(b)
			if !yield(k, v) {
				return
			}
		}
	}
}
