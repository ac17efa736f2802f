package leveldb

// #include "binding.h"
import "C"

import (
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are LevelDB's own settings, the [leveldb] table of a config file.
// A zero field means its default.
type Options struct {
	// BlockSize is the approximate size in bytes of the uncompressed blocks
	// tables are read, compressed and cached by. Larger blocks favor scans,
	// smaller ones point reads. At most 64 MiB. Default 4096 (4 KiB).
	BlockSize int `toml:"block_size"`
	// MaxFileSize is the size in bytes at which LevelDB starts a new table
	// file. Larger files mean fewer open files and fewer, larger
	// compactions. At most 64 GiB. Default 2097152 (2 MiB).
	MaxFileSize int64 `toml:"max_file_size"`
}

// Defaults of Options.
const (
	DefaultBlockSize   = 4 << 10
	DefaultMaxFileSize = 2 << 20
)

// withDefaults returns o with zero fields set to their defaults, or an
// error wrapping engine.ErrInvalidOptions.
func (o Options) withDefaults() (Options, error) {
	// Far beyond a sensible setting; LevelDB buffers a whole block.
	err := defaults.Fill("leveldb",
		defaults.In("block_size", &o.BlockSize, DefaultBlockSize, 1, 64<<20),
		defaults.In("max_file_size", &o.MaxFileSize, DefaultMaxFileSize, 1, 64<<30),
	)
	return o, err
}

// settings are the C objects an open DB owns; they are read-only after
// Open, so every goroutine shares them, and must outlive the database.
type settings struct {
	opts   *C.leveldb_options_t
	cache  *C.leveldb_cache_t
	filter *C.leveldb_filterpolicy_t // nil without a bloom filter
	ro     *C.leveldb_readoptions_t
	wo     *C.leveldb_writeoptions_t
}

// newSettings maps the shared and LevelDB options to LevelDB's.
func newSettings(o engine.Options) (*settings, error) {
	p, err := engine.OptionsFor[Options](o, "leveldb")
	if err != nil {
		return nil, err
	}
	own, err := p.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &settings{
		opts:  C.leveldb_options_create(),
		cache: C.leveldb_cache_create_lru(C.size_t(o.CacheSize)),
		ro:    C.leveldb_readoptions_create(),
		wo:    C.leveldb_writeoptions_create(),
	}
	C.leveldb_options_set_create_if_missing(s.opts, 1)
	C.leveldb_options_set_cache(s.opts, s.cache)
	C.leveldb_options_set_write_buffer_size(s.opts, C.size_t(o.WriteBufferSize))
	C.leveldb_options_set_max_open_files(s.opts, C.int(o.MaxOpenFiles))
	compression := C.leveldb_snappy_compression
	if o.DisableCompression {
		compression = C.leveldb_no_compression
	}
	C.leveldb_options_set_compression(s.opts, C.int(compression))
	if o.BloomBitsPerKey > 0 {
		s.filter = C.leveldb_filterpolicy_create_bloom(C.int(o.BloomBitsPerKey))
		C.leveldb_options_set_filter_policy(s.opts, s.filter)
	}
	C.leveldb_options_set_block_size(s.opts, C.size_t(own.BlockSize))
	C.leveldb_options_set_max_file_size(s.opts, C.size_t(own.MaxFileSize))
	var sync C.uchar
	if o.Sync == engine.SyncBatch {
		sync = 1
	}
	C.leveldb_writeoptions_set_sync(s.wo, sync)
	return s, nil
}

// free releases the settings once the DB using them is closed.
func (s *settings) free() {
	C.leveldb_options_destroy(s.opts)
	C.leveldb_readoptions_destroy(s.ro)
	C.leveldb_writeoptions_destroy(s.wo)
	C.leveldb_cache_destroy(s.cache)
	if s.filter != nil {
		C.leveldb_filterpolicy_destroy(s.filter)
	}
}

// Resolve returns o with every default filled in (engine.Resolver), so
// that config files are checked and results record what ran.
func (o Options) Resolve(engine.Options) (any, error) { return o.withDefaults() }
