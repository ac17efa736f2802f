package leveldb

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

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	// Far beyond a sensible setting; LevelDB buffers a whole block.
	err := defaults.Fill("leveldb",
		defaults.In("block_size", &o.BlockSize, DefaultBlockSize, 1, 64<<20),
		defaults.In("max_file_size", &o.MaxFileSize, DefaultMaxFileSize, 1, 64<<30),
	)
	return o, err
}
