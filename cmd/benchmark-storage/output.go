package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/tsbench/storage/workload"
)

// writeReport writes rep to w in one of the formats.
func writeReport(w io.Writer, rep *workload.Report, format string) error {
	switch format {
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
func writeOut(path string, rep *workload.Report, format string) error {
	var buf bytes.Buffer
	if err := writeReport(&buf, rep, format); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	return nil
}
