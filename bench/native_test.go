package bench

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/hyperleveldb"
	"github.com/tsbench/storage/engine/kyotocabinet"
	"github.com/tsbench/storage/engine/leveldb"
	"github.com/tsbench/storage/engine/lmdb"
	"github.com/tsbench/storage/engine/rocksdb"
	"github.com/tsbench/storage/engine/sqlite"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/timeseries"
)

var (
	nativePoints = flag.Int64("native-points", 2_000_000, "points of each BenchmarkNative run")
	nativeSeries = flag.Int64("native-series", 10_000, "series of each BenchmarkNative run")
	nativeReads  = flag.Int("native-reads", 3, "times each side of BenchmarkNative queries each round's store")
)

// nativeEngines are the engines bench/native has a C program for.
var nativeEngines = []string{"hyperleveldb", "kyotocabinet", "leveldb", "lmdb", "rocksdb", "sqlite"}

// BenchmarkNative measures what the harness costs on top of the C engines,
// on the write and query steps of the time-series workload: the harness
// (timeseries.Run in a child process, as benchmark-storage runs it)
// against the C program of bench/native doing the same work on the same
// library. Each round, each side writes the points into a new store of
// its own, and then three readers query one store, the one the C program
// wrote and compacted whole (so that no compaction runs while they read,
// and each reads the same files, which is checked): the C program reading
// only each entry's pointers and lengths (the engine alone), the C
// program copying each entry once before checking it, and the harness,
// each -native-reads times, in turns whose order rotates. A query is
// short (0.1-1 s at 2M points), so that on a shared machine one round's
// query times spread by 10-30%: the best of several reads per round
// comes nearer each side's own time. Give the rounds with -benchtime
// (5x: best of five rounds).
//
// It reports per step the best engine time of each side per point, the
// harness's over the engine alone's and, on the query, over copy-once's
// (1.00: the harness costs nothing), the harness's CPU time over
// copy-once's on the query and the engine alone's on the write (of
// the thread running the step, generating, encoding and checking
// included, which both do: engine time is wall time, which on a busy
// machine also measures how the scheduler treats each process), and the
// nanoseconds per entry the harness adds to the engine alone; it logs
// every round.
//
//	go test -run '^$' -bench 'Native$' -benchtime 5x -timeout 0 ./bench -engines rocksdb,leveldb
func BenchmarkNative(b *testing.B) {
	cfg := nativeConfig(b)
	for _, name := range engineNames(b) {
		if !slices.Contains(nativeEngines, name) {
			continue
		}
		b.Run("engine="+name, func(b *testing.B) {
			args, err := nativeOptions(name)
			if err != nil {
				b.Fatal(err)
			}
			prog := buildNative(b, name)
			var harness, alone, copied []stepTimes
			for round := 0; b.Loop(); round++ {
				store, scratch := b.TempDir(), b.TempDir()
				var h, a, c stepTimes
				rotate(round,
					func() { a = runNative(b, prog, cfg, store, modeWrite, args) },
					func() { h = runHarness(b, name, cfg, scratch, timeseries.StepWrite) })
				os.RemoveAll(scratch)
				// The C program's store has no ENGINE marker: name its
				// engine, as engine/leveldb's doc says to open a store
				// the library wrote.
				if err := os.WriteFile(filepath.Join(store, "ENGINE"), []byte(name+"\n"), 0o644); err != nil {
					b.Fatal(err)
				}
				sums := storeSums(b, store)
				for read := range *nativeReads {
					rotate(round+read,
						func() { a.keepQuery(runNative(b, prog, cfg, store, scanAlone, args)) },
						func() { c.keepQuery(runNative(b, prog, cfg, store, scanCopy, args)) },
						func() { h.keepQuery(runHarness(b, name, cfg, store, timeseries.StepQuery)) })
				}
				sameStore(b, store, sums)
				os.RemoveAll(store)
				harness, alone, copied = append(harness, h), append(alone, a), append(copied, c)
			}
			for _, st := range nativeSteps {
				reportNative(b, cfg, st, harness, alone, copied)
			}
		})
	}
}

