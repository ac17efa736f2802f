package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"
)

// CSV writes a report in long form, one row per figure, so that any tool
// can pivot it and runs can be stacked. Its columns:
//
//	run_id   the run's id, the same on every row of one run
//	start    when the run started, RFC 3339
//	engine   the engine, "" for the environment
//	repeat   which repetition (1, 2, ...) of the engine's run; "" for the
//	         environment and for summaries
//	<part>   what the figure is of: a step, a benchmark, "run" (the
//	         engine's version, options and config) or "environment"
//	metric   the figure, named by its JSON path (see Figure)
//	stat     "value" for a figure of one run; over the repetitions of an
//	         engine, "median", "min", "max" and "n"
//	value    a number, and nothing else; empty for a text
//	unit     the value's unit (ns, bytes, points/s, bool...), or ""
//	text     a figure that is text (a label, a version, an error)
type CSV struct {
	w     *csv.Writer
	runID string
	start string
}

// NewCSV writes the header of a CSV report whose part column is named
// part, for the run runID that started at start.
func NewCSV(w io.Writer, part, runID string, start time.Time) *CSV {
	c := &CSV{w: csv.NewWriter(w), runID: runID, start: start.UTC().Format(time.RFC3339)}
	_ = c.w.Write([]string{"run_id", "start", "engine", "repeat", part, "metric", "stat", "value", "unit", "text"})
	return c
}

// Put writes figures of engine's part in one repetition (0 for none).
func (c *CSV) Put(engine string, repeat int, part string, figures []Figure) {
	rep := ""
	if repeat > 0 {
		rep = strconv.Itoa(repeat)
	}
	for _, f := range figures {
		value, text := Float(f.Value), ""
		if f.IsText {
			value, text = "", f.Text
		}
		c.write(engine, rep, part, f.Metric, "value", value, f.Unit, text)
	}
}

// PutStats writes the summary rows of engine's part.
func (c *CSV) PutStats(engine string, p PartStats) {
	for _, f := range p.Figures {
		c.write(engine, "", p.Name, f.Metric, "median", Float(f.Median), f.Unit, "")
		c.write(engine, "", p.Name, f.Metric, "min", Float(f.Min), f.Unit, "")
		c.write(engine, "", p.Name, f.Metric, "max", Float(f.Max), f.Unit, "")
		c.write(engine, "", p.Name, f.Metric, "n", strconv.Itoa(f.N), "count", "")
	}
}

func (c *CSV) write(fields ...string) {
	_ = c.w.Write(append([]string{c.runID, c.start}, fields...)) // errors surface in Flush
}

// Flush writes out the buffered rows and reports the first write error.
func (c *CSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// Float is v as a CSV value, in its shortest exact form.
func Float(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
