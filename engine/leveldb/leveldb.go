package leveldb

// #cgo pkg-config: leveldb
// #cgo CFLAGS: -I${SRCDIR}/../internal
// #include "binding.h"
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/levelcore"
)

func init() {
	engine.RegisterBackend("leveldb", open, engine.Driver{
		Version: Version,
		Build:   Build,
		// ApproximateSizes reads the tables alone.
		Limits: engine.Limits{MaxValueSize: levelcore.MaxValueSize, EstimateExcludesMemtable: true},
	})
}

// DB is a LevelDB database: the LevelDB family's database
// (engine/internal/levelcore) on LevelDB's C API.
type DB = levelcore.DB

// lib is LevelDB as levelcore drives it.
var lib = levelcore.Library{
	Name: "leveldb",
	Ops:  unsafe.Pointer(&C.tsb_leveldb_ops),
	Err:  ErrLibrary,
	// See the package documentation, on Compact.
	FlushBeforeDeleteRange: true,
}

// Open opens or creates a LevelDB database in dir, an existing directory,
// with opts, resolved first as engine.Open resolves them: the backend
// alone, without the directory lock and the contract's rules that
// engine.Open("leveldb", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("leveldb", dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in own.
func open(dir string, opts engine.Options, own Options) (*DB, error) {
	return levelcore.Open(&lib, dir, opts, levelcore.Config{
		BlockSize: own.BlockSize,
		Tune: func(o unsafe.Pointer) error {
			C.leveldb_options_set_max_file_size((*C.tsb_leveldb_options)(o).opts, C.size_t(own.MaxFileSize))
			return nil
		},
	})
}
