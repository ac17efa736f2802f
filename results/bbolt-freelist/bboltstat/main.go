//go:build ignore

// bboltstat prints how a bbolt file's pages are used: the file, its free
// pages (opening it writable loads the free list, or rebuilds it when the
// file has none) and its one bucket's tree. Run it on a copy or a kept
// directory after the benchmark ends:
//
//	go run ./results/bbolt-freelist/bboltstat/main.go DIR/data.db
package main

import (
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./results/bbolt-freelist/bboltstat/main.go DIR/data.db")
		os.Exit(2)
	}
	db, err := bolt.Open(os.Args[1], 0o600, &bolt.Options{FreelistType: bolt.FreelistMapType})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bboltstat:", err)
		os.Exit(1)
	}
	defer db.Close()
	fi, _ := os.Stat(os.Args[1])
	st := db.Stats()
	mib := func(n int) float64 { return float64(n) / (1 << 20) }
	fmt.Printf("file %.1f MiB, page size %d\n", float64(fi.Size())/(1<<20), db.Info().PageSize)
	fmt.Printf("free pages %d (%.1f MiB), pending %d, freelist inuse %.1f MiB\n", st.FreePageN, mib(st.FreePageN*db.Info().PageSize), st.PendingPageN, mib(st.FreelistInuse))
	db.View(func(tx *bolt.Tx) error {
		fmt.Printf("tx size (high water) %.1f MiB\n", float64(tx.Size())/(1<<20))
		b := tx.Bucket([]byte("kv"))
		s := b.Stats()
		fmt.Printf("keys %d depth %d branch pages %d (alloc %.1f MiB, inuse %.1f MiB) leaf pages %d overflow %d (alloc %.1f MiB, inuse %.1f MiB, fill %.2f)\n",
			s.KeyN, s.Depth, s.BranchPageN, mib(s.BranchAlloc), mib(s.BranchInuse), s.LeafPageN, s.LeafOverflowN, mib(s.LeafAlloc), mib(s.LeafInuse), float64(s.LeafInuse)/float64(s.LeafAlloc))
		return nil
	})
}
