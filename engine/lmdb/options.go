package lmdb

import (
	"cmp"
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are LMDB's own settings, the [lmdb] table of configs/lmdb.toml.
// A zero value means the default.
type Options struct {
	// MapSize is the initial size in bytes of the memory map, the most the
	// data file may hold before the map grows. It costs address space, not
	// disk or memory, so a modest start is cheap. From 64 KiB to 64 TiB,
	// the address space a process has. Default 1 GiB.
	MapSize int64 `toml:"map_size"`
	// GrowthFactor multiplies the map size each time a write finds it full;
	// it must be above 1 and at most 16. Default 2.
	GrowthFactor float64 `toml:"growth_factor"`
	// MaxReaders caps the read transactions open at once: one per Get in
	// flight and one per open iterator. At most 65536. Default 126.
	MaxReaders int `toml:"max_readers"`
	// NoReadahead sets MDB_NORDAHEAD: the OS does not read ahead around
	// each page fault, which helps random reads once the database is
	// larger than RAM and hurts sequential scans. Default false.
	NoReadahead bool `toml:"no_readahead"`
	// WriteMap sets MDB_WRITEMAP: commits write straight into a writable
	// memory map instead of through write(2). Faster for databases that fit
	// in RAM, slower beyond; with sync "none" it adds MDB_MAPASYNC. See the
	// package documentation for what each profile then guarantees.
	// Default false.
	WriteMap bool `toml:"write_map"`
}

// Defaults of Options.
const (
	DefaultMapSize      = 1 << 30
	DefaultGrowthFactor = 2
	DefaultMaxReaders   = 126
)

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	err := defaults.Fill("lmdb",
		// A map beyond the address space fails only when LMDB maps it;
		// the reader table is allocated in the lock file up front.
		defaults.In("map_size", &o.MapSize, DefaultMapSize, 1<<16, 1<<46),
		defaults.In("max_readers", &o.MaxReaders, DefaultMaxReaders, 1, 1<<16),
	)
	if err != nil {
		return o, err
	}
	o.GrowthFactor = cmp.Or(o.GrowthFactor, DefaultGrowthFactor)
	if !(o.GrowthFactor > 1 && o.GrowthFactor <= 16) {
		return o, fmt.Errorf("%w: lmdb: growth_factor %v: use a number above 1 and at most 16, such as 2", engine.ErrInvalidOptions, o.GrowthFactor)
	}
	return o, nil
}
