// Package sqlite is the engine registered as "sqlite": SQLite 3 as an
// ordered key-value store, one WITHOUT ROWID table
//
//	CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID
//
// in data.sqlite in the engine directory. Import it for its side effect:
//
//	import _ "github.com/tsbench/storage/engine/sqlite"
//
//	db, err := engine.Open("sqlite", dir, nil)
//
// # The binding
//
// SQLite is the amalgamation that github.com/mattn/go-sqlite3 compiles
// into the binary (its version is go.mod's); this package calls SQLite's C
// interface directly (binding.c), with statements prepared once per
// connection, so that a Put, a Get or an iterator step is one cgo call and
// Key and Value point into SQLite's row without copying (AppendEntries
// copies many rows per call into its caller's buffer). Going through
// database/sql, or through go-sqlite3's driver.Conn, copies each column
// into a new Go slice per row: measured on 200k entries (best of four
// runs), point reads ran at 97k and 170k per second that way against 208k
// here, full scans at 1.2M and 1.4M against 3.6M; writes, where SQLite's
// own work dominates, differed little. Building needs cgo and a C
// compiler, nothing installed.
//
// # Connections and snapshots
//
// Writes go through one writer connection, one at a time. With the
// defaults (journal_mode "wal", locking_mode "normal") each Get takes a
// read connection from a pool for the call, and each iterator one for its
// life, in a read transaction begun when the iterator is created: the
// write-ahead log keeps that snapshot while the writer commits, so
// iterators see the data of their creation, as the engine contract asks,
// and run beside writers. Every connection has its own page cache.
//
// The other modes allow a single connection. locking_mode "exclusive"
// (the 2011 LevelDB report's setting) keeps the file locked from the first
// write until Close, which saves the file locking of every transaction
// and so speeds up small ones; a rollback journal (journal_mode "delete",
// "truncate" or "persist") lets a reader block writers. There
// every call shares the writer connection under one lock, and a write
// while an iterator is open fails with ErrIteratorOpen rather than showing
// through the iterator's snapshot; Gets still work.
//
// # Durability
//
// Every commit reaches the write-ahead log (or, with a rollback journal,
// the database file) through write(2) before it returns.
//
//   - sync "none" sets PRAGMA synchronous = OFF: no fsync, as in the 2011
//     report. A commit survives a crash of the process; an OS crash or a
//     power loss can lose recent commits and, SQLite warns, corrupt the
//     file.
//   - sync "batch" sets synchronous = FULL: each commit fsyncs the log (or
//     the journal and the file) before returning, so it survives a machine
//     failure.
//
// # Shared options
//
//   - cache_size: PRAGMA cache_size, per connection (the writer's and each
//     reader's). More is not always faster: with one transaction per write
//     SQLite 3.54 spent much of a 1M-entry random fill in
//     pcache1TruncateUnsafe, which walks the cache's hash table, and ran
//     it about 2.7 times slower with 64 MiB than with 4 MiB, calling
//     SQLite from C alone.
//   - write_buffer_size, disable_compression, max_open_files and
//     bloom_bits_per_key have no equivalent and are ignored: SQLite writes
//     pages in place, does not compress, keeps one file and has no bloom
//     filters.
//
// SQLite's own settings are Options, the [sqlite] table of a config file
// (see configs/sqlite.toml).
//
// # Behaviour
//
// A batch is buffered in Go and applied in one transaction (BEGIN
// IMMEDIATE ... COMMIT), rolled back if any write fails. DeleteRange is one
// DELETE over the key range, atomic. An iterator runs ordered SELECTs with
// its bounds (WHERE k >= ? AND k < ? ORDER BY k, or DESC), stepping one
// while it keeps its direction; Seek, First, Last and a change of
// direction start another from the key in question, prepared once per
// connection.
//
// Compact runs VACUUM, which rebuilds the file without the pages deletes
// freed (SQLite only reuses them otherwise), then a TRUNCATE checkpoint,
// which copies the write-ahead log into the file and empties it. It covers
// the whole file whatever the bounds, needs free space for a copy of the
// database in the temporary directory, and runs only with no iterator
// open (Limits.ExclusiveCompact): the log cannot be emptied under a
// snapshot.
//
// DB implements neither engine.Flusher (a commit is in the files when it
// returns) nor engine.Backgrounder (SQLite has no background threads; the
// write-ahead log is checkpointed by the commit that fills it).
//
// Build reports whether SQLite was compiled with SQLITE_DEBUG (it answers
// itself, sqlite3_compileoption_used), where it was loaded from, and the
// CGO_CFLAGS the binary records: "release (SQLITE_DEBUG off: NDEBUG),
// amalgamation compiled into the binary by go-sqlite3 v1.14.53 with -O2
// -g". The amalgamation defines NDEBUG unless SQLITE_DEBUG is set.
//
// A directory without the ENGINE marker is adopted as this engine's when
// its data.sqlite begins with SQLite's file header (engine.Driver.Recognize).
package sqlite
