package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/timeseries"
)

// runCmd runs the command in-process and returns its exit status and output.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// runChildren runs the command with children re-executing the test binary
// (as TestMain makes every child).
func runChildren(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCmd(t, args...)
}

// testEngines are two engines built into the test binary.
func testEngines(t *testing.T) (string, string) {
	t.Helper()
	names := engine.AllNames()
	if len(names) < 2 {
		t.Skipf("need two engines, have %v", names)
	}
	return names[0], names[1]
}

// pureGoEngines picks two registered engines without C libraries, which
// start fastest.
func pureGoEngines(t *testing.T) (string, string) {
	t.Helper()
	picked := somePureGoEngines(t, 2)
	return picked[0], picked[1]
}

// somePureGoEngines picks n registered engines without C libraries, or
// skips the test.
func somePureGoEngines(t *testing.T, n int) []string {
	t.Helper()
	var picked []string
	for _, name := range []string{"pebble", "goleveldb", "bbolt", "badger"} {
		if slices.Contains(engine.Names(), name) && len(picked) < n {
			picked = append(picked, name)
		}
	}
	if len(picked) < n {
		t.Skipf("need %d pure-Go engines, have %v", n, engine.Names())
	}
	return picked
}

// tinyRun is a workload small enough for -race: 20 series of 100 points.
var tinyRun = []string{"-points", "2k", "-series", "20", "-batch", "10"}

// checkUntouched fails unless dir holds exactly the named entries.
func checkUntouched(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

// decodeReport decodes text, the command's output, as a time-series JSON
// report.
func decodeReport(t *testing.T, text string) *timeseries.Report {
	t.Helper()
	var rep timeseries.Report
	if err := json.Unmarshal([]byte(text), &rep); err != nil {
		t.Fatalf("output is not a JSON report: %v\n%s", err, text)
	}
	return &rep
}

// checkVerified fails unless res ran every step without an error.
func checkVerified(t *testing.T, res *timeseries.Result) {
	t.Helper()
	if res.Error != "" {
		t.Errorf("%s failed: %s", res.Engine, res.Error)
	}
	if len(res.Steps) == 0 {
		t.Errorf("%s has no steps", res.Engine)
	}
	var names []string
	for _, st := range res.Steps {
		names = append(names, st.Name)
		if st.Error != "" {
			t.Errorf("%s: step %s: %s", res.Engine, st.Name, st.Error)
		}
		if st.Name == timeseries.StepQuery || st.Name == timeseries.StepQueryAfterDelete {
			if st.Verify == nil || !st.Verify.OK() || st.Verify.Read != st.Points || st.Verify.Read == 0 {
				t.Errorf("%s: step %s verified %+v, want all %d points", res.Engine, st.Name, st.Verify, st.Points)
			}
		}
	}
	if !slices.Equal(names, timeseries.StepNames) {
		t.Errorf("%s ran steps %v, want %v", res.Engine, names, timeseries.StepNames)
	}
}

// engineNames are the engines of rep's results, in order.
func engineNames(rep *timeseries.Report) []string {
	var names []string
	for _, r := range rep.Results {
		names = append(names, r.Engine)
	}
	return names
}

// readJSON decodes the JSON file path, a report the command wrote, into
// v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s is not the report expected: %v\n%s", path, err, b)
	}
}

// refusal is a command line the command must refuse, and what the
// message must say.
type refusal struct {
	name string
	args []string
	want string // in the message
}

// checkRefused runs the command with args and fails unless it refuses
// them as a user's mistake: exit status 2, nothing on stdout, and one line
// on stderr that names want.
func checkRefused(t *testing.T, want string, args ...string) {
	t.Helper()
	code, stdout, stderr := runCmd(t, args...)
	if code != exitBadInput || stdout != "" {
		t.Errorf("%q: status %d, stdout %q; want %d and nothing; stderr:\n%s", args, code, stdout, exitBadInput, stderr)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") || !strings.HasPrefix(stderr, "benchmark-storage") || !strings.Contains(stderr, want) {
		t.Errorf("%q: want one line naming %q, got %q", args, want, stderr)
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
		t.Errorf("%q: stack trace: %s", args, stderr)
	}
}

// runOK runs the command, its children re-executing the test binary, and
// stops the test unless it exits with status 0.
func runOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := runChildren(t, args...)
	if code != exitOK {
		t.Fatalf("%q: status %d; stderr:\n%s", args, code, stderr)
	}
	return stdout, stderr
}

// engineOptions are the options s resolved for engine name.
func engineOptions(s *settings, name string) (engine.Options, error) {
	spec, ok := s.specs[name]
	if !ok {
		return engine.Options{}, fmt.Errorf("no options resolved for %s", name)
	}
	return spec.Options, nil
}
