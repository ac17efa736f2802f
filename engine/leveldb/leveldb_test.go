package leveldb_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	_ "github.com/tsbench/storage/engine/leveldb"
)

func TestEngine(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) { return engine.Open("leveldb", dir, nil) })
}
