package rocksdb

import (
	"cmp"
	"fmt"
	"runtime"

	"github.com/linxGnu/grocksdb"

	"github.com/tsbench/storage/engine"
)

// Options are RocksDB's own settings, the [rocksdb] table of a config
// file. A zero field means its default.
type Options struct {
	// MaxBackgroundJobs caps the threads RocksDB runs flushes and
	// compactions on. RocksDB's own default, 2, lets compaction fall
	// behind a sustained bulk load on a many-core host. Default 2 x the
	// number of CPUs, as the 2014 benchmark set it.
	MaxBackgroundJobs int `toml:"max_background_jobs"`
	// LevelCompactionDynamicLevelBytes sizes the levels from the last one
	// up, which bounds space amplification near 1.1x; RocksDB recommends
	// it and makes it the default from 8.4. Default false (RocksDB 7.8's).
	LevelCompactionDynamicLevelBytes bool `toml:"level_compaction_dynamic_level_bytes"`
	// TargetFileSizeBase is the size in bytes of the table files
	// compaction writes into level 1; deeper levels use the same size.
	// Larger files mean fewer open files. Default 67108864 (64 MiB).
	TargetFileSizeBase int64 `toml:"target_file_size_base"`
	// MaxBytesForLevelBase is the size in bytes level 1 may reach before
	// it is compacted into level 2; each deeper level is 10 times larger.
	// Default 268435456 (256 MiB).
	MaxBytesForLevelBase int64 `toml:"max_bytes_for_level_base"`
	// MaxWriteBufferNumber is how many memtables, the active one included,
	// may exist at once; writes stall when all are full and waiting for a
	// flush. Default 2.
	MaxWriteBufferNumber int `toml:"max_write_buffer_number"`
	// BlockSize is the approximate size in bytes of the uncompressed
	// blocks tables are read, compressed and cached by. Default 4096
	// (4 KiB).
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

// withDefaults returns o with zero fields set to their defaults, or an
// error wrapping engine.ErrInvalidOptions.
func (o Options) withDefaults() (Options, error) {
	if o.MaxBackgroundJobs < 0 || o.TargetFileSizeBase < 0 || o.MaxBytesForLevelBase < 0 ||
		o.MaxWriteBufferNumber < 0 || o.BlockSize < 0 {
		return o, fmt.Errorf("%w: rocksdb options must not be negative; use 0 for the default", engine.ErrInvalidOptions)
	}
	o.MaxBackgroundJobs = cmp.Or(o.MaxBackgroundJobs, 2*runtime.NumCPU())
	o.TargetFileSizeBase = cmp.Or(o.TargetFileSizeBase, DefaultTargetFileSizeBase)
	o.MaxBytesForLevelBase = cmp.Or(o.MaxBytesForLevelBase, DefaultMaxBytesForLevelBase)
	o.MaxWriteBufferNumber = cmp.Or(o.MaxWriteBufferNumber, DefaultMaxWriteBufferNumber)
	o.BlockSize = cmp.Or(o.BlockSize, DefaultBlockSize)
	return o, nil
}

// manifestPreallocation is the step by which the MANIFEST file's space is
// reserved.
const manifestPreallocation = 64 << 10

// settings are the C objects an open DB owns; they must outlive it.
type settings struct {
	opts  *grocksdb.Options
	table *grocksdb.BlockBasedTableOptions
	cache *grocksdb.Cache
	ro    *grocksdb.ReadOptions
	wo    *grocksdb.WriteOptions
}

// newSettings maps the shared and RocksDB options to RocksDB's.
func newSettings(o engine.Options) (*settings, error) {
	p, err := engine.EngineOptions[Options](o, "rocksdb")
	if err != nil {
		return nil, err
	}
	own, err := p.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &settings{
		opts:  grocksdb.NewDefaultOptions(),
		table: grocksdb.NewDefaultBlockBasedTableOptions(),
		cache: grocksdb.NewLRUCache(uint64(o.CacheSize)),
		ro:    grocksdb.NewDefaultReadOptions(),
		wo:    grocksdb.NewDefaultWriteOptions(),
	}
	s.table.SetBlockCache(s.cache)
	s.table.SetBlockSize(own.BlockSize)
	if o.BloomBitsPerKey > 0 {
		s.table.SetFilterPolicy(grocksdb.NewBloomFilterFull(float64(o.BloomBitsPerKey)))
	}
	s.opts.SetBlockBasedTableFactory(s.table)
	s.opts.SetCreateIfMissing(true)
	s.opts.SetWriteBufferSize(uint64(o.WriteBufferSize))
	s.opts.SetMaxOpenFiles(o.MaxOpenFiles)
	if o.DisableCompression {
		s.opts.SetCompression(grocksdb.NoCompression)
	} else {
		s.opts.SetCompression(grocksdb.SnappyCompression)
	}
	s.opts.SetMaxBackgroundJobs(own.MaxBackgroundJobs)
	s.opts.SetLevelCompactionDynamicLevelBytes(own.LevelCompactionDynamicLevelBytes)
	s.opts.SetTargetFileSizeBase(uint64(own.TargetFileSizeBase))
	s.opts.SetMaxBytesForLevelBase(uint64(own.MaxBytesForLevelBase))
	s.opts.SetMaxWriteBufferNumber(own.MaxWriteBufferNumber)
	// RocksDB reserves the MANIFEST's disk space 4 MiB at a time; its
	// version edits are a few hundred bytes, and the reserve would show as
	// the bulk of a small database's size.
	s.opts.SetManifestPreallocationSize(manifestPreallocation)
	s.wo.SetSync(o.Sync == engine.SyncBatch)
	return s, nil
}

// free releases the settings once the DB using them is closed.
func (s *settings) free() {
	s.opts.Destroy()
	s.table.Destroy()
	s.cache.Destroy()
	s.ro.Destroy()
	s.wo.Destroy()
}
