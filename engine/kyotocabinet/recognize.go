package kyotocabinet

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// magic opens every Kyoto Cabinet hash and tree database file.
var magic = []byte("KC\n\x00")

// recognize reports whether dir holds this backend's store written
// without engine.Open (engine.Driver.Recognize): data.kct beginning with
// Kyoto Cabinet's magic, and the COMPRESSOR file this backend writes
// beside it. Without that file the compressor the pages were written with
// is unknown, so such a file is not adopted.
func recognize(dir string) (bool, error) {
	if _, err := os.Stat(filepath.Join(dir, compressorFile)); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	f, err := os.Open(filepath.Join(dir, fileName))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	defer f.Close()
	b := make([]byte, len(magic))
	if _, err := io.ReadFull(f, b); errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return bytes.Equal(b, magic), nil
}
