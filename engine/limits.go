package engine

import (
	"bytes"
	"fmt"
)

// Limits describes what an engine cannot do that the contract otherwise
// allows: the keys it cannot store, the largest value and batch it takes,
// and compacting beside open iterators; and how many copies of its data
// its directory holds. A backend declares them in Driver.Limits or, when
// they depend on its options, returns them from a method Limits() Limits,
// which Open then uses instead. Open enforces them, so that every engine
// refuses the same way (ErrKeyNotSupported, ErrTooLarge,
// ErrOpenIterators) before the backend sees the call: a caller asks
// LimitsOf in advance rather than learn them from a failed write. The
// zero value is an engine with no such limits.
type Limits struct {
	// MinKeySize is the shortest key the engine stores: 1 for engines that
	// cannot store the empty key. Default 0.
	MinKeySize int
	// MaxKeySize is the longest key the engine stores, in bytes; 0 means
	// no limit of its own. Default 0.
	MaxKeySize int
	// ReservedPrefixes are key prefixes the engine keeps for its own
	// records. Default none.
	ReservedPrefixes []string
	// MaxValueSize is the longest value the engine stores, in bytes; 0
	// means no limit of its own. A Put or a batch put of a longer value
	// fails with ErrTooLarge. Default 0.
	MaxValueSize int
	// MaxBatchSize is the most bytes of keys and values one write takes,
	// counted as Batch.Size counts them: a batch whose Size would pass it,
	// or a Put whose key and value do, fails with ErrTooLarge. The
	// engine's own encoding adds a few bytes per operation, which a
	// backend's figure leaves room for. 0 means no limit of its own.
	// Default 0.
	MaxBatchSize int
	// MaxBatchOps is the most operations (Batch.Len) one batch holds; a
	// batch with more fails with ErrTooLarge. 0 means no limit of its
	// own. Default 0.
	MaxBatchOps int
	// EstimateExcludesMemtable says EstimateSize counts only what the
	// engine wrote to its files: writes still in its memtable are left
	// out (an estimate may be 0 right after a write) until a flush or a
	// Compact writes them. Default false: they count.
	EstimateExcludesMemtable bool
	// ExclusiveCompact says Compact cannot run while an iterator or a
	// snapshot is open (it replaces the files they read), so it fails
	// with ErrOpenIterators instead. Default false: Compact runs beside
	// them and they keep their view.
	ExclusiveCompact bool
	// Copies is how many full copies of its data the engine keeps in its
	// directory: the members of a local etcd cluster each hold one. A
	// check of the directory's size allows for each copy. Default 0,
	// which means 1.
	Copies int
	// OrderedPrefix, above 0, says the engine orders keys only among those
	// sharing their first OrderedPrefix bytes, with no order between such
	// prefixes: Cassandra's rows within a partition, its partitions
	// scattered by hash. Its keys are then at least that long
	// (MinKeySize), and an iterator's bounds, a SetBounds' and a
	// DeleteRange's range must lie within one prefix (CheckOrdered), or
	// they are refused with ErrUnordered rather than read or delete in
	// an order that is not bytewise. Compact takes any range. Read it with
	// OrderPrefix. Default 0: one bytewise order over every key.
	OrderedPrefix int
	// Unordered says the engine keeps no order at all, a hash map's
	// (Chronicle Map, run out of process), so a workload that reads keys
	// in order cannot run on it. No engine Open opens is unordered.
	// Default false.
	Unordered bool
	// AtomicPrefix, above 0, says a batch is applied all or nothing, and
	// seen whole by readers, only for the keys of it sharing their first
	// AtomicPrefix bytes: the parts of a batch over several prefixes are
	// applied independently, so a failed Commit may have applied some of
	// them (the batch is still kept, for a retry, which rewrites the same
	// values), and a reader may see some before the others. Default 0:
	// every batch is atomic.
	AtomicPrefix int
}

// CommonLimits returns the limits every engine stays within: keys of 1 to
// 511 bytes (LMDB's limit, the smallest) outside Badger's reserved
// "!badger!" prefix, and Compact only with no iterator open. Code that
// keeps to them runs unchanged on every engine; the suite in enginetest
// fails an engine whose Limits are stricter. Value and batch sizes are
// left to each engine's Limits (LimitsOf): they depend on its options,
// such as etcd's max_request_bytes.
func CommonLimits() Limits {
	return Limits{MinKeySize: 1, MaxKeySize: 511, ReservedPrefixes: []string{"!badger!"}, ExclusiveCompact: true}
}

// fits reports whether the engine can store key.
func (l *Limits) fits(key []byte) bool {
	if len(key) < l.MinKeySize || (l.MaxKeySize > 0 && len(key) > l.MaxKeySize) {
		return false
	}
	for _, p := range l.ReservedPrefixes {
		if len(key) >= len(p) && string(key[:len(p)]) == p {
			return false
		}
	}
	return true
}

