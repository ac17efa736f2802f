// Package badger3 registers the engine "badger3": Badger's last v3
// release (module github.com/dgraph-io/badger/v3), linked beside the v4
// release that the engine "badger" runs, so that one binary compares the
// two majors. Each major has a module path of its own, so a Go program
// links both; a C library's older release is named NAME@VERSION instead
// (engine.ParseName), loaded by a process of its own.
//
// It runs only when named (engine.Driver.OnlyByName): "all" keeps the
// current major alone.
//
// It is the thin driver of an older major: the shared options alone,
// mapped as the engine "badger" maps them (its package doc), with
// Badger's own defaults for the rest and the badger engine's choices
// (one version kept, no conflict detection, checksums verified as a
// table opens, level 0 merged on close). Values from 1 MiB, or from 15%
// of write_buffer_size when that is smaller, go to the value log. Its
// iterators are the badger engine's (package twoway), and so is Compact:
// a close and reopen, Flatten, then value-log GC, which needs every
// iterator closed. Snapshots, metrics, checkpoints and expiry take the
// engine layer's fallbacks or are not supported.
package badger3
