package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/mixed"
	"github.com/tsbench/storage/workload/suite"
	"github.com/tsbench/storage/workload/timeseries"
)

func TestParseFlagsDefaults(t *testing.T) {
	s, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.engines, engine.AllNames()) {
		t.Errorf("engines = %v, want all %v", s.engines, engine.AllNames())
	}
	if c := s.common; c.Points != 200_000 || c.Series != 1_000 || c.Batch != 1000 || c.Seed != 1 {
		t.Errorf("points, series, batch, seed = %d, %d, %d, %d", c.Points, c.Series, c.Batch, c.Seed)
	}
	if ts := s.workload.Settings().(timeseries.Config); s.path != os.TempDir() || s.format != "table" || s.sync != "" || s.config != "" || s.keep || ts.Settle || ts.ReuseIterator || s.child.role != "" {
		t.Errorf("unexpected defaults %+v", s)
	}
}

func TestParseFlags(t *testing.T) {
	a, b := testEngines(t)
	dir := t.TempDir()
	s, err := parseFlags([]string{
		"-engine", b + " , " + a, "-points", "100M", "-series", "500k", "-batch", "2k",
		"-path", dir, "-sync", "batch", "-seed", "42", "-format", "csv",
		"-out", filepath.Join(dir, "r.JSON"), "-keep", "-settle", "-reuse-iterator",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := settings{
		engines: []string{b, a}, common: suite.Common{Points: 100_000_000, Series: 500_000, Batch: 2000, Seed: 42, Interval: suite.DefaultInterval},
		path: dir, sync: engine.SyncBatch, format: "csv",
		out: filepath.Join(dir, "r.JSON"), outFormat: "json", keep: true,
	}
	if !slices.Equal(s.engines, want.engines) {
		t.Errorf("engines = %v, want %v", s.engines, want.engines)
	}
	s.engines, want.engines = nil, nil
	s.child = childFlags{}
	if !equalSettings(*s, want) {
		t.Errorf("got  %+v\nwant %+v", *s, want)
	}
	if ts := s.workload.Settings().(timeseries.Config); s.workload.Name() != "ts" || !ts.Settle || !ts.ReuseIterator {
		t.Errorf("workload %s %+v, want ts with -settle and -reuse-iterator", s.workload.Name(), ts)
	}

	// -out without an extension follows -format; .html is the page.
	s, err = parseFlags([]string{"-engine", a, "-path", dir, "-format", "markdown", "-out", filepath.Join(dir, "results")})
	if err != nil || s.outFormat != "markdown" {
		t.Errorf("outFormat = %q, %v; want markdown", s.outFormat, err)
	}
	s, err = parseFlags([]string{"-engine", a, "-path", dir, "-count", "3", "-cache-size", "64MiB", "-out", filepath.Join(dir, "report.html")})
	if err != nil || s.outFormat != "html" || s.count != 3 || s.engineFlags.cacheSize != 64<<20 {
		t.Errorf("-count 3 -cache-size 64MiB -out report.html: %+v, %v", s, err)
	}
	// The time-series workload has the gobench format too.
	s, err = parseFlags([]string{"-engine", a, "-path", dir, "-format", "gobench", "-out", filepath.Join(dir, "old.txt")})
	if err != nil || s.outFormat != "gobench" {
		t.Errorf("-format gobench -out old.txt: %+v, %v", s, err)
	}
}

func equalSettings(a, b settings) bool {
	return reflect.DeepEqual(a.common, b.common) && a.path == b.path && a.config == b.config && a.sync == b.sync &&
		a.format == b.format && a.out == b.out && a.outFormat == b.outFormat && a.keep == b.keep
}

func TestEngineOptionsSyncOverridesConfig(t *testing.T) {
	a, _ := testEngines(t)
	cfg := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(cfg, []byte("sync = \"batch\"\ncache_size = 1048576\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flag string
		want engine.SyncMode
	}{{"", engine.SyncBatch}, {"none", engine.SyncNone}, {"batch", engine.SyncBatch}} {
		s := &settings{engines: []string{a}, config: cfg, sync: engine.SyncMode(tc.flag)}
		if err := resolveOptions(s); err != nil {
			t.Fatal(err)
		}
		o, err := engineOptions(s, a)
		if err != nil || o.Sync != tc.want || o.CacheSize != 1<<20 {
			t.Errorf("-sync %q: options %+v, %v; want sync %s, cache 1 MiB", tc.flag, o, err, tc.want)
		}
	}
	s := &settings{engines: []string{a}}
	if err := resolveOptions(s); err != nil {
		t.Fatal(err)
	}
	o, err := engineOptions(s, a)
	if err != nil || o.Sync != engine.SyncNone || o.CacheSize != engine.DefaultCacheSize {
		t.Errorf("no config: %+v, %v; want defaults", o, err)
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runCmd(t, "-h")
	if code != exitOK || stdout != "" {
		t.Errorf("-h: status %d, stdout %q", code, stdout)
	}
	for _, want := range []string{"-engine", "-points", "-series", "-batch", "-path", "-config", "-sync", "-seed", "-format", "-out", "-keep", "-settle", "-reuse-iterator"} {
		if !strings.Contains(stderr, "\n  "+want+" ") && !strings.Contains(stderr, "\n  "+want+"\n") {
			t.Errorf("usage lacks %s:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, childJobFlag) {
		t.Errorf("usage shows hidden flags:\n%s", stderr)
	}
}

// TestBadInput checks that every mistake gets exit status 2 and one line
// naming it, and that nothing is created or deleted.
func TestBadInput(t *testing.T) {
	a, b := testEngines(t)
	parent := t.TempDir()
	precious := filepath.Join(parent, "precious")
	if err := os.WriteFile(precious, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An old run directory of someone else's must survive too.
	old := filepath.Join(parent, "benchmark-storage-old")
	if err := os.MkdirAll(filepath.Join(old, a), 0o755); err != nil {
		t.Fatal(err)
	}
	aside := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(aside, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	malformed := write("malformed.toml", "cache_size = \n[")
	unknownKey := write("unknown.toml", "cache_sise = 10\n")
	unknownTable := write("table.toml", "["+a+"]\nno_such_option = 1\n")
	badValue := write("value.toml", "sync = \"always\"\n")
	hugeBuffer := write("buffer.toml", "write_buffer_size = 9223372036854775807\n")
	manyFiles := write("files.toml", "max_open_files = 16777217\n")
	bigBloom := write("bloom.toml", "bloom_bits_per_key = 101\n")

	for _, tc := range []refusal{
		{"unknown engine", []string{"-engine", "nosuchdb"}, `unknown engine "nosuchdb"`},
		{"unknown engine in list", []string{"-engine", a + ",nosuchdb"}, `unknown engine "nosuchdb"`},
		{"empty engine name", []string{"-engine", a + ",," + b}, "empty name"},
		{"engine twice", []string{"-engine", a + "," + a}, "listed twice"},
		{"points 0", []string{"-points", "0"}, "-points"},
		{"points negative", []string{"-points", "-5"}, "-points"},
		{"points abc", []string{"-points", "abc"}, "-points"},
		{"points fraction", []string{"-points", "1.5"}, "not a whole number"},
		{"points overflow", []string{"-points", "99999999999G"}, "too large"},
		{"series 0", []string{"-series", "0"}, "-series"},
		{"batch 0", []string{"-batch", "0"}, "-batch"},
		{"series more than points", []string{"-points", "1k", "-series", "2k"}, "lower -series or raise -points"},
		{"bad format", []string{"-format", "xml"}, `-format "xml"`},
		{"bad sync", []string{"-sync", "always"}, "-sync"},
		{"bad seed", []string{"-seed", "-1"}, "-seed"},
		{"unknown values", []string{"-values", "gaussian"}, `gaussian: no such file or directory: give random, real, or a file of line protocol or CSV`},
		{"unknown value encoding", []string{"-workload", "steady", "-value-encoding", "gorilla"}, `flag -value-encoding: give protobuf or float64`},
		{"values of the JVM", []string{"-engine", "mvstore", "-values", "real"}, "without -settle, -reuse-iterator, -cold, -percentiles, -values, -value-encoding and -dataset"},
		{"unknown flag", []string{"-pionts", "5"}, "-pionts"},
		{"duration without unit", []string{"-max-time", "5"}, "-max-time 5: give the unit too, as in 5s, 5m or 5h"},
		{"shared duration without unit", []string{"-workload", "mixed", "-duration", "20"}, "-duration 20: give the unit too"},
		{"not a duration", []string{"-stall-timeout", "soon"}, `-stall-timeout "soon": give a duration such as 90s`},
		{"memory 0", []string{"-memory", "0"}, "is below the minimum of 64.0 MiB"},
		{"memory below the floor", []string{"-memory", "10M"}, "is below the minimum of 64.0 MiB"},
		{"argument", []string{a}, "unexpected argument"},
		{"path missing", []string{"-path", filepath.Join(parent, "nope")}, "does not exist"},
		{"path is a file", []string{"-path", precious}, "is a file"},
		{"path unwritable", []string{"-path", "/proc/self"}, "cannot create the run directory"},
		{"out is a directory", []string{"-out", aside}, "is a directory"},
		{"out in missing directory", []string{"-out", filepath.Join(parent, "nope", "r.json")}, "-out"},
		{"out with an unknown extension", []string{"-out", filepath.Join(aside, "r.dat")}, `unknown extension ".dat"`},
		{"count 0", []string{"-count", "0"}, "-count 0"},
		{"cache size with a bad unit", []string{"-cache-size", "64mb"}, "-cache-size"},
		{"config missing", []string{"-config", filepath.Join(aside, "none.toml")}, "none.toml"},
		{"config malformed", []string{"-config", malformed}, "malformed.toml"},
		{"config unknown key", []string{"-config", unknownKey}, "cache_sise"},
		{"config unknown engine key", []string{"-engine", a, "-config", unknownTable}, "no_such_option"},
		{"config bad value", []string{"-config", badValue}, "always"},
		{"config write buffer too large", []string{"-config", hugeBuffer}, "write_buffer_size"},
		{"config max_open_files too large", []string{"-config", manyFiles}, "max_open_files 16777217 is above the maximum of 16777216"},
		{"config bloom bits too large", []string{"-config", bigBloom}, "bloom_bits_per_key 101 is above the maximum of 100"},
		{"cache larger than memory", []string{"-cache-size", "9000000000000000000"}, "machine's memory"},
		{"cache size without its unit", []string{"-cache-size", "64"}, "64 is 64 bytes"},
		{"setting of an engine not run", []string{"-engine", "pebble", "-set", "rocksdb.max_background_jobs=8"}, "rocksdb, which this run does not include"},
		{"etcd flag without etcd", []string{"-engine", "pebble", "-etcd-endpoints", "127.0.0.1:2379"}, "etcd, which this run does not include"},
		{"interval too short", []string{"-interval", "10ms"}, "use at least 200ms"},
		{"batch too large", []string{"-points", "2G", "-series", "1G", "-batch", "1G"}, "-batch 1000000000 is above the maximum"},
		{"out unwritable", []string{"-out", "/dev/full"}, "-out /dev/full"},
		{"stall timeout negative", []string{"-stall-timeout", "-1s"}, "-stall-timeout"},
		{"profile directory missing", []string{"-profile", filepath.Join(parent, "nope")}, "is not a directory"},
		{"profile of a JVM engine", []string{"-engine", "mvstore", "-profile", aside}, "runs in the JVM worker"},
		{"unknown workload", []string{"-workload", "replay"}, `-workload "replay"`},
		{"kills without the crash check", []string{"-kills", "3"}, "-kills is not a flag of the time-series workload (benchmark-storage ts -h lists its flags) but of the crash check: benchmark-storage crash -kills ..."},
		{"crash check with points", []string{"-workload", "crash", "-points", "2k"}, "-points is not a flag of the crash check"},
		{"child job by hand", []string{childJobFlag, a}, "internal"},
		{"mixed flag without mixed", []string{"-writers", "2"}, "but of the mixed workload and the steady-state workload: benchmark-storage mixed -writers ..., or benchmark-storage steady -writers ..."},
		{"mixed without writers or readers", []string{"-workload", "mixed", "-writers", "0", "-readers", "0"}, "-writers 1 or more"},
		{"mixed zero duration", []string{"-workload", "mixed", "-duration", "0s"}, "-duration 30s"},
		{"mixed negative duration", []string{"-workload", "mixed", "-duration", "-5s"}, "-duration 30s"},
		{"mixed unknown kind", []string{"-workload", "mixed", "-mix", "last,newest"}, "-mix"},
		{"mixed zero rate", []string{"-workload", "mixed", "-rate", "0"}, "leave -rate out for no cap"},
		{"mixed window beyond the data", []string{"-workload", "mixed", "-points", "2k", "-series", "20", "-window", "1h"}, "use a shorter -window"},
		{"mixed dataset without preload", []string{"-workload", "mixed", "-series", "20", "-dataset", parent}, "add -points"},
		{"mixed with settle", []string{"-workload", "mixed", "-settle"}, "-settle is not a flag of the mixed workload"},
		{"mixed warm-up as long as the run", []string{"-workload", "mixed", "-duration", "2s", "-warmup", "2s"}, "shorten -warmup or lengthen -duration"},
		{"steady warm-up longer than the run", []string{"-workload", "steady", "-duration", "2s", "-warmup", "3s", "-speedup", "600"}, "shorten -warmup or lengthen -duration"},
		{"percentile above 100", []string{"-workload", "steady", "-percentiles", "99,100.5"}, "give each above 0 and at most 100"},
		{"percentile not a number", []string{"-workload", "mixed", "-percentiles", "p99"}, `"p99" is not a number`},
		{"mixed with reuse-iterator", []string{"-workload", "mixed", "-reuse-iterator"}, "-reuse-iterator is not a flag of the mixed workload"},
		{"benchmarks with mixed", []string{"-workload", "mixed", "-benchmarks", "fillseq"}, "drop one of them"},
		{"dataset of micro", []string{"-workload", "micro", "-dataset", parent}, "-dataset is not a flag of the micro benchmarks"},
		{"count of the crash check", []string{"-workload", "crash", "-count", "3"}, "-count is not a flag of the crash check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if !slices.Contains(args, "-path") {
				args = append([]string{"-path", parent}, args...)
			}
			if !slices.Contains(args, "-engine") {
				args = append([]string{"-engine", a}, args...)
			}
			if w, err := workloadOf(args); err == nil && w.Takes("points") && !slices.Contains(args, "-points") && !slices.Contains(args, "-series") {
				args = append([]string{"-points", "2k", "-series", "20"}, args...)
			}
			checkRefused(t, tc.want, args...)
			checkUntouched(t, parent, "benchmark-storage-old", "precious")
			checkUntouched(t, old, a)
		})
	}
	if b, err := os.ReadFile(precious); err != nil || string(b) != "keep me" {
		t.Errorf("precious = %q, %v", b, err)
	}
}

// TestRateAndFormatNames: -rate takes the count syntax of -points, text
// and md name formats, and -readers is bounded.
func TestRateAndFormatNames(t *testing.T) {
	a, _ := testEngines(t)
	s, err := parseFlags([]string{"-engine", a, "-path", t.TempDir(), "-workload", "mixed", "-rate", "40k", "-format", "md"})
	if err != nil || s.workload.Settings().(mixed.Config).Rate != 40_000 || s.format != "markdown" {
		t.Fatalf("-rate 40k -format md: %+v, %v", s, err)
	}
	s, err = parseFlags([]string{"-engine", a, "-path", t.TempDir(), "-workload", "mixed", "-rate", "0.5", "-format", "text"})
	if err != nil || s.workload.Settings().(mixed.Config).Rate != 0.5 || s.format != "table" {
		t.Fatalf("-rate 0.5 -format text: %+v, %v", s, err)
	}
	if _, err := parseFlags([]string{"-engine", a, "-path", t.TempDir(), "-workload", "mixed", "-readers", "2000"}); err == nil || !strings.Contains(err.Error(), "at most 256") {
		t.Errorf("-readers 2000: %v, want a bound", err)
	}
}

// TestWorkloadCommands: a workload's name first is its command, the same
// as -workload, and its -h lists the command's flags and its own alone.
func TestWorkloadCommands(t *testing.T) {
	code, _, help := runCmd(t, "mixed", "-h")
	if code != exitOK || !strings.Contains(help, "Usage: benchmark-storage mixed [flags]") || !strings.Contains(help, "  -duration ") ||
		!strings.Contains(help, "  -engine ") || strings.Contains(help, "  -kills ") || strings.Contains(help, "  -workload ") {
		t.Errorf("mixed -h: status %d:\n%s", code, help)
	}
	// -h alone: the command's flags and the default workload's, and how
	// to list another's.
	if code, _, all := runCmd(t, "-h"); code != exitOK || strings.Contains(all, "  -kills ") || !strings.Contains(all, "  -settle") ||
		!strings.Contains(all, "ts|micro|mixed|steady|crash [flags]") || !strings.Contains(all, "benchmark-storage micro -h (mixed, steady, crash) lists another's") {
		t.Errorf("-h: status %d:\n%s", code, all)
	}
	s, err := parseFlags([]string{"-workload", "crash", "-kills", "3"})
	if err != nil || s.workload.Name() != "crash" {
		t.Fatalf("-workload crash: %v", err)
	}
	checkRefused(t, "name the workload once", "ts", "-workload", "mixed")
	checkRefused(t, "-kills is not a flag of the mixed workload", "mixed", "-kills", "3")
	checkRefused(t, "-kill-window 2m0s: use more than 0 and at most 1m0s", "crash", "-kill-window", "2m")
}