// nativeConfig is the workload of BenchmarkNative and BenchmarkNativeGo.
func nativeConfig(b *testing.B) timeseries.Config {
	cfg := timeseries.Config{Points: *nativePoints, Series: *nativeSeries, Batch: min(1000, *nativeSeries), Seed: seed}
	if err := cfg.Validate(); err != nil {
		b.Fatal(err)
	}
	return cfg
}

// What a run of the C program does: write the store, or query it reading
// each entry in one of two ways.
const (
	modeWrite = "write" // write the points, then compact the store whole
	scanAlone = "alone" // its pointers and lengths only: the engine alone
	scanCopy  = "copy"  // copied once, then checked
)

// rotate runs the runs in turn, starting with run round mod len(runs),
// so that from round to round each side goes first as often.
func rotate(round int, runs ...func()) {
	for i := range runs {
		runs[(i+round)%len(runs)]()
	}
}

// keepQuery keeps the query times of q, a run that only queried, if its
// query is the first or the fastest so far.
func (s *stepTimes) keepQuery(q stepTimes) {
	if s.query == 0 || q.query < s.query {
		s.query, s.queryCPU = q.query, q.queryCPU
	}
}

// storeExts are the extensions of the files that hold a store's data: an
// LSM's tables (*.sst, *.ldb), which a compaction replaces, and the
// B-tree files (LMDB, SQLite, Kyoto Cabinet, bbolt), which a write
// changes in place. LMDB's lock.mdb is its readers' table, which every
// reader writes.
var storeExts = []string{".sst", ".ldb", ".mdb", ".sqlite", ".kct", ".db"}

// sumStore returns a SHA-256 of each data file in dir by name.
func sumStore(dir string) (map[string][sha256.Size]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][sha256.Size]byte{}
	for _, e := range entries {
		if !slices.Contains(storeExts, filepath.Ext(e.Name())) || e.Name() == "lock.mdb" {
			continue
		}
		sum, err := fileSum(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = sum
	}
	return files, nil
}

// fileSum returns the SHA-256 of the file at path, read in pieces: a
// B-tree store is hundreds of MB.
func fileSum(path string) (sum [sha256.Size]byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	return [sha256.Size]byte(h.Sum(nil)), nil
}

// storeSums returns sumStore(dir), failing b on an error.
func storeSums(b testing.TB, dir string) map[string][sha256.Size]byte {
	files, err := sumStore(dir)
	if err != nil {
		b.Fatal(err)
	}
	return files
}

// sameStore fails b if the data files in dir are no longer want: the
// readers would not have read the same store.
func sameStore(b testing.TB, dir string, want map[string][sha256.Size]byte) {
	if got := storeSums(b, dir); !maps.Equal(got, want) {
		b.Fatalf("the data files of %s changed while it was read (a compaction or a write after the write step's): %v, then %v", dir, slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)))
	}
}

// stepTimes are the engine times of one run's write and query steps, and
// the CPU times of the thread running each.
type stepTimes struct{ write, query, writeCPU, queryCPU time.Duration }

// nativeStep is one step of stepTimes: its name, its times, and whether
// the copy-once side ran it (the query; a write has nothing to copy).
type nativeStep struct {
	name     string
	get, cpu func(stepTimes) time.Duration
	copied   bool
}

var (
	writeStep = nativeStep{"write", func(s stepTimes) time.Duration { return s.write }, func(s stepTimes) time.Duration { return s.writeCPU }, false}
	queryStep = nativeStep{"query", func(s stepTimes) time.Duration { return s.query }, func(s stepTimes) time.Duration { return s.queryCPU }, true}
	// nativeSteps are the steps BenchmarkNative reports.
	nativeSteps = []nativeStep{writeStep, queryStep}
)

