package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/builddir"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/crash"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

func TestRunEndToEnd(t *testing.T) {
	a, b := pureGoEngines(t)
	parent, aside := t.TempDir(), t.TempDir()
	md := filepath.Join(aside, "results.md")
	args := append([]string{"-engine", b + "," + a, "-path", parent, "-format", "json", "-out", md, "-seed", "7", "-sync", "batch"}, tinyRun...)
	stdout, stderr := runOK(t, args...)
	rep := decodeReport(t, stdout)
	if len(rep.Results) != 2 || rep.Results[0].Engine != b || rep.Results[1].Engine != a {
		t.Fatalf("results for %v, want [%s %s]", engineNames(rep), b, a)
	}
	if rep.Env.Seed != 7 || rep.Env.Sync != engine.SyncBatch || rep.Env.DataPath == "" {
		t.Errorf("environment %+v does not record seed 7, sync batch and the data path", rep.Env)
	}
	for _, res := range rep.Results {
		checkVerified(t, res)
		c := res.Config
		if c.Points != 2000 || c.Series != 20 || c.Batch != 10 || c.Seed != 7 {
			t.Errorf("%s ran %+v, want the flags' workload", res.Engine, c)
		}
		if res.Options["sync"] != string(engine.SyncBatch) {
			t.Errorf("%s ran with sync %v, want batch", res.Engine, res.Options["sync"])
		}
		// The engine's own options are recorded under its name, as in a
		// config file, with their defaults resolved.
		if own, ok := res.Options[res.Engine].(map[string]any); !ok || len(own) == 0 || slices.Contains(slices.Collect(maps.Values(own)), any(0.0)) {
			t.Errorf("%s options %v: want its own table, every default resolved", res.Engine, res.Options)
		}
	}
	if text, err := os.ReadFile(md); err != nil || !strings.Contains(string(text), a) {
		t.Errorf("-out %s: %v\n%s", md, err, text)
	}
	for _, want := range []string{a + ": ", b + ": ", b + " done in "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	checkUntouched(t, parent) // the run directory is gone
}

func TestRunKeep(t *testing.T) {
	a, _ := pureGoEngines(t)
	parent := t.TempDir()
	_, stderr := runOK(t, append([]string{"-engine", a, "-path", parent, "-keep"}, tinyRun...)...)
	runs, _ := filepath.Glob(filepath.Join(parent, "benchmark-storage-*"))
	if len(runs) != 1 {
		t.Fatalf("run directories %v, want one", runs)
	}
	dir := filepath.Join(runs[0], a)
	if _, err := os.Stat(filepath.Join(dir, "ENGINE")); err != nil {
		t.Errorf("kept data: %v", err)
	}
	if !strings.Contains(stderr, "kept "+a+" data in "+dir) {
		t.Errorf("stderr does not say where the data is:\n%s", stderr)
	}
	checkUntouched(t, runs[0], a) // no result files left beside it
}

// TestRunCrashedEngine checks that an engine whose process dies shows its
// error in its column, the others keep their results, and the status is 1.
func TestRunCrashedEngine(t *testing.T) {
	a, b := pureGoEngines(t)
	for _, tc := range []struct{ fault, want string }{
		{a + ":3", "exited with status 3"},
		{a + ":kill", "was killed by a signal (killed; out of memory?)"},
		{a + ":0", "exited without a result"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			t.Setenv(envFault, tc.fault)
			parent, aside := t.TempDir(), t.TempDir()
			table := filepath.Join(aside, "results.txt")
			args := append([]string{"-engine", a + "," + b, "-path", parent, "-format", "json", "-out", table}, tinyRun...)
			code, stdout, stderr := runChildren(t, args...)
			if code != exitFailed {
				t.Errorf("status %d, want %d; stderr:\n%s", code, exitFailed, stderr)
			}
			rep := decodeReport(t, stdout)
			if len(rep.Results) != 2 {
				t.Fatalf("results for %v, want [%s %s]", engineNames(rep), a, b)
			}
			if got := rep.Results[0]; got.Engine != a || !strings.Contains(got.Error, tc.want) {
				t.Errorf("crashed %s: error %q, want %q", got.Engine, got.Error, tc.want)
			} else if got.Config.Points != rep.Results[1].Config.Points || got.Options["sync"] == nil {
				t.Errorf("crashed %s lost the run's parameters: config %+v, options %v", got.Engine, got.Config, got.Options)
			}
			checkVerified(t, rep.Results[1])
			if text, err := os.ReadFile(table); err != nil || !strings.Contains(string(text), tc.want) {
				t.Errorf("table does not show the error %q: %v\n%s", tc.want, err, text)
			}
			if !strings.Contains(stderr, a+" FAILED") {
				t.Errorf("stderr does not report the failure:\n%s", stderr)
			}
			checkUntouched(t, parent)
		})
	}
}

