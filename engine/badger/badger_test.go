package badger_test

import (
	"testing"

	_ "github.com/tsbench/storage/engine/badger"
	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "badger", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "badger") }
