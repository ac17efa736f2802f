package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/builddir"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/suite"
)

// Defaults keep 200 points per series, as the 2014 run had (100M over
// 500k), and let a bare run of all eight engines finish in about a minute
// on two cores (bbolt alone takes a third of it).
const (
	defaultPoints = 200_000
	defaultSeries = 1_000
	defaultBatch  = 1_000
	defaultSeed   = 1
)

// settings is the parsed and checked command line.
type settings struct {
	engines []string
	// common are the settings several workloads share: -points,
	// -series, -batch, -seed, -interval and -dataset.
	common    suite.Common
	path      string
	config    string
	sync      engine.SyncMode // "" leaves the config's choice (default none)
	format    string
	out       string
	outFormat string
	// latencyLog is -latency-log: the HdrHistogram log file of the
	// workload's latency distributions (report.LatencyLogger); "" for
	// none.
	latencyLog string
	keep       bool
	// verbose is -v: the text report prints every table.
	verbose bool
	// memorySample is -memory-sample: how often the engine processes
	// sample their memory by kind (harness.SetSamplePeriod).
	memorySample time.Duration
	// count is how many times each engine runs (-count), each time in a
	// fresh directory.
	count int
	// engineFlags are -cache-size, -compression and -etcd-endpoints.
	engineFlags engineFlags
	// memory is -memory: each engine process's memory cgroup limit in
	// bytes, page cache included; 0 for none.
	memory int64
	// maxTime is -max-time: how long an engine may run; 0 for no limit.
	maxTime time.Duration
	// profile is -profile: the directory each Go engine process writes
	// its CPU and heap profiles in (profile.go); "" for none.
	profile string
	// sets are the -set overrides, in order.
	sets setValue
	// byGroup are the engines that -engine named only through their
	// group (jvm): one that cannot run the workload is left out, with a
	// note (leftOut), rather than failing the run.
	byGroup []string
	// leftOut says which engines of a group were left out and why, one
	// line each, printed before the run.
	leftOut []string
	// releases are the engines -engine named with a release of their
	// library (rocksdb@10.0.1), by that name: installed and resolved once
	// in the parent (resolveReleases), for their children's environment.
	releases map[string]engine.Release
	// lacks says, one line each, what a release's library lacks that the
	// engine does without (engine.Release.Lacks), printed before the run.
	lacks []string
	// specs are each engine with its options, resolved once in the
	// parent (resolveOptions) from all of the above and -config, and
	// handed to its child in the job.
	specs map[string]engine.Spec
	// workload is the workload -workload names, or a flag of its own
	// picks (-benchmarks), with its settings, complete and checked.
	workload *suite.Config
	// stall is how long a child may make no progress before it is
	// stopped; 0 never stops it.
	stall time.Duration
	// runID names the run's log files; the parent sets it.
	runID string

	// Set only in a child process, from its job.
	child childFlags
}

// childFlags are what a child's job says beyond the settings: what it
// does, and where. The child sends its result back on a pipe
// (supervise.ResultFD).
type childFlags struct {
	role     string // roleRun or a role of the workload's own; non-empty means child mode
	dir      string // the engine's data directory
	progress string // "bar" or "log"
}

var formats = []string{report.FormatText, report.FormatMarkdown, report.FormatCSV, report.FormatJSON, report.FormatHTML, report.FormatGoBench}

// formatAliases are other names of formats: text for table, md for
// markdown, as the -out extensions name them.
var formatAliases = map[string]string{"text": report.FormatText, "txt": report.FormatText, "md": report.FormatMarkdown}

// extFormats picks the -out format from the file name.
var extFormats = map[string]string{
	".txt": report.FormatText, ".md": report.FormatMarkdown, ".markdown": report.FormatMarkdown, ".csv": report.FormatCSV, ".json": report.FormatJSON, ".html": report.FormatHTML, ".htm": report.FormatHTML,
}

