package tskey_test

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/engine/tskey"
)

// Store points of two series, read one series' points between two times,
// then drop everything before a retention cutoff.
func Example() {
	db := memory.New()
	defer db.Close()
	const second = uint64(1e9)
	b := db.NewBatch()
	for i := range uint64(6) {
		series, ts := i%2, 1_700_000_000*second+i*second
		b.Put(tskey.AppendKey(nil, series, ts, i+1), []byte{byte(i)})
	}
	if err := b.Commit(); err != nil {
		panic(err)
	}

	var buf []byte
	from, to := tskey.TimeBounds(buf, 0, 1_700_000_001*second, 1_700_000_005*second)
	it, err := db.NewIterator(engine.IterOptions{LowerBound: from, UpperBound: to})
	if err != nil {
		panic(err)
	}
	for ok := it.First(); ok; ok = it.Next() {
		series, ts, seq, _ := tskey.ParseKey(it.Key())
		fmt.Println("series", series, "time", ts/second, "seq", seq)
	}
	it.Close()

	// Retention: every series loses its points before the cutoff.
	for series := range uint64(2) {
		start, end := tskey.TimeBounds(buf, series, 0, 1_700_000_004*second)
		if err := db.DeleteRange(start, end); err != nil {
			panic(err)
		}
	}
	lower, upper := tskey.SeriesBounds(buf, 1)
	it, _ = db.NewIterator(engine.IterOptions{LowerBound: lower, UpperBound: upper})
	for ok := it.First(); ok; ok = it.Next() {
		_, ts, _, _ := tskey.ParseKey(it.Key())
		fmt.Println("series 1 keeps time", ts/second)
	}
	it.Close()
	// Output:
	// series 0 time 1700000002 seq 3
	// series 0 time 1700000004 seq 5
	// series 1 keeps time 1700000005
}

// Keep points in hour buckets and expire the oldest hour with one
// DeleteRange, whatever the number of series.
func ExampleBucketBounds() {
	db := memory.New()
	defer db.Close()
	const second, hour = uint64(1e9), uint64(3600e9)
	b := db.NewBatch()
	for i := range uint64(6) {
		series, ts := i%3, 10*hour+i*30*60*second // every half hour
		b.Put(tskey.AppendBucketKey(nil, ts/hour, series, ts), []byte{byte(i)})
	}
	if err := b.Commit(); err != nil {
		panic(err)
	}
	start, end := tskey.BucketBounds(nil, 0, 11) // hours before 11:00
	if err := db.DeleteRange(start, end); err != nil {
		panic(err)
	}
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		panic(err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		bucket, series, ts, _ := tskey.ParseBucketKey(it.Key())
		fmt.Printf("hour %d series %d at %d min\n", bucket, series, (ts-10*hour)/(60*second))
	}
	// Output:
	// hour 11 series 0 at 90 min
	// hour 11 series 2 at 60 min
	// hour 12 series 1 at 120 min
	// hour 12 series 2 at 150 min
}
