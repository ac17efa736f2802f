package engine

import (
	"maps"
	"slices"
)

// Metrics are what an engine reports about its own work, by name. An
// engine reports the ones it knows, a subset of the names below, so that
// a missing name means unknown rather than zero. Counters add up from the
// engine's open; a benchmark takes the difference across a step. Times
// are in nanoseconds.
type Metrics map[string]int64

// The metric names. Each is a counter unless it says gauge.
const (
	// MetricCompactBytes is the bytes compactions (and memtable flushes)
	// wrote.
	MetricCompactBytes = "compact_bytes"
	// MetricCompactTime is the time compactions ran, summed over threads.
	MetricCompactTime = "compact_ns"
	// MetricStalls is how many times the engine stalled or slowed writes
	// to let compactions catch up.
	MetricStalls = "stalls"
	// MetricStallTime is the time writes spent stalled.
	MetricStallTime = "stall_ns"
	// MetricCacheHits and MetricCacheMisses count block cache lookups.
	MetricCacheHits   = "cache_hits"
	MetricCacheMisses = "cache_misses"
	// MetricMemtableBytes is a gauge: the bytes of writes held in memory,
	// not yet in a table file.
	MetricMemtableBytes = "memtable_bytes"
	// MetricCacheBytes is a gauge: the bytes the block cache holds.
	MetricCacheBytes = "cache_bytes"
	// MetricTableReadersBytes is a gauge: the bytes open tables hold in
	// memory outside the block cache (their index and filter blocks).
	MetricTableReadersBytes = "table_readers_bytes"
	// MetricFreeBytes is a gauge: the bytes of pages inside the engine's
	// file that are free for reuse, or will be once no reader needs them
	// (bbolt's free and pending pages). A file can grow while they do.
	MetricFreeBytes = "free_bytes"
	// MetricPendingCompactions is a gauge: compactions the engine has
	// found to do and not begun (Cassandra's PendingTasks).
	MetricPendingCompactions = "pending_compactions"
	// MetricDroppedWrites is how many writes a server dropped for having
	// waited past its timeout (Cassandra's dropped MUTATION_REQ): a
	// replica that did not apply them; the client saw a timeout, or a
	// success from the other replicas.
	MetricDroppedWrites = "dropped_writes"
	// MetricHeapBytes is a gauge: the bytes of the servers' Java heaps in
	// use, garbage not yet collected included.
	MetricHeapBytes = "heap_bytes"
	// MetricOffHeapBytes is a gauge: the bytes the engine's own data
	// structures hold outside the Java heap (Cassandra's memtables, bloom
	// filters, index summaries and compression metadata off heap).
	MetricOffHeapBytes = "off_heap_bytes"
)

// MetricNames returns the metric names an engine may report, in a fixed
// order for tables.
func MetricNames() []string {
	return []string{MetricCompactBytes, MetricCompactTime, MetricStalls, MetricStallTime,
		MetricCacheHits, MetricCacheMisses, MetricMemtableBytes, MetricCacheBytes, MetricTableReadersBytes, MetricFreeBytes,
		MetricPendingCompactions, MetricDroppedWrites, MetricHeapBytes, MetricOffHeapBytes}
}

// MetricNamesIn are the names of the metrics any of ms holds: those of
// MetricNames in its order, then any other in name order.
func MetricNamesIn(ms ...Metrics) []string {
	seen := map[string]bool{}
	for _, m := range ms {
		for name := range m {
			seen[name] = true
		}
	}
	var out []string
	for _, name := range MetricNames() {
		if seen[name] {
			out = append(out, name)
			delete(seen, name)
		}
	}
	return append(out, slices.Sorted(maps.Keys(seen))...)
}

// IsGauge reports whether the metric name holds a level (the names whose
// comment says gauge) rather than counting up from the engine's open.
func IsGauge(name string) bool {
	switch name {
	case MetricMemtableBytes, MetricCacheBytes, MetricTableReadersBytes, MetricFreeBytes,
		MetricPendingCompactions, MetricHeapBytes, MetricOffHeapBytes:
		return true
	}
	return false
}

// Since is what m says of the span since an earlier reading, before:
// each counter's increase, and each gauge as m has it. A counter missing
// from either reading is left out, as unknown; nil if none is known.
func (m Metrics) Since(before Metrics) Metrics {
	var out Metrics
	for name, v := range m {
		if !IsGauge(name) {
			b, ok := before[name]
			if !ok {
				continue
			}
			v -= b
		}
		if out == nil {
			out = Metrics{}
		}
		out[name] = v
	}
	return out
}

// MetricsReporter is implemented by engines that report Metrics.
type MetricsReporter interface {
	Metrics() (Metrics, error)
}

// ReadMetrics returns e's metrics if it reports any, and empty Metrics
// (every one unknown) if not.
func ReadMetrics(e Engine) (Metrics, error) {
	if m, ok := e.(MetricsReporter); ok {
		return m.Metrics()
	}
	return Metrics{}, nil
}

// Metrics implements MetricsReporter for every backend: the backend's
// own, or none.
func (h *handle) Metrics() (Metrics, error) {
	if err := h.enter(); err != nil {
		return nil, err
	}
	defer h.exit()
	m, ok := h.be.(MetricsReporter)
	if !ok {
		return Metrics{}, nil
	}
	ms, err := m.Metrics()
	return ms, h.latch(err)
}