// outFormatOf is the format -out file is written in: the one its
// extension names in exts, or format for a name without one.
func outFormatOf(file, format string, exts map[string]string) (string, error) {
	ext := strings.ToLower(filepath.Ext(file))
	if ext == "" {
		return format, nil
	}
	f, ok := exts[ext]
	if !ok {
		return "", fmt.Errorf("-out %s: unknown extension %q: use %s, or a name without extension for -format", file, ext, strings.Join(slices.Sorted(maps.Keys(exts)), ", "))
	}
	return f, nil
}

// Upper bounds of the numeric flags that have none of their own in the
// package they go to. The engines' options are bounded by package engine,
// a workload's settings by the workload.
const (
	// maxCount bounds -count: more runs than this is a mistake, not a
	// benchmark.
	maxCount = 1000
	// maxStall bounds -stall-timeout.
	maxStall = 24 * time.Hour
)

// defaultWorkload is -workload's default.
const defaultWorkload = "ts"

// newFlagSet defines on a new flag set the flags of the command for
// workload w, filled with their defaults: the command's own
// (defineCommand), the shared ones w takes (defineShared) and w's own
// (suite.Suite.NewConfig), whose settings they set. It returns what
// parseFlags turns into settings.
func newFlagSet(s *settings, w *suite.Suite) (fs *flag.FlagSet, engines *string, cfg *suite.Config) {
	fs = flag.NewFlagSet("benchmark-storage", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported as one line by run
	fs.Usage = func() {}
	engines = defineCommand(fs, s, w.Info().Single)
	defineShared(fs, &s.common, w.Info().Shared)
	cfg = w.NewConfig(fs)
	defineLatencyLog(fs, s, cfg)
	return fs, engines, cfg
}

// defineLatencyLog defines -latency-log on fs, setting s, for a workload
// whose report writes one (report.LatencyLogger).
func defineLatencyLog(fs *flag.FlagSet, s *settings, cfg *suite.Config) {
	if _, ok := cfg.Report("", harness.Environment{}, nil).(report.LatencyLogger); ok {
		fs.StringVar(&s.latencyLog, "latency-log", "", "also write the whole latency distribution of every step of every engine (ts), or of every operation kind (mixed, steady: the warm-up's apart), to `file` as an HdrHistogram log (tagged ENGINE/STEP or ENGINE/KIND, ENGINE/warmup/KIND, or ENGINE#RUN/... with -count), which HdrHistogram's tools read: its HistogramLogProcessor, or a log reader of its libraries")
	}
}

// defineCommand defines the command's own flags on fs, setting s: those
// of every workload; -count unless single, for a workload that runs each
// engine once (suite.Info.Single).
func defineCommand(fs *flag.FlagSet, s *settings, single bool) (engines *string) {
	engines = fs.String("engine", "all", "engines to run, the report's columns in the order given: a name, a comma-separated `list` (a name may take a release of its library, rocksdb@10.0.1, which set-up installs on demand and that engine's process loads in place of the linked one: docs/install.md), all (those of "+strings.Join(projectEngines(), ", ")+" that the build has, in name order: one without cgo lacks those over C libraries; "+strings.Join(onlyByName(), ", ")+" only when named, for a local cluster of JVMs or as an older major of another engine), or jvm for the JVM engines of the 2016 LmdbJava reports ("+strings.Join(engine.GroupNames("jvm"), ", ")+"), which the JVM worker (jvm/, built by make) runs in a JVM each, by the protocol of docs/protocol.md; -set lmdbjava.buffer=agrona gives LmdbJava Agrona's DirectBuffer instead of ByteBuffer")
	fs.StringVar(&s.path, "path", os.TempDir(), "existing `dir` for the data; the run creates and later removes its own benchmark-storage-* directory in it (default: the system temporary directory, $TMPDIR or /tmp)")
	fs.StringVar(&s.config, "config", "", "TOML `file` of engine settings: shared keys at the top, [engine] tables for each engine's own (default: built-in defaults)")
	fs.Func("sync", "durability `profile` for every engine: none or batch; overrides the config's sync (default none)", func(v string) error {
		if v != string(engine.SyncNone) && v != string(engine.SyncBatch) {
			return fmt.Errorf("use %s or %s", engine.SyncNone, engine.SyncBatch)
		}
		s.sync = engine.SyncMode(v)
		return nil
	})
	fs.StringVar(&s.format, "format", report.FormatText, "output `format`: table (or text), markdown (or md), csv, json, html (a page with charts), or gobench (Go benchmark lines for benchstat)")
	fs.StringVar(&s.out, "out", "", "also write the results to `file`, in the format its extension names (.txt, .md, .csv, .json, .html), or in -format if it has none; another extension is refused")
	s.count = 1
	if !single {
		fs.IntVar(&s.count, "count", 1, "run each engine `n` times, at most 1000, each time in a fresh directory, the engines taking turns, and report the median and spread of every figure")
	}
	fs.BoolVar(&s.keep, "keep", false, "keep each engine's data directory and print where it is")
	fs.BoolVar(&s.verbose, "v", false, "print every table of the text report (storage, memory, latency, verification, engine metrics, builds); without it the text report is the main table, throughput and what failed")
	fs.DurationVar(&s.memorySample, "memory-sample", harness.DefaultSamplePeriod, "how often each engine process's memory by kind (private, mapped files, Go runtime) is sampled during every step; a negative `period` samples none, to measure what the sampling costs")
	// Read before the flags are parsed (workloadOf), to know which
	// workload's flags to define; defined for the parse to accept it.
	fs.String("workload", defaultWorkload, "`name` of the workload, the same as naming it first (benchmark-storage mixed ...): ts (the 2014 InfluxDB comparison: write, then query; timeseries is the same), micro (the classic micro benchmarks; -benchmarks implies it), mixed (writers ingest while readers query, for -duration), steady (ingest on a schedule with retention, late points and churn while readers query; -find-rate searches the highest rate sustained) or crash (kill a writer at random moments, or cut the power under it, and check what the reopened store kept)")
	fs.DurationVar(&s.stall, "stall-timeout", suite.DefaultStall, "stop an engine whose process uses no CPU and does no disk I/O for this `duration` (a deadlock), and report it in its column; at most 24h, 0 waits forever")
	s.engineFlags.define(fs)
	fs.Var((*memoryValue)(&s.memory), "memory", "run each engine's process in a memory cgroup of this `size` (4GiB, 4G), page cache included, as on a machine with that much RAM: a store larger than it is read from disk, and an engine that needs more is reported out of memory, with the step and points it reached; needs root and the memory controller (cgroup v2, or v1 at /sys/fs/cgroup/memory) (default: no limit)")
	fs.DurationVar(&s.maxTime, "max-time", 0, "stop an engine still running after this `duration` (3h, 90m) and report the step, points and rate it reached, with the steps it finished; the other engines go on (default: no limit)")
	fs.StringVar(&s.profile, "profile", "", "write each Go engine process's pprof profiles in `dir`: ENGINE-cpu.pprof of its whole run (written at its end: empty if the process was killed), and ENGINE-heap.pprof, rewritten every 10 s and at the end, so that one the OOM killer ends leaves its last heap (go tool pprof); a local etcd cluster's members: -set etcd.heap_profiles=dir")
	fs.Var(&s.sets, "set", "an engine setting as a config file writes it, `ENGINE.KEY=VALUE` for an engine's own (rocksdb.max_background_jobs=8, pebble.l0_compaction_threshold=8) or KEY=VALUE for a shared key (cache_size=64MiB); repeatable; overrides -config, -sync, -cache-size, -compression and -etcd-endpoints; an unknown engine or key is refused, naming the valid ones")
	return engines
}

// sharedFlags are the shared flags in the order the help lists them.
var sharedFlags = []string{suite.FlagPoints, suite.FlagSeries, suite.FlagBatch, suite.FlagSeed, suite.FlagValues, suite.FlagValueEncoding, suite.FlagInterval, suite.FlagPercentiles, suite.FlagCold, suite.FlagDataset}

// defineShared defines on fs the shared flags named in names, setting c,
// which it fills with every default (a workload's Configure copies what
// it takes).
func defineShared(fs *flag.FlagSet, c *suite.Common, names []string) {
	c.Points, c.Series, c.Batch, c.Seed, c.Interval = defaultPoints, defaultSeries, defaultBatch, defaultSeed, suite.DefaultInterval
	for _, name := range sharedFlags {
		if !slices.Contains(names, name) {
			continue
		}
		switch name {
		case suite.FlagPoints:
			fs.Var((*suite.Count)(&c.Points), name, "`count` of points written in the first step: 100M, 1.5M, 10k, 1e6 or a plain number (default "+harness.Count(defaultPoints)+"); of the mixed workload, the preload, written before the clock starts (default none)")
		case suite.FlagSeries:
			fs.Var((*suite.Count)(&c.Series), name, "`count` of series the points are spread over, round-robin; same syntax as -points; the defaults give each 200 points, as in 2014")
		case suite.FlagBatch:
			fs.Var((*suite.Count)(&c.Batch), name, "`count` of points per write batch, each for a different series, so at most -series, and 1M (default 1k, or -series if fewer); of the micro benchmarks, writes per batch of fillbatch, fillrandbatch and write (default 1000); of the crash check, entries of 100 bytes per committed batch, at most 100k (default 100)")
		case suite.FlagSeed:
			fs.Var((*seedValue)(&c.Seed), name, "`seed` of the value generator; the same seed writes the same data")
		case suite.FlagValues:
			fs.Func(name, "what the points' `values` are: random (a random int64 per point, the 2014 workload's), real (measurements: the hourly weather of New York's three airports over 2013, which set-up fetches; each series tiles one measured field of one station from a phase and at a power-of-two scale of its own, chosen by -seed) or a FILE whose points are the dataset (ts, mixed and steady; how each runs one: their docs): InfluxDB line protocol (timestamps in ns) or a .csv (a time column, RFC 3339 or ns; tag columns named NAME|tag; every other column a number); each field is a series, its points written at their own times in file order, and the file's series replace -series (in ts its points replace -points too; in mixed -points is the preload, the file's first points); checked whole before anything is created, each series' points in increasing time, one type per field (default random)", func(v string) error {
				return setValues(&c.Values, v)
			})
		case suite.FlagValueEncoding:
			fs.Func(name, "how each value is stored: protobuf (the 2014 tool's FieldValue message: int64_value, or double_value for real values) or float64 (8 bytes, little-endian) (default protobuf)", func(v string) error {
				if v != points.Protobuf && v != points.Float64 {
					return fmt.Errorf("give %s or %s", points.Protobuf, points.Float64)
				}
				c.Values.Encoding = v
				return nil
			})
		case suite.FlagInterval:
			fs.DurationVar(&c.Interval, name, suite.DefaultInterval, "length of the first over-time `interval` of each step, at least 200ms (throughput, latency percentiles and the engine's counters per interval, in JSON and as HTML charts); intervals double in length after every 1,800, so a long step keeps a few thousand; a negative one records none")
		case suite.FlagPercentiles:
			fs.Var((*suite.Percentiles)(&c.Percentiles), name, "latency `percentiles` each step (ts), benchmark (micro) or operation kind (mixed, steady) records and the report shows beside p50, p99, p99.9 and max: a comma-separated list of at most 10 numbers above 0 and at most 100, such as 99.99,99.999 (default none)")
		case suite.FlagCold:
			fs.BoolVar(&c.Cold, name, false, "start each query step (ts) or read benchmark (micro) with the store's files out of the page cache (synced, then posix_fadvise DONTNEED; outside its figures), so that it reads from disk what the engine does not cache in its own memory; the report's first line says when it was on (default warm)")
		case suite.FlagDataset:
			fs.StringVar(&c.Dataset, name, "", "keep the points of the write step (or the mixed workload's preload) in `dir`, one subdirectory per engine, the first time, and start later runs with the same parameters from a clone of them")
		}
	}
}

// projectEngines are the engines all stands for in every build, in name
// order: this one's (engine.AllNames) and those it lacks. -engine lists
// them, so that -h, and the flag reference made from it, say the same in
// a build without cgo.
func projectEngines() []string {
	return slices.Sorted(slices.Values(append(engine.AllNames(), enginesMissing...)))
}

// onlyByName are the engines that all leaves out and no group holds
// (engine.Driver.OnlyByName).
func onlyByName() []string {
	var names []string
	for _, n := range engine.Names() {
		if d, _ := engine.Lookup(n); d.OnlyByName && d.Group == "" {
			names = append(names, n)
		}
	}
	return names
}

// setValues sets the kind of values to kind, and for real values the
// file of the seed set-up fetched, resolved once here; anything else
// names a file of points to import.
func setValues(v *points.Values, kind string) error {
	switch kind {
	case points.Random:
		v.Kind, v.File = kind, ""
	case points.Real:
		file := builddir.Find(points.SeedFile)
		if file == "" {
			return fmt.Errorf("the real seed build/%s is missing: run make setup, which fetches it", points.SeedFile)
		}
		v.Kind, v.File = kind, file
	default:
		// A file, checked once the flags are parsed (the workload's
		// Configure); absolute, for the child.
		file, err := filepath.Abs(kind)
		if err != nil {
			return fmt.Errorf("give %s, %s or a file: %w", points.Random, points.Real, err)
		}
		v.Kind, v.File = points.Imported, file
	}
	return nil
}

// seedValue is a flag.Value whose error says what a seed must be.
type seedValue uint64

func (v *seedValue) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("use a whole number from 0 to %d", uint64(math.MaxUint64))
	}
	*v = seedValue(n)
	return nil
}

