package sqlite

import "errors"

var (
	// ErrLibrary wraps a failure reported by SQLite; the message carries
	// SQLite's own text. Failures every engine names alike (a locked
	// database, a value too large, a full disk, a corrupted file) wrap the
	// engine package's error as well.
	ErrLibrary = errors.New("sqlite")
	// ErrIteratorOpen is returned by a write while an iterator is open on
	// an engine with a single connection (locking_mode "exclusive" or a
	// journal_mode other than "wal"), where the iterator's snapshot could
	// not be kept.
	ErrIteratorOpen = errors.New(`sqlite: a write while an iterator is open needs journal_mode "wal" and locking_mode "normal"; close the iterator first or change those options`)
)
