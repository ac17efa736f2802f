package pebble1

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the Pebble v1 release linked in, such as "v1.1.5".
func Version() string {
	return modversion.Of("github.com/cockroachdb/pebble", "v1.1.5")
}

// Build reports how Pebble v1 was built: from source, as a Go module of
// this binary.
func Build() string { return "Go module " + Version() }