func (v *seedValue) String() string { return strconv.FormatUint(uint64(*v), 10) }

// badDuration matches the flag package's error for a value a duration
// flag cannot parse, which says only "parse error".
var badDuration = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): parse error$`)

// durationHint returns err, or for a duration given without its unit
// (-max-time 5) an error that says how to write one.
func durationHint(fs *flag.FlagSet, err error) error {
	m := badDuration.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	f := fs.Lookup(m[2])
	if f == nil {
		return err
	}
	if g, ok := f.Value.(flag.Getter); !ok {
		return err
	} else if _, ok := g.Get().(time.Duration); !ok {
		return err
	}
	if _, perr := strconv.ParseFloat(m[1], 64); perr == nil {
		return fmt.Errorf("-%s %s: give the unit too, as in %ss, %sm or %sh", m[2], m[1], m[1], m[1], m[1])
	}
	return fmt.Errorf("-%s %q: give a duration such as 90s, 10m or 1h30m", m[2], m[1])
}

// parseFlags parses and checks args. Its errors are inputErrors, except
// flag.ErrHelp for -h.
func parseFlags(args []string) (*settings, error) {
	w, err := workloadOf(args)
	if err != nil {
		return nil, err
	}
	s := new(settings)
	fs, engines, cfg := newFlagSet(s, w)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, err
		}
		if err := notItsFlag(err, w); err != nil {
			return nil, err
		}
		return nil, inputErrorf("%v; run benchmark-storage %s -h for its flags", durationHint(fs, err), w.Name())
	}
	if fs.NArg() > 0 {
		return nil, inputErrorf("unexpected argument %q: settings are flags, as in -engine pebble -points 100M; run benchmark-storage -h", fs.Arg(0))
	}
	named, byGroup, err := parseNamed(*engines)
	if err != nil {
		return nil, err
	}
	s.byGroup = byGroup
	for _, n := range named {
		s.engines = append(s.engines, n.String())
	}
	var set []string
	fs.Visit(func(f *flag.Flag) { set = append(set, f.Name) })
	if !slices.Contains(set, "batch") {
		// Each point of a batch goes to a different series.
		s.common.Batch = min(s.common.Batch, s.common.Series)
	}
	if f, ok := formatAliases[s.format]; ok {
		s.format = f
	}
	if !slices.Contains(formats, s.format) {
		return nil, inputErrorf("-format %q: use one of %s", s.format, strings.Join(formats, ", "))
	}
	if s.count < 1 || s.count > maxCount {
		return nil, inputErrorf("-count %d: run each engine 1 to %d times", s.count, maxCount)
	}
	if s.outFormat, err = outFormatOf(s.out, s.format, extFormats); err != nil {
		return nil, inputErrorf("%v", err)
	}
	if s.stall < 0 || s.stall > maxStall {
		return nil, inputErrorf("-stall-timeout %v: use 0 (wait forever) up to %v", s.stall, maxStall)
	}
	if err := configure(s, cfg, set); err != nil {
		return nil, err
	}
	if err := checkProfile(s); err != nil {
		return nil, err
	}
	if err := checkJVM(s); err != nil {
		return nil, err
	}
	if slices.Contains(set, "max-time") && s.maxTime <= 0 {
		return nil, inputErrorf("-max-time %v: give a positive duration such as 3h, or leave it out for no limit", s.maxTime)
	}
	if err := checkMemory(s.memory); err != nil {
		return nil, err
	}
	if err := resolveReleases(s, named); err != nil {
		return nil, err
	}
	if err := resolveOptions(s); err != nil {
		return nil, err
	}
	if err := workloadOptions(s); err != nil {
		return nil, err
	}
	if err := checkPath(s.path); err != nil {
		return nil, err
	}
	if s.out != "" {
		if err := checkOut(s.out); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// parseEngines is parseNamed, the names as a list of engines spells them.
func parseEngines(v string) (names, byGroup []string, err error) {
	named, byGroup, err := parseNamed(v)
	for _, n := range named {
		names = append(names, n.String())
	}
	return names, byGroup, err
}

// parseNamed turns -engine into registered engines, each with the release
// of its library it names (engine.ParseName: rocksdb@10.0.1), in the
// order given: all is engine.AllNames, without the engines that run only
// when named. byGroup are those named only through their group (jvm).
func parseNamed(v string) (names []engine.Named, byGroup []string, err error) {
	all := engine.Names()
	if len(all) == 0 {
		return nil, nil, inputErrorf("no engines are built into this binary")
	}
	if strings.TrimSpace(v) == "all" {
		for _, n := range engine.AllNames() {
			names = append(names, engine.Named{Engine: n})
		}
		return names, nil, nil
	}
	for _, n := range strings.Split(v, ",") {
		n = strings.TrimSpace(n)
		group := []string{n}
		if g := engine.GroupNames(n); len(g) > 0 {
			group = g
			byGroup = append(byGroup, g...)
		}
		for _, n := range group {
			named, perr := engine.ParseName(n)
			same := slices.IndexFunc(names, func(o engine.Named) bool { return o.Engine == named.Engine && o.Runs() == named.Runs() })
			switch {
			case n == "":
				return nil, nil, inputErrorf("-engine %q: empty name in the list; separate names with single commas", v)
			case slices.Contains(enginesMissing, n):
				return nil, nil, inputErrorf("-engine: this build lacks %s, an engine over a C library: it was built without cgo (CGO_ENABLED=0); build it with `make build`, which installs the C libraries and links every engine", n)
			case errors.Is(perr, engine.ErrUnknownEngine):
				return nil, nil, inputErrorf("-engine: unknown engine %q: choose from %s, all (%s)%s", n, strings.Join(slices.DeleteFunc(all, func(n string) bool { return grouped(n) }), ", "), allMeaning(), groupsMeaning())
			case perr != nil:
				return nil, nil, inputErrorf("-engine: %v", suite.Unprefixed(perr, engine.ErrRelease))
			case same >= 0 && names[same] == named:
				return nil, nil, inputErrorf("-engine: %s is listed twice; name each engine once", n)
			case same >= 0:
				return nil, nil, inputErrorf("-engine: %s and %s are the same release of %s, %s; name it once", names[same], n, named.Engine, named.Runs())
			}
			names = append(names, named)
		}
	}
	return names, byGroup, nil
}

// allMeaning says what -engine all stands for: the Go engines, but those
// that run only when named (engine.Driver.OnlyByName).
func allMeaning() string {
	if byName := onlyByName(); len(byName) > 0 {
		return "the Go engines but " + strings.Join(byName, ", ") + ", run only when named"
	}
	return "the Go engines"
}

// groupsMeaning lists the groups an -engine list may name, each with its
// engines (engine.Driver.Group): ", or jvm (chroniclemap, ...)".
func groupsMeaning() string {
	var out []string
	for _, g := range engine.Groups() {
		out = append(out, g+" ("+strings.Join(engine.GroupNames(g), ", ")+")")
	}
	if len(out) == 0 {
		return ""
	}
	return " or " + strings.Join(out, ", ")
}

// grouped reports whether engine name is in a group (engine.Driver.Group).
func grouped(name string) bool {
	d, err := engine.Lookup(name)
	return err == nil && d.Group != ""
}

// checkPath requires -path to be an existing directory; whether it is
// writable shows when the run directory is created in it.
func checkPath(p string) error {
	fi, err := os.Stat(p)
	switch {
	case os.IsNotExist(err):
		return inputErrorf("-path %s does not exist: create it first or choose another directory", p)
	case err != nil:
		return inputErrorf("-path %s: %v: choose a directory you can write to", p, unwrapPath(err))
	case !fi.IsDir():
		return inputErrorf("-path %s is a file, not a directory: give the directory the data should go in", p)
	}
	return nil
}

// checkOut makes sure the results can be written at the end, so a long run
// does not end in a lost report.
func checkOut(p string) error {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return inputErrorf("-out %s is a directory: give a file name such as %s", p, filepath.Join(p, "results.json"))
	}
	dir := filepath.Dir(p)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return inputErrorf("-out %s: directory %s: %v: create it first", p, dir, unwrapPath(err))
	case !fi.IsDir():
		return inputErrorf("-out %s: %s is not a directory", p, dir)
	}
	return nil
}

// unwrapPath drops the "stat /x:" prefix of a PathError when the caller
// already names the path.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// invalidSettings is the input error of err, a mistake in a workload's
// settings (suite.ErrInvalid), without the prefix.
func invalidSettings(err error) error {
	return inputErrorf("%v", suite.Unprefixed(err, suite.ErrInvalid))
}

// usageHeader is -h's text before the flags; the flag reference
// (clidoc.go) shows it too.
const usageHeader = `Usage: benchmark-storage [flags]
       benchmark-storage ts|micro|mixed|steady|crash [flags]   (-h: that workload's flags)
       benchmark-storage compare [flags] old.json new.json
       benchmark-storage merge [flags] a.json b.json ...
       benchmark-storage history [flags] DIR|a.json b.json ...
       benchmark-storage -version

Runs the time-series workload (write, query, delete half, compact, query,
write more) or, with -benchmarks, the classic micro benchmarks (db_bench's
and LmdbJava's) on each engine in its own process and prints the engines
side by side; compare shows two JSON reports' figures with the change and
whether it is beyond the noise (compare -h); merge makes one report of
single-engine runs of the same parameters (merge -h); history sets the
releases of engines side by side in version order (history -h). Each
workload has flags of its own: these are the time-series workload's, and
benchmark-storage micro -h (mixed, steady, crash) lists another's. See
"go doc github.com/tsbench/storage/cmd/benchmark-storage".

Flags:
`

// usage writes the help text: the command's flags and those of
// workload, the default one if "".
func usage(w io.Writer, workload string) {
	name := workload
	if name == "" {
		name = defaultWorkload
		fmt.Fprint(w, usageHeader)
	}
	su, _ := suite.Lookup(name)
	if workload != "" {
		fmt.Fprintf(w, "Usage: benchmark-storage %s [flags]\n\nRuns %s (the same as benchmark-storage -workload %s); benchmark-storage -h lists the workloads.\n\nFlags:\n", workload, su.Info().About, workload)
	}
	fs, _, _ := newFlagSet(new(settings), su)
	fs.VisitAll(func(f *flag.Flag) {
		if workload != "" && f.Name == "workload" {
			return
		}
		name, text := flagHelp(f)
		fmt.Fprintf(w, "  -%s", f.Name)
		if name != "" {
			fmt.Fprintf(w, " %s", name)
		}
		fmt.Fprintf(w, "\n    \t%s\n", strings.ReplaceAll(text, "\n", "\n    \t"))
	})
}

// flagHelp is f's argument name and its text, as -h and the flag
// reference show them: the default follows unless the text gives it.
func flagHelp(f *flag.Flag) (name, text string) {
	name, text = flag.UnquoteUsage(f)
	if f.DefValue != "" && f.DefValue != "false" && !strings.Contains(text, "(default") {
		text += " (default " + f.DefValue + ")"
	}
	return name, text
}
