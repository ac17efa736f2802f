// Package tskey is the key layout of time-series points in an ordered
// key-value store, as InfluxDB's 2014 storage benchmark laid them out and
// many time-series stores since: 24 bytes, three big-endian uint64s,
//
//	bytes  0..7   series id
//	bytes  8..15  timestamp (nanoseconds since the Unix epoch)
//	bytes 16..23  sequence number (breaks ties between equal timestamps)
//
// so that bytewise order is numeric order, every series' points are
// contiguous and sorted by time, and one range holds a series' points
// between two times: what a range query iterates (SeriesBounds,
// TimeBounds as iterator bounds) and what retention deletes (TimeBounds
// handed to an engine's DeleteRange). The benchmark's workloads and a TSDB
// built on package engine use the same functions.
//
// The functions that take a buf reuse it for the bounds they return, so a
// loop over many series allocates nothing.
package tskey
