package engine_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

// The README's embedding example: open by name, write a series in one
// batch, read a time range of it back through a bounded iterator.
// TestReadmeExample keeps the README's copy the same as this one.
func Example() {
	dir, err := os.MkdirTemp("", "engine-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	key := func(series, ts uint64) []byte {
		return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, series), ts)
	}

	// readme:begin
	db, err := engine.Open("pebble", dir, &engine.Options{Sync: engine.SyncBatch})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	b := db.NewBatch() // key(series, ts) puts both big-endian, so a series' points sort by time
	for ts := uint64(1); ts <= 5; ts++ {
		b.Put(key(7, ts), fmt.Appendf(nil, "%d", ts*10))
	}
	if err := b.Commit(); err != nil { // all or nothing, one write
		log.Fatal(err)
	}
	it, err := db.NewIterator(engine.IterOptions{LowerBound: key(7, 2), UpperBound: key(7, 4)})
	if err != nil {
		log.Fatal(err)
	}
	for ok := it.First(); ok; ok = it.Next() { // t=2 and t=3: the upper bound is excluded
		fmt.Printf("t=%d v=%s\n", binary.BigEndian.Uint64(it.Key()[8:]), it.Value()) // valid until the next move
	}
	if err := it.Close(); err != nil {
		log.Fatal(err)
	}
	// readme:end

	// Output:
	// t=2 v=20
	// t=3 v=30
}

// TestReadmeExample fails when the README's Go example is not the body
// of Example above, so the front door's code is code that compiles and
// runs.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := bytes.Cut(readme, []byte("```go\n"))
	block, _, ok2 := bytes.Cut(block, []byte("```\n"))
	if !ok || !ok2 {
		t.Fatal("README.md has no ```go block")
	}
	body := string(block)
	src, err := os.ReadFile("readme_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := strings.Cut(string(src), "\t// readme:begin\n")
	want, _, _ = strings.Cut(want, "\t// readme:end\n")
	want = strings.ReplaceAll("\n"+want, "\n\t", "\n")[1:]
	if body != want {
		t.Errorf("README.md's Go example differs from Example in engine/readme_example_test.go: copy the lines between readme:begin and readme:end into README.md, one tab less\nREADME:\n%s\nExample:\n%s", body, want)
	}
}
