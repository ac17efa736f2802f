// Package scanbuf copies entries out of an engine iterator into buffers
// reused from chunk to chunk, so that a timed scan can hand them to an
// untimed check without allocating per entry. Both workloads use it.
package scanbuf

// Chunk holds entries copied out of an iterator: keys and values back to
// back in one buffer, and where each ends.
type Chunk struct {
	data []byte
	ends []end
}

// end is where an entry's key and value end in data.
type end struct{ key, value int }

// Reset empties the chunk, keeping its buffers.
func (c *Chunk) Reset() { c.data, c.ends = c.data[:0], c.ends[:0] }

// Add copies one entry in; k and v may be reused by the caller afterwards.
func (c *Chunk) Add(k, v []byte) {
	c.data = append(c.data, k...)
	ke := len(c.data)
	c.data = append(c.data, v...)
	c.ends = append(c.ends, end{ke, len(c.data)})
}

// Len reports how many entries the chunk holds.
func (c *Chunk) Len() int { return len(c.ends) }

// Entry returns entry j, valid until the next Reset or Add.
func (c *Chunk) Entry(j int) (k, v []byte) {
	from := 0
	if j > 0 {
		from = c.ends[j-1].value
	}
	e := c.ends[j]
	return c.data[from:e.key], c.data[e.key:e.value]
}
