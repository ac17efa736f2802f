package memory_test

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// A TSDB's tests can run against memory.New instead of a real backend.
func Example() {
	var db engine.Engine = memory.New()
	defer db.Close()
	db.Put([]byte("cpu/host1/0002"), []byte("0.7"))
	db.Put([]byte("cpu/host1/0001"), []byte("0.5"))
	db.Put([]byte("mem/host1/0001"), []byte("42"))

	it, _ := db.NewIterator(engine.IterOptions{LowerBound: []byte("cpu/"), UpperBound: []byte("cpu0")})
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		fmt.Printf("%s=%s\n", it.Key(), it.Value())
	}
	// Output:
	// cpu/host1/0001=0.5
	// cpu/host1/0002=0.7
}
