package main

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// This file finds the commands of the documentation for TestDocCommands
// (docs_test.go): every line of a code block, and every code span of
// the prose, that runs benchmark-storage.

// docCommand is one benchmark-storage command of a Markdown file.
type docCommand struct {
	file string // the doc, relative to the repository root
	line int    // where the command starts, from 1
	// text is the command as the doc writes it: continuation lines
	// joined, the comment dropped.
	text string
	// args are its arguments, after the program (or go run's package).
	args []string
	// env are NAME=value assignments before the program.
	env []string
	// stdout and stderr are the files the doc sends the command's output
	// to (> file, | tee file, 2> file), relative to the working
	// directory as written; appendOut is >>. errToOut is 2>&1.
	stdout, stderr []string
	appendOut      bool
	errToOut       bool
	// status is the exit status the doc expects: 0, or what a trailing
	// comment "# exits N" says.
	status int
	// inline is a code span of the prose rather than a code block line.
	inline bool
	// placeholder is a word of the command that stands for something
	// (ENGINE, E, DIR): the command is a pattern, not run.
	placeholder string
	// notes are what the test leaves out of the doc's line: a pipe into
	// another program than tee.
	notes []string
}

// name is the command's subtest name: file:line.
func (c docCommand) name() string { return fmt.Sprintf("%s:%d", c.file, c.line) }

// extractCommands returns the benchmark-storage commands of the Markdown
// text of file, in order. A code block (fenced, or indented by four
// spaces after a blank line) contributes each command line: an optional
// "$ " prompt, a line ending in \ joined with the next, a trailing
// "# comment" dropped (# exits N sets the expected status), commands
// joined by ; or && taken one by one, the lines of a shell loop (for ...;
// do ... done) each once. A code span of the prose (`...`, which may run
// over lines) that starts with the program and gives it an argument is a
// command too. An error is a command line the test cannot read.
func extractCommands(file, text string) ([]docCommand, error) {
	lines := strings.Split(text, "\n")
	var (
		cmds      []docCommand
		errs      []string
		fence     string // the open fence's marker, "" outside one
		shell     bool   // the open fence's block is shell (or has no language)
		prevBlank = true
		indented  bool // inside an indented code block
		pending   strings.Builder
		pendingAt int
		para      []numbered
	)
	flushPara := func() {
		cmds = append(cmds, inlineCommands(file, para)...)
		para = nil
	}
	code := func(n int, l string) {
		if pending.Len() == 0 {
			pendingAt = n
		}
		trimmed := strings.TrimSpace(l)
		if strings.HasSuffix(trimmed, `\`) && !strings.HasPrefix(trimmed, "#") {
			pending.WriteString(strings.TrimSpace(strings.TrimSuffix(trimmed, `\`)) + " ")
			return
		}
		pending.WriteString(trimmed)
		logical := pending.String()
		pending.Reset()
		if !strings.Contains(logical, "benchmark-storage") {
			return
		}
		found, err := lineCommands(file, pendingAt, logical)
		if err != nil && invokes.MatchString(logical) {
			// Output (benchmark-storage: ...) is not a command; a line
			// that runs the program must be one the test can read.
			errs = append(errs, fmt.Sprintf("%s:%d: %v: %s", file, pendingAt, err, logical))
		}
		cmds = append(cmds, found...)
	}
	for i, l := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(l)
		blank := trimmed == ""
		lead := len(l) - len(strings.TrimLeft(l, " "))
		switch {
		case fence == "" && lead < 4 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			flushPara()
			fence = trimmed[:3]
			info, _, _ := strings.Cut(strings.TrimLeft(trimmed, "`~ "), " ")
			shell = info == "" || slices.Contains(shellLanguages, info)
			indented = false
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
		case fence != "":
			if shell {
				code(n, l)
			}
		case !blank && (lead >= 4 || strings.HasPrefix(l, "\t")) && (prevBlank || indented):
			flushPara()
			indented = true
			code(n, l)
		case blank:
			flushPara()
			indented = false
		default:
			indented = false
			para = append(para, numbered{n, l})
		}
		prevBlank = blank && fence == ""
	}
	flushPara()
	if pending.Len() > 0 {
		errs = append(errs, fmt.Sprintf("%s:%d: the file ends in a continued line: %s", file, pendingAt, pending.String()))
	}
	if len(errs) > 0 {
		return cmds, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return cmds, nil
}

// shellLanguages are the info strings of fenced blocks that hold
// commands; a block in another language (go, toml, json) holds none.
var shellLanguages = []string{"sh", "shell", "bash", "console", "shell-session", "zsh"}

// invokes matches a line that runs benchmark-storage: at its start (after
// a prompt or NAME=value), after ; && || | or do, or through go run.
var invokes = regexp.MustCompile(`(^|[;&|]\s*|\bdo\s+|=\S*\s+|^\$\s+)(\S*/)?benchmark-storage(\s|$)|\bgo run\b.*cmd/benchmark-storage`)

// numbered is a line of a file and its number.
type numbered struct {
	n    int
	text string
}

// inlineCommands are the commands in the code spans of a paragraph.
func inlineCommands(file string, para []numbered) []docCommand {
	var text strings.Builder
	var lineOf []int // the line of each byte of text
	for _, l := range para {
		s := strings.TrimSpace(l.text) + "\n"
		text.WriteString(s)
		for range len(s) {
			lineOf = append(lineOf, l.n)
		}
	}
	s := text.String()
	var cmds []docCommand
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		ticks := s[i:j]
		end := strings.Index(s[j:], ticks)
		if end < 0 {
			break
		}
		span := strings.Join(strings.Fields(s[j:j+end]), " ")
		if c, ok := parseInvocation(file, lineOf[i], span); ok && !c.mentionOnly() {
			c.inline = true
			cmds = append(cmds, c)
		}
		i = j + end + len(ticks)
	}
	return cmds
}

