package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/mixed"
	"github.com/tsbench/storage/workload/timeseries"
)

// TestCompareUnlike checks that compare refuses runs that measured
// different workloads, naming the parameter, and shows above its table
// how runs of one workload differ in their settings; and that it reads
// mixed runs.
func TestCompareUnlike(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, r any) string {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	series := func(points int64, cache int, interval time.Duration) string {
		res := &timeseries.Result{
			Header: harness.Header{Engine: "pebble", Options: map[string]any{"cache_size": cache}},
			Config: timeseries.Config{Points: points, Series: 10, Batch: 10, Seed: 1, Interval: interval},
			Steps:  []timeseries.Step{{Name: timeseries.StepWrite, Label: "Write", Points: points, Time: time.Second}},
		}
		return write(filepath.Base(t.TempDir())+".json", timeseries.Report{Results: []*timeseries.Result{res}})
	}
	base := series(200_000, 8<<20, time.Second)
	for _, tc := range []struct {
		name, other string
		code        int
		want        string
	}{
		{"points", series(100_000, 8<<20, time.Second), exitBadInput, "measured different workloads (points: 200000 → 100000)"},
		{"cache", series(200_000, 64<<20, time.Second), exitOK, "THE RUNS DIFFER IN HOW THEY RAN"},
		{"interval only", series(200_000, 8<<20, 2*time.Second), exitOK, "Time (time_ns)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "compare", base, tc.other)
			if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
				t.Fatalf("status %d, want %d with %q; stdout:\n%s\nstderr:\n%s", code, tc.code, tc.want, stdout, stderr)
			}
			if tc.name == "cache" && !strings.Contains(stdout, "pebble cache_size: 8388608 → 67108864") {
				t.Errorf("the difference is not named:\n%s", stdout)
			}
			if tc.name == "interval only" && strings.Contains(stdout, "DIFFER") {
				t.Errorf("a recording setting shown as a difference:\n%s", stdout)
			}
		})
	}

	mixedRun := func(ops float64) string {
		res := &mixed.Result{
			Header:     harness.Header{Engine: "pebble"},
			Config:     mixed.Config{Duration: time.Second, Writers: 1, Series: 10, Batch: 10},
			Operations: []mixed.Operation{{Kind: mixed.KindWrite, Count: 10, OpsPerSec: ops}},
		}
		return write(filepath.Base(t.TempDir())+".json", mixed.Report{Results: []*mixed.Result{res}})
	}
	code, stdout, stderr := runCmd(t, "compare", mixedRun(100), mixedRun(200))
	if code != exitOK || !strings.Contains(stdout, "+100.0%") {
		t.Errorf("compare of mixed runs: status %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestGoRuntimeIsASetting: runs with different Go runtime settings
// (GOMEMLIMIT) ran differently, and compare says so.
func TestGoRuntimeIsASetting(t *testing.T) {
	a := runFacts{}
	b := runFacts{env: harness.Environment{GoRuntime: map[string]string{"GOMEMLIMIT": "3GiB"}}}
	diffs := strings.Join(settingDifferences(a, b), "\n")
	if !strings.Contains(diffs, "Go runtime: ") || !strings.Contains(diffs, "GOMEMLIMIT=3GiB") {
		t.Errorf("differences %q do not name GOMEMLIMIT", diffs)
	}
}
