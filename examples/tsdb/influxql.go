package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// selectStmt is the one InfluxQL statement the server answers, enough for
// an InfluxDB 1.x client's query of one series:
//
//	SELECT field | mean(field) | min(field) | max(field) | count(field)
//	FROM measurement
//	[WHERE tag = 'value' AND ... AND time >= t AND time < t]
//	[GROUP BY time(duration)]
//
// t is an integer in nanoseconds (or with a unit: 1700000000s), an RFC 3339
// time in single quotes, or now() [- duration].
type selectStmt struct {
	field, fn   string // fn "" for raw points
	measurement string
	tags        []tag
	start, end  uint64 // start <= time < end
	step        uint64 // GROUP BY time(step); 0: none
}

// aggregates are the functions a SELECT may apply.
var aggregates = []string{"mean", "min", "max", "count"}

// parseSelect reads an InfluxQL SELECT of the form selectStmt takes; now is
// what now() stands for. Errors wrap errBadRequest and say what the
// server takes.
func parseSelect(q string, now time.Time) (selectStmt, error) {
	p := &qlParser{toks: tokenize(q)}
	st := selectStmt{end: math.MaxUint64}
	bad := func(format string, args ...any) (selectStmt, error) {
		return selectStmt{}, fmt.Errorf("%w: query %s: "+format+" (this server answers SELECT field|mean|min|max|count(field) FROM m [WHERE tag='v' AND time >= t AND time < t] [GROUP BY time(d)])", append([]any{errBadRequest, quote(q)}, args...)...)
	}
	if !p.keyword("select") {
		return bad("not a SELECT")
	}
	name, ok := p.ident()
	if !ok {
		return bad("no field after SELECT")
	}
	if p.punct("(") {
		fn := strings.ToLower(name)
		if !slices.Contains(aggregates, fn) {
			return bad("unknown function %s", name)
		}
		if name, ok = p.ident(); !ok || !p.punct(")") {
			return bad("%s takes one field", fn)
		}
		st.fn = fn
	}
	st.field = name
	if p.punct(",") {
		return bad("one field per query")
	}
	if !p.keyword("from") {
		return bad("no FROM")
	}
	if st.measurement, ok = p.ident(); !ok {
		return bad("no measurement after FROM")
	}
	if p.keyword("where") {
		for {
			if err := p.condition(&st, now); err != nil {
				return bad("%v", err)
			}
			if !p.keyword("and") {
				break
			}
		}
	}
	if p.keyword("group") {
		if !p.keyword("by") || !p.keyword("time") || !p.punct("(") {
			return bad("GROUP BY takes time(duration) only")
		}
		d, ok := p.duration()
		if !ok || d == 0 || !p.punct(")") {
			return bad("GROUP BY time takes a positive duration such as 1h")
		}
		if st.fn == "" {
			return bad("GROUP BY time needs a function: mean, min, max or count")
		}
		st.step = d
	}
	p.punct(";") // one statement, ended or not
	if !p.done() {
		return bad("unexpected %s", quote(p.toks[p.i]))
	}
	if st.start >= st.end {
		return bad("no time is in its range")
	}
	return st, nil
}

// condition reads tag = 'value' or time op t into st.
func (p *qlParser) condition(st *selectStmt, now time.Time) error {
	key, ok := p.ident()
	if !ok {
		return fmt.Errorf("a condition needs a tag or time")
	}
	if strings.EqualFold(key, "time") {
		op := p.next()
		t, err := p.timeValue(now)
		if err != nil {
			return err
		}
		switch op {
		case ">=":
			st.start = max(st.start, t)
		case ">":
			st.start = max(st.start, t+1)
		case "<":
			st.end = min(st.end, t)
		case "<=":
			st.end = min(st.end, t+1)
		default:
			return fmt.Errorf("time takes >=, >, < or <=, not %s", quote(op))
		}
		return nil
	}
	if !p.punct("=") {
		return fmt.Errorf("tag %s takes = 'value' only", key)
	}
	v, ok := p.str()
	if !ok {
		return fmt.Errorf("tag %s = needs a 'quoted' value", key)
	}
	st.tags = append(st.tags, tag{[]byte(key), []byte(v)})
	return nil
}

