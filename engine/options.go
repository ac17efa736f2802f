package engine

import (
	"cmp"
	"fmt"
	"time"
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
	// that read through the OS page cache (LMDB, bbolt) ignore it. At
	// least SizeMin, at most the machine's memory. Default 64 MiB.
	CacheSize int64 `toml:"cache_size" json:"cache_size"`
	// WriteBufferSize is the size in bytes of the in-memory write buffer
	// (memtable) before it is flushed to a file. At least SizeMin, at
	// most WriteBufferSizeLimit. Default 64 MiB.
	WriteBufferSize int64 `toml:"write_buffer_size" json:"write_buffer_size"`
	// DisableCompression turns off block compression. Default false
	// (compressed with Snappy where the engine supports it).
	DisableCompression bool `toml:"disable_compression" json:"disable_compression"`
	// MaxOpenFiles caps the table files an engine keeps open. At most
	// MaxOpenFilesLimit. Default 1000.
	MaxOpenFiles int `toml:"max_open_files" json:"max_open_files"`
	// BloomBitsPerKey sets the bloom filter size for point reads; a
	// negative value disables the filter. At most BloomBitsPerKeyLimit.
	// Default 10.
	BloomBitsPerKey int `toml:"bloom_bits_per_key" json:"bloom_bits_per_key"`
	// Expiry, above 0, makes the engine drop every entry by itself some
	// time after Expiry has passed since the write that made it, by the
	// wall clock: Badger's TTL, RocksDB's TTL database, Cassandra's TTL.
	// An entry stays readable at least that long, never less, and may be
	// read after it until the engine drops it (RocksDB drops it only when
	// a compaction reaches its file). A whole number of seconds, at most
	// ExpiryLimit; an engine without expiry (Driver.Expiry) refuses it
	// with ErrNoExpiry. A store written with an expiry is opened with
	// one. Default 0: entries stay until they are deleted.
	Expiry time.Duration `toml:"expiry,omitzero" json:"expiry,omitempty"`
	// Engine holds the backend's own settings: a pointer to its Options
	// type (for example *rocksdb.Options); OpenWith sets it with the type
	// checked before anything is opened. Default nil, the backend's
	// defaults.
	Engine any `toml:"-" json:"engine,omitempty"`
}

// Default values of the shared options.
const (
	DefaultCacheSize       = 64 << 20
	DefaultWriteBufferSize = 64 << 20
	DefaultMaxOpenFiles    = 1000
	DefaultBloomBitsPerKey = 10
)

// Upper bounds of the shared options, with CacheSize's, the machine's
// memory. Each is far beyond a sensible setting, but an engine given more
// allocates without limit or aborts rather than failing: a write buffer
// of 2^63-1 aborts RocksDB, a 9e18-byte cache panics Badger. Engines
// with a lower limit of their own check it when they open.
const (
	// SizeMin is the smallest CacheSize and WriteBufferSize: a size
	// below it is a number written without its unit (cache_size = 64,
	// meant as 64 MiB) far more often than a setting anyone wants.
	SizeMin = 64 << 10
	// WriteBufferSizeLimit bounds WriteBufferSize: engines keep that
	// much in memory, several buffers at a time.
	WriteBufferSizeLimit = 16 << 30
	// MaxOpenFilesLimit bounds MaxOpenFiles, beyond any kernel's file
	// limit.
	MaxOpenFilesLimit = 1 << 24
	// BloomBitsPerKeyLimit bounds BloomBitsPerKey: 100 bits give a false
	// positive rate below 1e-20.
	BloomBitsPerKeyLimit = 100
	// ExpiryLimit bounds Expiry: RocksDB takes its TTL in seconds as a
	// 32-bit int.
	ExpiryLimit = (1<<31 - 1) * time.Second
)

// WithDefaults returns a copy of o with every zero field set to its
// default, or an error wrapping ErrInvalidOptions for a value out of
// bounds; its message is one line naming the key, the value, the bound
// and the fix. Open calls it, so every engine is kept within them.
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
	if mem := memoryBytes(); mem > 0 && r.CacheSize > mem {
		return r, fmt.Errorf("%w: cache_size %s is more than this machine's memory, %s; use at most that", ErrInvalidOptions, formatSize(r.CacheSize), formatSize(mem))
	}
	for _, x := range []struct {
		key string
		v   int64
	}{{"cache_size", r.CacheSize}, {"write_buffer_size", r.WriteBufferSize}} {
		if x.v < SizeMin {
			return r, fmt.Errorf("%w: %s %d is %d bytes: sizes are in bytes unless they name a unit; write %dMiB (at least %s)",
				ErrInvalidOptions, x.key, x.v, x.v, x.v, formatSize(SizeMin))
		}
	}
	switch {
	case r.WriteBufferSize > WriteBufferSizeLimit:
		return r, fmt.Errorf("%w: write_buffer_size %s is above the maximum of %s; lower it", ErrInvalidOptions, formatSize(r.WriteBufferSize), formatSize(WriteBufferSizeLimit))
	case r.MaxOpenFiles > MaxOpenFilesLimit:
		return r, fmt.Errorf("%w: max_open_files %d is above the maximum of %d; lower it", ErrInvalidOptions, r.MaxOpenFiles, MaxOpenFilesLimit)
	case r.BloomBitsPerKey > BloomBitsPerKeyLimit:
		return r, fmt.Errorf("%w: bloom_bits_per_key %d is above the maximum of %d; lower it", ErrInvalidOptions, r.BloomBitsPerKey, BloomBitsPerKeyLimit)
	case r.Expiry < 0 || r.Expiry > ExpiryLimit:
		return r, fmt.Errorf("%w: expiry %v: give 0 for none, or up to %v", ErrInvalidOptions, r.Expiry, ExpiryLimit)
	case r.Expiry%time.Second != 0:
		return r, fmt.Errorf("%w: expiry %v: engines expire entries in whole seconds; give %v", ErrInvalidOptions, r.Expiry, r.Expiry.Truncate(time.Second)+time.Second)
	}
	return r, nil
}

// OptionsFor returns o.Engine as *T, a new zero *T when it is nil, or an
// error wrapping ErrInvalidOptions when it holds another engine's type.
// A driver's Open, given resolved options, reads its own with it.
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
