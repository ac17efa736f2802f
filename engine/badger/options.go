package badger

import (
	"fmt"
	"math"

	badgerv4 "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are Badger's own settings, the [badger] table of a config file.
// The shared engine.Options are mapped separately; see the package doc.
type Options struct {
	// Compression is the table block compression: "snappy", "zstd" or
	// "none". The shared disable_compression = true overrides it with
	// "none". Default "snappy".
	Compression string `toml:"compression"`
	// ZSTDLevel is the zstd level when Compression is "zstd", from 1 to
	// 22; higher levels compress more, slower. Default 1.
	ZSTDLevel int `toml:"zstd_level"`
	// ValueThreshold is the value size in bytes from which a value is kept
	// in the value log instead of inline in the LSM tree. Badger caps it at
	// 1 MiB and at what one transaction may hold, 15% of write_buffer_size.
	// Default 1 MiB, or that 15% when it is smaller.
	ValueThreshold int64 `toml:"value_threshold"`
	// NumMemtables is how many memtables, the active one included, may be
	// held in memory before writes stall, at most 64. Default 5.
	NumMemtables int `toml:"num_memtables"`
	// NumCompactors is how many compaction goroutines run; 0 means the
	// default, and Badger needs from 2 to 64. Default 4.
	NumCompactors int `toml:"num_compactors"`
	// NumLevelZeroTables is the L0 table count that triggers a compaction
	// into the base level, at most 1000. Default 5.
	NumLevelZeroTables int `toml:"num_level_zero_tables"`
	// NumLevelZeroTablesStall is the L0 table count at which writes stall
	// until compactions catch up, above NumLevelZeroTables and at most
	// 1000. Default 15.
	NumLevelZeroTablesStall int `toml:"num_level_zero_tables_stall"`
	// BaseTableSize is the size in bytes of the tables written to the base
	// level; deeper levels use larger tables. At most 1 GiB. Default 2 MiB.
	BaseTableSize int64 `toml:"base_table_size"`
	// BaseLevelSize is the target size in bytes of the base level; each
	// level below is ten times larger. At most 1 TiB. Default 10 MiB.
	BaseLevelSize int64 `toml:"base_level_size"`
	// BlockSize is the size in bytes of a table data block, at most
	// 64 MiB. Default 4096.
	BlockSize int `toml:"block_size"`
	// IndexCacheSize caps the memory in bytes for table indexes and bloom
	// filters, at most 64 GiB; 0 keeps them all in memory. Default 0.
	IndexCacheSize int64 `toml:"index_cache_size"`
	// ValueLogFileSize is the size in bytes at which a value log file is
	// rotated, from 1 MiB to 2 GiB. Default 1 GiB.
	ValueLogFileSize int64 `toml:"value_log_file_size"`
}

// Defaults of Options, the same as Badger's own.
const (
	DefaultCompression             = "snappy"
	DefaultZSTDLevel               = 1
	DefaultValueThreshold          = 1 << 20
	DefaultNumMemtables            = 5
	DefaultNumCompactors           = 4
	DefaultNumLevelZeroTables      = 5
	DefaultNumLevelZeroTablesStall = 15
	DefaultBaseTableSize           = 2 << 20
	DefaultBaseLevelSize           = 10 << 20
	DefaultBlockSize               = 4096
	DefaultValueLogFileSize        = 1<<30 - 1
)

// maxIndexCache bounds IndexCacheSize: Badger allocates the cache's
// admission counters in proportion to it when it opens.
const maxIndexCache = 64 << 30

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key. The shared write_buffer_size bounds ValueThreshold.
func (o Options) Resolve(shared engine.Options) (any, error) {
	maxBatch := shared.WriteBufferSize * 15 / 100 // Badger's transaction size limit
	if o.ValueThreshold < 0 {
		return o, fmt.Errorf("%w: badger: value_threshold is %d; use a positive number, or 0 for the default", engine.ErrInvalidOptions, o.ValueThreshold)
	}
	if o.ValueThreshold == 0 {
		o.ValueThreshold = min(DefaultValueThreshold, maxBatch)
	}
	if o.ValueThreshold > maxBatch {
		return o, fmt.Errorf("%w: badger: value_threshold %d is over 15%% of write_buffer_size (%d); lower it or raise write_buffer_size", engine.ErrInvalidOptions, o.ValueThreshold, maxBatch)
	}
	// Badger sizes channels, caches and blocks from these up front, so
	// that a huge one panics or exhausts memory when it opens.
	err := defaults.Fill("badger",
		defaults.In("zstd_level", &o.ZSTDLevel, DefaultZSTDLevel, 1, 22),
		defaults.In("num_memtables", &o.NumMemtables, DefaultNumMemtables, 1, 64),
		defaults.In("num_compactors", &o.NumCompactors, DefaultNumCompactors, 2, 64),
		defaults.In("num_level_zero_tables", &o.NumLevelZeroTables, DefaultNumLevelZeroTables, 1, 1000),
		defaults.In("num_level_zero_tables_stall", &o.NumLevelZeroTablesStall, DefaultNumLevelZeroTablesStall, 2, 1000),
		defaults.In("block_size", &o.BlockSize, DefaultBlockSize, 1, 64<<20),
		defaults.In("base_table_size", &o.BaseTableSize, DefaultBaseTableSize, 1, 1<<30),
		defaults.In("base_level_size", &o.BaseLevelSize, DefaultBaseLevelSize, 1, 1<<40),
		defaults.Of("value_log_file_size", &o.ValueLogFileSize, DefaultValueLogFileSize),
	)
	if err != nil {
		return o, err
	}
	if o.IndexCacheSize < 0 || o.IndexCacheSize > maxIndexCache {
		return o, fmt.Errorf("%w: badger: index_cache_size is %d; use 1 to %d (64 GiB), or 0 to keep every index in memory", engine.ErrInvalidOptions, o.IndexCacheSize, int64(maxIndexCache))
	}
	// Badger asserts this, panicking when it opens.
	if o.NumLevelZeroTablesStall <= o.NumLevelZeroTables {
		return o, fmt.Errorf("%w: badger: num_level_zero_tables_stall (%d) must be above num_level_zero_tables (%d); raise it", engine.ErrInvalidOptions, o.NumLevelZeroTablesStall, o.NumLevelZeroTables)
	}
	if o.ValueThreshold > DefaultValueThreshold {
		return o, fmt.Errorf("%w: badger: value_threshold %d is above Badger's limit; use at most %d", engine.ErrInvalidOptions, o.ValueThreshold, DefaultValueThreshold)
	}
	if o.ValueLogFileSize < 1<<20 || o.ValueLogFileSize >= 2<<30 {
		return o, fmt.Errorf("%w: badger: value_log_file_size %d: use 1 MiB to 2 GiB", engine.ErrInvalidOptions, o.ValueLogFileSize)
	}
	switch o.Compression {
	case "":
		o.Compression = DefaultCompression
	case "snappy", "zstd", "none":
	default:
		return o, fmt.Errorf("%w: badger: compression %q: use \"snappy\", \"zstd\" or \"none\"", engine.ErrInvalidOptions, o.Compression)
	}
	return o, nil
}

// badgerOptions maps the shared and own options to Badger's.
func badgerOptions(dir string, shared engine.Options, o Options) badgerv4.Options {
	b := badgerv4.DefaultOptions(dir).
		WithLoggingLevel(badgerv4.WARNING).
		WithSyncWrites(shared.Sync == engine.SyncBatch).
		WithBlockCacheSize(shared.CacheSize).
		WithMemTableSize(shared.WriteBufferSize).
		WithBloomFalsePositive(bloomFalsePositive(shared.BloomBitsPerKey)).
		WithNumVersionsToKeep(1).
		WithValueThreshold(o.ValueThreshold).
		WithNumMemtables(o.NumMemtables).
		WithNumCompactors(o.NumCompactors).
		WithNumLevelZeroTables(o.NumLevelZeroTables).
		WithNumLevelZeroTablesStall(o.NumLevelZeroTablesStall).
		WithBaseTableSize(o.BaseTableSize).
		WithBaseLevelSize(o.BaseLevelSize).
		WithBlockSize(o.BlockSize).
		WithIndexCacheSize(o.IndexCacheSize).
		WithValueLogFileSize(o.ValueLogFileSize).
		WithZSTDCompressionLevel(o.ZSTDLevel).
		// A table's checksum is verified when it is opened, so that a
		// damaged file is reported (engine.ErrCorrupt) rather than read;
		// verifying every block read would cost each Get.
		WithChecksumVerificationMode(options.OnTableRead).
		// Writes are blind (no reads in write transactions), so conflict
		// tracking would only cost time; metrics cost time on every read.
		// Close merges level 0 into the tree, so that Compact's reopen
		// leaves no tables behind in level 0, which Flatten skips when
		// it is the only level.
		WithCompactL0OnClose(true).
		WithDetectConflicts(false).
		WithMetricsEnabled(false)
	switch {
	case shared.DisableCompression || o.Compression == "none":
		b = b.WithCompression(options.None)
	case o.Compression == "zstd":
		b = b.WithCompression(options.ZSTD)
	default:
		b = b.WithCompression(options.Snappy)
	}
	return b
}

// bloomFalsePositive turns bits per key into the false positive rate of an
// optimally sized bloom filter, about 0.6185^bits (0.8% at 10 bits); a
// negative count disables the filter, which Badger spells as 0.
func bloomFalsePositive(bits int) float64 {
	if bits < 0 {
		return 0
	}
	return math.Pow(0.6185, float64(bits))
}