// TestRunInterrupted checks that Ctrl-C stops the running engine, removes
// what the run created, and exits with 130.
func TestRunInterrupted(t *testing.T) {
	a, _ := pureGoEngines(t)
	t.Setenv(envFault, a+":hang")
	parent := t.TempDir()
	precious := filepath.Join(parent, "precious")
	if err := os.WriteFile(precious, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		// Interrupt once the run is under way (its signal handler is set
		// before its directory is created).
		for {
			if runs, _ := filepath.Glob(filepath.Join(parent, "benchmark-storage-*", a)); len(runs) > 0 {
				time.Sleep(100 * time.Millisecond)
				syscall.Kill(os.Getpid(), syscall.SIGINT)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	code, stdout, stderr := runChildren(t, append([]string{"-engine", a, "-path", parent, "-keep"}, tinyRun...)...)
	if code != exitInterrupted {
		t.Errorf("status %d, want %d; stderr:\n%s", code, exitInterrupted, stderr)
	}
	if d := time.Since(start); d > supervise.StopDelay {
		t.Errorf("took %v to stop", d)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing: no engine finished", stdout)
	}
	checkUntouched(t, parent, "precious")
}

// TestRunMaxTimeKeepsStoppedStep checks that an engine stopped at
// -max-time reports the step it was in with what it did so far (its
// points, rate, latency and intervals), not only how far it got, and that
// the next engine still runs.
func TestRunMaxTimeKeepsStoppedStep(t *testing.T) {
	a, b := pureGoEngines(t)
	args := []string{"-engine", a + "," + b, "-path", t.TempDir(), "-format", "json", "-points", "50M", "-series", "10k", "-max-time", "2s", "-interval", "200ms"}
	code, stdout, stderr := runChildren(t, args...)
	if code != exitFailed {
		t.Fatalf("status %d, want %d; stderr:\n%s", code, exitFailed, stderr)
	}
	if !strings.Contains(stderr, a+" ended after ") || strings.Contains(stderr, "FAILED") {
		t.Errorf("stderr says the stopped engines FAILED, or not that they ended:\n%s", stderr)
	}
	rep := decodeReport(t, stdout)
	if len(rep.Results) != 2 {
		t.Fatalf("results for %v, want [%s %s]", engineNames(rep), a, b)
	}
	for _, res := range rep.Results {
		// One rate, the step's: the stop names its count, and no rate.
		if !strings.HasPrefix(res.Error, "stopped at the -max-time limit of 2s in step \"Write 50M values\" after ") ||
			strings.Contains(res.Error, "points/s") || len(res.Steps) != 1 {
			t.Errorf("%s: error %q, %d steps; want the stop and the write step", res.Engine, res.Error, len(res.Steps))
			continue
		}
		if res.Outcome != harness.OutcomeStopped {
			t.Errorf("%s: outcome %q, want %q", res.Engine, res.Outcome, harness.OutcomeStopped)
		}
		st := res.Steps[0]
		var inIntervals int64
		for _, iv := range st.Intervals {
			inIntervals += iv.Points
		}
		if st.Points <= 0 || st.Points >= 50_000_000 || st.PointsPerSec <= 0 || st.Latency == nil || inIntervals != st.Points ||
			!strings.HasPrefix(st.Error, "stopped after ") || st.Disk.Used <= 0 {
			t.Errorf("%s: stopped step: %d points, %.0f points/s, latency %v, %d points in %d intervals, disk %d bytes, error %q",
				res.Engine, st.Points, st.PointsPerSec, st.Latency, inIntervals, len(st.Intervals), st.Disk.Used, st.Error)
		}
	}
}

// TestRunFaultsAreOneLine checks that an engine process that panics or
// stalls fails in one line, with its trace in a log file whose path is
// printed and none on stderr, and that the other engine still runs.
func TestRunFaultsAreOneLine(t *testing.T) {
	a, b := pureGoEngines(t)
	for _, tc := range []struct{ fault, want, log string }{
		{a + ":panic", "exited with status 2: panic: engine fault for the test", "goroutine 1"},
		{a + ":hang", "made no progress for 2s", "goroutine 1"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			t.Setenv(envFault, tc.fault)
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			parent := t.TempDir()
			args := append([]string{"-engine", a + "," + b, "-path", parent, "-format", "json", "-stall-timeout", "2s"}, tinyRun...)
			start := time.Now()
			code, stdout, stderr := runChildren(t, args...)
			if code != exitFailed {
				t.Errorf("status %d, want %d; stderr:\n%s", code, exitFailed, stderr)
			}
			if d := time.Since(start); d > time.Minute {
				t.Errorf("took %v", d)
			}
			rep := decodeReport(t, stdout)
			if len(rep.Results) != 2 || !strings.Contains(rep.Results[0].Error, tc.want) || strings.Contains(rep.Results[0].Error, "\n") {
				t.Fatalf("results %+v, want %s failed in one line with %q", rep.Results, a, tc.want)
			}
			checkVerified(t, rep.Results[1])
			if strings.Contains(stderr, "goroutine ") {
				t.Errorf("a trace reached stderr:\n%s", stderr)
			}
			_, log, ok := strings.Cut(stderr, "output is in ")
			if !ok {
				t.Fatalf("stderr names no log file:\n%s", stderr)
			}
			log, _, _ = strings.Cut(log, ")")
			if b, err := os.ReadFile(log); err != nil || !strings.Contains(string(b), tc.log) {
				t.Errorf("log %s: %v, want the trace:\n%s", log, err, b)
			}
			if !strings.Contains(rep.Results[0].Error, log) {
				t.Errorf("the report's error %q does not name the log %s", rep.Results[0].Error, log)
			}
			checkUntouched(t, parent)
		})
	}
}

// TestRunCrashCheck runs the crash check on two engines and checks its
// JSON: every figure present, nothing lost.
func TestRunCrashCheck(t *testing.T) {
	a, b := pureGoEngines(t)
	parent := t.TempDir()
	stdout, _ := runOK(t, "-workload", "crash", "-engine", a+","+b, "-kills", "2", "-batch", "10", "-path", parent, "-format", "json")
	var rep crash.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, stdout)
	}
	if len(rep.Results) != 2 || rep.Env.Sync != engine.SyncBatch {
		t.Fatalf("results %+v, sync %q: want 2 engines, sync batch by default", rep.Results, rep.Env.Sync)
	}
	for _, res := range rep.Results {
		c := res.Crash
		if res.Error != "" || c == nil || c.Kills != 2 || c.AcknowledgedBatches == 0 || c.LostBatches+c.TornBatches+int64(c.ReopenErrors) != 0 || c.RecoveryMax == 0 {
			t.Errorf("%s: error %q, crash %+v", res.Engine, res.Error, c)
		}
		if res.Config.Batch != 10 || res.Config.Kills != 2 {
			t.Errorf("%s ran %+v, want the flags'", res.Engine, res.Config)
		}
	}
	checkUntouched(t, parent)
}

