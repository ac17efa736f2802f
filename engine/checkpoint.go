package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Checkpointer is implemented by engines that can write a consistent copy
// of themselves to a new directory natively, typically by hard-linking
// their immutable files. The ENGINE marker is Open's to write.
type Checkpointer interface {
	Checkpoint(dir string) error
}

// Checkpoint writes a consistent copy of e, as it was at one moment, to
// dir, which must not exist yet; Open then opens it with e's engine name.
// e keeps running meanwhile. An engine from Open uses its backend's native
// checkpoint or, without one, copies its entries, read through one
// iterator, into a new engine of the same kind and options in dir: a
// logical copy, as large as the live data. Another engine must implement
// Checkpointer, or Checkpoint fails with ErrNotSupported.
func Checkpoint(e Engine, dir string) error {
	c, ok := e.(Checkpointer)
	if !ok {
		return fmt.Errorf("%w: checkpoint of %T, which was not opened with engine.Open; use engine.Copy into an engine opened in %s", ErrNotSupported, e, dir)
	}
	return c.Checkpoint(dir)
}

// Checkpoint implements Checkpointer. A closed or broken engine refuses
// before anything is written, the copy included.
func (h *handle) Checkpoint(dir string) error {
	if err := h.enter(); err != nil {
		return err
	}
	c, ok := h.be.(Checkpointer)
	h.exit()
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("engine: checkpoint of %s to %s: %w; choose a path that does not exist yet", h.name, dir, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("engine: checkpoint of %s: %w", h.name, err)
	}
	if !ok {
		return h.copyTo(dir) // it reads through the handle, which enters
	}
	if err := h.enter(); err != nil {
		return err
	}
	defer h.exit()
	if err := h.latch(c.Checkpoint(dir)); err != nil {
		return fmt.Errorf("engine: checkpoint of %s: %w", h.name, err)
	}
	return os.WriteFile(filepath.Join(dir, markerFile), []byte(h.name+"\n"), 0o644)
}

// copyTo is Checkpoint for a backend without one: a new engine in dir,
// made durable commit by commit, receives a copy of every entry. A failed
// copy is removed, so that no partial checkpoint is left to open.
func (h *handle) copyTo(dir string) (err error) {
	o := h.opts
	o.Sync = SyncBatch
	dst, err := Open(h.name, dir, &o)
	if err != nil {
		return fmt.Errorf("engine: checkpoint of %s: %w", h.name, err)
	}
	defer func() {
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.RemoveAll(dir)
			err = fmt.Errorf("engine: checkpoint of %s by copy: %w", h.name, err)
		}
	}()
	return Copy(dst, h)
}

// copyBatch is the most Copy puts in one commit, in bytes; it halves the
// batch while the destination refuses it as too large.
const copyBatch = 4 << 20

// Copy writes every entry of src into dst, in batches of up to 4 MiB,
// reading src through one iterator so that the copy is of one moment.
// dst keeps entries src does not have. A batch dst refuses with
// ErrTooLarge is retried in halves, down to one entry; that entry's error
// is returned.
func Copy(dst Engine, src Reader) error {
	it, err := src.NewIterator(IterOptions{})
	if err != nil {
		return err
	}
	defer it.Close()
	b := dst.NewBatch()
	defer func() { b.Close() }()
	limit, size := copyBatch, 0
	var first []byte // the batch's first key, to read it again after a refusal
	for ok := it.First(); ok; {
		if b.Len() == 0 {
			first = append(first[:0], it.Key()...)
		}
		b.Put(it.Key(), it.Value())
		size += len(it.Key()) + len(it.Value())
		ok = it.Next()
		if size < limit && ok {
			continue
		}
		err := b.Commit()
		switch {
		case err == nil:
		case errors.Is(err, ErrTooLarge) && b.Len() > 1:
			limit = max(size/2, 1)
			b = resetBatch(dst, b)
			ok = it.Seek(first)
		default:
			return err
		}
		size = 0
	}
	return it.Err()
}

// resetBatch empties b for reuse, with Reset where b has it; otherwise it
// closes b and returns a new batch of e.
func resetBatch(e Engine, b Batch) Batch {
	if r, ok := b.(interface{ Reset() }); ok {
		r.Reset()
		return b
	}
	b.Close()
	return e.NewBatch()
}