// reportNative reports and logs the best of each side in step st: each
// step reads or writes every point once.
func reportNative(b *testing.B, cfg timeseries.Config, st nativeStep, harness, alone, copied []stepTimes) {
	perPoint := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(cfg.Points) }
	ref, refName := alone, "engine-alone"
	if st.copied {
		ref, refName = copied, "copy-once"
	}
	h, a, c := best(harness, st.get), best(alone, st.get), best(ref, st.get)
	b.ReportMetric(perPoint(h), st.name+"-harness-ns/point")
	b.ReportMetric(perPoint(a), st.name+"-engine-alone-ns/point")
	b.ReportMetric(float64(h)/float64(a), st.name+"-harness/engine-alone")
	if st.copied {
		b.ReportMetric(perPoint(c), st.name+"-copy-once-ns/point")
		b.ReportMetric(float64(h)/float64(c), st.name+"-harness/copy-once")
	}
	b.ReportMetric(float64(best(harness, st.cpu))/float64(best(ref, st.cpu)), st.name+"-cpu-harness/"+refName)
	b.ReportMetric(perPoint(h-a), st.name+"-overhead-ns/entry")
	var runs []string
	for i := range harness {
		run := fmt.Sprintf("%.3f/%.3f", st.get(harness[i]).Seconds(), st.get(alone[i]).Seconds())
		if st.copied {
			run += fmt.Sprintf("/%.3f", st.get(copied[i]).Seconds())
		}
		runs = append(runs, run)
	}
	ratios := fmt.Sprintf("harness/engine-alone %.3f (best %.3fs / %.3fs)", float64(h)/float64(a), h.Seconds(), a.Seconds())
	sides := "harness/engine-alone"
	if st.copied {
		ratios = fmt.Sprintf("harness/engine-alone %.3f, harness/copy-once %.3f (best %.3fs / %.3fs / %.3fs)",
			float64(h)/float64(a), float64(h)/float64(c), h.Seconds(), a.Seconds(), c.Seconds())
		sides += "/copy-once"
	}
	b.Logf("%s: %s, %.1f ns/entry over the engine alone; rounds, %s seconds: %s",
		st.name, ratios, perPoint(h-a), sides, strings.Join(runs, ", "))
}

func best(runs []stepTimes, get func(stepTimes) time.Duration) time.Duration {
	m := get(runs[0])
	for _, r := range runs[1:] {
		m = min(m, get(r))
	}
	return m
}