// mentionOnly is a code span that names the program or a subcommand
// without running anything: `benchmark-storage merge`.
func (c docCommand) mentionOnly() bool {
	switch {
	case len(c.args) == 0:
		return true
	case (c.args[0] == "compare" || c.args[0] == "merge" || c.args[0] == "history") && len(c.args) == 1:
		return true
	}
	return false
}

// parseInvocation is span, a code span, as a command, if it is one.
// Spans with shell syntax the test does not read are not commands.
func parseInvocation(file string, line int, span string) (docCommand, bool) {
	cmds, err := lineCommands(file, line, span)
	if err != nil || len(cmds) != 1 {
		return docCommand{}, false
	}
	return cmds[0], true
}

// lineCommands are the benchmark-storage commands of one logical line of
// a code block.
func lineCommands(file string, line int, logical string) ([]docCommand, error) {
	logical = strings.TrimPrefix(strings.TrimSpace(logical), "$ ")
	toks, comment, err := shellWords(logical)
	if err != nil {
		return nil, err
	}
	status := 0
	if m := exitsComment.FindStringSubmatch(comment); m != nil {
		status, _ = strconv.Atoi(m[1])
	}
	text := logical
	if comment != "" {
		text = strings.TrimSpace(strings.TrimSuffix(logical, comment))
		text = strings.TrimSpace(strings.TrimSuffix(text, "#"))
	}
	var cmds []docCommand
	for _, seg := range splitTokens(toks, ";", "&&", "||") {
		c, ok, err := segmentCommand(seg)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		c.file, c.line, c.text, c.status = file, line, text, status
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// exitsComment is a trailing comment saying the command is meant to
// fail: "# exits 2".
var exitsComment = regexp.MustCompile(`(?:^|\W)exits (\d+)\b`)

// segmentCommand reads one command of a line (between ; && ||) as a
// benchmark-storage command, if it is one: shell keywords of a loop
// dropped, env assignments set aside, its pipeline's tee files and its
// redirections read.
func segmentCommand(seg []token) (docCommand, bool, error) {
	var c docCommand
	words := seg
	for len(words) > 0 && !words[0].op {
		switch words[0].s {
		case "do", "then", "else", "{", "(":
			words = words[1:]
			continue
		case "for", "while", "until", "if", "done", "fi", "}", ")":
			return c, false, nil
		}
		break
	}
	for len(words) > 0 && !words[0].op && envAssign.MatchString(words[0].s) {
		c.env = append(c.env, words[0].s)
		words = words[1:]
	}
	stages := splitTokens(words, "|")
	if len(stages) == 0 {
		return c, false, nil
	}
	first := stages[0]
	var plain []string
	for i := 0; i < len(first); i++ {
		t := first[i]
		if !t.op {
			plain = append(plain, t.s)
			continue
		}
		target := func() (string, error) {
			if i+1 >= len(first) || first[i+1].op {
				return "", fmt.Errorf("%s without a file", t.s)
			}
			i++
			return first[i].s, nil
		}
		switch t.s {
		case ">", ">>", "1>", "&>":
			f, err := target()
			if err != nil {
				return c, false, err
			}
			c.stdout = append(c.stdout, f)
			c.appendOut = t.s == ">>"
			c.errToOut = c.errToOut || t.s == "&>"
		case "2>":
			f, err := target()
			if err != nil {
				return c, false, err
			}
			c.stderr = append(c.stderr, f)
		case "2>&1":
			c.errToOut = true
		default:
			return c, false, fmt.Errorf("the test does not read %q", t.s)
		}
	}
	args, ok := invocationArgs(plain)
	if !ok {
		return c, false, nil
	}
	c.args = args
	for _, st := range stages[1:] {
		var w []string
		for _, t := range st {
			if t.op {
				return c, false, fmt.Errorf("the test does not read %q after a pipe", t.s)
			}
			w = append(w, t.s)
		}
		if len(w) > 0 && w[0] == "tee" {
			for _, a := range w[1:] {
				switch {
				case a == "-a":
					c.appendOut = true
				case !strings.HasPrefix(a, "-"):
					c.stdout = append(c.stdout, a)
				}
			}
			continue
		}
		c.notes = append(c.notes, "not run: | "+strings.Join(w, " "))
	}
	for _, a := range c.args {
		if p := placeholderIn(a); p != "" {
			c.placeholder = p
			break
		}
	}
	return c, true, nil
}

// envAssign is a NAME=value word before a command.
var envAssign = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// invocationArgs are the arguments of words when they run
// benchmark-storage: bin/benchmark-storage (any path to it), or go run
// with the package ./cmd/benchmark-storage (or its import path).
func invocationArgs(words []string) ([]string, bool) {
	if len(words) == 0 {
		return nil, false
	}
	if path.Base(words[0]) == "benchmark-storage" {
		return words[1:], true
	}
	if len(words) >= 3 && words[0] == "go" && words[1] == "run" {
		for i, w := range words[2:] {
			pkg, _, _ := strings.Cut(w, "@")
			if strings.HasPrefix(w, "-") {
				continue
			}
			if strings.TrimSuffix(pkg, "/") == "./cmd/benchmark-storage" || strings.HasSuffix(strings.TrimSuffix(pkg, "/"), "/storage/cmd/benchmark-storage") {
				return words[3+i:], true
			}
			return nil, false
		}
	}
	return nil, false
}

// placeholderIn is the part of arg that stands for something to fill in,
// an upper-case name such as E, ENGINE, DIR or N (alone, or after = . , :
// / or @, as in rocksdb@VERSION), or "" if there is none.
func placeholderIn(arg string) string {
	if strings.HasPrefix(arg, "-") {
		_, v, ok := strings.Cut(arg, "=")
		if !ok {
			return ""
		}
		arg = v
	}
	for _, p := range strings.FieldsFunc(arg, func(r rune) bool { return strings.ContainsRune("=.,:/@", r) }) {
		if placeholderWord.MatchString(p) {
			return p
		}
	}
	if strings.Contains(arg, "...") || strings.HasPrefix(arg, "<") {
		return arg
	}
	return ""
}

var placeholderWord = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// token is a word of a shell command line, or an operator (op): | || &&
// ; & > >> 2> 2>&1 &> <.
type token struct {
	s  string
	op bool
}

// shellWords splits a command line as a POSIX shell would, for the little
// of its syntax that documentation uses: quotes, backslashes, ~ and $NAME
// (from the environment), operators, and a # comment, returned apart.
func shellWords(s string) (toks []token, comment string, err error) {
	var (
		cur    strings.Builder
		inWord bool
		quoted bool // the word has a quoted part
	)
	end := func() {
		if inWord {
			w := cur.String()
			if !quoted && (w == "~" || strings.HasPrefix(w, "~/")) {
				if home, err := os.UserHomeDir(); err == nil {
					w = home + w[1:]
				}
			}
			toks = append(toks, token{s: w})
		}
		cur.Reset()
		inWord, quoted = false, false
	}
	expand := func(i int) (int, error) {
		// s[i] is $.
		j := i + 1
		if j < len(s) && s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				return 0, fmt.Errorf("unclosed ${")
			}
			cur.WriteString(os.Getenv(s[j+1 : j+k]))
			return j + k + 1, nil
		}
		k := j
		for k < len(s) && (s[k] == '_' || unicode.IsLetter(rune(s[k])) || (k > j && unicode.IsDigit(rune(s[k])))) {
			k++
		}
		if k == j {
			return 0, fmt.Errorf("the test does not read the shell's $%c", byteAt(s, j))
		}
		cur.WriteString(os.Getenv(s[j:k]))
		return k, nil
	}
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t':
			end()
			i++
		case ch == '#' && !inWord:
			end()
			return toks, strings.TrimSpace(s[i+1:]), nil
		case ch == '\'':
			k := strings.IndexByte(s[i+1:], '\'')
			if k < 0 {
				return nil, "", fmt.Errorf("unclosed '")
			}
			cur.WriteString(s[i+1 : i+1+k])
			inWord, quoted = true, true
			i += k + 2
		case ch == '"':
			inWord, quoted = true, true
			i++
			for {
				if i >= len(s) {
					return nil, "", fmt.Errorf("unclosed \"")
				}
				c := s[i]
				if c == '"' {
					i++
					break
				}
				switch {
				case c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
					cur.WriteByte(s[i+1])
					i += 2
				case c == '$':
					var err error
					if i, err = expand(i); err != nil {
						return nil, "", err
					}
				case c == '`':
					return nil, "", fmt.Errorf("the test does not read command substitution")
				default:
					cur.WriteByte(c)
					i++
				}
			}
		case ch == '\\':
			if i+1 < len(s) {
				cur.WriteByte(s[i+1])
			}
			inWord = true
			i += 2
		case ch == '$':
			inWord = true
			var err error
			if i, err = expand(i); err != nil {
				return nil, "", err
			}
		case ch == '`':
			return nil, "", fmt.Errorf("the test does not read command substitution")
		case strings.IndexByte("|&;<>", ch) >= 0:
			fd := ""
			if inWord && !quoted && (cur.String() == "1" || cur.String() == "2") && (ch == '>') {
				fd = cur.String()
				cur.Reset()
				inWord = false
			}
			end()
			op := string(ch)
			i++
			switch {
			case ch == '>' && byteAt(s, i) == '>':
				op, i = ">>", i+1
			case ch == '>' && byteAt(s, i) == '&' && fd == "2" && byteAt(s, i+1) == '1':
				op, i = ">&1", i+2
			case ch == '&' && byteAt(s, i) == '>':
				op, i = "&>", i+1
			case (ch == '&' || ch == '|') && byteAt(s, i) == ch:
				op, i = op+op, i+1
			}
			toks = append(toks, token{s: fd + op, op: true})
		default:
			cur.WriteByte(ch)
			inWord = true
			i++
		}
	}
	end()
	return toks, "", nil
}

