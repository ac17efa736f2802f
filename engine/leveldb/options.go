package leveldb

import (
	"cmp"
	"fmt"

	"github.com/jmhodges/levigo"

	"github.com/tsbench/storage/engine"
)

// Options are LevelDB's own settings, the [leveldb] table of a config file.
// A zero field means its default.
type Options struct {
	// BlockSize is the approximate size in bytes of the uncompressed blocks
	// tables are read, compressed and cached by. Larger blocks favor scans,
	// smaller ones point reads. Default 4096 (4 KiB).
	BlockSize int `toml:"block_size"`
	// MaxFileSize is the size in bytes at which LevelDB starts a new table
	// file. Larger files mean fewer open files and fewer, larger
	// compactions. Default 2097152 (2 MiB).
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
	if o.BlockSize < 0 || o.MaxFileSize < 0 {
		return o, fmt.Errorf("%w: leveldb block_size and max_file_size must not be negative; use 0 for the default", engine.ErrInvalidOptions)
	}
	o.BlockSize = cmp.Or(o.BlockSize, DefaultBlockSize)
	o.MaxFileSize = cmp.Or(o.MaxFileSize, DefaultMaxFileSize)
	return o, nil
}

// settings are the C objects an open DB owns; they must outlive it.
type settings struct {
	opts   *levigo.Options
	cache  *levigo.Cache
	filter *levigo.FilterPolicy
	ro     *levigo.ReadOptions
	wo     *levigo.WriteOptions
}

// newSettings maps the shared and LevelDB options to LevelDB's.
func newSettings(o engine.Options) (*settings, error) {
	p, err := engine.EngineOptions[Options](o, "leveldb")
	if err != nil {
		return nil, err
	}
	own, err := p.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &settings{
		opts:  levigo.NewOptions(),
		cache: levigo.NewLRUCache(int(o.CacheSize)),
		ro:    levigo.NewReadOptions(),
		wo:    levigo.NewWriteOptions(),
	}
	s.opts.SetCreateIfMissing(true)
	s.opts.SetCache(s.cache)
	s.opts.SetWriteBufferSize(int(o.WriteBufferSize))
	s.opts.SetMaxOpenFiles(o.MaxOpenFiles)
	if o.DisableCompression {
		s.opts.SetCompression(levigo.NoCompression)
	} else {
		s.opts.SetCompression(levigo.SnappyCompression)
	}
	if o.BloomBitsPerKey > 0 {
		s.filter = levigo.NewBloomFilter(o.BloomBitsPerKey)
		s.opts.SetFilterPolicy(s.filter)
	}
	s.opts.SetBlockSize(own.BlockSize)
	setMaxFileSize(s.opts, own.MaxFileSize)
	s.wo.SetSync(o.Sync == engine.SyncBatch)
	return s, nil
}

// free releases the settings once the DB using them is closed.
func (s *settings) free() {
	s.opts.Close()
	s.ro.Close()
	s.wo.Close()
	s.cache.Close()
	if s.filter != nil {
		s.filter.Close()
	}
}
