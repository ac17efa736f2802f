package badger_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/badger"
	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) { return engine.Open("badger", dir, nil) })
}
