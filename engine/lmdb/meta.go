package lmdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
)

// The layout of LMDB's two meta pages (mdb.c, MDB_page and MDB_meta on a
// 64-bit host): a 16-byte page header, then the meta, whose free-pages
// database's md_pad holds the page size.
const (
	metaMagic     = 0xBEEFC0DE
	metaAt        = 16           // the meta after the page header
	magicOff      = metaAt + 0   // mm_magic
	pageSizeOff   = metaAt + 24  // mm_dbs[FREE_DBI].md_pad
	lastPageOff   = metaAt + 120 // mm_last_pg
	txnIDOff      = metaAt + 128 // mm_txnid
	metaReadBytes = txnIDOff + 8
)

// recognize reports whether dir holds an LMDB store: a data file that
// starts with an LMDB meta page.
func recognize(dir string) (bool, error) {
	m, err := readMeta(filepath.Join(dir, dataFile), 0)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotMeta) {
		return false, nil
	}
	return err == nil && m.magic == metaMagic, err
}

// meta is what checkLength needs of a meta page.
type meta struct {
	magic    uint32
	pageSize int64
	lastPage int64
	txnID    uint64
}

var errNotMeta = errors.New("not an LMDB meta page")

// readMeta reads the meta page at offset off of the file at path.
func readMeta(path string, off int64) (meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return meta{}, err
	}
	defer f.Close()
	b := make([]byte, metaReadBytes)
	if _, err := f.ReadAt(b, off); errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return meta{}, errNotMeta
	} else if err != nil {
		return meta{}, err
	}
	m := meta{
		magic:    binary.LittleEndian.Uint32(b[magicOff:]),
		pageSize: int64(binary.LittleEndian.Uint32(b[pageSizeOff:])),
		lastPage: int64(binary.LittleEndian.Uint64(b[lastPageOff:])),
		txnID:    binary.LittleEndian.Uint64(b[txnIDOff:]),
	}
	if m.magic != metaMagic {
		return m, errNotMeta
	}
	return m, nil
}

// checkLength fails with engine.ErrCorrupt when the data file at path,
// size bytes long, is shorter than its newest meta page says it is in
// use: LMDB would map the missing pages and fault reading them.
func checkLength(path string, size int64) error {
	m0, err := readMeta(path, 0)
	if err != nil {
		return fmt.Errorf("%w: lmdb: %s: first meta page: %v", engine.ErrCorrupt, filepath.Base(path), err)
	}
	if m0.pageSize < 512 || m0.pageSize > 1<<16 {
		return fmt.Errorf("%w: lmdb: %s: page size %d", engine.ErrCorrupt, filepath.Base(path), m0.pageSize)
	}
	newest := m0
	if m1, err := readMeta(path, m0.pageSize); err == nil && m1.txnID > m0.txnID {
		newest = m1
	}
	if used := (newest.lastPage + 1) * m0.pageSize; size < used {
		return fmt.Errorf("%w: lmdb: %s is %d bytes, its meta page says %d are in use: truncated", engine.ErrCorrupt, filepath.Base(path), size, used)
	}
	return nil
}
