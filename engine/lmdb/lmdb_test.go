package lmdb

import (
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "lmdb", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "lmdb") }
