package badger

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the Badger release linked in, such as "v4.9.6".
func Version() string {
	return modversion.Of("github.com/dgraph-io/badger/v4", "v4.9.6")
}

// Build reports how Badger was built: from source, as a Go module of this
// binary.
func Build() string { return "Go module " + Version() }
