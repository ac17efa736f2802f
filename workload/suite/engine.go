package suite

import (
	"fmt"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/harness"
)

// DefaultStall is -stall-timeout's default, and how long a process a
// run starts itself may take to get going when there is none: longer
// than any single engine call that does no I/O and uses no CPU should
// take.
const DefaultStall = 2 * time.Minute

// Engine is the one engine a child process runs a workload on, and what
// the command hands the run.
type Engine struct {
	// Name is the engine's registered name.
	Name string
	// Options are its options, resolved once in the parent.
	Options engine.Options
	// Effective are Options as engine.Effective spells them, as results
	// record them.
	Effective map[string]any
	// Dir is its data directory, which the parent created empty.
	Dir string
	// Distributions asks the workload for its parts' whole latency
	// distributions (-latency-log), beyond their percentiles.
	Distributions bool
	// Dataset is -dataset: where a workload that keeps datasets
	// (Info.Datasets) keeps its first points, one subdirectory per
	// engine; "" keeps none.
	Dataset string
	// Progress shows how the run advances; nil in a role's process.
	Progress Progress
	// Stall is how long a process of the run may make no progress (no
	// CPU time, no disk I/O) before it is stopped; 0 never stops it.
	Stall time.Duration
	// Spawn starts this program in another role of the workload (Roles)
	// on the same engine, with the same settings, in dir; nil in a
	// role's process.
	Spawn func(role, dir string, opts supervise.Options) (*supervise.Child, error)
	// Stop is closed when the run must end early: the parent's -max-time
	// or Ctrl-C sent the child SIGTERM. A workload whose Info.Stops is
	// set then ends its run, keeping what it measured; nil in a role's
	// process and for the other workloads, which are killed where they
	// are.
	Stop <-chan struct{}
}

// Open opens the engine in dir with its options.
func (e *Engine) Open(dir string) (engine.Engine, error) {
	opts := e.Options
	return engine.Open(e.Name, dir, &opts)
}

// Record fills in what a result says beyond the workload's figures: the
// options in effect (Effective) and which instance of the engine db (nil
// for none) ran, where its backend tells; it returns err.
func (e *Engine) Record(h *harness.Header, db engine.Engine, err error) error {
	h.Options = e.Effective
	if d, ok := engine.BackendAs[engine.Describer](db); ok {
		h.Description = d.Describe()
	}
	if v, ok := engine.BackendAs[engine.Versioner](db); ok {
		h.Version = v.Version()
	}
	return err
}

// Close closes db when a run returns, deferred, failing the run if Close
// fails (it may have lost acknowledged writes). After a panic it does not
// close: the engine may hold its own locks, so that Close could wait
// forever; the command reports the panic.
func Close(db engine.Engine, err *error) {
	if r := recover(); r != nil {
		panic(r)
	}
	if cerr := db.Close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("close: %w", cerr)
	}
}
