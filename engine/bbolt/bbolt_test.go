package bbolt_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/bbolt"
	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) {
	enginetest.Run(t, func(t *testing.T, dir string) (engine.Engine, error) { return engine.Open("bbolt", dir, nil) })
}
