package badger

import (
	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine/internal/sniff"
)

// Check implements engine.Checker with Badger's VerifyChecksum: it reads
// every table and verifies the checksum of each block, which a reopen
// (OnTableRead) verifies only for the table's index.
func (d *DB) Check() error {
	return d.db.Use(func(db *badgerv4.DB) error { return kinds.Wrap(db.VerifyChecksum()) })
}

// recognize reports whether dir holds a Badger store: its MANIFEST and
// KEYREGISTRY files, which no other engine writes together.
func recognize(dir string) (bool, error) {
	return sniff.Files(dir, "MANIFEST", "KEYREGISTRY")
}
