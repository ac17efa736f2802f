package pebble

import "runtime/debug"

// module is the Go module behind this engine; pinned is its version in
// go.mod, reported when the binary carries no build information.
const (
	module = "github.com/cockroachdb/pebble"
	pinned = "v1.1.5"
)

// Version reports the Pebble release linked in, such as "pebble v1.1.5".
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
	return "pebble " + v
}
