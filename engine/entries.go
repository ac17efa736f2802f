package engine

import "encoding/binary"

// EntryAppender is implemented by iterators that copy many entries out
// per call. A scan that copies every entry anyway (to check it, or to
// hand it to another goroutine) then makes one call per run of entries
// instead of three per entry (Next, Key, Value): the C engines copy
// straight from their cursor into the caller's buffer, the one copy an
// entry gets.
type EntryAppender interface {
	// AppendEntries appends entries in ascending key order to dst, in
	// AppendEntry's layout, up to max (at least 1): from the first within
	// the iterator's bounds when first is set, and otherwise from the
	// entry it rests on or, after an AppendEntries, from the entry after
	// the last one appended. It may grow dst. n is how many it appended;
	// more reports whether entries may follow them, false once the
	// bounds hold no more or on an error, which Err then reports. It
	// leaves the iterator on the entry after the last one appended, or
	// on none while more may follow: go on with AppendEntries without
	// first, or position it anew.
	AppendEntries(dst []byte, max int, first bool) (out []byte, n int, more bool)
}

// entryHeader is the size of an entry's header: its key's and its
// value's length as native-endian uint32s.
const entryHeader = 8

// AppendEntry appends key and value to dst as one entry: the key's and
// the value's length as native-endian uint32s, then the key and the
// value.
func AppendEntry(dst, key, value []byte) []byte {
	dst = binary.NativeEndian.AppendUint32(dst, uint32(len(key)))
	dst = binary.NativeEndian.AppendUint32(dst, uint32(len(value)))
	dst = append(dst, key...)
	return append(dst, value...)
}

// NextEntry splits the first entry, in AppendEntry's layout, off b. The
// key and value point into b.
func NextEntry(b []byte) (key, value, rest []byte) {
	k := entryHeader + int(binary.NativeEndian.Uint32(b))
	v := k + int(binary.NativeEndian.Uint32(b[4:]))
	return b[entryHeader:k:k], b[k:v:v], b[v:]
}

// AppendEntries appends entries of it to dst as EntryAppender says:
// with the iterator's own AppendEntries, or by copying entry after entry
// with First (when first is set), Key, Value and Next.
func AppendEntries(it Iterator, dst []byte, max int, first bool) (out []byte, n int, more bool) {
	if a, ok := it.(EntryAppender); ok {
		return a.AppendEntries(dst, max, first)
	}
	if first {
		more = it.First()
	} else {
		more = it.Valid()
	}
	for ; more && n < max; n++ {
		dst = AppendEntry(dst, it.Key(), it.Value())
		more = it.Next()
	}
	return dst, n, more
}
