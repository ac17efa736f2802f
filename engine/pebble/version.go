package pebble

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the Pebble release linked in, such as "pebble v1.1.5".
func Version() string {
	return "pebble " + modversion.Of("github.com/cockroachdb/pebble", "v1.1.5")
}
