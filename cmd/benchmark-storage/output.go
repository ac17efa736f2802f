package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// writeReport writes rep to w in one of the formats; parseFlags allows
// gobench only for reports that have it.
func writeReport(w io.Writer, rep renderer, format string) error {
	switch format {
	case "gobench":
		g, ok := rep.(goBencher)
		if !ok {
			return fmt.Errorf("this report has no %s format", format)
		}
		return g.WriteGoBench(w)
	case "markdown":
		_, err := io.WriteString(w, rep.Markdown())
		return err
	case "csv":
		return rep.WriteCSV(w)
	case "json":
		return rep.WriteJSON(w)
	default:
		_, err := io.WriteString(w, rep.String())
		return err
	}
}

// writeOut writes rep to the -out file; the file is only replaced once
// the whole report is rendered.
func writeOut(path string, rep renderer, format string) error {
	var buf bytes.Buffer
	if err := writeReport(&buf, rep, format); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	return nil
}
