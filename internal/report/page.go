package report

import (
	"fmt"
	"strings"
)

// Engine is one engine of a report: its name heads its column in every
// table, and Error says why its run failed ("" if it did not).
type Engine struct {
	Name  string
	Error string
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
// passed, "FAILED" (marked '!') under the others.
func StatusRow(engines []Engine) Row {
	r := Row{Labels: []string{"Status"}}
	for _, e := range engines {
		c := Cell{Text: "ok"}
		if e.Error != "" {
			c = Cell{Text: "FAILED", Failed: true}
		}
		r.Cells = append(r.Cells, c)
	}
	return r
}

// Page is a whole report, in the order both benchmarks print it: the
// introduction, the main table, the failed engines' errors, the other
// tables and the environment.
type Page struct {
	Intro       string
	Engines     []Engine    // in the tables' column order
	Tables      []Table     // the main table first
	Environment [][2]string // label, value
}

// style is how a Page looks in one format.
type style struct {
	table       func(Table, *strings.Builder)
	errors      string // heading of the errors
	errorLine   string // format of an error: engine, error
	environment string // heading of the environment
	envLine     string // format of a fact: label, value
}

// Text renders p for a terminal.
func (p Page) Text() string {
	return p.render(style{Table.text, "\nErrors:\n", "  %s: %s\n", "\nEnvironment\n", "  %-12s %s\n"})
}

// Markdown renders p as GitHub-flavored Markdown.
func (p Page) Markdown() string {
	return p.render(style{Table.markdown, "\n**Errors**\n\n", "- %s: %s\n", "\n### Environment\n\n", "- %s: %s\n"})
}

func (p Page) render(s style) string {
	var b strings.Builder
	b.WriteString(p.Intro + "\n\n")
	for i, t := range p.Tables {
		if i > 0 {
			b.WriteString("\n")
		}
		s.table(t, &b)
		if i == 0 {
			p.errors(&b, s)
		}
	}
	b.WriteString(s.environment)
	for _, kv := range p.Environment {
		fmt.Fprintf(&b, s.envLine, kv[0], kv[1])
	}
	return b.String()
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
		fmt.Fprintf(b, s.errorLine, e.Name, e.Error)
	}
}
