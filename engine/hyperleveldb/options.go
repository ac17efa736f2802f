package hyperleveldb

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are HyperLevelDB's own settings, the [hyperleveldb] table of
// configs/hyperleveldb.toml. The shared engine.Options (cache, memtable,
// compression, open files, bloom filter, sync) are mapped separately; see
// the package doc. A zero value means the default.
type Options struct {
	// BlockSize is the target uncompressed size in bytes of a table data
	// block; larger blocks favour scans, smaller ones point reads. At most
	// 4 MiB; HyperLevelDB raises values below 1 KiB to 1 KiB. Default 4096.
	BlockSize int `toml:"block_size"`
	// BlockRestartInterval is how many keys share one prefix-compression
	// restart point in a block; more keys compress better and make seeks
	// within a block slower. At most 1048576. Default 16.
	BlockRestartInterval int `toml:"block_restart_interval"`
	// ParanoidChecks makes HyperLevelDB stop at the first sign of
	// corruption (while opening and in background compactions) instead of
	// skipping what it cannot read. Default false.
	ParanoidChecks bool `toml:"paranoid_checks"`
	// VerifyChecksums checks the checksum of every block Get and iterators
	// read (compactions check theirs only with ParanoidChecks).
	// Default false.
	VerifyChecksums bool `toml:"verify_checksums"`
}

// Defaults of Options, the same as HyperLevelDB's own.
const (
	DefaultBlockSize            = 4096
	DefaultBlockRestartInterval = 16
)

// Limits above which HyperLevelDB would silently lower a setting; asking
// for more is refused rather than quietly not honoured.
const (
	maxWriteBufferSize = 1 << 30
	maxOpenFiles       = 50000
	maxBlockSize       = 4 << 20
)

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	err := defaults.Fill(name,
		defaults.In("block_size", &o.BlockSize, DefaultBlockSize, 1, maxBlockSize),
		// Far beyond any use: a block of 4 MiB holds fewer keys.
		defaults.In("block_restart_interval", &o.BlockRestartInterval, DefaultBlockRestartInterval, 1, 1<<20),
	)
	return o, err
}

// checkShared refuses shared options beyond what HyperLevelDB honours.
func checkShared(opts engine.Options) error {
	if opts.WriteBufferSize > maxWriteBufferSize {
		return fmt.Errorf("%w: hyperleveldb: write_buffer_size %d exceeds HyperLevelDB's limit of %d (1 GiB); lower it", engine.ErrInvalidOptions, opts.WriteBufferSize, maxWriteBufferSize)
	}
	if opts.MaxOpenFiles > maxOpenFiles {
		return fmt.Errorf("%w: hyperleveldb: max_open_files %d exceeds HyperLevelDB's limit of %d; lower it", engine.ErrInvalidOptions, opts.MaxOpenFiles, maxOpenFiles)
	}
	return nil
}
