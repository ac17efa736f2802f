package engine

import "errors"

var (
	// ErrNotFound is returned by Get when the key is absent.
	ErrNotFound = errors.New("engine: key not found")
	// ErrClosed is returned by any call on an engine, batch or iterator
	// after it (or the engine it came from) was closed, except Close
	// itself: a second Close returns nil.
	ErrClosed = errors.New("engine: closed")
	// ErrOpenIterators is returned by Close while iterators or snapshots
	// are still open, by Snapshot.Close while the snapshot's iterators are,
	// and by Compact on an engine whose Limits say ExclusiveCompact. What
	// was refused stays usable, so they can be closed first.
	ErrOpenIterators = errors.New("engine: iterators or snapshots still open; close them first")
	// ErrUnknownEngine is returned by Open and LoadConfig for a name no
	// backend registered; the message lists the registered names.
	ErrUnknownEngine = errors.New("engine: unknown engine")
	// ErrOutOfProcess is returned by Open for an engine that no Go
	// program opens, one that runs in a process of its own
	// (Driver.Process): the JVM stores.
	ErrOutOfProcess = errors.New("engine: the engine runs in a process of its own, not in a Go program (the benchmark runs it)")
	// ErrWrongEngine is returned by Open when the directory holds another
	// engine's data.
	ErrWrongEngine = errors.New("engine: directory holds another engine's data")
	// ErrInvalidOptions is returned for options an engine cannot use.
	ErrInvalidOptions = errors.New("engine: invalid options")
	// ErrConfig is returned by LoadConfig for a malformed file or unknown key.
	ErrConfig = errors.New("engine: bad config")
	// ErrRelease is returned by ParseName and Named.Resolve for a release
	// of an engine's library that cannot run: no version after the @, an
	// engine with no releases but the one the program links, or one its
	// driver cannot install (Driver.Release says why).
	ErrRelease = errors.New("engine: release")
	// ErrInvalidRange is returned by DeleteRange and Compact for a start
	// above end, and by NewIterator and SetBounds for a LowerBound above
	// UpperBound: a range written backwards, which would otherwise
	// silently cover nothing. Nothing was done.
	ErrInvalidRange = errors.New("engine: invalid range: start is above end")

	// The errors below mean the same thing whichever engine returns them:
	// backends wrap their native error with one, so that errors.Is works
	// across engines and the native message survives.

	// ErrLocked is returned by Open while the directory is open in another
	// engine, in this process or another.
	ErrLocked = errors.New("engine: directory in use by another open engine; close that one first")
	// ErrTooLarge is returned for a key longer than the engine's
	// Limits.MaxKeySize, or a value or batch larger than the engine takes
	// in one write (Limits.MaxValueSize, MaxBatchSize, MaxBatchOps, or the
	// engine's own finding). Nothing of the write was applied.
	ErrTooLarge = errors.New("engine: too large for this engine")
	// ErrKeyNotSupported is returned for a write of a key outside the
	// engine's key domain: empty where Limits.MinKeySize is 1, or under one
	// of its Limits.ReservedPrefixes.
	ErrKeyNotSupported = errors.New("engine: key not supported by this engine")
	// ErrBroken is wrapped by the error of a call after which the engine
	// cannot go on: a maintenance step (such as Compact swapping files)
	// failed half way, or the library stopped (Pebble after a fatal
	// error). An engine from Open returns that same error from every
	// later call but Close, as database/sql drops a connection after
	// driver.ErrBadConn; the data on disk is intact, so close the engine
	// and open it again.
	ErrBroken = errors.New("engine: unusable after a failed maintenance step; close and reopen it")
	// ErrCorrupt is returned when the engine finds its files damaged.
	ErrCorrupt = errors.New("engine: data corrupted")
	// ErrNoSpace is returned when a write finds the disk or the engine's
	// preallocated space (such as LMDB's map) full.
	ErrNoSpace = errors.New("engine: no space left")
	// ErrNotSupported is returned for an optional call the engine has
	// neither natively nor through a fallback, such as Checkpoint on an
	// engine that was not opened with Open.
	ErrNotSupported = errors.New("engine: not supported by this engine")
	// ErrUnordered is returned for an iterator or a DeleteRange whose
	// range spans several prefixes of an engine that orders keys only
	// within a prefix (Limits.OrderedPrefix, OrderPrefix), such as
	// Cassandra's partitions: it has no order across them to read or
	// delete by. Nothing was done.
	ErrUnordered = errors.New("engine: the engine orders keys only within a prefix")
	// ErrNoExpiry is returned by Open, Resolve and Resolved for an Expiry
	// given to an engine that does not expire entries by itself
	// (Driver.Expiry), and by ExpiryOf for such an engine; the message
	// names the engines that do. Nothing was created.
	ErrNoExpiry = errors.New("engine: the engine has no expiry of its own")
)
