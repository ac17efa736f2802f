package badger

import (
	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
)

// batch buffers its writes in one byte slice and applies them in a single
// Badger transaction, which commits atomically.
type batch struct {
	d      *DB
	data   []byte // keys and values of ops, back to back
	ops    []op
	closed bool
}

// op is one buffered write: key is data[off:off+klen], value follows it.
type op struct {
	off, klen, vlen int
	del             bool
}

func (b *batch) Put(key, value []byte) {
	if b.closed {
		return
	}
	b.ops = append(b.ops, op{off: len(b.data), klen: len(key), vlen: len(value)})
	b.data = append(append(b.data, key...), value...)
}

func (b *batch) Delete(key []byte) {
	if b.closed {
		return
	}
	b.ops = append(b.ops, op{off: len(b.data), klen: len(key), del: true})
	b.data = append(b.data, key...)
}

func (b *batch) Len() int { return len(b.ops) }

// Commit applies the writes in one transaction; for the same key the last
// write wins. A batch larger than a transaction may hold fails with
// ErrBatchTooBig and applies nothing, since splitting it would break
// atomicity.
func (b *batch) Commit() error {
	if b.closed {
		return engine.ErrClosed
	}
	if len(b.ops) > 0 {
		err := b.d.update(func(txn *badgerv4.Txn) error {
			for _, o := range b.ops {
				k := b.data[o.off : o.off+o.klen]
				var err error
				if o.del {
					err = del(txn, k)
				} else {
					err = set(txn, k, b.data[o.off+o.klen:o.off+o.klen+o.vlen])
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	b.ops, b.data = b.ops[:0], b.data[:0]
	return nil
}

func (b *batch) Close() error {
	if b.closed {
		return engine.ErrClosed
	}
	b.closed = true
	b.ops, b.data = nil, nil
	return nil
}
