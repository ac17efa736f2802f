package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tsbench/storage/workload/suite"
)

// The flag reference is rendered from the flag sets themselves, as
// cmd/go's alldocs.go is, so that it says what -h says: docs/cli.md in
// Markdown, and the "# Flags" section of doc.go. TestCLIDocsUpToDate
// checks both, and with -fixdocs (go generate) rewrites them.

// The generated files, from this package's directory, where go test and
// go generate run.
const (
	cliDocFile = "../../docs/cli.md"
	pkgDocFile = "doc.go"
)

// generateCommand rewrites the reference; the files and the test name it.
const generateCommand = "go generate ./cmd/benchmark-storage"

// What the flags' values look like, and what the command exits with, as
// doc.go's sections say; the reference starts with it.
const (
	refSyntax = "Counts (-points, -series, -batch, -num, -value-size) are a plain number, " +
		"a decimal suffix (10k, 1.5M, 100M, 2G; k is 1000) or an exponent (1e6), whole and positive: " +
		"0, -5, abc and 1.5 are refused. Sizes (-cache-size, -memory) are bytes with an optional unit: " +
		"64MiB (KiB, MiB, GiB, TiB are powers of 1024) or 64M (k, M, G, T are powers of 1000). " +
		"Durations are Go's: 300ms, 1m30s, 3h. " +
		"-version, alone, prints the tool's module version and commit (make build records the commit)."
	refExit = "The exit status is 0 when every engine ran and every check passed, " +
		"1 when an engine failed or a check did not pass (see its column), " +
		"2 for bad input (a flag, count, engine name, path or config file), " +
		"said in one line on stderr before anything is created or deleted, and 130 when interrupted."
)

// refWorkloads is the order of the workloads' sections: the default
// first, as -workload lists them. A workload not named here follows, in
// name order, so that none is left out.
var refWorkloads = []string{"ts", "micro", "mixed", "steady", "crash"}

// refGroup is one list of the reference: the command's flags, a
// workload's own, or a subcommand's.
type refGroup struct {
	title    string   // the Markdown heading
	synopsis []string // usage lines, in cli.md
	about    string   // what the command does, in cli.md
	intro    string   // the sentence before the list
	flags    []*flag.Flag
}

// refGroups are every flag, grouped: the command's own, the shared ones,
// then each workload's own, then compare's, merge's and history's.
func refGroups() []refGroup {
	synopsis, about := splitUsage(usageHeader)
	cmd := refGroup{title: "benchmark-storage", synopsis: synopsis, about: about,
		intro: "The command's flags, which every workload takes (but -count, which the crash check does not):"}
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	defineCommand(fs, new(settings), false)
	fs.VisitAll(func(f *flag.Flag) { cmd.flags = append(cmd.flags, f) })
	shared := refGroup{title: "Shared flags", intro: "The settings several workloads share, each a flag of the workloads whose sections name it:"}
	fs = flag.NewFlagSet("", flag.ContinueOnError)
	defineShared(fs, new(suite.Common), sharedFlags)
	for _, name := range sharedFlags {
		shared.flags = append(shared.flags, fs.Lookup(name))
	}
	groups := []refGroup{cmd, shared}
	order := slices.Clone(refWorkloads)
	for _, name := range suite.Names() {
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	for _, name := range order {
		s, err := suite.Lookup(name)
		if err != nil {
			continue // one refWorkloads names that is gone
		}
		also := ""
		for _, a := range s.Info().Aliases {
			also += ", or " + a
		}
		g := refGroup{title: "benchmark-storage " + name + ": " + s.Info().About,
			intro: "The flags of " + s.Info().About + " (benchmark-storage " + name + ", or -workload " + name + also + "): the shared -" +
				strings.Join(s.Info().Shared, ", -") + ", and its own:"}
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		defineLatencyLog(fs, new(settings), s.NewConfig(fs))
		fs.VisitAll(func(f *flag.Flag) { g.flags = append(g.flags, f) })
		if len(g.flags) == 0 {
			g.intro = strings.TrimSuffix(g.intro, ", and its own:") + "; none of its own."
		}
		groups = append(groups, g)
	}
	compare, _, _ := newCompare(io.Discard)
	history, _, _ := newHistory(io.Discard)
	for _, c := range []*subcommand{compare, newMerge(io.Discard), history} {
		synopsis, about := splitUsage(c.usage)
		g := refGroup{title: "benchmark-storage " + c.name, synopsis: synopsis, about: about,
			intro: "The flags of " + c.name + ":"}
		c.fs.VisitAll(func(f *flag.Flag) { g.flags = append(g.flags, f) })
		groups = append(groups, g)
	}
	return groups
}

// splitUsage parses -h's text before the flags: its Usage: lines, the
// paragraphs about the command, then "Flags:".
func splitUsage(text string) (synopsis []string, about string) {
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	for _, l := range strings.Split(paras[0], "\n") {
		synopsis = append(synopsis, strings.TrimPrefix(strings.TrimSpace(l), "Usage: "))
	}
	paras = paras[1:]
	if n := len(paras); n > 0 && paras[n-1] == "Flags:" {
		paras = paras[:n-1]
	}
	return synopsis, strings.Join(paras, "\n\n")
}

// cliDoc is docs/cli.md: the syntax and exit statuses, then a section
// per group, each flag an item of a list.
func cliDoc() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- Code generated by %q from the flags' usage strings (cmd/benchmark-storage/clidoc.go). DO NOT EDIT. -->\n\n", generateCommand)
	fmt.Fprintf(&b, "# benchmark-storage flags\n\n%s %s\n", mdEscape(refSyntax), mdEscape(refExit))
	for _, g := range refGroups() {
		fmt.Fprintf(&b, "\n## %s\n\n", mdEscape(g.title))
		// The usage lines are a list, not code: the docs' commands are
		// run by TestDocCommands, and these are patterns.
		if len(g.synopsis) > 0 {
			b.WriteString("Usage:\n\n")
			for _, l := range g.synopsis {
				fmt.Fprintf(&b, "- %s\n", mdEscape(l))
			}
			b.WriteString("\n")
		}
		if g.about != "" {
			fmt.Fprintf(&b, "%s\n\n", mdEscape(g.about))
		}
		fmt.Fprintf(&b, "%s\n\n", mdEscape(g.intro))
		for _, f := range g.flags {
			name, text := flagHelp(f)
			fmt.Fprintf(&b, "- `%s`: %s\n", strings.TrimSpace("-"+f.Name+" "+name), mdEscape(strings.Join(strings.Fields(text), " ")))
		}
	}
	return []byte(b.String())
}

