package pebble

import (
	"sync"
	"time"

	pebbledb "github.com/cockroachdb/pebble/v2"

	"github.com/tsbench/storage/engine"
)

var _ engine.MetricsReporter = (*DB)(nil)

// stalls counts Pebble's write stalls and their time, which its Metrics
// do not: Pebble reports them only as events.
type stalls struct {
	mu    sync.Mutex
	n     int64
	total time.Duration
	since time.Time // start of the stall under way; zero when none is
}

// listener returns the event hooks that feed s.
func (s *stalls) listener() pebbledb.EventListener {
	return pebbledb.EventListener{
		WriteStallBegin: func(pebbledb.WriteStallBeginInfo) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.n++
			s.since = time.Now()
		},
		WriteStallEnd: func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if !s.since.IsZero() {
				s.total += time.Since(s.since)
				s.since = time.Time{}
			}
		},
	}
}

// read returns the stall count and time so far, a stall under way
// included.
func (s *stalls) read() (int64, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.total
	if !s.since.IsZero() {
		t += time.Since(s.since)
	}
	return s.n, t
}

// Metrics implements engine.MetricsReporter from Pebble's Metrics: the
// bytes flushes and compactions wrote to tables, compaction time, write
// stalls, block cache lookups, and the bytes the memtables, the block
// cache and the open tables' readers hold.
func (db *DB) Metrics() (engine.Metrics, error) {
	m := db.db.Metrics()
	total := m.Total()
	n, stalled := db.stalls.read()
	return engine.Metrics{
		engine.MetricCompactBytes:  int64(total.TableBytesFlushed + total.TableBytesCompacted + total.BlobBytesFlushed + total.BlobBytesCompacted),
		engine.MetricCompactTime:   int64(m.Compact.Duration),
		engine.MetricStalls:        n,
		engine.MetricStallTime:     int64(stalled),
		engine.MetricCacheHits:     m.BlockCache.Hits,
		engine.MetricCacheMisses:   m.BlockCache.Misses,
		engine.MetricMemtableBytes: int64(m.MemTable.Size),
		engine.MetricCacheBytes:    m.BlockCache.Size,
		// The file cache's bytes are its open tables' readers.
		engine.MetricTableReadersBytes: m.FileCache.Size,
	}, nil
}
