// Package points is the data every workload of the benchmark writes and
// checks: which point comes at which index (Generator), how its value is
// encoded (a protobuf FieldValue holding an int64, fieldvalue.proto:
// AppendValue, ParseValue), and batches of encoded points in reused
// buffers (Batch). Keys are package engine/tskey's. Every point is a pure
// function of its index and the seed, so a run streams points in constant
// memory and checks any point it reads back without having stored it, and
// the same seed writes the same bytes in every suite.
//
// An imported file (-values FILE: line protocol or CSV, import.go) is the
// time-series workload's other source of points: its own series and
// timestamps, streamed from the file (File.Stream) and checked on read
// against sums per series (File.Expect, Sums, File.CheckSums), so that a
// run's memory does not grow with the file.
package points
