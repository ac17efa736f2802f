package mixed

import (
	"testing"

	"github.com/tsbench/storage/workload/harness"
)

// TestLastFindsNothingAfterEarlierReads: a last query that returns no
// point of a series with acknowledged points counts the latest point
// missing, though the reader's earlier queries read points.
func TestLastFindsNothingAfterEarlierReads(t *testing.T) {
	v := &harness.Verification{Read: 10}
	c := checker{v: v, series: 3, acked: 5, last: true}
	c.finish()
	if v.Missing != 1 {
		t.Fatalf("missing %d, want 1: %+v", v.Missing, v)
	}
}
