package hyperleveldb

import (
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "hyperleveldb", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "hyperleveldb") }
