// Package scanbuf copies entries out of an engine iterator into buffers
// reused from chunk to chunk, so that a timed scan can hand them to an
// untimed check without allocating per entry. Both workloads use it.
package scanbuf

// Chunk holds entries copied out of an iterator, keys and values back to
// back with their end offsets.
type Chunk struct {
	keys, vals   []byte
	kends, vends []int
}

// Reset empties the chunk, keeping its buffers.
func (c *Chunk) Reset() {
	c.keys, c.vals = c.keys[:0], c.vals[:0]
	c.kends, c.vends = c.kends[:0], c.vends[:0]
}

// Add copies one entry in; k and v may be reused by the caller afterwards.
func (c *Chunk) Add(k, v []byte) {
	c.keys = append(c.keys, k...)
	c.kends = append(c.kends, len(c.keys))
	c.vals = append(c.vals, v...)
	c.vends = append(c.vends, len(c.vals))
}

// Len reports how many entries the chunk holds.
func (c *Chunk) Len() int { return len(c.kends) }

// Entry returns entry j, valid until the next Reset or Add.
func (c *Chunk) Entry(j int) (k, v []byte) {
	kfrom, vfrom := 0, 0
	if j > 0 {
		kfrom, vfrom = c.kends[j-1], c.vends[j-1]
	}
	return c.keys[kfrom:c.kends[j]], c.vals[vfrom:c.vends[j]]
}
