package rocksdb

// #include "binding.h"
import "C"

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
)

// Metrics implements engine.MetricsReporter without RocksDB's statistics,
// which would cost every read and write of the benchmark: the bytes
// flushes and compactions wrote and the time compactions ran, from an
// event listener (a flush's bytes are its table file's size; absent with
// a release whose C API has no listener, 10.0 to 10.2); the stalls,
// from the write stall counts of "rocksdb.cf-write-stall-stats" and
// "rocksdb.db-write-stall-stats" (times a stall condition began); the time
// writes waited in them, from "rocksdb.dbstats" (to the millisecond); and
// the memtables' bytes, "rocksdb.cur-size-all-mem-tables"; the block
// cache's, "rocksdb.block-cache-usage"; the open tables' index and filter
// blocks, "rocksdb.estimate-table-readers-mem". Block cache
// hits and misses are counted only by the statistics, so they are absent.
func (d *DB) Metrics() (engine.Metrics, error) {
	m := engine.Metrics{}
	if d.events != nil { // else a release without the listener: absent
		e := C.tsb_rocksdb_events_read(d.events)
		m[engine.MetricCompactBytes] = int64(e.flush_bytes + e.compact_bytes)
		m[engine.MetricCompactTime] = int64(e.compact_micros) * int64(time.Microsecond)
	}
	var err error
	for name, prop := range map[string]string{
		engine.MetricMemtableBytes:     "rocksdb.cur-size-all-mem-tables",
		engine.MetricCacheBytes:        "rocksdb.block-cache-usage",
		engine.MetricTableReadersBytes: "rocksdb.estimate-table-readers-mem",
	} {
		if m[name], err = d.intProperty(prop); err != nil {
			return nil, err
		}
	}
	var stalls int64
	for prop, keys := range map[string][]string{
		"rocksdb.cf-write-stall-stats": {"total-delays", "total-stops"},
		"rocksdb.db-write-stall-stats": {"write-buffer-manager-limit-stops"},
	} {
		s, err := d.Property(prop)
		if err != nil {
			return nil, err
		}
		n, err := stallCounts(s, keys)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrLibrary, prop, err)
		}
		stalls += n
	}
	m[engine.MetricStalls] = stalls
	s, err := d.Property("rocksdb.dbstats")
	if err != nil {
		return nil, err
	}
	if m[engine.MetricStallTime], err = stallTime(s); err != nil {
		return nil, fmt.Errorf("%w: rocksdb.dbstats: %v", ErrLibrary, err)
	}
	return m, nil
}

// stallCounts returns the sum of the counts named keys in a write stall
// property, "Write Stall (count): name: n, name: n, ...".
func stallCounts(s string, keys []string) (int64, error) {
	_, list, ok := strings.Cut(s, "Write Stall (count):")
	if !ok {
		return 0, fmt.Errorf("no write stall counts in %q", s)
	}
	var sum int64
	found := 0
	for item := range strings.SplitSeq(list, ",") {
		name, count, ok := strings.Cut(item, ":")
		if !ok {
			continue
		}
		for _, k := range keys {
			if strings.TrimSpace(name) == k {
				n, err := strconv.ParseInt(strings.TrimSpace(count), 10, 64)
				if err != nil {
					return 0, fmt.Errorf("count %s: %w", k, err)
				}
				sum += n
				found++
			}
		}
	}
	if found != len(keys) {
		return 0, fmt.Errorf("found %d of the counts %q in %q", found, keys, s)
	}
	return sum, nil
}

// stallTime returns the time writes waited in stalls, from the line
// "Cumulative stall: 00:00:0.195 H:M:S, 29.2 percent" of "rocksdb.dbstats".
func stallTime(s string) (int64, error) {
	_, rest, ok := strings.Cut(s, "Cumulative stall:")
	if !ok {
		return 0, fmt.Errorf("no cumulative stall line")
	}
	hms, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	parts := strings.Split(hms, ":")
	if len(parts) != 3 {
		return 0, fmt.Errorf("stall time %q is not H:M:S", hms)
	}
	var total float64
	for i, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("stall time %q is not H:M:S", hms)
		}
		total = total*60 + v
		if i < 2 && v != float64(int64(v)) {
			return 0, fmt.Errorf("stall time %q is not H:M:S", hms)
		}
	}
	// RocksDB prints milliseconds.
	return int64(math.Round(total*1e3)) * int64(time.Millisecond), nil
}