// byteAt is s[i], or 0 past its end.
func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// splitTokens splits toks at the operators seps.
func splitTokens(toks []token, seps ...string) [][]token {
	var out [][]token
	var cur []token
	for _, t := range toks {
		if t.op && slices.Contains(seps, t.s) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// TestDocCommandsExtract checks which lines of a document are commands,
// and how they are read.
func TestDocCommandsExtract(t *testing.T) {
	const doc = "# Title\n" + // 1
		"\n" + // 2
		"    make build\n" + // 3
		"    bin/benchmark-storage -engine pebble   # a comment\n" + // 4
		"    bin/benchmark-storage -engine pebble \\\n" + // 5
		"        -points 1M > old.json\n" + // 6
		"\n" + // 7
		"```sh\n" + // 8
		"$ benchmark-storage compare old.json new.json | tee diff.txt\n" + // 9
		"$ benchmark-storage -engine nosuch   # exits 2\n" + // 10
		"for i in 1 2 3; do\n" + // 11
		"  go run ./cmd/benchmark-storage -workload crash -kills 1\n" + // 12
		"done\n" + // 13
		"go test ./cmd/benchmark-storage\n" + // 14
		"benchmark-storage: -config: bad config\n" + // 15
		"```\n" + // 16
		"```go\n" + // 17
		"bin/benchmark-storage -engine never\n" + // 18
		"```\n" + // 19
		"Prose with `bin/benchmark-storage -engine\n" + // 20
		"all -points 1M` over two lines, `benchmark-storage merge` named,\n" + // 21
		"and `bin/benchmark-storage -engine E -memory 4GiB` a pattern.\n" + // 22
		"\n" + // 23
		"    make build && bin/benchmark-storage -v 2> err.txt\n" // 24
	cmds, err := extractCommands("x.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		line        int
		args        string
		stdout      string
		status      int
		inline      bool
		placeholder string
	}
	wants := []want{
		{4, "-engine pebble", "", 0, false, ""},
		{5, "-engine pebble -points 1M", "old.json", 0, false, ""},
		{9, "compare old.json new.json", "diff.txt", 0, false, ""},
		{10, "-engine nosuch", "", 2, false, ""},
		{12, "-workload crash -kills 1", "", 0, false, ""},
		{20, "-engine all -points 1M", "", 0, true, ""},
		{22, "-engine E -memory 4GiB", "", 0, true, "E"},
		{24, "-v", "", 0, false, ""},
	}
	var got []want
	for _, c := range cmds {
		got = append(got, want{c.line, strings.Join(c.args, " "), strings.Join(c.stdout, " "), c.status, c.inline, c.placeholder})
	}
	if !slices.Equal(got, wants) {
		t.Errorf("commands:\n got %+v\nwant %+v", got, wants)
	}
	if len(cmds) == 8 && (!slices.Equal(cmds[7].stderr, []string{"err.txt"}) || cmds[1].text != "bin/benchmark-storage -engine pebble -points 1M > old.json") {
		t.Errorf("stderr %q, text %q", cmds[7].stderr, cmds[1].text)
	}
	if _, err := extractCommands("y.md", "    bin/benchmark-storage -engine 'pebble\n"); err == nil {
		t.Error("an unclosed quote in a command is not an error")
	}
}
