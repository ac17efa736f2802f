package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	pebbledb "github.com/cockroachdb/pebble/v2"
	badgerv4 "github.com/dgraph-io/badger/v4"
	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/util"
	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/badger"
	"github.com/tsbench/storage/engine/bbolt"
	"github.com/tsbench/storage/engine/goleveldb"
	"github.com/tsbench/storage/engine/pebble"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/timeseries"
)

// nativeGoEngines are the pure-Go engines BenchmarkNativeGo measures.
var nativeGoEngines = []string{"badger", "bbolt", "goleveldb", "pebble"}

// BenchmarkNativeGo is BenchmarkNative for the pure-Go engines, on the
// query step: each round the harness writes the points into a new store
// and compacts it whole, and then three readers query that store, each
// reading the same files (checked), each -native-reads times in turns
// whose order rotates: the harness, and a Go loop over the library's own
// iterator (TestNativeGo, in a child process as the harness runs)
// reading each entry's pointers and lengths alone, and copying each
// entry once before checking it. It reports what BenchmarkNative does for
// the query step.
//
//	go test -run '^$' -bench NativeGo -benchtime 5x -timeout 0 ./bench -engines pebble,goleveldb,badger,bbolt
func BenchmarkNativeGo(b *testing.B) {
	cfg := nativeConfig(b)
	for _, name := range engineNames(b) {
		if !slices.Contains(nativeGoEngines, name) {
			continue
		}
		b.Run("engine="+name, func(b *testing.B) {
			b.Run("op=query", func(b *testing.B) {
				var harness, alone, copied []stepTimes
				for round := 0; b.Loop(); round++ {
					store := b.TempDir()
					runHarness(b, name, cfg, store, stepStore)
					sums := storeSums(b, store)
					var h, a, c stepTimes
					for read := range *nativeReads {
						rotate(round+read,
							func() { a.keepQuery(runNativeGo(b, name, cfg, store, scanAlone)) },
							func() { c.keepQuery(runNativeGo(b, name, cfg, store, scanCopy)) },
							func() { h.keepQuery(runHarness(b, name, cfg, store, timeseries.StepQuery)) })
					}
					sameStore(b, store, sums)
					os.RemoveAll(store)
					harness, alone, copied = append(harness, h), append(alone, a), append(copied, c)
				}
				reportNative(b, cfg, queryStep, harness, alone, copied)
			})
		})
	}
}

// nativeGoEnv names the engine, directory and scan of a child process of
// BenchmarkNativeGo (see TestNativeGo).
const nativeGoEnv = "TSBENCH_NATIVE_GO"

// runNativeGo runs TestNativeGo in a child process on the store in dir,
// reading entries as scan says, and returns its times.
func runNativeGo(b *testing.B, name string, cfg timeseries.Config, dir, scan string) stepTimes {
	cmd := exec.Command(os.Args[0], "-test.run=^TestNativeGo$", "-test.count=1",
		"-native-points="+fmt.Sprint(cfg.Points), "-native-series="+fmt.Sprint(cfg.Series),
		"-no-compression="+fmt.Sprint(*noCompression), "-cache-size="+fmt.Sprint(*cacheSize))
	cmd.Env = append(os.Environ(), nativeGoEnv+"="+name+","+dir+","+scan)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("native Go child for %s: %v: %s\n%s", name, err, stderrOf(err), out)
	}
	return parseTimes(b, out)
}

