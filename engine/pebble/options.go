package pebble

import (
	"fmt"

	"github.com/tsbench/storage/engine"
)

// Options are Pebble's own settings, the [pebble] table of a config file.
// The shared engine.Options (cache, memtable, compression, open files,
// bloom filter, sync) are mapped separately; see the package doc.
type Options struct {
	// BlockSize is the target uncompressed size in bytes of a table data
	// block; larger blocks favour scans, smaller ones point reads.
	// Default 4096.
	BlockSize int `toml:"block_size"`
	// TargetFileSize is the size in bytes of the tables written to L0 and
	// L1; each deeper level doubles it. Default 2 MiB.
	TargetFileSize int64 `toml:"target_file_size"`
	// L0CompactionThreshold is the L0 read amplification (sublevel count)
	// that triggers a compaction out of L0. Default 4.
	L0CompactionThreshold int `toml:"l0_compaction_threshold"`
	// L0StopWritesThreshold is the L0 read amplification at which writes
	// stall until compactions catch up. Default 12.
	L0StopWritesThreshold int `toml:"l0_stop_writes_threshold"`
	// LBaseMaxBytes is the target size in bytes of the base level (the
	// level L0 compacts into); each level below is ten times larger.
	// Default 64 MiB.
	LBaseMaxBytes int64 `toml:"lbase_max_bytes"`
	// MaxConcurrentCompactions caps the compactions run at once; Pebble
	// starts more than one only when L0 or the compaction debt grows.
	// Default 1.
	MaxConcurrentCompactions int `toml:"max_concurrent_compactions"`
	// MemTableStopWritesThreshold is how many full memtables may queue for
	// flushing before writes stall. Pebble also keeps this many plus one
	// old WAL files for reuse. Default 2.
	MemTableStopWritesThreshold int `toml:"mem_table_stop_writes_threshold"`
}

// Defaults of Options, the same as Pebble's own.
const (
	DefaultBlockSize                   = 4096
	DefaultTargetFileSize              = 2 << 20
	DefaultL0CompactionThreshold       = 4
	DefaultL0StopWritesThreshold       = 12
	DefaultLBaseMaxBytes               = 64 << 20
	DefaultMaxConcurrentCompactions    = 1
	DefaultMemTableStopWritesThreshold = 2
)

// withDefaults returns a copy of o with zero fields set to their defaults,
// or an error naming the bad key.
func (o Options) withDefaults() (Options, error) {
	ints := []struct {
		key string
		v   *int
		def int
	}{
		{"block_size", &o.BlockSize, DefaultBlockSize},
		{"l0_compaction_threshold", &o.L0CompactionThreshold, DefaultL0CompactionThreshold},
		{"l0_stop_writes_threshold", &o.L0StopWritesThreshold, DefaultL0StopWritesThreshold},
		{"max_concurrent_compactions", &o.MaxConcurrentCompactions, DefaultMaxConcurrentCompactions},
		{"mem_table_stop_writes_threshold", &o.MemTableStopWritesThreshold, DefaultMemTableStopWritesThreshold},
	}
	for _, f := range ints {
		if *f.v < 0 {
			return o, fmt.Errorf("%w: pebble: %s is %d; use a positive number, or 0 for the default %d", engine.ErrInvalidOptions, f.key, *f.v, f.def)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	int64s := []struct {
		key string
		v   *int64
		def int64
	}{
		{"target_file_size", &o.TargetFileSize, DefaultTargetFileSize},
		{"lbase_max_bytes", &o.LBaseMaxBytes, DefaultLBaseMaxBytes},
	}
	for _, f := range int64s {
		if *f.v < 0 {
			return o, fmt.Errorf("%w: pebble: %s is %d; use a positive number, or 0 for the default %d", engine.ErrInvalidOptions, f.key, *f.v, f.def)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if o.L0StopWritesThreshold < o.L0CompactionThreshold {
		return o, fmt.Errorf("%w: pebble: l0_stop_writes_threshold (%d) is below l0_compaction_threshold (%d); raise it", engine.ErrInvalidOptions, o.L0StopWritesThreshold, o.L0CompactionThreshold)
	}
	return o, nil
}
