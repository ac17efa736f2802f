package rocksdb

import (
	"runtime"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are RocksDB's own settings, the [rocksdb] table of a config
// file. A zero field means its default.
type Options struct {
	// MaxBackgroundJobs caps the threads RocksDB runs flushes and
	// compactions on. RocksDB's own default, 2, lets compaction fall
	// behind a sustained bulk load on a many-core host. Default 2 x the
	// number of CPUs, as the 2014 benchmark set it; at most 256.
	MaxBackgroundJobs int `toml:"max_background_jobs"`
	// DisableDynamicLevelBytes turns off RocksDB's
	// level_compaction_dynamic_level_bytes, which sizes the levels from the
	// last one up and so bounds space amplification near 1.1x, and sizes
	// them from level 1 down instead, as RocksDB did by default before 8.4.
	// Default false (dynamic level sizes, RocksDB's default).
	DisableDynamicLevelBytes bool `toml:"disable_dynamic_level_bytes"`
	// TargetFileSizeBase is the size in bytes of the table files
	// compaction writes into level 1; deeper levels use the same size.
	// Larger files mean fewer open files. At most 64 GiB. Default
	// 67108864 (64 MiB).
	TargetFileSizeBase int64 `toml:"target_file_size_base"`
	// MaxBytesForLevelBase is the size in bytes the level that level 0
	// compacts into may reach before it is compacted further; each deeper
	// level is 10 times larger. With dynamic level sizes that base level
	// is the highest one the last level's size leaves room for, and this
	// caps it. At most 1 TiB. Default 268435456 (256 MiB).
	MaxBytesForLevelBase int64 `toml:"max_bytes_for_level_base"`
	// MaxWriteBufferNumber is how many memtables, the active one included,
	// may exist at once; writes stall when all are full and waiting for a
	// flush. At most 64. Default 2.
	MaxWriteBufferNumber int `toml:"max_write_buffer_number"`
	// BlockSize is the approximate size in bytes of the uncompressed
	// blocks tables are read, compressed and cached by, at most 64 MiB.
	// Default 4096 (4 KiB).
	BlockSize int `toml:"block_size"`
}

// Defaults of Options other than MaxBackgroundJobs, which depends on the
// host.
const (
	DefaultTargetFileSizeBase   = 64 << 20
	DefaultMaxBytesForLevelBase = 256 << 20
	DefaultMaxWriteBufferNumber = 2
	DefaultBlockSize            = 4 << 10
)

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	// Far beyond a sensible setting; RocksDB refuses some larger values
	// only when it opens, aborts on others, and holds that many memtables
	// or threads.
	err := defaults.Fill("rocksdb",
		defaults.In("max_background_jobs", &o.MaxBackgroundJobs, 2*runtime.NumCPU(), 1, 256),
		defaults.In("target_file_size_base", &o.TargetFileSizeBase, DefaultTargetFileSizeBase, 1, 64<<30),
		defaults.In("max_bytes_for_level_base", &o.MaxBytesForLevelBase, DefaultMaxBytesForLevelBase, 1, 1<<40),
		defaults.In("max_write_buffer_number", &o.MaxWriteBufferNumber, DefaultMaxWriteBufferNumber, 1, 64),
		defaults.In("block_size", &o.BlockSize, DefaultBlockSize, 1, 64<<20),
	)
	return o, err
}

// manifestPreallocation is the step by which the MANIFEST file's space is
// reserved.
const manifestPreallocation = 64 << 10
