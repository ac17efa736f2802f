package workload

import (
	"strings"
	"unicode/utf8"
)

// better says which way a row's values improve, for marking the best.
type better int

const (
	noBest better = iota
	lowerBest
	higherBest
)

// table is a report table: label columns, then one column per engine.
type table struct {
	title  string
	head   []string // label column headers followed by engine names
	labels int      // how many leading columns are labels
	rows   []row
}

type row struct {
	labels []string
	cells  []cell
}

// cell is one engine's figure. A cell with a value takes part in marking
// the best of its row, unless its step failed.
type cell struct {
	text   string
	value  float64
	valued bool
	failed bool
	best   bool
}

// none is the cell of a step that did not run or a figure that does not
// apply.
var none = cell{text: "-"}

// markBest flags the best valued cells of each row, when at least two
// engines have a figure to compare.
func (t *table) markBest(dir []better) {
	for i := range t.rows {
		if dir[i] == noBest {
			continue
		}
		cells := t.rows[i].cells
		n, best := 0, 0.0
		for _, c := range cells {
			if !c.valued || c.failed {
				continue
			}
			if n == 0 || (dir[i] == lowerBest && c.value < best) || (dir[i] == higherBest && c.value > best) {
				best = c.value
			}
			n++
		}
		if n < 2 {
			continue
		}
		for j := range cells {
			cells[j].best = cells[j].valued && !cells[j].failed && cells[j].value == best
		}
	}
}

// text renders t aligned for a terminal: labels left, figures right, the
// best of a row followed by '*' and a failed step's figure by '!'.
func (t *table) text(b *strings.Builder) {
	head := append([]string(nil), t.head...)
	for i := t.labels; i < len(head); i++ {
		head[i] += "  " // engine names sit over the figures, not the markers
	}
	grid := [][]string{head}
	for _, r := range t.rows {
		line := append([]string(nil), r.labels...)
		for _, c := range r.cells {
			switch {
			case c.best:
				line = append(line, c.text+" *")
			case c.failed:
				line = append(line, c.text+" !")
			default:
				line = append(line, c.text+"  ")
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
	if t.title != "" {
		b.WriteString(t.title + "\n")
	}
	for n, line := range grid {
		var l strings.Builder
		for i, s := range line {
			if i > 0 {
				l.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(s))
			if i < t.labels {
				l.WriteString(s + pad)
			} else {
				l.WriteString(pad + s)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
		if n == 0 {
			for i := range line {
				if i > 0 {
					b.WriteString("  ")
				}
				b.WriteString(strings.Repeat("-", width[i]))
			}
			b.WriteString("\n")
		}
	}
}

// markdown renders t as a GitHub table, the best of a row in bold and a
// failed step's figure followed by '!'.
func (t *table) markdown(b *strings.Builder) {
	if t.title != "" {
		b.WriteString("### " + t.title + "\n\n")
	}
	b.WriteString("| " + strings.Join(t.head, " | ") + " |\n|")
	for i := range t.head {
		if i < t.labels {
			b.WriteString("---|")
		} else {
			b.WriteString("---:|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		b.WriteString("|")
		for _, l := range r.labels {
			b.WriteString(" " + l + " |")
		}
		for _, c := range r.cells {
			s := strings.ReplaceAll(c.text, "|", `\|`)
			switch {
			case c.best:
				s = "**" + s + "**"
			case c.failed:
				s += " !"
			}
			b.WriteString(" " + s + " |")
		}
		b.WriteString("\n")
	}
}
