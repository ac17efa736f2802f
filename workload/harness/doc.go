// Package harness is what the workloads (the time-series suite in
// package workload, workload/micro and workload/mixed) share, so that
// each reports the same facts the same way: the Environment a report
// describes, the Header of every engine's result, the Span that measures
// what a timed part cost the process (Cost), the Progress interface a
// caller draws progress with, Count, how counts are written in
// labels, and Round, how durations are written in messages.
package harness