// TestNativeGo is BenchmarkNativeGo's child process: when started by it
// (nativeGoEnv set to "engine,dir,scan"), it queries every series of the
// store in dir, which the harness wrote, with a Go loop over the
// library's own bounded iterator, timed per series as the harness times
// it, and prints the times. It skips otherwise.
func TestNativeGo(t *testing.T) {
	v := os.Getenv(nativeGoEnv)
	if v == "" {
		t.Skip("run by BenchmarkNativeGo only")
	}
	parts := strings.Split(v, ",")
	if len(parts) != 3 {
		t.Fatalf("%s=%q, want engine,dir,scan", nativeGoEnv, v)
	}
	name, dir := parts[0], parts[1]
	runtime.LockOSThread()
	cfg := timeseries.Config{Points: *nativePoints, Series: *nativeSeries, Seed: seed}
	opts := options()
	db, err := engine.Open(name, dir, &opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := &goQuery{gen: points.Generator{Series: cfg.Series, Seed: cfg.Seed}, points: cfg.Points, copying: parts[2] == scanCopy}
	cpu := threadCPU()
	err = libraryScan(engine.Unwrap(db), q, cfg.Series)
	cpu = threadCPU() - cpu
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf(timesFormat, 0, q.spent.Nanoseconds(), 0, cpu.Nanoseconds(), q.read, q.errors)
}

// goQuery is the query step as a Go program over the library writes it:
// each series read with a new bounded iterator, timed from its creation
// to its release, less the checking of full chunks. Copying, each entry
// goes once into a scanbuf.Chunk, checked with the timer paused, as the
// harness does; otherwise only its pointers and lengths are read (the
// engine alone), and the check counts each series' entries and their keys'
// bytes.
type goQuery struct {
	gen     points.Generator
	points  int64
	copying bool
	chunk   scanbuf.Chunk
	bounds  [2 * tskey.KeySize]byte
	// The series being read: its number, the sequence number of the point
	// it expects next, the entries and key bytes read, the pointers read
	// (mixed, so that reading them counts), and when its timer started.
	series, next int64
	n, keyBytes  int64
	seen         uintptr
	t0           time.Time
	spent        time.Duration
	read, errors int64
}

// begin starts series s and its timer, and returns its bounds.
func (q *goQuery) begin(s int64) (lower, upper []byte) {
	q.series, q.next, q.n, q.keyBytes = s, s+1, 0, 0
	q.chunk.Reset()
	lower, upper = tskey.SeriesBounds(q.bounds[:], uint64(s))
	q.t0 = time.Now()
	return lower, upper
}

// add takes one entry.
func (q *goQuery) add(k, v []byte) {
	if !q.copying {
		q.seen += uintptr(unsafe.Pointer(unsafe.SliceData(k))) ^ uintptr(unsafe.Pointer(unsafe.SliceData(v)))
		q.keyBytes += int64(len(k))
		q.n++
		return
	}
	q.chunk.Add(k, v)
	if q.chunk.Len() == scanbuf.ChunkEntries {
		q.spent += time.Since(q.t0)
		q.check()
		q.t0 = time.Now()
	}
}

// end stops the series' timer and checks what it read.
func (q *goQuery) end() {
	q.spent += time.Since(q.t0)
	if !q.copying {
		q.next += q.n * q.gen.Series
		if q.keyBytes != q.n*tskey.KeySize || q.next > q.points+q.gen.Series {
			q.errors++
		}
		q.read += q.n
	}
	q.check()
	if q.next <= q.points {
		q.errors += (q.points-q.next)/q.gen.Series + 1 // never read
	}
}

// check checks the chunk's entries against the points the series expects
// next, and empties it.
func (q *goQuery) check() {
	var want []byte
	for k, v := range q.chunk.All() {
		series, _, seq, err := tskey.ParseKey(k)
		want = points.AppendValue(want[:0], q.gen.Value(seq))
		if err != nil || series != uint64(q.series) || int64(seq) != q.next || !bytes.Equal(v, want) {
			q.errors++
		}
		q.next += q.gen.Series
		q.read++
	}
	q.chunk.Reset()
}

// libraryScan runs q over every series of be, a pure-Go backend, with the
// library's own iterator, used as its documentation shows.
func libraryScan(be engine.Backend, q *goQuery, series int64) error {
	switch be := be.(type) {
	case *pebble.DB:
		return be.Library(func(db *pebbledb.DB) error {
			for s := range series {
				lower, upper := q.begin(s)
				it, err := db.NewIter(&pebbledb.IterOptions{LowerBound: lower, UpperBound: upper})
				if err != nil {
					return err
				}
				for ok := it.First(); ok; ok = it.Next() {
					v, err := it.ValueAndErr()
					if err != nil {
						return err
					}
					q.add(it.Key(), v)
				}
				if err := it.Close(); err != nil {
					return err
				}
				q.end()
			}
			return nil
		})
	case *goleveldb.DB:
		return be.Library(func(db *leveldb.DB) error {
			for s := range series {
				lower, upper := q.begin(s)
				it := db.NewIterator(&util.Range{Start: lower, Limit: upper}, nil)
				for it.Next() {
					q.add(it.Key(), it.Value())
				}
				it.Release()
				if err := it.Error(); err != nil {
					return err
				}
				q.end()
			}
			return nil
		})
	case *badger.DB:
		return be.Library(func(db *badgerv4.DB) error {
			for s := range series {
				lower, upper := q.begin(s)
				txn := db.NewTransaction(false)
				it := txn.NewIterator(badgerv4.IteratorOptions{})
				for it.Seek(lower); it.Valid(); it.Next() {
					item := it.Item()
					k := item.Key()
					if bytes.Compare(k, upper) >= 0 {
						break
					}
					if err := item.Value(func(v []byte) error { q.add(k, v); return nil }); err != nil {
						return err
					}
				}
				it.Close()
				txn.Discard()
				q.end()
			}
			return nil
		})
	case *bbolt.DB:
		return be.Library(func(db *bolt.DB, bucket []byte) error {
			for s := range series {
				lower, upper := q.begin(s)
				tx, err := db.Begin(false)
				if err != nil {
					return err
				}
				c := tx.Bucket(bucket).Cursor()
				for k, v := c.Seek(lower); k != nil && bytes.Compare(k, upper) < 0; k, v = c.Next() {
					q.add(k, v)
				}
				if err := tx.Rollback(); err != nil {
					return err
				}
				q.end()
			}
			return nil
		})
	}
	return fmt.Errorf("no Go loop for the backend %T", be)
}