// nativeOptions returns the settings of name's engine with the options of
// this benchmark run, defaults filled in, as the C program's name=value
// arguments, so that both sides configure the library alike.
func nativeOptions(name string) ([]string, error) {
	o := options()
	o, err := o.WithDefaults()
	if err != nil {
		return nil, err
	}
	bit := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	lsm := map[string]int64{
		"cache_size":         o.CacheSize,
		"write_buffer_size":  o.WriteBufferSize,
		"max_open_files":     int64(o.MaxOpenFiles),
		"snappy":             bit(!o.DisableCompression),
		"bloom_bits_per_key": int64(o.BloomBitsPerKey),
		"sync":               bit(o.Sync == engine.SyncBatch),
	}
	var set map[string]int64
	switch name {
	case "rocksdb":
		r, err := rocksdb.Options{}.Resolve(o)
		if err != nil {
			return nil, err
		}
		own := r.(rocksdb.Options)
		set = lsm
		set["block_size"] = int64(own.BlockSize)
		set["max_background_jobs"] = int64(own.MaxBackgroundJobs)
		set["dynamic_level_bytes"] = bit(!own.DisableDynamicLevelBytes)
		set["target_file_size_base"] = own.TargetFileSizeBase
		set["max_bytes_for_level_base"] = own.MaxBytesForLevelBase
		set["max_write_buffer_number"] = int64(own.MaxWriteBufferNumber)
		set["manifest_preallocation_size"] = 64 << 10 // as engine/rocksdb sets it
	case "leveldb":
		r, err := leveldb.Options{}.Resolve(o)
		if err != nil {
			return nil, err
		}
		own := r.(leveldb.Options)
		set = lsm
		set["block_size"] = int64(own.BlockSize)
		set["max_file_size"] = own.MaxFileSize
	case "hyperleveldb":
		r, err := hyperleveldb.Options{}.Resolve(o)
		if err != nil {
			return nil, err
		}
		own := r.(hyperleveldb.Options)
		set = lsm
		set["block_size"] = int64(own.BlockSize)
		set["block_restart_interval"] = int64(own.BlockRestartInterval)
		set["paranoid_checks"] = bit(own.ParanoidChecks)
		set["verify_checksums"] = bit(own.VerifyChecksums)
	case "lmdb":
		r, err := lmdb.Options{}.Resolve(o)
		if err != nil {
			return nil, err
		}
		own := r.(lmdb.Options)
		set = map[string]int64{
			"map_size":     own.MapSize,
			"max_readers":  int64(own.MaxReaders),
			"no_readahead": bit(own.NoReadahead),
			"write_map":    bit(own.WriteMap),
			"sync":         bit(o.Sync == engine.SyncBatch),
		}
	case "sqlite":
		r, err := sqlite.Options{}.Resolve(o)
		if err != nil {
			return nil, err
		}
		own := r.(sqlite.Options)
		jm := slices.Index([]string{"wal", "delete", "truncate", "persist"}, own.JournalMode) // sqlite.c's journal_modes
		if jm < 0 {
			return nil, fmt.Errorf("sqlite journal_mode %q: sqlite.c knows wal, delete, truncate and persist", own.JournalMode)
		}
		set = map[string]int64{
			"journal_mode":       int64(jm),
			"exclusive":          bit(own.LockingMode == "exclusive"),
			"page_size":          int64(own.PageSize),
			"sync":               bit(o.Sync == engine.SyncBatch),
			"cache_kib":          max(o.CacheSize>>10, 1), // as engine/sqlite's cachePragma
			"wal_autocheckpoint": int64(own.WALAutocheckpoint),
		}
	case "kyotocabinet":
		r, err := kyotocabinet.Options{}.Resolve(o)
		if err != nil {
			return nil, err
		}
		own := r.(kyotocabinet.Options)
		comp := 0
		if !o.DisableCompression {
			comp = slices.Index([]string{"", "lzo", "zlib", "lzma"}, own.Compressor) // kyoto.cc's compressors
		}
		tune := strings.TrimPrefix(own.TuneOptions, "none")
		set = map[string]int64{
			"tune_small":  bit(strings.Contains(tune, "s")),
			"tune_linear": bit(strings.Contains(tune, "l")),
			"compressor":  int64(comp),
			"page_size":   int64(own.PageSize),
			"map_size":    own.MapSize,
			"buckets":     own.Buckets,
			"cache_size":  o.CacheSize,
			"sync":        bit(o.Sync == engine.SyncBatch),
		}
	default:
		return nil, fmt.Errorf("no native program for %s", name)
	}
	var args []string
	for k, v := range set {
		args = append(args, k+"="+strconv.FormatInt(v, 10))
	}
	slices.Sort(args)
	return args, nil
}

