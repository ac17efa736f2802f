package pebble

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the Pebble release linked in, such as "v1.1.5".
func Version() string {
	return modversion.Of("github.com/cockroachdb/pebble", "v1.1.5")
}
