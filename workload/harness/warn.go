package harness

import (
	"fmt"
	"io"
	"sync"
)

// Warnings writes each kind of warning once, so that a figure this machine
// does not give is said at the first step that misses it, not at every
// one. Safe for concurrent use; the zero value discards.
type Warnings struct {
	// Log receives the warnings; nil discards them.
	Log io.Writer
	// Prefix starts every line: the workload's name ("micro").
	Prefix string
	// Part is what one Span covers ("step", "benchmark"), named in the
	// warning that peak RSS covers the whole process.
	Part string

	mu     sync.Mutex
	warned map[string]bool
}

// Warn writes a warning of kind unless one of that kind was written.
func (w *Warnings) Warn(kind, format string, args ...any) {
	if w.Log == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.warned[kind] {
		return
	}
	if w.warned == nil {
		w.warned = map[string]bool{}
	}
	w.warned[kind] = true
	fmt.Fprintf(w.Log, w.Prefix+": "+format+"\n", args...)
}

// Missing says, once per kind, what a Span could not measure; it is what
// Span.End is given.
func (w *Warnings) Missing(kind string, err error) {
	switch kind {
	case "rss":
		w.Warn(kind, "peak RSS covers the whole process, not each %s: %v", w.Part, err)
	case "processes":
		w.Warn(kind, "%v", err)
	default:
		w.Warn(kind, "no %s figures: %v", kind, err)
	}
}
