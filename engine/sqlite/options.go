package sqlite

import (
	"cmp"
	"fmt"

	"github.com/tsbench/storage/engine"
)

// Options are SQLite's own settings, the [sqlite] table of a config file.
// A zero field means its default.
type Options struct {
	// JournalMode is how SQLite makes commits atomic: "wal" appends them to
	// a write-ahead log, so readers keep their snapshot while a writer
	// commits; "delete", "truncate" and "persist" use a rollback journal,
	// with which a reader blocks writers (see the package doc). Default
	// "wal".
	JournalMode string `toml:"journal_mode"`
	// LockingMode "exclusive" keeps the database file locked from the first
	// write until Close, which saves the locking of every transaction (the
	// 2011 LevelDB report ran SQLite so) but allows a single connection:
	// writes then fail while an iterator is open. "normal" locks per
	// transaction. Default "normal".
	LockingMode string `toml:"locking_mode"`
	// PageSize is the size in bytes of the B-tree pages, a power of two
	// from 512 to 65536, fixed when the database is created. Default 4096.
	PageSize int `toml:"page_size"`
	// WALAutocheckpoint is the size of the write-ahead log, in pages, at
	// which a commit copies it back into the database file, at most 2^24
	// (a log of 64 GiB at 4 KiB pages). Default 1000.
	WALAutocheckpoint int `toml:"wal_autocheckpoint"`
}

// Defaults of Options.
const (
	DefaultJournalMode       = "wal"
	DefaultLockingMode       = "normal"
	DefaultPageSize          = 4096
	DefaultWALAutocheckpoint = 1000
)

// maxWALAutocheckpoint bounds WALAutocheckpoint: beyond it the log would
// grow without a checkpoint until the disk fills.
const maxWALAutocheckpoint = 1 << 24

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	o.JournalMode = cmp.Or(o.JournalMode, DefaultJournalMode)
	o.LockingMode = cmp.Or(o.LockingMode, DefaultLockingMode)
	o.PageSize = cmp.Or(o.PageSize, DefaultPageSize)
	o.WALAutocheckpoint = cmp.Or(o.WALAutocheckpoint, DefaultWALAutocheckpoint)
	switch o.JournalMode {
	case "wal", "delete", "truncate", "persist":
	default:
		return o, fmt.Errorf(`%w: sqlite journal_mode %q: use "wal", "delete", "truncate" or "persist"`, engine.ErrInvalidOptions, o.JournalMode)
	}
	switch o.LockingMode {
	case "normal", "exclusive":
	default:
		return o, fmt.Errorf(`%w: sqlite locking_mode %q: use "normal" or "exclusive"`, engine.ErrInvalidOptions, o.LockingMode)
	}
	if o.PageSize < 512 || o.PageSize > 65536 || o.PageSize&(o.PageSize-1) != 0 {
		return o, fmt.Errorf("%w: sqlite page_size %d: use a power of two from 512 to 65536", engine.ErrInvalidOptions, o.PageSize)
	}
	if o.WALAutocheckpoint < 0 || o.WALAutocheckpoint > maxWALAutocheckpoint {
		return o, fmt.Errorf("%w: sqlite wal_autocheckpoint %d: use 1 to %d pages, or 0 for the default", engine.ErrInvalidOptions, o.WALAutocheckpoint, maxWALAutocheckpoint)
	}
	return o, nil
}

// shared reports whether the engine can give iterators their own
// connection: only a write-ahead log lets a reader keep its snapshot while
// another connection commits, and only normal locking lets a second
// connection in.
func (o Options) shared() bool { return o.JournalMode == "wal" && o.LockingMode == "normal" }

// pragmas returns the settings every connection starts with, in the order
// SQLite needs: the page size before the database exists, the locking
// mode before WAL is entered (so that exclusive WAL keeps its index in
// heap memory instead of a shared file).
func (o Options) pragmas(shared engine.Options) []string {
	synchronous := "OFF"
	if shared.Sync == engine.SyncBatch {
		synchronous = "FULL"
	}
	return []string{
		fmt.Sprintf("PRAGMA page_size = %d", o.PageSize),
		fmt.Sprintf("PRAGMA locking_mode = %s", o.LockingMode),
		fmt.Sprintf("PRAGMA journal_mode = %s", o.JournalMode),
		fmt.Sprintf("PRAGMA synchronous = %s", synchronous),
		cachePragma(shared),
		fmt.Sprintf("PRAGMA wal_autocheckpoint = %d", o.WALAutocheckpoint),
	}
}

// cachePragma sizes a connection's page cache; every connection has its
// own.
func cachePragma(shared engine.Options) string {
	// A negative cache_size is in KiB.
	return fmt.Sprintf("PRAGMA cache_size = %d", -max(shared.CacheSize>>10, 1))
}
