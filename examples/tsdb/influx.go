package main

import (
	"bytes"
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// The InfluxDB 1.x HTTP API, as much of it as an InfluxDB 1.x client
// library uses to write and to read one series back: GET /ping, the
// parameters db, rp, u, p and consistency of /write (one database here:
// they are taken and ignored), and /query?q=SELECT ... (selectStmt) with
// db and epoch, answered in InfluxDB's JSON.

// influxVersion is what the X-Influxdb-Version header says: clients read
// it to tell an InfluxDB server from a proxy.
const influxVersion = "1.8-compatible (examples/tsdb)"

// influxIgnored are the /write and /query parameters of InfluxDB 1.x that
// name a database, retention policy, user or consistency: this server has
// one database and no users.
var influxIgnored = []string{"db", "rp", "u", "p", "consistency"}

// ping serves GET or HEAD /ping: 204 and the version header.
func ping(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		reply(w, r, nil, fmt.Errorf("%w: %s %s (use GET or HEAD)", errMethod, r.Method, r.URL.Path))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// influxResponse is InfluxDB 1.x's answer to /query.
type influxResponse struct {
	Results []influxResult `json:"results"`
}

type influxResult struct {
	StatementID int            `json:"statement_id"`
	Series      []influxSeries `json:"series,omitempty"`
}

type influxSeries struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	Values  [][]any  `json:"values"`
}

// influxQuery answers /query?q=... for the one series the SELECT's
// measurement, field and tags match. Times are RFC 3339 unless epoch
// names a unit. A SELECT matching several series is refused: InfluxDB
// would merge them, which this server does not.
func (s *server) influxQuery(v url.Values) (any, error) {
	if err := params(v, append([]string{"q", "epoch", "params"}, influxIgnored...)...); err != nil {
		return nil, err
	}
	unit := uint64(0)
	if e := v.Get("epoch"); e != "" {
		var ok bool
		if unit, ok = units[e]; !ok { // InfluxQL's duration units
			return nil, fmt.Errorf("%w: epoch %s is not ns, u, ms, s, m or h", errBadRequest, quote(e))
		}
	}
	st, err := parseSelect(v.Get("q"), time.Now())
	if err != nil {
		return nil, err
	}
	names, err := s.matching(st)
	if err != nil {
		return nil, err
	}
	out := influxResponse{Results: []influxResult{{}}}
	switch len(names) {
	case 0:
		return out, nil
	case 1:
	default:
		return nil, fmt.Errorf("%w: query %s matches %d series (%s, ...): give every tag of one in WHERE", errBadRequest, quote(v.Get("q")), len(names), names[0])
	}
	q := query{name: names[0], start: st.start, end: st.end, step: st.step, origin: st.start}
	switch {
	case st.step > 0:
		q.origin = st.start / st.step * st.step // InfluxDB aligns buckets on the epoch
	case st.fn != "":
		q.step = st.end - st.start // one bucket: the whole range
	}
	res, err := s.st.run(q, s.maxPoints)
	if err != nil {
		return nil, err
	}
	at := func(ns uint64) any {
		if unit == 0 {
			return time.Unix(0, int64(ns)).UTC().Format(time.RFC3339Nano)
		}
		return ns / unit
	}
	column := cmp.Or(st.fn, st.field)
	series := influxSeries{Name: st.measurement, Columns: []string{"time", column}, Values: [][]any{}}
	switch r := res.(type) {
	case rawResult:
		for _, p := range r.Points {
			series.Values = append(series.Values, []any{at(p.Time), p.Value})
		}
	case downsampledResult:
		for _, b := range r.Buckets {
			series.Values = append(series.Values, []any{at(b.Time), b.of(st.fn)})
		}
	}
	if len(series.Values) > 0 {
		out.Results[0].Series = []influxSeries{series}
	}
	return out, nil
}

// of is the bucket's figure that InfluxQL function fn asks for.
func (b bucket) of(fn string) any {
	switch fn {
	case "min":
		return b.Min
	case "max":
		return b.Max
	case "count":
		return b.Count
	}
	return b.Mean
}

// matching are the names of the series of st's measurement and field
// whose tags include st's, sorted.
func (s *server) matching(st selectStmt) ([]string, error) {
	var names []string
	for _, e := range s.st.idx.list() {
		m, tags, field, err := splitSeriesName(e.Name)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", errBadIndex, e.Name, err)
		}
		if string(m) != st.measurement || string(field) != st.field {
			continue
		}
		if !slices.ContainsFunc(st.tags, func(want tag) bool {
			return !slices.ContainsFunc(tags, func(t tag) bool { return bytes.Equal(t.key, want.key) && bytes.Equal(t.value, want.value) })
		}) {
			names = append(names, e.Name)
		}
	}
	return names, nil
}
