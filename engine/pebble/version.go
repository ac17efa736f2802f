package pebble

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the Pebble release linked in, such as "v2.1.7".
func Version() string {
	return modversion.Of("github.com/cockroachdb/pebble/v2", "v2.1.7")
}

// Build reports how Pebble was built: from source, as a Go module of this
// binary.
func Build() string { return "Go module " + Version() }
