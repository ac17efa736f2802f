// Package writebuf holds a batch's puts and deletes in Go memory until
// Commit applies them in one write transaction, for backends with no
// native batch (bbolt, Badger, LMDB): opening the transaction only at
// Commit keeps it from blocking other writers (bbolt) or being bound to
// the OS thread of the caller's first Put (LMDB).
package writebuf

import "github.com/tsbench/storage/engine"

// Buffer records writes with their keys and values back to back in one
// byte slice, so that recording allocates nothing once it has grown. A
// backend's batch is a Batch, or embeds a Buffer for Put, Delete, Len,
// Reset and Close and implements Commit with Each. The zero value is empty and open.
type Buffer struct {
	data   []byte // keys and values of ops, back to back
	ops    []op
	closed bool
}

// op is one buffered write: its key, then its value for a put, are the
// next bytes of Buffer.data.
type op struct {
	klen, vlen int
	del        bool
}

// Put records a put of value under key; after Close it does nothing, and
// Commit reports the close.
func (b *Buffer) Put(key, value []byte) {
	if b.closed {
		return
	}
	b.ops = append(b.ops, op{klen: len(key), vlen: len(value)})
	b.data = append(append(b.data, key...), value...)
}

// Delete records a delete of key; after Close it does nothing.
func (b *Buffer) Delete(key []byte) {
	if b.closed {
		return
	}
	b.ops = append(b.ops, op{klen: len(key), del: true})
	b.data = append(b.data, key...)
}

// Len reports the number of writes recorded since the last Reset.
func (b *Buffer) Len() int { return len(b.ops) }

// Reset empties b, keeping its memory for the next writes.
func (b *Buffer) Reset() { b.ops, b.data = b.ops[:0], b.data[:0] }

// Close drops b's writes and memory. Closing twice returns
// engine.ErrClosed.
func (b *Buffer) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	*b = Buffer{closed: true}
	return nil
}

// Closed reports whether Close was called.
func (b *Buffer) Closed() bool { return b.closed }

// Each calls fn for each write in the order recorded, with a nil value for
// a delete, and stops at the first error, which it returns. key and value
// point into b: they are valid until b next changes, and their capacity
// ends with them so that an append by fn cannot overwrite the next write.
func (b *Buffer) Each(fn func(key, value []byte, del bool) error) error {
	off := 0
	for _, o := range b.ops {
		key := b.data[off : off+o.klen : off+o.klen]
		off += o.klen
		var value []byte
		if !o.del {
			value = b.data[off : off+o.vlen : off+o.vlen]
			off += o.vlen
		}
		if err := fn(key, value, o.del); err != nil {
			return err
		}
	}
	return nil
}

// Commit implements engine.BackendBatch.Commit for a backend whose update runs fn
// in one write transaction, committed only if fn succeeds: it replays b's
// writes in order through put and del and then empties b. On error nothing
// was applied and b keeps its writes; a closed b returns engine.ErrClosed.
func Commit[Tx any](b *Buffer, update func(fn func(Tx) error) error,
	put func(tx Tx, key, value []byte) error, del func(tx Tx, key []byte) error) error {
	if b.closed {
		return engine.ErrClosed
	}
	if len(b.ops) == 0 {
		return nil
	}
	err := update(func(tx Tx) error {
		return b.Each(func(key, value []byte, isDel bool) error {
			if isDel {
				return del(tx, key)
			}
			return put(tx, key, value)
		})
	})
	if err != nil {
		return err
	}
	b.Reset()
	return nil
}

// Batch is the engine.Batch of a backend whose batch is a Buffer applied
// by Commit in one write transaction: update runs a function in that
// transaction, put and del write one key in it.
type Batch[Tx any] struct {
	Buffer
	update func(fn func(Tx) error) error
	put    func(tx Tx, key, value []byte) error
	del    func(tx Tx, key []byte) error
}

// NewBatch returns an empty Batch committed through update, put and del
// (see Commit).
func NewBatch[Tx any](update func(fn func(Tx) error) error,
	put func(tx Tx, key, value []byte) error, del func(tx Tx, key []byte) error) *Batch[Tx] {
	return &Batch[Tx]{update: update, put: put, del: del}
}

// Commit implements engine.BackendBatch.Commit with Commit.
func (b *Batch[Tx]) Commit() error { return Commit(&b.Buffer, b.update, b.put, b.del) }
