package harness

import "strings"

// Header is what every workload's result says first: which engine ran,
// which version, which run of it, with which options. A workload's Run
// leaves it empty; the caller, which knows how it opened the engine,
// fills it.
type Header struct {
	// Engine is the registered engine name.
	Engine string `json:"engine"`
	// Version is the engine library's version (engine.Version), or the
	// version of the instance that ran where the backend tells
	// (engine.Versioner: etcd's members).
	Version string `json:"version,omitempty"`
	// Repeat numbers the run among the engine's runs (-count), from 1; 0
	// when it was not numbered.
	Repeat int `json:"repeat,omitempty"`
	// Options are the options the engine ran with, as a config file names
	// them, every default filled in (engine.Effective): the shared keys,
	// and the engine's own in a table under its name.
	Options map[string]any `json:"options,omitempty"`
	// Description says which instance of the engine ran, where its
	// backend tells (engine.Describer): a cluster's etcd version, whether
	// it was local or given, its members and their addresses. The
	// environment cannot hold it: it is known only once the engine is open.
	Description string `json:"engine_description,omitempty"`
	// Outcome says how a run that did not pass ended when the benchmark
	// ended it, rather than the run failing by itself: OutcomeStopped or
	// OutcomeOutOfMemory; "" for a run that passed or failed on its own
	// (its error says why). Results written before it was recorded lack
	// it: Ended reads theirs.
	Outcome string `json:"outcome,omitempty"`
}

// How the benchmark ended a run (Header.Outcome).
const (
	// OutcomeStopped is a run stopped at its time budget (-max-time).
	OutcomeStopped = "stopped"
	// OutcomeOutOfMemory is a run the kernel's OOM killer ended inside
	// its memory budget (-memory).
	OutcomeOutOfMemory = "out_of_memory"
	// OutcomeFailed is a run that failed by itself (Ended only; Outcome
	// is then "").
	OutcomeFailed = "failed"
)

// Ended is how a run with error err ended: "" if it passed, h.Outcome if
// the benchmark ended it, else OutcomeFailed. For a result written before
// Outcome was recorded it reads the benchmark's own fixed wording of
// those two errors.
func (h *Header) Ended(err string) string {
	switch {
	case err == "":
		return ""
	case h.Outcome != "":
		return h.Outcome
	case strings.HasPrefix(err, "stopped at the -max-time limit") && !strings.Contains(err, "; before that: "):
		return OutcomeStopped
	case strings.HasPrefix(err, "out of memory "):
		return OutcomeOutOfMemory
	}
	return OutcomeFailed
}
