package goleveldb_test

import (
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
	_ "github.com/tsbench/storage/engine/goleveldb"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "goleveldb", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "goleveldb") }
