package crash

import (
	"fmt"

	"github.com/tsbench/storage/engine"
)

// Write commits batches to db, numbered on from the highest batch already
// in it, and calls ack with each batch's number once its Commit returned.
// It stops only at an error, its own or ack's: the writer is meant to be
// killed.
func Write(db engine.Engine, cfg Config, ack func(batch uint64) error) error {
	next, err := nextBatch(db)
	if err != nil {
		return err
	}
	k, v := make([]byte, keySize), make([]byte, cfg.ValueSize)
	bt := db.NewBatch()
	defer bt.Close()
	for b := next; ; b++ {
		for i := range uint32(cfg.Batch) {
			key(k, b, i)
			value(v, cfg.Seed, b, i)
			bt.Put(k, v)
		}
		if err := bt.Commit(); err != nil {
			return fmt.Errorf("commit batch %d: %w", b, err)
		}
		if err := ack(b); err != nil {
			return err
		}
	}
}

// nextBatch is the number after the highest batch in db, 0 if it is empty.
func nextBatch(db engine.Engine) (uint64, error) {
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		return 0, fmt.Errorf("find the last batch: %w", err)
	}
	next := uint64(0)
	if it.Last() {
		b, _, ok := parseKey(it.Key())
		if !ok {
			it.Close()
			return 0, fmt.Errorf("find the last batch: key %x is not the crash check's: use an empty directory", it.Key())
		}
		next = b + 1
	}
	if err := it.Close(); err != nil {
		return 0, fmt.Errorf("find the last batch: %w", err)
	}
	return next, nil
}
