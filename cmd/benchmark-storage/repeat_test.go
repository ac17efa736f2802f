package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/internal/report/reporttest"
)

// TestRepeatedRun is the whole story of a comparison: three engines run
// three times each, reported in JSON (with the spread) and HTML (drawn
// by a browser), in CSV (numbers only) and gobench (a line per run), and
// compared with a later run.
func TestRepeatedRun(t *testing.T) {
	engines := somePureGoEngines(t, 3)
	parent, aside := t.TempDir(), t.TempDir()
	page := filepath.Join(aside, "report.html")
	args := append([]string{"-engine", strings.Join(engines, ","), "-count", "3", "-path", parent, "-format", "json", "-out", page}, tinyRun...)
	stdout, _ := runOK(t, args...)
	checkUntouched(t, parent)
	rep := decodeReport(t, stdout)
	if len(rep.Results) != 9 || rep.RunID == "" {
		t.Fatalf("%d results, run id %q; want 9 and an id", len(rep.Results), rep.RunID)
	}
	for i, res := range rep.Results {
		// The engines take turns.
		if res.Engine != engines[i%3] || res.Repeat != i/3+1 {
			t.Errorf("result %d is %s run %d, want %s run %d", i, res.Engine, res.Repeat, engines[i%3], i/3+1)
		}
		checkVerified(t, res)
	}
	var spread struct {
		Summary []struct {
			Engine string
			Runs   int
			Steps  []report.PartStats
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &spread); err != nil || len(spread.Summary) != 3 {
		t.Fatalf("summary %+v, %v; want one per engine", spread.Summary, err)
	}
	for _, s := range spread.Summary {
		if s.Runs != 3 || len(s.Steps) != 6 || s.Steps[0].Figures[0].N != 3 {
			t.Errorf("%s: summary %+v, want 3 runs of 6 steps", s.Engine, s)
		}
	}

	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	reporttest.SelfContained(t, string(html))
	for _, e := range engines {
		if !strings.Contains(string(html), e) {
			t.Errorf("the page does not name %s", e)
		}
	}
	reporttest.Screenshot(t, "cli-count3", string(html), 1280, 3000)

	var csv, gobench bytes.Buffer
	if err := rep.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	reporttest.CSVNumbers(t, csv.Bytes())
	if err := rep.WriteGoBench(&gobench); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(gobench.String(), "BenchmarkTimeSeries/"); n != 9*6 {
		t.Errorf("%d gobench lines, want one per step of each run (54):\n%s", n, gobench.String())
	}

	// A later run that took twice as long.
	old := filepath.Join(aside, "old.json")
	if err := os.WriteFile(old, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, res := range rep.Results {
		for i := range res.Steps {
			res.Steps[i].Time *= 2
		}
	}
	newer := filepath.Join(aside, "new.json")
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(newer, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _ := runOK(t, "compare", "-v", old, newer)
	for _, want := range append(slices.Clone(engines), "+100.0%", "no (p=0.100 n=3+3)", "Time (time_ns)") {
		if !strings.Contains(text, want) {
			t.Errorf("compare -v output lacks %q:\n%s", want, text)
		}
	}
	reporttest.Fits(t, text)
	// Brief by default: the first line says what moved, then the largest
	// changes, in a screen or two.
	brief, _ := runOK(t, "compare", old, newer)
	if lines := strings.Split(brief, "\n"); !strings.HasPrefix(lines[0], "Comparison") && !strings.Contains(brief, "Beyond the noise: 0 of ") || len(lines) > 60 || !strings.Contains(brief, "-v for all") {
		t.Errorf("brief compare, %d lines:\n%s", len(lines), brief)
	}
	cmp, _ := runOK(t, "compare", "-format", "html", old, newer)
	reporttest.SelfContained(t, cmp)
	reporttest.Screenshot(t, "cli-compare", cmp, 1280, 2000)
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "x.json")
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(notJSON, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, []byte(`{"results": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{empty}, "give two JSON reports"},
		{[]string{filepath.Join(dir, "none.json"), empty}, "none.json"},
		{[]string{notJSON, empty}, "is not a JSON report"},
		{[]string{empty, empty}, "holds no results"},
		{[]string{"-format", "pdf", empty, empty}, `-format "pdf"`},
		{[]string{"-out", filepath.Join(dir, "c.pdf"), empty, empty}, `unknown extension ".pdf"`},
		{[]string{"-alpha", "2", empty, empty}, "-alpha 2"},
	} {
		checkRefused(t, tc.want, append([]string{"compare"}, tc.args...)...)
	}
}
