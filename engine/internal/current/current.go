// Package current keeps the entry an iterator rests on, the same way for
// every iterator: embedded in one, Entry gives it engine.Iterator's
// Valid, Key and Value, which report no entry as false and nil.
package current

// Entry is the entry an iterator rests on; the zero Entry rests on none.
type Entry struct {
	valid      bool
	key, value []byte
	// Copy's buffers, apart from key and value, which Set may point into
	// memory that is not the iterator's.
	kbuf, vbuf []byte
}

// Valid reports whether the iterator rests on an entry.
func (e *Entry) Valid() bool { return e.valid }

// Key returns the current key, or nil.
func (e *Entry) Key() []byte {
	if !e.valid {
		return nil
	}
	return e.key
}

// Value returns the current value, or nil.
func (e *Entry) Value() []byte {
	if !e.valid {
		return nil
	}
	return e.value
}

// Set rests on key and value, which must stay as they are until the
// iterator's next move (they may point into the store's memory).
func (e *Entry) Set(key, value []byte) {
	e.key, e.value, e.valid = key, value, true
}

// Copy rests on copies of key and value, for an iterator whose source may
// change them; it reuses the buffers of the copies before.
func (e *Entry) Copy(key, value []byte) {
	e.kbuf = append(e.kbuf[:0], key...)
	e.vbuf = append(e.vbuf[:0], value...)
	e.Set(e.kbuf, e.vbuf)
}

// Clear rests on no entry. It returns false, what a move that found none
// returns.
func (e *Entry) Clear() bool {
	e.valid = false
	return false
}
