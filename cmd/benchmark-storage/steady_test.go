package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/steady"
)

// TestSteadyBadInput checks that each mistake in the steady workload's
// settings exits 2 with one line naming the fix, before anything is
// created.
func TestSteadyBadInput(t *testing.T) {
	a, _ := pureGoEngines(t)
	parent := t.TempDir()
	base := []string{"-engine", a, "-path", parent, "-workload", "steady", "-rate", "10k", "-duration", "2s", "-speedup", "100", "-retention", "1m"}
	for _, tc := range []refusal{
		{"zero duration", []string{"-duration", "0s"}, "-duration"},
		{"rate beyond the harness", []string{"-rate", "1G"}, "lower -rate"},
		{"zero rate", []string{"-rate", "0"}, "-rate 0"},
		{"retention longer than the run", []string{"-retention", "1h"}, "raise -speedup"},
		{"late above 1", []string{"-late", "1.5"}, "-late 1.5 is not a fraction"},
		{"out of order negative", []string{"-out-of-order", "-0.1"}, "-out-of-order"},
		{"churn above 1", []string{"-churn", "2"}, "-churn 2"},
		{"unknown method", []string{"-retention-method", "fifo"}, "delete, bucket, shards or ttl"},
		{"ttl on an engine without expiry", []string{"-retention-method", "ttl", "-speedup", "20", "-retention", "20s"}, a + " keeps entries until they are deleted; the engines that expire them are"},
		{"ttl below a second of wall time", []string{"-retention-method", "ttl"}, "keep at least 1s"},
		{"expiry under another method", []string{"-engine", "badger", "-set", "expiry=10s"}, "would drop points that -retention-method delete keeps"},
		{"late window beyond retention", []string{"-late", "0.1", "-late-window", "1h"}, "-late-window"},
		{"points", []string{"-points", "1M"}, "-points is not a flag of the steady-state workload"},
		{"steady flag elsewhere", []string{"-workload", "mixed", "-churn", "0.1"}, "-speedup is not a flag of the mixed workload (benchmark-storage mixed -h lists its flags) but of the steady-state workload"},
		{"target without the search", []string{"-max-write-p99", "10ms"}, "add -find-rate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefused(t, tc.want, append(append([]string{}, base...), tc.args...)...)
			checkUntouched(t, parent)
		})
	}
}

// TestSteadyEndToEnd runs every retention method on a pure-Go engine,
// each in its child process, and reads the JSON report back; the ttl
// method on badger, which has an expiry, of a second of wall time.
func TestSteadyEndToEnd(t *testing.T) {
	a, _ := pureGoEngines(t)
	for _, method := range steady.Methods {
		t.Run(string(method), func(t *testing.T) {
			name, speedup, retention := a, 200.0, "2m"
			if method == steady.MethodTTL {
				if !slices.Contains(engine.Names(), "badger") {
					t.Skip("no badger in this build")
				}
				name, speedup, retention = "badger", 60, "1m"
			}
			parent, aside := t.TempDir(), t.TempDir()
			html := filepath.Join(aside, "steady.html")
			stdout, _ := runOK(t, "-engine", name, "-path", parent, "-workload", "steady", "-format", "json", "-out", html,
				"-rate", "5k", "-duration", "2s", "-series", "50", "-batch", "50", "-speedup", fmt.Sprint(speedup), "-retention", retention,
				"-retention-method", string(method), "-late", "0.05", "-out-of-order", "0.3", "-churn", "0.1", "-churn-every", "30s", "-interval", "200ms")
			var rep steady.Report
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Results) != 1 {
				t.Fatalf("JSON report: %v\n%s", err, stdout)
			}
			res := rep.Results[0]
			c := res.Config
			if res.Engine != name || c.Method != method || c.Rate != 5000 || c.Speedup != speedup || c.Churn != 0.1 || c.Readers != 1 {
				t.Errorf("ran %s with %+v, want the flags' workload", res.Engine, c)
			}
			// The ttl method deletes nothing itself: its engine's expiry
			// is in the options the run records.
			retained := res.Retention.Passes > 0
			if method == steady.MethodTTL {
				retained = res.Retention.Expired > 0 && res.Options["expiry"] == "1s"
			}
			if res.Error != "" || res.WrongAnswers() != 0 || res.Final == nil || !retained || len(res.Intervals) == 0 {
				t.Errorf("result: error %q, %d wrong answers, final %+v, retention %+v, %d intervals",
					res.Error, res.WrongAnswers(), res.Final, res.Retention, len(res.Intervals))
			}
			if page, err := os.ReadFile(html); err != nil || !strings.Contains(string(page), "Disk used") {
				t.Errorf("-out %s: %v", html, err)
			}
			checkUntouched(t, parent)
		})
	}
}

// TestFindRateMaxTime: a rate search stopped by -max-time keeps the
// probes it finished and the best rate so far in its report.
func TestFindRateMaxTime(t *testing.T) {
	a, _ := pureGoEngines(t)
	parent := t.TempDir()
	code, stdout, stderr := runChildren(t, "-engine", a, "-path", parent, "-workload", "steady", "-find-rate", "-format", "json",
		"-rate", "2k", "-duration", "1s", "-series", "50", "-batch", "50", "-speedup", "200", "-retention", "2m", "-max-time", "4500ms")
	var rep steady.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("exit %d, JSON report: %v\n%s\n%s", code, err, stdout, stderr)
	}
	res := rep.Results[0]
	if res.Search == nil || len(res.Search.Probes) < 2 || res.Search.Rate <= 0 || !strings.Contains(res.Error, "-max-time") {
		t.Errorf("stopped search: error %q, search %+v", res.Error, res.Search)
	}
	checkUntouched(t, parent)
}