// buildNative compiles the C program for name with the C compiler and
// flags cgo uses (go env CC, CGO_CFLAGS), against the library the engine
// links, and returns its path.
func buildNative(b testing.TB, name string) string {
	goenv := func(v string) string {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			b.Fatalf("go env %s: %v", v, err)
		}
		return strings.TrimSpace(string(out))
	}
	cc := strings.Fields(cmp.Or(goenv("CC"), "cc"))
	cflags := strings.Fields(goenv("CGO_CFLAGS"))
	src, err := filepath.Abs("native")
	if err != nil {
		b.Fatal(err)
	}
	files := []string{filepath.Join(src, "ts.c")}
	var extra []string
	switch name {
	case "rocksdb":
		files = append(files, filepath.Join(src, "rocksdb.c"))
		extra = pkgConfig(b, "rocksdb")
	case "leveldb":
		files = append(files, filepath.Join(src, "level.c"))
		extra = append([]string{"-DLIB=leveldb", "-DTS_LEVELDB"}, pkgConfig(b, "leveldb")...)
	case "hyperleveldb":
		files = append(files, filepath.Join(src, "level.c"))
		extra = append([]string{"-DLIB=hyperleveldb"}, pkgConfig(b, "hyperleveldb")...)
	case "lmdb":
		files = append(files, filepath.Join(src, "lmdb.c"))
		extra = pkgConfig(b, "lmdb-tsbench")
	case "kyotocabinet":
		files = append(files, filepath.Join(src, "kyoto.cc"))
		extra = append(pkgConfig(b, "kyotocabinet"), "-lstdc++")
	case "sqlite":
		// The amalgamation go-sqlite3 compiles into engine/sqlite, with
		// its flags (the #cgo CFLAGS of its sqlite3.go).
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/mattn/go-sqlite3").Output()
		if err != nil {
			b.Fatalf("go list go-sqlite3: %v: %s", err, stderrOf(err))
		}
		dir := strings.TrimSpace(string(out))
		files = append(files, filepath.Join(src, "sqlite.c"), filepath.Join(dir, "sqlite3-binding.c"))
		extra = []string{"-I" + dir, "-DSQLITE_ENABLE_RTREE", "-DSQLITE_THREADSAFE=1", "-DHAVE_USLEEP=1",
			"-DSQLITE_ENABLE_FTS3", "-DSQLITE_ENABLE_FTS3_PARENTHESIS", "-DSQLITE_TRACE_SIZE_LIMIT=15",
			"-DSQLITE_OMIT_DEPRECATED", "-DSQLITE_DEFAULT_WAL_SYNCHRONOUS=1", "-DSQLITE_ENABLE_UPDATE_DELETE_LIMIT",
			"-Wno-deprecated-declarations", "-lm", "-lpthread", "-ldl"}
	}
	prog := filepath.Join(b.TempDir(), "ts-"+name)
	args := slices.Concat(cc[1:], cflags, []string{"-o", prog}, files, extra)
	if out, err := exec.Command(cc[0], args...).CombinedOutput(); err != nil {
		b.Fatalf("building the native %s program: %v\n%s %s\n%s", name, err, cc[0], strings.Join(args, " "), out)
	}
	return prog
}

func pkgConfig(b testing.TB, lib string) []string {
	out, err := exec.Command("pkg-config", "--cflags", "--libs", lib).Output()
	if err != nil {
		b.Fatalf("pkg-config %s: %v; run make setup", lib, err)
	}
	return strings.Fields(string(out))
}

// runNative runs the C program on the store in dir in mode (modeWrite,
// scanAlone or scanCopy) and returns its times.
func runNative(b testing.TB, prog string, cfg timeseries.Config, dir, mode string, opts []string) stepTimes {
	args := append([]string{dir, fmt.Sprint(cfg.Points), fmt.Sprint(cfg.Series), fmt.Sprint(cfg.Batch), fmt.Sprint(cfg.Seed), mode}, opts...)
	out, err := exec.Command(prog, args...).Output()
	if err != nil {
		b.Fatalf("%s: %v: %s", prog, err, stderrOf(err))
	}
	return parseTimes(b, out)
}

// harnessEnv names the engine, directory and step a child process of
// BenchmarkNative runs the harness on (see TestNativeHarness).
const harnessEnv = "TSBENCH_NATIVE_HARNESS"

// stepStore is the write step of a store that readers then query: its
// write is timed as timeseries.StepWrite, then the store is compacted
// whole, untimed, so that no compaction runs under the readers.
const stepStore = "store"

