package rocksdb_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	_ "github.com/tsbench/storage/engine/rocksdb"
)

func TestEngine(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) { return engine.Open("rocksdb", dir, nil) })
}
