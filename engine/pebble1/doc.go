// Package pebble1 registers the engine "pebble1": Pebble's last v1
// release (module github.com/cockroachdb/pebble), linked beside the v2
// release that the engine "pebble" runs, so that one binary compares the
// two majors. Each major has a module path of its own, so a Go program
// links both; a C library's older release is named NAME@VERSION instead
// (engine.ParseName), loaded by a process of its own.
//
// It runs only when named (engine.Driver.OnlyByName): "all" keeps the
// current major alone.
//
// It is the thin driver of an older major: the shared options alone
// (cache_size, write_buffer_size, disable_compression, max_open_files,
// bloom_bits_per_key, sync), mapped as the engine "pebble" maps them, with
// Pebble's own defaults for the rest, which are the values of the pebble
// engine's defaults too; new stores get v1's newest on-disk format.
// Snapshots, metrics, checkpoints, size estimates and integrity checks
// take the engine layer's fallbacks or are not supported, and a fatal
// error or a full disk ends the process as Pebble's own logger does,
// where the engine "pebble" returns engine.ErrBroken.
package pebble1
