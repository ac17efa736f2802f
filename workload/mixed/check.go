package mixed

import (
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

// checker verifies one read of one series: it expects the series' points
// k = next, next+1, ... in order, every one below acked, and counts in v
// what differs. Point k of series s is the time-series workload's point
// k*Series+s, so every value follows from the seed.
type checker struct {
	gen    points.Generator
	v      *harness.Verification
	series int64
	next   int64 // the next point expected
	acked  int64 // points below it must be read
	// strict makes points at or past acked wrong: nothing was written
	// after the acknowledgements (the final check).
	strict bool
	// last checks the one point a reverse seek returns: older than the
	// latest acknowledged means the newer are missing.
	last bool
	// file checks a read of an imported file's points in place of
	// next, acked and gen (importedread.go); nil for generated points.
	file *fileCheck
}

func (c *checker) check(key, val []byte) {
	if c.file != nil {
		c.file.check(c, key, val)
		return
	}
	c.v.Read++
	series, ts, seq, err := tskey.ParseKey(key)
	if err != nil {
		c.unexpected("series %d: %v", c.series, err)
		return
	}
	if series != uint64(c.series) {
		c.unexpected("series %d: read a key of series %d", c.series, series)
		return
	}
	i := int64(seq - 1)
	if seq == 0 || i%c.gen.Series != c.series || ts != c.gen.Timestamp(i) {
		c.unexpected("series %d: key (timestamp %d, seq %d) is not a point of the series", c.series, ts, seq)
		return
	}
	k := i / c.gen.Series
	switch {
	case c.strict && k >= c.acked:
		c.unexpected("series %d: point %d (seq %d) was never acknowledged", c.series, k, seq)
		return
	case c.last:
		if k+1 < c.acked {
			c.v.Missing += c.acked - 1 - k
			c.v.Note("series %d: latest point is %d, but %d were acknowledged", c.series, k, c.acked)
		}
	case k < c.next:
		c.unexpected("series %d: point %d (seq %d) read twice or out of order", c.series, k, seq)
		return
	case k > c.next && c.next < c.acked:
		missed := min(k, c.acked) - c.next
		c.v.Missing += missed
		c.v.Note("series %d: %d acknowledged points missing before point %d", c.series, missed, k)
	}
	c.next = k + 1
	if bad := c.gen.CheckValue(seq, val); bad != "" {
		c.v.Wrong++
		c.v.Note("series %d: point %d: %s", c.series, k, bad)
	}
}

// finish counts the acknowledged points after the last one read as
// missing.
func (c *checker) finish() {
	if c.file != nil {
		c.file.finish(c)
		return
	}
	if c.last {
		// next is set by this query's read: v counts every query's.
		if c.next == 0 && c.acked > 0 {
			c.v.Missing++
			c.v.Note("series %d: no latest point, but %d were acknowledged", c.series, c.acked)
		}
		return
	}
	if c.next < c.acked {
		c.v.Missing += c.acked - c.next
		c.v.Note("series %d: %d acknowledged points missing from point %d on", c.series, c.acked-c.next, c.next)
	}
}

// unexpected counts an entry the read should not have returned.
func (c *checker) unexpected(format string, args ...any) {
	c.v.Unexpected++
	c.v.Note(format, args...)
}

// checkChunk checks every entry of ch with c and empties ch.
func checkChunk(ch *scanbuf.Chunk, c *checker) {
	for k, v := range ch.All() {
		c.check(k, v)
	}
	ch.Reset()
}

// firstAt is the first point of series s whose timestamp is at or after
// ts.
func firstAt(g points.Generator, s int64, ts uint64) int64 {
	if ts <= points.Epoch {
		return 0
	}
	x := int64((ts - points.Epoch + points.Interval - 1) / points.Interval) // first index at or after ts
	if x <= s {
		return 0
	}
	return (x - s + g.Series - 1) / g.Series
}

// timestamp is the timestamp of point k of series s.
func timestamp(g points.Generator, s, k int64) uint64 { return g.Timestamp(k*g.Series + s) }
