package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/internal/report"
)

// TestMerge: two single-engine reports merge into the report one
// two-engine run gives (the same engines, steps and parameters; the
// figures are each run's own), and unlike files are refused naming the
// difference.
func TestMerge(t *testing.T) {
	a, b := pureGoEngines(t)
	dir := t.TempDir()
	write := func(name string, args ...string) string {
		t.Helper()
		out, _ := runOK(t, append(append([]string{"-path", dir, "-format", "json"}, tinyRun...), args...)...)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pa, pb := write("a.json", "-engine", a), write("b.json", "-engine", b)
	both := decodeReport(t, func() string { b, _ := os.ReadFile(write("both.json", "-engine", a+","+b)); return string(b) }())

	out, _ := runOK(t, "merge", "-format", "json", pa, pb)
	merged := decodeReport(t, out)
	shape := func(rep report.Renderer) []string {
		var rows []string
		for _, l := range strings.Split(rep.Page().Text(), "\n") {
			if f := strings.Fields(l); len(f) > 0 && (f[0] == "Step" || f[0] == "Write" || f[0] == "Query" || f[0] == "Status") {
				rows = append(rows, strings.Join(f[:min(len(f), 3)], " "))
			}
		}
		return rows
	}
	if got, want := shape(merged), shape(both); !slices.Equal(got, want) {
		t.Errorf("merged table rows %q, one run's %q", got, want)
	}
	for i, res := range merged.Results {
		checkVerified(t, res)
		if res.Engine != both.Results[i].Engine || len(res.Steps) != len(both.Results[i].Steps) {
			t.Errorf("merged result %d: %s with %d steps, one run has %s with %d", i, res.Engine, len(res.Steps), both.Results[i].Engine, len(both.Results[i].Steps))
		}
	}
	if v := merged.Env.EngineVersions; len(v) != 2 || v[a] == "" || v[b] == "" {
		t.Errorf("merged environment lists versions %v, want %s and %s", v, a, b)
	}
	// Each input's run stays traceable: its id, command and tool.
	ra, rb := decodeReport(t, readString(t, pa)), decodeReport(t, readString(t, pb))
	if m := merged.Env.MergedFrom; len(m) != 2 || m[0].RunID != ra.RunID || m[1].RunID != rb.RunID ||
		!slices.Equal(m[1].CommandLine, rb.Env.CommandLine) || m[0].Tool != ra.Env.Tool || !slices.Equal(m[1].Engines, []string{b}) {
		t.Errorf("merged from %+v, want the runs of %s and %s", m, pa, pb)
	}

	other := write("other.json", "-engine", b, "-points", "4k")
	smaller := write("smaller.json", "-engine", b, "-cache-size", "8MiB")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "give the JSON reports to merge"},
		{[]string{pa, other}, "points: 2000 → 4000"},
		{[]string{pa, pa}, a + " is in more than one of the files"},
		{[]string{pa, smaller}, "cache_size: 67108864 → 8388608"},
		{[]string{filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"-format", "gobench", pa}, "-format"},
	} {
		checkRefused(t, c.want, append([]string{"merge"}, c.args...)...)
	}
}

// TestMergeAnyWorkload: merge reads every workload's reports, here the
// crash check's, and refuses to merge two workloads' reports.
func TestMergeAnyWorkload(t *testing.T) {
	a, b := pureGoEngines(t)
	dir := t.TempDir()
	write := func(name string, args ...string) string {
		t.Helper()
		out, _ := runOK(t, append([]string{"-path", dir, "-format", "json"}, args...)...)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pa := write("a.json", "-workload", "crash", "-kills", "1", "-engine", a)
	pb := write("b.json", "-workload", "crash", "-kills", "1", "-engine", b)
	out, _ := runOK(t, "merge", pa, pb)
	if !strings.Contains(out, "Crash check") || !strings.Contains(out, a) || !strings.Contains(out, b) {
		t.Errorf("merged crash reports:\n%s\nwant the crash check's table of %s and %s", out, a, b)
	}
	ts := write("ts.json", append(append([]string{}, tinyRun...), "-engine", b)...)
	checkRefused(t, "merge runs of one workload", "merge", pa, ts)
}

// readString is the file at path.
func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
