package harness

import "time"

// JVM is how a JVM ran one part (a step, a benchmark) of a JVM engine's
// run, as the JVM worker reports it: the operations of the untimed warmup
// pass before the measured one, which lets the JIT compile what is
// measured (0 for a part that changes the store and so gets none), and
// the garbage collections during the measured one, every collector's
// MXBean summed.
type JVM struct {
	WarmupOps int64         `json:"warmup_ops"`
	GCCount   int64         `json:"gc_count"`
	GCTime    time.Duration `json:"gc_ns"`
}
