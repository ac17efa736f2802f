package bbolt

import "runtime/debug"

// module is the Go module behind this engine; pinned is its version in
// go.mod, reported when the binary carries no build information.
const (
	module = "go.etcd.io/bbolt"
	pinned = "v1.5.0"
)

// Version reports the bbolt release linked in, such as "bbolt v1.5.0".
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
	return "bbolt " + v
}