// CheckKey returns nil if the engine can store key, else an error
// wrapping ErrTooLarge for a key longer than MaxKeySize or
// ErrKeyNotSupported for one outside the domain otherwise.
func (l Limits) CheckKey(key []byte) error {
	if l.fits(key) {
		return nil
	}
	switch {
	case len(key) < l.MinKeySize:
		return fmt.Errorf("%w: a key of %d bytes; this engine's keys are at least %d bytes long", ErrKeyNotSupported, len(key), l.MinKeySize)
	case l.MaxKeySize > 0 && len(key) > l.MaxKeySize:
		return fmt.Errorf("%w: a key of %d bytes; this engine's keys are at most %d bytes long, so shorten it", ErrTooLarge, len(key), l.MaxKeySize)
	}
	return fmt.Errorf("%w: key %.40q starts with a prefix the engine reserves (%q)", ErrKeyNotSupported, key, l.ReservedPrefixes)
}

// CheckPut returns nil if the engine takes a Put of key and value, else
// the error wrapping ErrKeyNotSupported or ErrTooLarge that Put would
// return: CheckKey's, or one for a value above MaxValueSize or a key and
// value above MaxBatchSize.
func (l Limits) CheckPut(key, value []byte) error {
	if err := l.CheckKey(key); err != nil {
		return err
	}
	return l.checkValue(len(key), len(value))
}

// checkValue returns the error for a value of n bytes under a key of k
// bytes beyond MaxValueSize or MaxBatchSize, or nil.
func (l *Limits) checkValue(k, n int) error {
	switch {
	case l.MaxValueSize > 0 && n > l.MaxValueSize:
		return fmt.Errorf("%w: a value of %d bytes; this engine's values are at most %d bytes long (Limits.MaxValueSize), so split it", ErrTooLarge, n, l.MaxValueSize)
	case l.MaxBatchSize > 0 && k+n > l.MaxBatchSize:
		return fmt.Errorf("%w: a key and value of %d bytes; this engine writes at most %d bytes at once (Limits.MaxBatchSize), so split it", ErrTooLarge, k+n, l.MaxBatchSize)
	}
	return nil
}

// checkBatch returns the error for a batch of n operations and size bytes
// beyond MaxBatchOps or MaxBatchSize, or nil.
func (l *Limits) checkBatch(n, size int) error {
	switch {
	case l.MaxBatchOps > 0 && n > l.MaxBatchOps:
		return fmt.Errorf("%w: a batch of %d operations; this engine commits at most %d at once (Limits.MaxBatchOps), so commit it in parts", ErrTooLarge, n, l.MaxBatchOps)
	case l.MaxBatchSize > 0 && size > l.MaxBatchSize:
		return fmt.Errorf("%w: a batch of %d bytes; this engine commits at most %d bytes at once (Limits.MaxBatchSize), so commit it in parts", ErrTooLarge, size, l.MaxBatchSize)
	}
	return nil
}

// CheckOrdered returns nil if [start, end) lies within one prefix of
// OrderedPrefix bytes, as an engine ordered only within such prefixes
// takes an iterator's bounds and a DeleteRange: start at least that long
// and end, no shorter, beginning with the same prefix, or else exactly
// the prefix that follows it (the smallest key beyond every key with
// start's prefix; nil when start's prefix is all 0xff bytes). Any other
// range fails with an error wrapping ErrUnordered. Every range passes on
// an engine with one global order (OrderedPrefix 0).
func (l *Limits) CheckOrdered(start, end []byte) error {
	// Inlined to one test for every engine with a global order: it runs
	// at every NewIterator and SetBounds, inside the timed work.
	if l.OrderedPrefix == 0 {
		return nil
	}
	return l.checkOrdered(start, end)
}

// checkOrdered is CheckOrdered for an engine ordered within prefixes.
func (l *Limits) checkOrdered(start, end []byte) error {
	n := l.OrderedPrefix
	if len(start) >= n {
		p := start[:n]
		next := prefixEnd(p)
		switch {
		case end == nil && next == nil,
			len(end) >= n && bytes.Equal(end[:n], p),
			end != nil && next != nil && bytes.Equal(end, next):
			return nil
		}
	}
	return fmt.Errorf("%w: [%s, %s) is not within one prefix of %d bytes; bound each range by one prefix, [P..., P...) or [P..., the prefix after P)",
		ErrUnordered, quoteBound(start), quoteBound(end), n)
}

// prefixEnd returns the smallest key of len(p) bytes above p, or nil if p
// is all 0xff bytes.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i]++; end[i] != 0 {
			return end
		}
	}
	return nil
}

// quoteBound shows a range bound in an error, nil as unbounded.
func quoteBound(b []byte) string {
	if b == nil {
		return "nil"
	}
	return fmt.Sprintf("%.40q", b)
}

// OrderPrefix returns n above 0 for an engine that orders keys only
// within prefixes of n bytes (Limits.OrderedPrefix), 0 for one with a
// single global order. Code that reads or deletes ranges asks it first:
// such an engine takes only ranges within one prefix (a series of
// package tskey's keys, whose first 8 bytes are the series id) and
// refuses others with ErrUnordered.
func OrderPrefix(e Engine) int { return LimitsOf(e).OrderedPrefix }

// CopiesOf returns how many copies of its data e keeps in its directory
// (Limits.Copies), at least 1.
func CopiesOf(e Engine) int { return max(LimitsOf(e).Copies, 1) }

// LimitsOf returns the Limits of an engine opened with Open. Engines that
// do not say, such as engine/memory, report the zero Limits: they store
// any key.
func LimitsOf(e Engine) Limits {
	if l, ok := e.(interface{ Limits() Limits }); ok {
		return l.Limits()
	}
	return Limits{}
}
