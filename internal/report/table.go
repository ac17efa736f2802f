package report

import (
	"strings"
	"unicode/utf8"
)

// Better says which way a row's figures improve, for marking the best.
type Better int

const (
	NoBest Better = iota // the row is not judged: counts, text
	LowerBest
	HigherBest
)

// Table is a report table: label columns, then one column per engine.
type Table struct {
	Title  string
	Head   []string // label headers, then engine names
	Labels int      // how many leading columns are labels
	Rows   []Row
}

// Row is a line of a Table: its labels, then one cell per engine.
type Row struct {
	Labels []string
	Cells  []Cell
	Best   Better // which way its figures improve
}

// Cell is one engine's figure. A ranked cell takes part in marking the
// best of its row, unless it failed.
type Cell struct {
	Text   string
	Value  float64 // what ranked cells are compared by
	Ranked bool
	Failed bool // the figure's step or benchmark failed: marked '!'
}

// None is the cell of a figure that does not apply or did not run.
var None = Cell{Text: "-"}

// Judge is c as the figure of a step or benchmark that failed with
// partErr ("" if it passed), of an engine whose run failed with engineErr:
// a failed part's figure is marked '!' (unless there is none), and an
// engine that failed anywhere is shown but never best.
func Judge(c Cell, partErr, engineErr string) Cell {
	c.Failed = partErr != "" && c.Text != None.Text
	c.Ranked = c.Ranked && engineErr == ""
	return c
}

// bests says which cells of r are its best: those with the best value,
// when at least two engines have a figure to compare.
func (r Row) bests() []bool {
	n, best := 0, 0.0
	for _, c := range r.Cells {
		if r.Best == NoBest || !c.Ranked || c.Failed {
			continue
		}
		if n == 0 || (r.Best == LowerBest && c.Value < best) || (r.Best == HigherBest && c.Value > best) {
			best = c.Value
		}
		n++
	}
	out := make([]bool, len(r.Cells))
	if n < 2 {
		return out
	}
	for i, c := range r.Cells {
		out[i] = c.Ranked && !c.Failed && c.Value == best
	}
	return out
}

// text renders t aligned for a terminal: labels left, figures right, the
// best of a row followed by '*' and a failed figure by '!'.
func (t Table) text(b *strings.Builder) {
	head := append([]string(nil), t.Head...)
	for i := t.Labels; i < len(head); i++ {
		head[i] += "  " // engine names sit over the figures, not the markers
	}
	grid := [][]string{head}
	for _, r := range t.Rows {
		line := append([]string(nil), r.Labels...)
		best := r.bests()
		for i, c := range r.Cells {
			switch {
			case best[i]:
				line = append(line, c.Text+" *")
			case c.Failed:
				line = append(line, c.Text+" !")
			default:
				line = append(line, c.Text+"  ")
			}
		}
		grid = append(grid, line)
	}
	width := make([]int, len(head))
	for _, line := range grid {
		for i, s := range line {
			width[i] = max(width[i], utf8.RuneCountInString(s))
		}
	}
	if t.Title != "" {
		b.WriteString(t.Title + "\n")
	}
	for n, line := range grid {
		cols := make([]string, len(line))
		for i, s := range line {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(s))
			if i < t.Labels {
				cols[i] = s + pad
			} else {
				cols[i] = pad + s
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(cols, "  "), " ") + "\n")
		if n == 0 {
			for i := range cols {
				cols[i] = strings.Repeat("-", width[i])
			}
			b.WriteString(strings.Join(cols, "  ") + "\n")
		}
	}
}

// markdown renders t as a GitHub table, the best of a row in bold and a
// failed figure followed by '!'.
func (t Table) markdown(b *strings.Builder) {
	if t.Title != "" {
		b.WriteString("### " + t.Title + "\n\n")
	}
	b.WriteString("| " + strings.Join(t.Head, " | ") + " |\n|")
	for i := range t.Head {
		if i < t.Labels {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, l := range r.Labels {
			b.WriteString(" " + l + " |")
		}
		best := r.bests()
		for i, c := range r.Cells {
			s := strings.ReplaceAll(c.Text, "|", `\|`)
			switch {
			case best[i]:
				s = "**" + s + "**"
			case c.Failed:
				s += " !"
			}
			b.WriteString(" " + s + " |")
		}
		b.WriteString("\n")
	}
}
