package sqlite

import (
	"fmt"

	"github.com/tsbench/storage/engine"
)

var _ engine.Checker = (*DB)(nil)

// Check runs SQLite's PRAGMA quick_check (engine.Checker): it reads every
// page and checks the B-tree structure and record formats, leaving out
// integrity_check's comparison of indexes against their table, which the
// key-value table, a WITHOUT ROWID B-tree with no other index, does not
// need. It holds the writer connection, so writes wait for it.
func (d *DB) Check() error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	res, err := d.w.text("PRAGMA quick_check")
	if err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("%w: sqlite quick_check: %s", engine.ErrCorrupt, res)
	}
	return nil
}
