package badger_test

import (
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
)

func TestExpiry(t *testing.T) { enginetest.RunExpiry(t, "badger", nil) }
