package badger3

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the Badger v3 release linked in, such as "v3.2103.5".
func Version() string {
	return modversion.Of("github.com/dgraph-io/badger/v3", "v3.2103.5")
}

// Build reports how Badger v3 was built: from source, as a Go module of
// this binary.
func Build() string { return "Go module " + Version() }
