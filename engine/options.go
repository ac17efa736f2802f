package engine

import (
	"cmp"
	"fmt"
)

// SyncMode says when a commit reaches stable storage. The same profile is
// applied to every engine so that their numbers compare.
type SyncMode string

const (
	// SyncNone returns from a commit once the engine holds the write in its
	// log or pages; it survives a crash of the process but may be lost if
	// the machine fails before the OS writes it back.
	SyncNone SyncMode = "none"
	// SyncBatch flushes every commit (a Put, Delete or Batch.Commit) to
	// stable storage before returning: it survives a machine failure.
	SyncBatch SyncMode = "batch"
)

// Options are the settings every engine shares. A zero value means the
// default; engines map each one to their own knob and document the ones
// they have no equivalent for. TOML keys are given in the struct tags.
type Options struct {
	// Sync is the durability profile: "none" or "batch". Default "none".
	Sync SyncMode `toml:"sync" json:"sync"`
	// CacheSize is the size in bytes of the engine's block cache. Engines
	// that read through the OS page cache (LMDB, bbolt) ignore it.
	// Default 64 MiB.
	CacheSize int64 `toml:"cache_size" json:"cache_size"`
	// WriteBufferSize is the size in bytes of the in-memory write buffer
	// (memtable) before it is flushed to a file. Default 64 MiB.
	WriteBufferSize int64 `toml:"write_buffer_size" json:"write_buffer_size"`
	// DisableCompression turns off block compression. Default false
	// (compressed with Snappy where the engine supports it).
	DisableCompression bool `toml:"disable_compression" json:"disable_compression"`
	// MaxOpenFiles caps the table files an engine keeps open. Default 1000.
	MaxOpenFiles int `toml:"max_open_files" json:"max_open_files"`
	// BloomBitsPerKey sets the bloom filter size for point reads; a
	// negative value disables the filter. Default 10.
	BloomBitsPerKey int `toml:"bloom_bits_per_key" json:"bloom_bits_per_key"`
	// Engine holds the backend's own settings: a pointer to its Options
	// type (for example *rocksdb.Options), or nil for its defaults.
	Engine any `toml:"-" json:"engine,omitempty"`
}

// Default values of the shared options.
const (
	DefaultCacheSize       = 64 << 20
	DefaultWriteBufferSize = 64 << 20
	DefaultMaxOpenFiles    = 1000
	DefaultBloomBitsPerKey = 10
)

// WithDefaults returns a copy of o with every zero field set to its
// default, or an error wrapping ErrInvalidOptions.
func (o *Options) WithDefaults() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	switch r.Sync {
	case "":
		r.Sync = SyncNone
	case SyncNone, SyncBatch:
	default:
		return r, fmt.Errorf("%w: sync %q: use %q or %q", ErrInvalidOptions, r.Sync, SyncNone, SyncBatch)
	}
	if r.CacheSize < 0 || r.WriteBufferSize < 0 || r.MaxOpenFiles < 0 {
		return r, fmt.Errorf("%w: cache_size, write_buffer_size and max_open_files must not be negative", ErrInvalidOptions)
	}
	r.CacheSize = cmp.Or(r.CacheSize, DefaultCacheSize)
	r.WriteBufferSize = cmp.Or(r.WriteBufferSize, DefaultWriteBufferSize)
	r.MaxOpenFiles = cmp.Or(r.MaxOpenFiles, DefaultMaxOpenFiles)
	r.BloomBitsPerKey = cmp.Or(r.BloomBitsPerKey, DefaultBloomBitsPerKey)
	return r, nil
}

// OptionsFor returns o.Engine as *T, a new zero *T when it is nil, or an
// error wrapping ErrInvalidOptions when it holds another engine's type.
// Backends call it from their Open with their own options type.
func OptionsFor[T any](o Options, name string) (*T, error) {
	switch v := o.Engine.(type) {
	case nil:
		return new(T), nil
	case *T:
		if v == nil {
			return new(T), nil
		}
		return v, nil
	default:
		return nil, fmt.Errorf("%w: %s wants %T in Options.Engine, got %T", ErrInvalidOptions, name, new(T), o.Engine)
	}
}
