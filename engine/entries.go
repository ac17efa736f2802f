package engine

import "encoding/binary"

// EntryAppender is implemented by iterators that copy many entries out
// per call. A scan that copies every entry anyway (to check it, or to
// hand it to another goroutine) then makes one call per run of entries
// instead of three per entry (Next, Key, Value): the iterators of the C
// engines copy straight from the buffer their C cursor filled.
type EntryAppender interface {
	// AppendEntries appends the entry the iterator rests on and those
	// after it, up to max in all (at least 1), to dst in AppendEntry's
	// layout, and moves past them: the iterator then rests on the entry
	// after the last one appended, or on none when it has no more (valid
	// false; Err tells why). n is how many it appended.
	AppendEntries(dst []byte, max int) (out []byte, n int, valid bool)
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

// AppendEntries appends entries of it, which rests on an entry, to dst as
// EntryAppender says: with the iterator's own AppendEntries, or by
// copying entry after entry with Key, Value and Next.
func AppendEntries(it Iterator, dst []byte, max int) (out []byte, n int, valid bool) {
	if a, ok := it.(EntryAppender); ok {
		return a.AppendEntries(dst, max)
	}
	valid = it.Valid()
	for ; valid && n < max; n++ {
		dst = AppendEntry(dst, it.Key(), it.Value())
		valid = it.Next()
	}
	return dst, n, valid
}