// runHarness runs the harness's step (timeseries.StepWrite or stepStore
// into a new store in dir, or StepQuery of the store dir holds) in a
// child process, this test binary running TestNativeHarness, and returns
// its times.
func runHarness(b *testing.B, name string, cfg timeseries.Config, dir, step string) stepTimes {
	cmd := exec.Command(os.Args[0], "-test.run=^TestNativeHarness$", "-test.count=1",
		"-native-points="+fmt.Sprint(cfg.Points), "-native-series="+fmt.Sprint(cfg.Series),
		"-no-compression="+fmt.Sprint(*noCompression), "-cache-size="+fmt.Sprint(*cacheSize))
	cmd.Env = append(os.Environ(), harnessEnv+"="+name+","+dir+","+step)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("harness child for %s: %v: %s\n%s", name, err, stderrOf(err), out)
	}
	return parseTimes(b, out)
}

func stderrOf(err error) []byte {
	if e, ok := err.(*exec.ExitError); ok {
		return e.Stderr
	}
	return nil
}

// timesFormat is the line both sides print.
const timesFormat = "write_ns=%d query_ns=%d write_cpu_ns=%d query_cpu_ns=%d read=%d errors=%d\n"

// parseTimes reads the times line both sides print.
func parseTimes(b testing.TB, out []byte) stepTimes {
	for line := range bytes.Lines(out) {
		var w, q, wc, qc, read, errs int64
		if _, err := fmt.Sscanf(string(line), timesFormat, &w, &q, &wc, &qc, &read, &errs); err == nil {
			if errs != 0 {
				b.Fatalf("%d points read back wrong or missing: %s", errs, line)
			}
			return stepTimes{time.Duration(w), time.Duration(q), time.Duration(wc), time.Duration(qc)}
		}
	}
	b.Fatalf("no times in the output:\n%s", out)
	return stepTimes{}
}

