package pebble

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are Pebble's own settings, the [pebble] table of a config file.
// The shared engine.Options (cache, memtable, compression, open files,
// bloom filter, sync) are mapped separately; see the package doc.
type Options struct {
	// BlockSize is the target uncompressed size in bytes of a table data
	// block; larger blocks favour scans, smaller ones point reads. At most
	// 64 MiB. Default 4096.
	BlockSize int `toml:"block_size"`
	// TargetFileSize is the size in bytes of the tables flushed to L0;
	// the base level (the one L0 compacts into) gets twice that, and each
	// level below it doubles it again. At most 64 GiB. Default 2 MiB.
	TargetFileSize int64 `toml:"target_file_size"`
	// L0CompactionThreshold is the L0 read amplification (sublevel count)
	// that triggers a compaction out of L0, at most 1000. Default 4.
	L0CompactionThreshold int `toml:"l0_compaction_threshold"`
	// L0StopWritesThreshold is the L0 read amplification at which writes
	// stall until compactions catch up, at most 1000. Default 12.
	L0StopWritesThreshold int `toml:"l0_stop_writes_threshold"`
	// LBaseMaxBytes is the target size in bytes of the base level (the
	// level L0 compacts into); each level below is ten times larger.
	// At most 1 TiB. Default 64 MiB.
	LBaseMaxBytes int64 `toml:"lbase_max_bytes"`
	// MaxConcurrentCompactions caps the compactions run at once; Pebble
	// runs one and starts more, up to this cap, only when L0 or the
	// compaction debt grows. At most 64. Default 1.
	MaxConcurrentCompactions int `toml:"max_concurrent_compactions"`
	// MemTableStopWritesThreshold is how many full memtables may queue for
	// flushing before writes stall. Pebble also keeps this many plus one
	// old WAL files for reuse. At most 64. Default 2.
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

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	// Far beyond a sensible setting; beyond them sizes overflow as they
	// double per level, or Pebble holds that many memtables in memory.
	err := defaults.Fill("pebble",
		defaults.In("block_size", &o.BlockSize, DefaultBlockSize, 1, 64<<20),
		defaults.In("l0_compaction_threshold", &o.L0CompactionThreshold, DefaultL0CompactionThreshold, 1, 1000),
		defaults.In("l0_stop_writes_threshold", &o.L0StopWritesThreshold, DefaultL0StopWritesThreshold, 1, 1000),
		defaults.In("max_concurrent_compactions", &o.MaxConcurrentCompactions, DefaultMaxConcurrentCompactions, 1, 64),
		defaults.In("mem_table_stop_writes_threshold", &o.MemTableStopWritesThreshold, DefaultMemTableStopWritesThreshold, 1, 64),
		defaults.In("target_file_size", &o.TargetFileSize, DefaultTargetFileSize, 1, 64<<30),
		defaults.In("lbase_max_bytes", &o.LBaseMaxBytes, DefaultLBaseMaxBytes, 1, 1<<40),
	)
	if err != nil {
		return o, err
	}
	if o.L0StopWritesThreshold < o.L0CompactionThreshold {
		return o, fmt.Errorf("%w: pebble: l0_stop_writes_threshold (%d) is below l0_compaction_threshold (%d); raise it", engine.ErrInvalidOptions, o.L0StopWritesThreshold, o.L0CompactionThreshold)
	}
	return o, nil
}
