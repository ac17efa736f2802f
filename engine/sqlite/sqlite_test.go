package sqlite_test

import (
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
	_ "github.com/tsbench/storage/engine/sqlite"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "sqlite", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "sqlite") }
