package hyperleveldb

// #cgo pkg-config: hyperleveldb
// #cgo CFLAGS: -I${SRCDIR}/../internal
// #include "binding.h"
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/levelcore"
)

// name is the engine's registered name, its config table and marker.
const name = "hyperleveldb"

func init() {
	engine.RegisterBackend(name, open, engine.Driver{
		Version: Version,
		Build:   Build,
		// ApproximateSizes reads the tables alone.
		Limits: engine.Limits{MaxValueSize: levelcore.MaxValueSize, EstimateExcludesMemtable: true},
	})
}

// DB is a HyperLevelDB database: the LevelDB family's database
// (engine/internal/levelcore) on HyperLevelDB's C API.
type DB = levelcore.DB

// lib is HyperLevelDB as levelcore drives it.
var lib = levelcore.Library{
	Name: name,
	Ops:  unsafe.Pointer(&C.tsb_hyperleveldb_ops),
	Err:  ErrLibrary,
}

// Open opens or creates a HyperLevelDB database in dir, an existing
// directory, with opts, resolved first as engine.Open resolves them: the
// backend alone, without the directory lock and the contract's rules that
// engine.Open("hyperleveldb", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB](name, dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in own.
func open(dir string, opts engine.Options, own Options) (*DB, error) {
	if err := checkShared(opts); err != nil {
		return nil, err
	}
	return levelcore.Open(&lib, dir, opts, levelcore.Config{
		BlockSize: own.BlockSize,
		Verify:    own.VerifyChecksums,
		Tune: func(p unsafe.Pointer) error {
			o := (*C.tsb_hyperleveldb_options)(p).opts
			C.hyperleveldb_options_set_block_restart_interval(o, C.int(own.BlockRestartInterval))
			C.hyperleveldb_options_set_paranoid_checks(o, cbool(own.ParanoidChecks))
			return nil
		},
	})
}

func cbool(b bool) C.uchar {
	if b {
		return 1
	}
	return 0
}
