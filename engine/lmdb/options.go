package lmdb

import (
	"fmt"
	"math"

	"github.com/tsbench/storage/engine"
)

// Options are LMDB's own settings, the [lmdb] table of configs/lmdb.toml.
// A zero value means the default.
type Options struct {
	// MapSize is the initial size in bytes of the memory map, the most the
	// data file may hold before the map grows. It costs address space, not
	// disk or memory, so a modest start is cheap. Default 1 GiB.
	MapSize int64 `toml:"map_size"`
	// GrowthFactor multiplies the map size each time a write finds it full;
	// it must be above 1. Default 2.
	GrowthFactor float64 `toml:"growth_factor"`
	// MaxReaders caps the read transactions open at once: one per Get in
	// flight and one per open iterator. Default 126.
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

// withDefaults returns a copy of o with zero fields set to their defaults,
// or an error wrapping engine.ErrInvalidOptions.
func (o Options) withDefaults() (Options, error) {
	if o.MapSize < 0 || o.MaxReaders < 0 {
		return o, fmt.Errorf("%w: lmdb: map_size and max_readers must not be negative", engine.ErrInvalidOptions)
	}
	if o.GrowthFactor != 0 && (o.GrowthFactor <= 1 || math.IsNaN(o.GrowthFactor) || math.IsInf(o.GrowthFactor, 0)) {
		return o, fmt.Errorf("%w: lmdb: growth_factor %v: use a number above 1, such as 2", engine.ErrInvalidOptions, o.GrowthFactor)
	}
	if o.MapSize == 0 {
		o.MapSize = DefaultMapSize
	}
	if o.GrowthFactor == 0 {
		o.GrowthFactor = DefaultGrowthFactor
	}
	if o.MaxReaders == 0 {
		o.MaxReaders = DefaultMaxReaders
	}
	return o, nil
}
