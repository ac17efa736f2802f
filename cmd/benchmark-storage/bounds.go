package main

import (
	"syscall"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
)

// Upper bounds of numeric settings that have none of their own in the
// library they go to. Each is far beyond a sensible run but keeps an
// engine or the harness from allocating without limit or overflowing:
// a 9e18-byte cache panics Badger, a write buffer of 2^63-1 aborts
// RocksDB, a batch of 1G points asks for 24 GB.
const (
	// maxSeriesBatch bounds -batch of the time-series workload.
	maxSeriesBatch = 1_000_000
	// maxWriteBuffer bounds write_buffer_size: the engines keep it in
	// memory, several at a time.
	maxWriteBuffer = 16 << 30
	// maxOpenFiles bounds max_open_files, beyond any kernel's file limit.
	maxOpenFiles = 1 << 24
	// maxBloomBits bounds bloom_bits_per_key: 100 bits give a false
	// positive rate below 1e-20.
	maxBloomBits = 100
	// maxStall bounds -stall-timeout.
	maxStall = 24 * time.Hour
)

// memoryBytes is this machine's RAM, 0 if unknown.
func memoryBytes() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}

// checkOptionBounds refuses shared options no engine can honour: a cache
// larger than the machine's memory, and the bounds above.
func checkOptionBounds(o engine.Options) error {
	if mem := memoryBytes(); mem > 0 && o.CacheSize > mem {
		return inputErrorf("cache_size %s is more than this machine's memory (%s): use at most that, with -cache-size or the config", report.Bytes(o.CacheSize), report.Bytes(mem))
	}
	switch {
	case o.WriteBufferSize > maxWriteBuffer:
		return inputErrorf("write_buffer_size %s is above the maximum of %s: lower it in the config", report.Bytes(o.WriteBufferSize), report.Bytes(maxWriteBuffer))
	case o.MaxOpenFiles > maxOpenFiles:
		return inputErrorf("max_open_files %d is above the maximum of %d: lower it in the config", o.MaxOpenFiles, maxOpenFiles)
	case o.BloomBitsPerKey > maxBloomBits:
		return inputErrorf("bloom_bits_per_key %d is above the maximum of %d: lower it in the config", o.BloomBitsPerKey, maxBloomBits)
	}
	return nil
}
