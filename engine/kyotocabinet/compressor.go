package kyotocabinet

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fileswap"
)

const (
	// compressorFile records the compressor the file was created with:
	// Kyoto Cabinet stores that pages are compressed, not how.
	compressorFile = "COMPRESSOR"
	// noCompressor is compressorFile's content for an uncompressed file.
	noCompressor = "none"
)

// fileCompressor returns the compressor to open dir's file with: the one
// it was created with, or for a new file the options' ("" for none).
func fileCompressor(dir string, own Options, o engine.Options) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, compressorFile))
	switch {
	case err == nil:
		if c := strings.TrimSpace(string(b)); c != noCompressor {
			return c, nil
		}
		return "", nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("kyotocabinet: %w", err)
	case o.DisableCompression:
		return "", nil
	}
	return own.Compressor, nil
}

// recordCompressor writes the compressor file of a new database.
func recordCompressor(dir, compressor string) error {
	name := filepath.Join(dir, compressorFile)
	if _, err := os.Stat(name); err == nil {
		return nil
	}
	if compressor == "" {
		compressor = noCompressor
	}
	// Durably: a database whose compressor a power cut dropped fails
	// its checksum.
	if err := fileswap.Write(name, []byte(compressor+"\n")); err != nil {
		return fmt.Errorf("kyotocabinet: %w", err)
	}
	return nil
}
