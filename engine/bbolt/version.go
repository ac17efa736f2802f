package bbolt

import "github.com/tsbench/storage/engine/internal/modversion"

// Version reports the bbolt release linked in, such as "v1.5.0".
func Version() string {
	return modversion.Of("go.etcd.io/bbolt", "v1.5.0")
}

// Build reports how bbolt was built: from source, as a Go module of this
// binary.
func Build() string { return "Go module " + Version() }
