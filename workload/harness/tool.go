package harness

import (
	"runtime/debug"
	"strings"
)

// Tool says which build of this tool produced a result: its module
// version and the commit it was built from, so that a figure can be
// traced to the code that measured it.
type Tool struct {
	// Module is the main module's path.
	Module string `json:"module,omitempty"`
	// Version is the module's version: a release tag, or "(devel)" for a
	// build from a checkout.
	Version string `json:"version,omitempty"`
	// Commit is the VCS revision the binary was built from; "" for a
	// build without VCS information (go test, -buildvcs=false).
	Commit string `json:"commit,omitempty"`
	// Modified says the checkout had uncommitted changes.
	Modified bool `json:"modified,omitempty"`
}

// ThisTool is the build of the running binary.
func ThisTool() Tool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Tool{}
	}
	t := Tool{Module: bi.Main.Path, Version: bi.Main.Version}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			t.Commit = s.Value
		case "vcs.modified":
			t.Modified = s.Value == "true"
		}
	}
	return t
}

// String is the build in one line: "github.com/tsbench/storage (devel),
// commit eb861c9a1f3c (modified)".
func (t Tool) String() string {
	if t.Module == "" {
		return ""
	}
	s := strings.TrimSpace(t.Module + " " + t.Version)
	if t.Commit == "" {
		return s + ", no commit recorded (built without VCS information)"
	}
	s += ", commit " + t.Commit[:min(12, len(t.Commit))]
	if t.Modified {
		s += " (modified)"
	}
	return s
}
