package goleveldb

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the goleveldb release linked in, such as "v1.0.0".
func Version() string {
	return modversion.Of("github.com/syndtr/goleveldb", "v1.0.0")
}

// Build reports how goleveldb was built: from source, as a Go module of this
// binary.
func Build() string { return "Go module " + Version() }
