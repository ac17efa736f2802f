package report

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Engine is one engine of a report: its name heads its column in every
// table, and Error says why its run failed ("" if it did not).
type Engine struct {
	Name  string
	Error string
	// Ended is the status row's word for an engine that did not pass
	// because the benchmark ended it, such as "stopped" or "out of
	// memory"; "" shows "FAILED".
	Ended string
}

// Head is the header of a table with the given label columns, then one
// column per engine.
func Head(engines []Engine, labels ...string) []string {
	for _, e := range engines {
		labels = append(labels, e.Name)
	}
	return labels
}

// StatusRow is the last row of a main table: "ok" under each engine that
// passed, and under the others (marked '!') how the benchmark ended it
// (Engine.Ended), or "FAILED".
func StatusRow(engines []Engine) Row {
	r := Row{Labels: []string{"Status"}}
	for _, e := range engines {
		c := Cell{Text: "ok"}
		if e.Error != "" {
			c = Cell{Text: cmp.Or(e.Ended, "FAILED"), Failed: true}
		}
		r.Cells = append(r.Cells, c)
	}
	return r
}

// Page is a whole report, in the order both benchmarks print it: the
// introduction, the main table, the failed engines' errors, the other
// tables and the environment.
type Page struct {
	Title       string // the HTML page's heading; the text forms leave it out
	Intro       string
	Engines     []Engine    // in the tables' column order
	Tables      []Table     // the main table first
	Environment [][2]string // label, value
	Charts      []Chart     // drawn by HTML only
	// Brief are the tables BriefText shows in place of Tables: what a
	// reader must see first. nil shows Tables.
	Brief []Table
}

// BriefText renders p for a terminal in short: the Brief tables, the
// errors, and the environment without a line per engine, ending with how
// to see the rest.
func (p Page) BriefText() string {
	if p.Brief == nil {
		return p.Text()
	}
	q := p
	q.Tables = p.Brief
	q.Environment = nil
	var engines []string
	for _, kv := range p.Environment {
		if name, ok := strings.CutPrefix(kv[0], "Engine "); ok && !strings.Contains(name, " ") {
			version, _, _ := strings.Cut(kv[1], ",")
			engines = append(engines, name+" "+version)
			continue
		}
		q.Environment = append(q.Environment, kv)
	}
	if len(engines) > 0 {
		q.Environment = append(q.Environment, [2]string{"Engines", strings.Join(engines, ", ")})
	}
	var more []string
	for _, t := range p.Tables[min(1, len(p.Tables)):] {
		title, _, _ := strings.Cut(t.Title, " (")
		more = append(more, strings.ToLower(title))
	}
	q.Environment = append(q.Environment, [2]string{"More", "-v prints every table (" + strings.Join(more, ", ") +
		") and each engine's build; -format json or html has every figure"})
	return q.Text()
}

// style is how a Page looks in one format.
type style struct {
	table       func(Table, *strings.Builder)
	errors      string // heading of the errors
	errorLine   string // format of an error's lead: engine
	environment string // heading of the environment
	envLine     string // format of a fact's lead: label
	// wrap is the width lines of prose are wrapped at, 0 for none, and
	// indent what continues an error or a fact.
	wrap                 int
	errIndent, envIndent string
}

// Text renders p for a terminal.
func (p Page) Text() string {
	return p.render(style{Table.text, "\nErrors:\n", "  %s: ", "\nEnvironment\n", "  %-12s ", TextWidth, "    ", strings.Repeat(" ", 15)})
}

// Markdown renders p as GitHub-flavored Markdown.
func (p Page) Markdown() string {
	return p.render(style{Table.markdown, "\n**Errors**\n\n", "- %s: ", "\n### Environment\n\n", "- %s: ", 0, "", ""})
}

func (p Page) render(s style) string {
	var b strings.Builder
	for _, l := range strings.Split(p.Intro, "\n") {
		b.WriteString(s.line("", l, ""))
	}
	b.WriteString("\n")
	for i, t := range p.Tables {
		if i > 0 {
			b.WriteString("\n")
		}
		s.table(t.pruned(), &b)
		if i == 0 {
			p.errors(&b, s)
		}
	}
	b.WriteString(s.environment)
	for _, kv := range p.Environment {
		b.WriteString(s.line(fmt.Sprintf(s.envLine, kv[0]), kv[1], s.envIndent))
	}
	return b.String()
}

// line is lead then text, wrapped as the style wraps prose with
// continued lines after indent.
func (s style) line(lead, text, indent string) string {
	if s.wrap == 0 || utf8.RuneCountInString(lead+text) <= s.wrap {
		return lead + text + "\n"
	}
	return wrap(lead, text, s.wrap, indent)
}

// errors lists the failed engines' errors under a heading, if any
// failed.
func (p Page) errors(b *strings.Builder, s style) {
	var failed []Engine
	for _, e := range p.Engines {
		if e.Error != "" {
			failed = append(failed, e)
		}
	}
	if len(failed) == 0 {
		return
	}
	b.WriteString(s.errors)
	for _, e := range failed {
		b.WriteString(s.line(fmt.Sprintf(s.errorLine, e.Name), e.Error, s.errIndent))
	}
}
