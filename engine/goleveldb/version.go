package goleveldb

import "runtime/debug"

// module is the Go module behind this engine; pinned is its version in
// go.mod, reported when the binary carries no build information.
const (
	module = "github.com/syndtr/goleveldb"
	pinned = "v1.0.0"
)

// Version reports the goleveldb release linked in, such as
// "goleveldb v1.0.0".
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
	return "goleveldb " + v
}
