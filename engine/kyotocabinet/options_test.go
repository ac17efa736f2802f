package kyotocabinet_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/kyotocabinet"
)

func open(t *testing.T, dir string, o engine.Options) engine.Engine {
	t.Helper()
	return enginetest.Open(t, "kyotocabinet", dir, &o)
}

// value is compressible, so that a wrong decompressor could not pass.
func value(i int) []byte { return bytes.Repeat(fmt.Appendf(nil, "value %d ", i), 20) }

func fill(t *testing.T, db engine.Engine, n int) {
	t.Helper()
	for i := range n {
		if err := db.Put(fmt.Appendf(nil, "k%04d", i), value(i)); err != nil {
			t.Fatal(err)
		}
	}
}

func check(t *testing.T, db engine.Engine, n int) {
	t.Helper()
	for i := range n {
		v, err := db.Get(fmt.Appendf(nil, "k%04d", i))
		if err != nil || !bytes.Equal(v, value(i)) {
			t.Fatalf("Get(k%04d) = %.20q, %v; want %.20q", i, v, err, value(i))
		}
	}
}

// TestCompressorKept checks that a file is always read with the
// compressor it was created with, which Kyoto Cabinet does not record,
// whatever the options of a later open say.
func TestCompressorKept(t *testing.T) {
	for _, created := range []engine.Options{
		{Engine: &kyotocabinet.Options{Compressor: "lzma"}},
		{DisableCompression: true},
	} {
		dir := t.TempDir()
		db := open(t, dir, created)
		fill(t, db, 500)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		for _, later := range []engine.Options{{}, {DisableCompression: true}, {Engine: &kyotocabinet.Options{Compressor: "zlib"}}} {
			db := open(t, dir, later)
			check(t, db, 500)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, "COMPRESSOR"))
		if want := map[bool]string{true: "none\n", false: "lzma\n"}[created.DisableCompression]; err != nil || string(b) != want {
			t.Errorf("COMPRESSOR = %q, %v; want %q", b, err, want)
		}
	}
}

// TestSyncBatch runs writes, a batch and a range delete with every commit
// fsynced (OAUTOTRAN|OAUTOSYNC and hard transactions) and reads them back
// after a reopen.
func TestSyncBatch(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, engine.Options{Sync: engine.SyncBatch})
	fill(t, db, 20)
	b := db.NewBatch()
	b.Put([]byte("k0020"), value(20))
	b.Delete([]byte("k0000"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if err := db.DeleteRange([]byte("k0001"), []byte("k0003")); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, dir, engine.Options{Sync: engine.SyncBatch})
	defer db.Close()
	for _, k := range []string{"k0000", "k0001", "k0002"} {
		if _, err := db.Get([]byte(k)); !errors.Is(err, engine.ErrNotFound) {
			t.Errorf("Get(%s) = %v, want ErrNotFound", k, err)
		}
	}
	if v, err := db.Get([]byte("k0020")); err != nil || !bytes.Equal(v, value(20)) {
		t.Errorf("Get(k0020) = %.20q, %v", v, err)
	}
}

func TestBadOptions(t *testing.T) {
	enginetest.BadOptions(t, "kyotocabinet",
		&kyotocabinet.Options{TuneOptions: "slc"}, &kyotocabinet.Options{Compressor: "snappy"}, &kyotocabinet.Options{PageSize: -1})
}

// TestBuild checks that the library's build is read from its file.
func TestBuild(t *testing.T) {
	if v := kyotocabinet.Version(); !strings.HasPrefix(v, "1.") {
		t.Errorf("Version = %q, want 1.x.y", v)
	}
	if b := kyotocabinet.Build(); !strings.HasPrefix(b, "release") || !strings.Contains(b, "libkyotocabinet") {
		t.Errorf("Build = %q, want a release build of a libkyotocabinet file", b)
	}
}