// TestStaleRunDirs checks that a run names the run directories a killed
// run left in -path, with the command that removes them, and removes
// nothing itself: not those, not one of a run still going.
func TestStaleRunDirs(t *testing.T) {
	parent := t.TempDir()
	stale := filepath.Join(parent, "benchmark-storage-123")
	live := filepath.Join(parent, "benchmark-storage-456")
	for dir, owner := range map[string]string{stale: "999999999 1", live: processID(os.Getpid())} {
		if err := os.MkdirAll(filepath.Join(dir, "pebble"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stderr strings.Builder
	reportStaleRunDirs(parent, &stderr)
	if want := "remove it with: rm -rf " + stale; !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), live) {
		t.Errorf("stderr %q, want %q and nothing of the live run's directory", stderr.String(), want)
	}
	for _, dir := range []string{stale, live} {
		if _, err := os.Stat(filepath.Join(dir, "pebble")); err != nil {
			t.Errorf("%s: %v; nothing may be removed", dir, err)
		}
	}
}

// TestRunLatencyLog: -latency-log writes every engine's steps as an
// HdrHistogram log, and only then do the results carry distributions.
func TestRunLatencyLog(t *testing.T) {
	a, _ := pureGoEngines(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "run.hlog")
	code, stdout, stderr := runChildren(t, "-engine", a, "-path", dir, "-points", "20k", "-series", "100", "-format", "json", "-latency-log", log)
	if code != exitOK {
		t.Fatalf("status %d:\n%s", code, stderr)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"write", "query", "delete", "query_after_delete", "write_more"} {
		if !strings.Contains(string(b), "Tag="+a+"/"+step+",") {
			t.Errorf("the log lacks %s's %s:\n%s", a, step, b)
		}
	}
	if !strings.Contains(stdout, `"distribution"`) {
		t.Error("the results carry no distribution")
	}
	code, stdout, _ = runChildren(t, "-engine", a, "-path", dir, "-points", "20k", "-series", "100", "-format", "json")
	if code != exitOK || strings.Contains(stdout, `"distribution"`) {
		t.Errorf("status %d; without -latency-log the results still carry distributions", code)
	}
}

// TestRunRealValues: -values real and -value-encoding reach the child,
// which writes and checks the seed's measurements (every value read back
// verified) and reports them; a dataset of random values is not reused
// for real ones.
func TestRunRealValues(t *testing.T) {
	if builddir.Find(points.SeedFile) == "" {
		t.Skip("build/" + points.SeedFile + " is missing: make setup fetches it")
	}
	a, _ := pureGoEngines(t)
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	code, _, stderr := runChildren(t, "-engine", a, "-path", dir, "-points", "2k", "-series", "20", "-dataset", ds)
	if code != exitOK {
		t.Fatalf("status %d:\n%s", code, stderr)
	}
	code, _, stderr = runChildren(t, "-engine", a, "-path", dir, "-points", "2k", "-series", "20", "-values", "real", "-value-encoding", "float64", "-dataset", ds)
	if code != exitBadInput || !strings.Contains(stderr, "values real values, float64 (dataset: random values, protobuf)") {
		t.Fatalf("status %d: a dataset of random values reused for real ones:\n%s", code, stderr)
	}
	code, stdout, stderr := runChildren(t, "-engine", a, "-path", dir, "-points", "2k", "-series", "20", "-values", "real", "-value-encoding", "float64", "-format", "json")
	if code != exitOK {
		t.Fatalf("status %d:\n%s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Config struct {
				Values points.Values `json:"values"`
			} `json:"config"`
			Steps []struct {
				Name   string `json:"name"`
				Verify *struct {
					Read int64 `json:"read"`
				} `json:"verify"`
				Disk struct {
					Used int64 `json:"used_bytes"`
				} `json:"disk"`
			} `json:"steps"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	res := rep.Results[0]
	if v := res.Config.Values; v.Kind != points.Real || v.Encoding != points.Float64 || v.File == "" {
		t.Errorf("values %+v", v)
	}
	if st := res.Steps[1]; st.Name != "query" || st.Verify == nil || st.Verify.Read != 2000 {
		t.Errorf("query step %+v: not every value read and checked", st)
	}
}
