package report

import (
	"fmt"
	"io"
)

// Renderer is a whole report, which every format is made from: its text,
// Markdown and HTML are those of one Page; its CSV its own; its JSON the
// value itself unless it is a JSONWriter.
type Renderer interface {
	Page() Page
	WriteCSV(io.Writer) error
}

// JSONWriter is a Renderer whose JSON is more than its value, such as a
// summary of repeated runs.
type JSONWriter interface {
	WriteJSON(io.Writer) error
}

// LatencyLogger is a Renderer that also writes the whole latency
// distributions of its runs as an HdrHistogram log (-latency-log).
type LatencyLogger interface {
	WriteLatencyLog(io.Writer) error
}

// GoBencher is a Renderer that also has the Go benchmark format.
type GoBencher interface {
	WriteGoBench(io.Writer) error
}

// The formats Write writes.
const (
	FormatText     = "table"
	FormatBrief    = "brief" // the text tables in short, without -v
	FormatMarkdown = "markdown"
	FormatCSV      = "csv"
	FormatJSON     = "json"
	FormatHTML     = "html"
	FormatGoBench  = "gobench"
)

// Write writes r to w in format; an unknown format is the text table.
// FormatGoBench is an error for a report without it (GoBencher).
func Write(w io.Writer, r Renderer, format string) error {
	var text string
	switch format {
	case FormatCSV:
		return r.WriteCSV(w)
	case FormatJSON:
		if j, ok := r.(JSONWriter); ok {
			return j.WriteJSON(w)
		}
		return WriteJSON(w, r)
	case FormatGoBench:
		g, ok := r.(GoBencher)
		if !ok {
			return fmt.Errorf("this report has no %s format", format)
		}
		return g.WriteGoBench(w)
	case FormatMarkdown:
		text = r.Page().Markdown()
	case FormatHTML:
		text = r.Page().HTML()
	case FormatBrief:
		text = r.Page().BriefText()
	default:
		text = r.Page().Text()
	}
	_, err := io.WriteString(w, text)
	return err
}
