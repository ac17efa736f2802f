package bbolt_test

import (
	"testing"

	_ "github.com/tsbench/storage/engine/bbolt"
	"github.com/tsbench/storage/engine/enginetest"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "bbolt", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "bbolt") }
