package badger

import "runtime/debug"

// module is the Go module behind this engine; pinned is its version in
// go.mod, reported when the binary carries no build information.
const (
	module = "github.com/dgraph-io/badger/v4"
	pinned = "v4.9.6"
)

// Version reports the Badger release linked in, such as "badger v4.9.6".
func Version() string {
	v := pinned
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path != module {
				continue
			}
			if d.Replace != nil && d.Replace.Version != "" {
				d = d.Replace
			}
			if d.Version != "" {
				v = d.Version
			}
		}
	}
	return "badger " + v
}
