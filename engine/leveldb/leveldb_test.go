package leveldb

import (
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "leveldb", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "leveldb") }
