package kyotocabinet

import (
	"path/filepath"

	"github.com/tsbench/storage/engine/internal/sniff"
)

// magic opens every Kyoto Cabinet hash and tree database file.
var magic = []byte("KC\n\x00")

// recognize reports whether dir holds this backend's store written
// without engine.Open (engine.Driver.Recognize): data.kct beginning with
// Kyoto Cabinet's magic, and the COMPRESSOR file this backend writes
// beside it. Without that file the compressor the pages were written with
// is unknown, so such a file is not adopted.
func recognize(dir string) (bool, error) {
	if ok, err := sniff.Files(dir, compressorFile); !ok || err != nil {
		return false, err
	}
	return sniff.Magic(filepath.Join(dir, fileName), 0, magic)
}
