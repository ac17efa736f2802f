package bbolt

import (
	"cmp"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are bbolt's own settings, the [bbolt] table of a config file.
// The shared engine.Options are mapped separately; see the package doc.
type Options struct {
	// InitialMmapSize is the size in bytes of the file mapping made at open.
	// It costs address space, not memory or disk: the file still grows
	// with the data. While the data fits, a writer never has to remap, so
	// it never waits for open iterators (see the package doc). At most
	// 64 TiB, the address space a process has. Default 16 GiB.
	InitialMmapSize int64 `toml:"initial_mmap_size"`
	// PageSize is the B+tree page size in bytes, fixed when the file is
	// created, a power of two from 1024 to 1048576. Default 4096 (the OS
	// page size).
	PageSize int `toml:"page_size"`
	// FillPercent is how full a page is left when it splits, from 0.1 to
	// 1.0. bbolt's 0.5 suits random inserts; ascending keys such as
	// time-series points fill pages almost twice as densely at 0.9-1.0.
	// Default 0.5.
	FillPercent float64 `toml:"fill_percent"`
	// FreelistType is how free pages are tracked: "hashmap" stays fast when
	// the file is fragmented by deletes, "array" is bbolt's historic
	// default and finds the lowest free page. Default "hashmap".
	FreelistType string `toml:"freelist_type"`
	// NoFreelistSync skips writing the freelist at each commit, which makes
	// commits cheaper but makes every open scan the whole file to rebuild
	// it. etcd sets it: with millions of free pages, writing the list (8
	// bytes a page, in one run of contiguous pages) at every commit is
	// most of what a commit writes and grows the file (results/bbolt-freelist). Default false, bbolt's own default.
	NoFreelistSync bool `toml:"no_freelist_sync"`
	// NoGrowSync skips the fsync after the file is grown (in 16 MiB steps).
	// Default false.
	NoGrowSync bool `toml:"no_grow_sync"`
}

// Defaults of Options.
const (
	DefaultInitialMmapSize = 16 << 30
	DefaultPageSize        = 4096
	DefaultFillPercent     = bolt.DefaultFillPercent
	DefaultFreelistType    = string(bolt.FreelistMapType)
)

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	err := defaults.Fill("bbolt",
		// A mapping beyond the address space fails only when bbolt maps it.
		defaults.In("initial_mmap_size", &o.InitialMmapSize, DefaultInitialMmapSize, 1, 1<<46),
		defaults.In("page_size", &o.PageSize, DefaultPageSize, 1024, 1<<20),
	)
	if err != nil {
		return o, err
	}
	if o.PageSize&(o.PageSize-1) != 0 {
		return o, fmt.Errorf("%w: bbolt: page_size %d: use a power of two from 1024 to 1048576", engine.ErrInvalidOptions, o.PageSize)
	}
	o.FillPercent = cmp.Or(o.FillPercent, DefaultFillPercent)
	// bbolt silently clamps to this range; say so instead.
	if !(o.FillPercent >= 0.1 && o.FillPercent <= 1) { // NaN too
		return o, fmt.Errorf("%w: bbolt: fill_percent %g: use a fraction from 0.1 to 1.0", engine.ErrInvalidOptions, o.FillPercent)
	}
	switch o.FreelistType {
	case "":
		o.FreelistType = DefaultFreelistType
	case string(bolt.FreelistMapType), string(bolt.FreelistArrayType):
	default:
		return o, fmt.Errorf("%w: bbolt: freelist_type %q: use %q or %q", engine.ErrInvalidOptions, o.FreelistType, bolt.FreelistMapType, bolt.FreelistArrayType)
	}
	return o, nil
}

// boltOptions maps the shared and own options to bbolt's.
func boltOptions(shared engine.Options, o Options) *bolt.Options {
	return &bolt.Options{
		// A second opener fails instead of waiting forever for the lock.
		Timeout:         lockTimeout,
		NoSync:          shared.Sync == engine.SyncNone,
		NoGrowSync:      o.NoGrowSync,
		NoFreelistSync:  o.NoFreelistSync,
		FreelistType:    bolt.FreelistType(o.FreelistType),
		InitialMmapSize: int(o.InitialMmapSize),
		PageSize:        o.PageSize,
	}
}