// timeValue reads an integer with an optional unit (ns by default), a
// quoted RFC 3339 time, or now() [- duration | + duration].
func (p *qlParser) timeValue(now time.Time) (uint64, error) {
	if p.keyword("now") {
		if !p.punct("(") || !p.punct(")") {
			return 0, fmt.Errorf("now takes no arguments: now()")
		}
		t := now.UnixNano()
		switch {
		case p.punct("-"):
			d, ok := p.duration()
			if !ok {
				return 0, fmt.Errorf("now() - takes a duration such as 1h")
			}
			t -= int64(d)
		case p.punct("+"):
			d, ok := p.duration()
			if !ok {
				return 0, fmt.Errorf("now() + takes a duration such as 1h")
			}
			t += int64(d)
		}
		return uint64(max(t, 0)), nil
	}
	if s, ok := p.str(); ok {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || t.Before(time.Unix(0, 0)) {
			return 0, fmt.Errorf("time %s is not an RFC 3339 time from 1970", quote(s))
		}
		return uint64(t.UnixNano()), nil
	}
	if d, ok := p.duration(); ok {
		return d, nil
	}
	return 0, fmt.Errorf("time needs an integer, a quoted RFC 3339 time or now()")
}

// units are InfluxQL's duration units, in nanoseconds.
var units = map[string]uint64{"ns": 1, "u": 1e3, "µ": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9, "d": 86400e9, "w": 7 * 86400e9}

// duration reads an integer with an optional unit, in nanoseconds.
func (p *qlParser) duration() (uint64, bool) {
	t := p.peek()
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) })
	num, unit := t, "ns"
	if i >= 0 {
		num, unit = t[:i], t[i:]
	}
	n, err := strconv.ParseUint(num, 10, 64)
	u, ok := units[unit]
	if err != nil || !ok || n > math.MaxUint64/u {
		return 0, false
	}
	p.i++
	return n * u, true
}

// qlParser walks the tokens of one statement.
type qlParser struct {
	toks []string
	i    int
}

func (p *qlParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *qlParser) next() string {
	t := p.peek()
	if t != "" {
		p.i++
	}
	return t
}

func (p *qlParser) done() bool { return p.i == len(p.toks) }

// keyword takes the bare word w, in any case.
func (p *qlParser) keyword(w string) bool {
	if strings.EqualFold(p.peek(), w) {
		p.i++
		return true
	}
	return false
}

// punct takes the punctuation s.
func (p *qlParser) punct(s string) bool {
	if p.peek() == s {
		p.i++
		return true
	}
	return false
}

// ident takes a bare or "double-quoted" identifier.
func (p *qlParser) ident() (string, bool) {
	t := p.peek()
	switch {
	case strings.HasPrefix(t, `"`):
		p.i++
		return unquote(t), true
	case t != "" && (unicode.IsLetter(rune(t[0])) || t[0] == '_'):
		p.i++
		return t, true
	}
	return "", false
}

// str takes a 'single-quoted' string.
func (p *qlParser) str() (string, bool) {
	if t := p.peek(); strings.HasPrefix(t, "'") {
		p.i++
		return unquote(t), true
	}
	return "", false
}

// tokenize splits an InfluxQL statement into words, numbers with their
// units, quoted strings and identifiers (quotes kept, to tell them apart),
// and operators.
func tokenize(q string) []string {
	var toks []string
	r := []rune(q)
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(r) && r[j] != c {
				if r[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, string(r[i:min(j+1, len(r))]))
			i = j + 1
		case unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_':
			j := i
			for j < len(r) && (unicode.IsLetter(r[j]) || unicode.IsDigit(r[j]) || r[j] == '_' || r[j] == '.') {
				j++
			}
			toks = append(toks, string(r[i:j]))
			i = j
		case strings.ContainsRune("<>!", c) && i+1 < len(r) && r[i+1] == '=':
			toks = append(toks, string(r[i:i+2]))
			i += 2
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

// unquote strips a token's quotes and its backslash escapes.
func unquote(t string) string {
	if len(t) < 2 {
		return ""
	}
	var b strings.Builder
	body := t[1 : len(t)-1]
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) {
			i++
		}
		b.WriteByte(body[i])
	}
	return b.String()
}
