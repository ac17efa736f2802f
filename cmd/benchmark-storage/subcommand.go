package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tsbench/storage/internal/report"
)

// subcommand is the command line of compare or merge, which read JSON
// reports and write one: its flags, -format and -out among them, and its
// mistakes, each one line on stderr.
type subcommand struct {
	name        string // "compare"
	usage       string // -h's text before the flags, which the flag reference shows too (clidoc.go)
	fs          *flag.FlagSet
	stderr      io.Writer
	format, out *string
	// verbose is -v: everything, where the default is brief.
	verbose *bool
}

// newSubcommand defines -format, whose `format` formats lists, and -out,
// which writes what the subcommand makes, in the format of one of the
// extensions exts. usage is -h's text before the flags.
// verbose says what -v adds to the brief default.
func newSubcommand(name, usage, formats, makes, exts, verbose string, stderr io.Writer) *subcommand {
	fs := flag.NewFlagSet("benchmark-storage "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &subcommand{
		name: name, usage: usage, fs: fs, stderr: stderr,
		format:  fs.String("format", report.FormatText, "output `format`: "+formats),
		out:     fs.String("out", "", "also write "+makes+" to `file`, in the format its extension names ("+exts+"), or in -format if it has none; checked before anything is printed"),
		verbose: fs.Bool("v", false, verbose),
	}
}

// fail says what is wrong with the command line, and is the exit status.
func (c *subcommand) fail(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "benchmark-storage "+c.name+": "+format+"\n", args...)
	return exitBadInput
}

// parse parses args; with -h it prints usage and the flags. done says
// the command is over, with the exit status code.
func (c *subcommand) parse(args []string) (code int, done bool) {
	err := c.fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(c.stderr, c.usage)
		c.fs.SetOutput(c.stderr)
		c.fs.PrintDefaults()
		return exitOK, true
	case err != nil:
		return c.fail("%v; run benchmark-storage %s -h for the flags", err, c.name), true
	}
	return 0, false
}

// outFormat is the format -out is written in, by its extension in exts
// (outFormatOf), once it is sure the file can be written.
func (c *subcommand) outFormat(exts map[string]string) (string, error) {
	f, err := outFormatOf(*c.out, *c.format, exts)
	if err != nil || *c.out == "" {
		return f, err
	}
	return f, checkOut(*c.out)
}

// rendered is a report compare and history write: text, markdown or HTML.
type rendered interface {
	Text() string
	Markdown() string
	HTML() string
}

// write prints p on stdout in -format and, with -out, writes it to that
// file in outFormat (c.outFormat), returning the exit code.
func (c *subcommand) write(p rendered, outFormat string, stdout io.Writer) int {
	render := func(f string) string {
		switch f {
		case report.FormatMarkdown:
			return p.Markdown()
		case report.FormatHTML:
			return p.HTML()
		}
		return p.Text()
	}
	if _, err := io.WriteString(stdout, render(*c.format)); err != nil {
		return c.fail("%v", err)
	}
	if *c.out != "" {
		if err := os.WriteFile(*c.out, []byte(render(outFormat)), 0o644); err != nil {
			fmt.Fprintf(c.stderr, "benchmark-storage %s: -out: %v\n", c.name, err)
			return exitFailed
		}
	}
	return exitOK
}

// readReport reads the JSON report in file path into v, and returns its
// text.
func readReport(path string, v any) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: give a JSON report written by -format json or -out results.json", path, unwrapPath(err))
	}
	if err := json.Unmarshal(b, v); err != nil {
		return nil, fmt.Errorf("%s is not a JSON report (%v): give one written by -format json or -out results.json", path, err)
	}
	return b, nil
}
