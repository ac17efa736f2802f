package report

import (
	"fmt"
	"strings"
	"testing"
)

func TestPage(t *testing.T) {
	engines := []Engine{{Name: "a"}, {Name: "b|c", Error: "disk full"}}
	main := Table{Head: Head(engines, "Step"), Labels: 1, Rows: []Row{
		{Labels: []string{"write"}, Cells: []Cell{DurationCell(2e9), Judge(DurationCell(1e9), "disk full", "disk full")}, Best: LowerBest},
		{Labels: []string{"size"}, Cells: []Cell{BytesCell(2048), BytesCell(1 << 20)}, Best: LowerBest},
		StatusRow(engines),
	}}
	extra := Table{Title: "Extra", Head: Head(engines, "Step", "Metric"), Labels: 2, Rows: []Row{
		{Labels: []string{"write", "files"}, Cells: []Cell{{Text: "12"}, {Text: "3|4"}}},
	}}
	p := Page{Intro: "Intro.", Engines: engines, Tables: []Table{main, extra}, Environment: [][2]string{{"CPU", "fast"}}}
	text := `Intro.

Step           a         b|c
------  ----------  ----------
write         2s          1s !
size    2.00 KiB *  1.00 MiB
Status        ok      FAILED !

Errors:
  b|c: disk full

Extra
Step   Metric   a    b|c
-----  ------  ----  -----
write  files   12    3|4

Environment
  CPU          fast
`
	if got := p.Text(); got != text {
		t.Errorf("Text:\n%s\nwant:\n%s", got, text)
	}
	md := `Intro.

| Step | a | b|c |
|---|---:|---:|
| write | 2s | 1s ! |
| size | **2.00 KiB** | 1.00 MiB |
| Status | ok | FAILED ! |

**Errors**

- b|c: disk full

### Extra

| Step | Metric | a | b|c |
|---|---|---:|---:|
| write | files | 12 | 3\|4 |

### Environment

- CPU: fast
`
	if got := p.Markdown(); got != md {
		t.Errorf("Markdown:\n%s\nwant:\n%s", got, md)
	}
	p.Engines[1].Error = ""
	if strings.Contains(p.Text(), "Errors") || strings.Contains(p.Markdown(), "Errors") {
		t.Error("an Errors heading without errors")
	}
}

// An engine the benchmark ended shows how, not FAILED; either is marked.
func TestStatusRowEnded(t *testing.T) {
	r := StatusRow([]Engine{{Name: "a"}, {Name: "b", Error: "slow", Ended: "stopped"}, {Name: "c", Error: "wrong values"}})
	var got []string
	for _, c := range r.Cells {
		got = append(got, fmt.Sprintf("%s/%v", c.Text, c.Failed))
	}
	if want := "ok/false stopped/true FAILED/true"; strings.Join(got, " ") != want {
		t.Errorf("StatusRow cells %q, want %q", strings.Join(got, " "), want)
	}
}