// mdEscape keeps Markdown from reading text as markup: a backslash,
// backquote, star or angle bracket always, an underscore only at the
// edge of a word, where it could start or end emphasis (time_ns stays
// as it is).
func mdEscape(text string) string {
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	var b strings.Builder
	prev := ' '
	for i, r := range text {
		next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		if strings.ContainsRune("\\`*<>", r) || r == '_' && !(word(prev) && word(next)) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// Layout of the flag lists in doc.go: a code block, the text of a flag
// in a column of its own, as gofmt keeps a doc comment.
const (
	refProse  = 72 // characters of a paragraph's line after "// "
	refWidth  = 70 // characters of a list's line after "//" and a tab
	refColumn = 18 // the text's column; a name too long for it has a line of its own
)

// pkgDocFlagsHeading begins the generated part of doc.go; the next
// section's heading ends it. A marker comment inside the package comment
// would show in go doc, or, as a //x:y directive that go doc hides, be
// moved to the comment's end by gofmt; the headings do neither.
const pkgDocFlagsHeading = "// # Flags\n"

// pkgDocFlags is the "# Flags" section of doc.go, up to the blank
// comment line before the next heading.
func pkgDocFlags() string {
	var lines []string
	para := func(text string) {
		lines = append(lines, "")
		lines = append(lines, wrapWords(text, refProse)...)
	}
	para("Generated by " + generateCommand + " from the flags' usage strings, as docs/cli.md is: " +
		"change those, not this section.")
	para(refSyntax)
	for _, g := range refGroups() {
		para(g.intro)
		lines = append(lines, "")
		for _, f := range g.flags {
			lines = append(lines, pkgDocEntry(f)...)
		}
	}
	var b strings.Builder
	b.WriteString(pkgDocFlagsHeading)
	for _, l := range lines {
		switch {
		case l == "":
			b.WriteString("//\n")
		case strings.HasPrefix(l, "\t"):
			b.WriteString("//" + l + "\n")
		default:
			b.WriteString("// " + l + "\n")
		}
	}
	return b.String()
}

// pkgDocEntry is a flag as doc.go lists it, each line starting with a
// tab: name and argument, then its text wrapped in a column of its own.
func pkgDocEntry(f *flag.Flag) []string {
	name, text := flagHelp(f)
	head := strings.TrimSpace("-" + f.Name + " " + name)
	body := wrapWords(text, refWidth-refColumn)
	indent := strings.Repeat(" ", refColumn)
	var out []string
	if n := utf8.RuneCountInString(head); n <= refColumn-2 {
		out = append(out, "\t"+head+strings.Repeat(" ", refColumn-n)+body[0])
		body = body[1:]
	} else {
		out = append(out, "\t"+head)
	}
	for _, l := range body {
		out = append(out, "\t"+indent+l)
	}
	return out
}

// wrapWords breaks text into lines of at most width characters at
// spaces; a longer word has a line of its own.
func wrapWords(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// spliceDocFlags is doc, the text of doc.go, with its "# Flags" section
// replaced by section.
func spliceDocFlags(doc, section string) (string, error) {
	i := strings.Index(doc, pkgDocFlagsHeading)
	if i < 0 {
		return "", fmt.Errorf("%s has no line %q to put the flags under", pkgDocFile, strings.TrimSpace(pkgDocFlagsHeading))
	}
	rest := doc[i+len(pkgDocFlagsHeading):]
	j := strings.Index(rest, "\n//\n// # ")
	if j < 0 {
		return "", fmt.Errorf("%s has no section after # Flags, whose heading would end the generated flags", pkgDocFile)
	}
	return doc[:i] + section + rest[j+1:], nil
}
