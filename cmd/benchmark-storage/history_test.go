package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/internal/report/reporttest"
)

// historyDir holds synthetic reports of one workload: rocksdb 9.10.0 to
// 11.8.1 and lmdb 0.9.33 and 0.9.35 over two files, run 4 times each but
// lmdb 0.9.35, run twice. 10.0.1 writes 20% faster than 9.10.0, and 11.8.1
// compacts 30% slower than 10.2.1 and stores 18% fewer bytes per point,
// the runs of either side apart; the rest is equal.
const historyDir = "testdata/history/releases"

// TestHistory: the text form, pinned by its golden file, orders releases
// by version, marks exactly the changes the data hold, and leaves lmdb's
// change untested; a directory reads as its files; the page draws every
// run and rings the changes, in Chromium.
func TestHistory(t *testing.T) {
	out, _ := runOK(t, "history", historyDir)
	reporttest.Golden(t, "history/history.txt.golden", []byte(out))
	reporttest.Fits(t, out)
	if !strings.Contains(out, "9.10.0       10.0.1       10.2.1       11.8.1") {
		t.Errorf("rocksdb's releases are not in version order:\n%s", out)
	}
	if got := strings.Count(out, "% *"); got != 5 {
		t.Errorf("%d changes marked beyond the noise, want 5 (write time 10.0.1; compaction time and three bytes per point 11.8.1):\n%s", got, out)
	}
	if got := strings.Count(out, "% ?"); got != 9 {
		t.Errorf("%d untested changes, want lmdb's 9 (2 runs of 0.9.35):\n%s", got, out)
	}
	files, _ := runOK(t, "history", filepath.Join(historyDir, "b.json"), filepath.Join(historyDir, "a.json"))
	if files != out {
		t.Errorf("the files in another order differ from their directory:\n%s", files)
	}

	dir := t.TempDir()
	page := filepath.Join(dir, "history.html")
	runOK(t, "history", "-out", page, historyDir)
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	reporttest.SelfContained(t, html)
	// A chart per step, 9 figures (6 times, 3 bytes per point) of 22 runs.
	if n := strings.Count(html, `class="run"`); n != 9*22 {
		t.Errorf("%d runs drawn, want %d", n, 9*22)
	}
	if n := strings.Count(html, `class="mark"`); n != 5 {
		t.Errorf("%d changes ringed, want 5", n)
	}
	for _, want := range []string{"Mann-Whitney U test", "p &lt; 0.05", "Write 8k values"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	reporttest.Screenshot(t, "history", html, 1280, 3600)
}

// TestHistoryRefused: bad input is one line, exit 2.
func TestHistoryRefused(t *testing.T) {
	a := filepath.Join(historyDir, "a.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "give the JSON reports of the runs, or a directory of them"},
		{[]string{t.TempDir()}, "holds no JSON reports"},
		{[]string{"testdata/history/bad/not-a-result.json"}, "not a report of a known workload"},
		{[]string{a, "testdata/history/bad/micro.json"}, "history reads runs of one workload"},
		{[]string{a, "testdata/history/bad/points.json"}, "points: 8000 → 4000"},
		{[]string{a, a}, "given twice"},
		{[]string{"-alpha", "2", a}, "-alpha 2"},
		{[]string{"-min-effect", "-1", a}, "-min-effect -1"},
		{[]string{"-format", "csv", a}, "-format"},
	} {
		checkRefused(t, c.want, append([]string{"history"}, c.args...)...)
	}
}
