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
	// Stats is the figure over repeated runs (N > 1) when the cell is
	// their median (see Merge).
	Stats Stats
	// format shows a Value as Text; nil for a cell that is only text.
	format func(float64) string
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
// when at least two engines have a figure to compare and they differ.
func (r Row) bests() []bool {
	n, best, worst := 0, 0.0, 0.0
	for _, c := range r.Cells {
		if r.Best == NoBest || !c.Ranked || c.Failed {
			continue
		}
		if n == 0 || (r.Best == LowerBest && c.Value < best) || (r.Best == HigherBest && c.Value > best) {
			best = c.Value
		}
		if n == 0 || (r.Best == LowerBest && c.Value > worst) || (r.Best == HigherBest && c.Value < worst) {
			worst = c.Value
		}
		n++
	}
	out := make([]bool, len(r.Cells))
	if n < 2 || best == worst {
		return out
	}
	for i, c := range r.Cells {
		out[i] = c.Ranked && !c.Failed && c.Value == best
	}
	return out
}

// empty reports whether r has no figure at all: every cell is None.
func (r Row) empty() bool {
	for _, c := range r.Cells {
		if c.Text != None.Text {
			return false
		}
	}
	return true
}

// pruned is t without its rows that have nothing to say (no engine has
// the figure). A group's label on a dropped row moves to the group's
// next row; a group with no row left goes.
func (t Table) pruned() Table {
	out := t
	out.Rows = nil
	carry := []string(nil) // labels of a dropped row, for the next kept one
	for _, r := range t.Rows {
		if len(r.Labels) > 0 && r.Labels[0] != "" {
			carry = nil // a new group starts
		}
		if r.empty() {
			if len(r.Labels) > 1 && r.Labels[0] != "" {
				carry = r.Labels
			}
			continue
		}
		if carry != nil && len(r.Labels) > 0 && r.Labels[0] == "" {
			r.Labels = append([]string{carry[0]}, r.Labels[1:]...)
			carry = nil
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}

// TextWidth is the widest line of a text report: tables wider than this
// are split into several, each with the label columns and as many engines
// as fit, and long lines of prose are wrapped.
const TextWidth = 120

// text renders t aligned for a terminal: labels left, figures right, the
// best of a row followed by '*' and a failed figure by '!'. A table wider
// than TextWidth is split by engines.
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
		b.WriteString(wrap("", t.Title, TextWidth, ""))
	}
	labels := 0
	for i := range t.Labels {
		labels += width[i] + 2
	}
	for i, chunk := range t.chunks(width, labels) {
		if i > 0 {
			b.WriteString("\n")
		}
		cols := append(seq(0, t.Labels), chunk...)
		for n, line := range grid {
			var out []string
			for _, i := range cols {
				s := line[i]
				pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(s))
				if i < t.Labels {
					out = append(out, s+pad)
				} else {
					out = append(out, pad+s)
				}
			}
			b.WriteString(strings.TrimRight(strings.Join(out, "  "), " ") + "\n")
			if n == 0 {
				for k, i := range cols {
					out[k] = strings.Repeat("-", width[i])
				}
				b.WriteString(strings.Join(out, "  ") + "\n")
			}
		}
	}
}

// chunks splits the engine columns of t into runs that fit TextWidth
// beside labels columns of the given width; a column too wide to share a
// line gets one of its own.
func (t Table) chunks(width []int, labels int) [][]int {
	var out [][]int
	var cur []int
	used := labels
	for i := t.Labels; i < len(width); i++ {
		if len(cur) > 0 && used+width[i] > TextWidth {
			out = append(out, cur)
			cur, used = nil, labels
		}
		cur = append(cur, i)
		used += width[i] + 2
	}
	return append(out, cur)
}

// seq is from, from+1, ..., to-1.
func seq(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// wrap breaks lead then s into lines of at most width runes at spaces in
// s, each ended by a newline and those after the first indented; a word
// longer than a line stays whole.
func wrap(lead, s string, width int, indent string) string {
	var b strings.Builder
	b.WriteString(lead)
	line := utf8.RuneCountInString(lead)
	for i, w := range strings.Fields(s) {
		n := utf8.RuneCountInString(w)
		switch {
		case i == 0:
		case line+1+n > width:
			b.WriteString("\n" + indent)
			line = utf8.RuneCountInString(indent)
		default:
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += n
	}
	return b.String() + "\n"
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