// TestNativeHarness is BenchmarkNative's and BenchmarkNativeGo's child
// process: when started by them (harnessEnv set to "engine,dir,step"), it
// runs one step of the workload through the harness and prints its
// engine time: the write into a new store in dir (which, as stepStore,
// it then compacts whole outside the timing for the readers that
// follow), or the query of the store dir holds. It skips otherwise.
func TestNativeHarness(t *testing.T) {
	v := os.Getenv(harnessEnv)
	if v == "" {
		t.Skip("run by BenchmarkNative only")
	}
	parts := strings.Split(v, ",")
	if len(parts) != 3 || (parts[2] != timeseries.StepWrite && parts[2] != stepStore && parts[2] != timeseries.StepQuery) {
		t.Fatalf("%s=%q, want engine,dir,write, engine,dir,store or engine,dir,query", harnessEnv, v)
	}
	name, dir, step := parts[0], parts[1], parts[2]
	compact := step == stepStore
	if compact {
		step = timeseries.StepWrite
	}
	// The step runs on this goroutine: on one thread, whose CPU time
	// stepTimer reads.
	runtime.LockOSThread()
	timer := &stepTimer{stop: make(chan struct{})}
	cfg := timeseries.Config{Points: *nativePoints, Series: *nativeSeries, Batch: min(1000, *nativeSeries), Seed: seed,
		Preloaded: step == timeseries.StepQuery, Progress: timer, Stop: timer.stop}
	opts := options()
	db, err := engine.Open(name, dir, &opts)
	if err != nil {
		t.Fatal(err)
	}
	res, rerr := timeseries.Run(db, dir, cfg)
	if res == nil || len(res.Steps) != 1 || res.Steps[0].Name != step || res.Steps[0].Error != "" {
		db.Close()
		t.Fatalf("the %s step did not pass: %v", step, rerr)
	}
	if compact {
		err = db.Compact(nil, nil)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	st := res.Steps[0]
	if step == timeseries.StepWrite {
		fmt.Printf(timesFormat, st.Time.Nanoseconds(), 0, timer.cpu.Nanoseconds(), 0, 0, 0)
		return
	}
	qv := st.Verify
	fmt.Printf(timesFormat, 0, st.Time.Nanoseconds(), 0, timer.cpu.Nanoseconds(), qv.Read, qv.Missing+qv.Unexpected+qv.Wrong)
}

// threadCPU returns the user and system CPU time of the calling thread.
func threadCPU() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD
	var r syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &r); err != nil {
		panic(err)
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// TestNativeWritesWorkload checks that the C program writes the very keys
// and values of the workload, so that both sides of BenchmarkNative do
// the same work: it runs it on a small size and reads the store back.
func TestNativeWritesWorkload(t *testing.T) {
	const name = "leveldb"
	args, err := nativeOptions(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := timeseries.Config{Points: 3000, Series: 70, Batch: 50, Seed: 9}
	dir := t.TempDir()
	out, err := exec.Command(buildNative(t, name), append([]string{dir, "3000", "70", "50", "9", modeWrite}, args...)...).Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderrOf(err))
	}
	parseTimes(t, out)
	// The C program's store has no ENGINE marker, which engine.Open
	// wants: open the backend itself, with the defaults Open would fill.
	opts, err := (*engine.Options)(nil).WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	db, err := leveldb.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	g := points.Generator{Series: cfg.Series, Seed: cfg.Seed}
	ok := it.First()
	for s := range cfg.Series {
		for i := s; i < cfg.Points; i += cfg.Series {
			series, ts, seq := g.Point(i)
			key, value := tskey.AppendKey(nil, series, ts, seq), points.AppendValue(nil, g.Value(seq))
			if !ok || !bytes.Equal(it.Key(), key) || !bytes.Equal(it.Value(), value) {
				t.Fatalf("point %d: store has %x=%x, workload %x=%x", i, it.Key(), it.Value(), key, value)
			}
			ok = it.Next()
		}
	}
	if ok {
		t.Fatalf("store has more than the workload: %x", it.Key())
	}
}

// TestNativeBenchmarks runs BenchmarkNative and BenchmarkNativeGo once, at
// a tiny size, on one engine each, so that they cannot rot: this test
// binary runs them as go test -bench would, and every side's check and the
// metrics they report must be there.
func TestNativeBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the C yardstick")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkNative(Go)?$", "-test.benchtime=1x",
		"-native-points=3000", "-native-series=70", "-engines=leveldb,pebble")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"BenchmarkNative/engine=leveldb", "query-harness/engine-alone", "query-harness/copy-once", "query-overhead-ns/entry",
		"BenchmarkNativeGo/engine=pebble/op=query", "harness/engine-alone", "overhead-ns/entry",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the benchmarks' output has no %q:\n%s", want, out)
		}
	}
}

// TestStoreSumsSeeInPlaceChange: the store check BenchmarkNative makes
// after its readers sees a B-tree file changed in place at its size, and
// a new table; a log and LMDB's readers' table are not the store.
func TestStoreSumsSeeInPlaceChange(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("data.mdb", "page one")
	write("000005.sst", "table")
	write("LOG", "opened")
	write("lock.mdb", "reader 1")
	before := storeSums(t, dir)
	write("LOG", "opened again")
	write("lock.mdb", "reader 2")
	if got := storeSums(t, dir); !maps.Equal(got, before) {
		t.Errorf("a log or LMDB's readers' table changed the store's files: %v, then %v", before, got)
	}
	write("data.mdb", "page two")
	if got := storeSums(t, dir); maps.Equal(got, before) {
		t.Error("a page of data.mdb rewritten at its size left the store's files as they were")
	}
	write("data.mdb", "page one")
	write("000007.ldb", "new table")
	if got := storeSums(t, dir); maps.Equal(got, before) {
		t.Error("a new table left the store's files as they were")
	}
}
