// Package reporttest checks the reports of the benchmark packages, which
// render with package report: every format against the golden files in
// the package's testdata/ (go test -update rewrites them), rows of the
// text, and a round trip through JSON.
package reporttest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tsbench/storage/internal/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Golden compares got with testdata/name, or with -update writes it
// there.
func Golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update if intended):\n%s", name, got)
	}
}

// Formats checks every format of r against its golden file:
// name.txt.golden, name.md.golden, name.html.golden, name.csv.golden,
// name.json.golden, and name.gobench.golden for a report that has the Go
// benchmark format (the suffix keeps pinned outputs apart from code and
// data). It also checks that the text fits report.TextWidth columns and
// that every CSV value is a number.
func Formats(t *testing.T, name string, r report.Renderer) {
	t.Helper()
	text := r.Page().Text()
	formats := map[string]string{".txt": report.FormatText, ".md": report.FormatMarkdown, ".html": report.FormatHTML, ".csv": report.FormatCSV, ".json": report.FormatJSON}
	if _, ok := r.(report.GoBencher); ok {
		formats[".gobench"] = report.FormatGoBench
	}
	for ext, format := range formats {
		var b bytes.Buffer
		if err := report.Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		Golden(t, name+ext+".golden", b.Bytes())
	}
	Fits(t, text)
	var b bytes.Buffer
	if err := r.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	CSVNumbers(t, b.Bytes())
}

// Fits fails for a line of text wider than report.TextWidth.
func Fits(t *testing.T, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > report.TextWidth {
			t.Errorf("line %d is %d columns wide, more than %d:\n%s", i+1, n, report.TextWidth, l)
		}
	}
}

// CSVNumbers checks a CSV report: every row has the header's columns,
// and every value is a number (texts go in their own column).
func CSVNumbers(t *testing.T, b []byte) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Fatal("the CSV has no rows")
	}
	col := slices.Index(rows[0], "value")
	if col < 0 {
		t.Fatalf("no value column in %v", rows[0])
	}
	for _, r := range rows[1:] {
		if r[col] == "" {
			continue
		}
		if _, err := strconv.ParseFloat(r[col], 64); err != nil {
			t.Errorf("value %q is not a number: %v", r[col], r)
		}
	}
}

// Row returns the line of a text report whose first column is label.
func Row(t *testing.T, text, label string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, label+" ") {
			return l
		}
	}
	t.Fatalf("no row %q in\n%s", label, text)
	return ""
}

// Cells checks that each row of a text report holds its wanted cells, in
// any order.
func Cells(t *testing.T, text string, want map[string][]string) {
	t.Helper()
	for label, cells := range want {
		l := Row(t, text, label)
		for _, c := range cells {
			if !strings.Contains(l, c) {
				t.Errorf("row %q lacks %q: %s", label, c, l)
			}
		}
	}
}

// JSONRoundTrip checks that r comes back from its JSON unchanged, as
// results do when a child process hands them to the parent: decoded, it
// writes the same JSON and the same text.
func JSONRoundTrip[R report.Renderer](t *testing.T, r R) {
	t.Helper()
	var first, second bytes.Buffer
	if err := report.Write(&first, r, report.FormatJSON); err != nil {
		t.Fatal(err)
	}
	var back R
	if err := json.Unmarshal(first.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(&second, back, report.FormatJSON); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Error("JSON changes after a round trip")
	}
	if back.Page().Text() != r.Page().Text() {
		t.Error("the text report changes after a JSON round trip")
	}
}
