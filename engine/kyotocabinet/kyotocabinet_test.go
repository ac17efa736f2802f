package kyotocabinet_test

import (
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
	_ "github.com/tsbench/storage/engine/kyotocabinet"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "kyotocabinet", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "kyotocabinet") }
