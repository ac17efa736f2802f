// Package modversion reports the version of a Go module linked into the
// running binary, for the pure-Go backends' Version functions.
package modversion

import "runtime/debug"

// Of returns module's version from the binary's build information, or
// pinned (its version in go.mod) when the binary carries none.
func Of(module, pinned string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return pinned
	}
	for _, d := range bi.Deps {
		if d.Path != module {
			continue
		}
		if d.Replace != nil && d.Replace.Version != "" {
			d = d.Replace
		}
		if d.Version != "" {
			return d.Version
		}
	}
	return pinned
}
