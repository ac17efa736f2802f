package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
	"github.com/tsbench/storage/engine"
)

// server is the HTTP API over a store.
type server struct {
	st        *store
	retention time.Duration // 0: points are kept
	maxBody   int64
	maxPoints int
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/write", route(s.write, http.MethodPost))
	// InfluxDB 1.x clients POST their queries.
	mux.Handle("/query", route(s.query, http.MethodGet, http.MethodPost))
	mux.Handle("/series", route(s.series, http.MethodGet))
	mux.Handle("/retention", route(s.expire, http.MethodPost))
	mux.HandleFunc("/ping", ping)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		reply(w, r, nil, fmt.Errorf("%w: no endpoint %s (see /write, /query, /series, /retention, /ping)", errNotFound, r.URL.Path))
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Influxdb-Version", influxVersion)
		mux.ServeHTTP(w, r)
	})
}

// route serves the methods of a path with h.
func route(h func(*http.Request) (any, error), methods ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(methods, r.Method) {
			allow := strings.Join(methods, ", ")
			w.Header().Set("Allow", allow)
			reply(w, r, nil, fmt.Errorf("%w: %s %s (use %s)", errMethod, r.Method, r.URL.Path, allow))
			return
		}
		v, err := h(r)
		reply(w, r, v, err)
	})
}

// reply writes v as JSON with 200, or err as {"error": "..."} with the
// status it calls for.
func reply(w http.ResponseWriter, r *http.Request, v any, err error) {
	status := http.StatusOK
	if err != nil {
		status = statusOf(err)
		if status >= http.StatusInternalServerError {
			log.Printf("%s %s: %v", r.Method, r.URL, err)
		}
		v = struct {
			Error string `json:"error"`
		}{err.Error()}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	// An error here is the client's connection failing: no one to tell.
	_ = json.NewEncoder(w).Encode(v)
}

func statusOf(err error) int {
	switch {
	case errors.Is(err, errBadRequest):
		return http.StatusBadRequest
	case errors.Is(err, errNotFound):
		return http.StatusNotFound
	case errors.Is(err, errMethod):
		return http.StatusMethodNotAllowed
	case errors.Is(err, errRetentionOff):
		return http.StatusConflict
	case errors.Is(err, errTooLarge), errors.Is(err, engine.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, engine.ErrNoSpace):
		return http.StatusInsufficientStorage
	}
	return http.StatusInternalServerError
}

// params checks that v holds only the parameters named, each at most once,
// so that a misspelt one is refused rather than ignored.
func params(v url.Values, names ...string) error {
	for k, vs := range v {
		switch {
		case !slices.Contains(names, k):
			return fmt.Errorf("%w: unknown parameter %s (want %v)", errBadRequest, quote(k), names)
		case len(vs) > 1:
			return fmt.Errorf("%w: parameter %q given %d times", errBadRequest, k, len(vs))
		}
	}
	return nil
}

type writeResult struct {
	Points  int `json:"points"`
	Created int `json:"series_created"`
}

// write serves POST /write[?precision=ns|us|ms|s], and InfluxDB 1.x's
// parameters, which it ignores (influxIgnored).
func (s *server) write(r *http.Request) (any, error) {
	v := r.URL.Query()
	if err := params(v, append([]string{"precision"}, influxIgnored...)...); err != nil {
		return nil, err
	}
	prec := lineprotocol.Nanosecond
	if p := v.Get("precision"); p != "" {
		var ok bool
		if prec, ok = precisions[p]; !ok {
			return nil, fmt.Errorf("%w: precision %s is not ns, us, ms or s (n and u as InfluxDB 1.x spells them)", errBadRequest, quote(p))
		}
	}
	// One byte more than allowed tells a body at the limit from one above.
	body, err := io.ReadAll(io.LimitReader(r.Body, s.maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if int64(len(body)) > s.maxBody {
		return nil, fmt.Errorf("%w: more than %d bytes", errTooLarge, s.maxBody)
	}
	pts, err := parseLines(body, prec, time.Now())
	if err != nil {
		return nil, err
	}
	created, err := s.st.write(pts)
	if err != nil {
		return nil, err
	}
	return writeResult{Points: len(pts), Created: created}, nil
}

// query serves GET /query?series=...[&start=...][&end=...][&step=...],
// and InfluxDB 1.x's /query?q=... (influxQuery).
func (s *server) query(r *http.Request) (any, error) {
	v := r.URL.Query()
	if v.Has("q") {
		return s.influxQuery(v)
	}
	if err := params(v, "series", "start", "end", "step", "precision"); err != nil {
		return nil, err
	}
	name, err := parseSeriesName(v.Get("series"))
	if err != nil {
		return nil, err
	}
	unit := uint64(1)
	if p := v.Get("precision"); p != "" {
		prec, ok := precisions[p]
		if !ok {
			return nil, fmt.Errorf("%w: precision %s is not ns, us, ms or s", errBadRequest, quote(p))
		}
		unit = uint64(prec.Duration())
	}
	q := query{name: name}
	if q.start, err = parseTime("start", v.Get("start"), 0, unit); err != nil {
		return nil, err
	}
	if q.end, err = parseTime("end", v.Get("end"), math.MaxUint64, unit); err != nil {
		return nil, err
	}
	// Checked here: an iterator with inverted bounds would return nothing.
	if q.start >= q.end {
		return nil, fmt.Errorf("%w: start %d is not before end %d", errBadRequest, q.start, q.end)
	}
	if st := v.Get("step"); st != "" {
		d, err := time.ParseDuration(st)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%w: step %s is not a positive duration such as 10s or 1h", errBadRequest, quote(st))
		}
		q.step, q.origin = uint64(d), q.start
	}
	res, err := s.st.run(q, s.maxPoints)
	if err != nil || unit == 1 {
		return res, err
	}
	return inUnit(res, unit), nil
}

// inUnit is a query's result with its times in units of unit nanoseconds
// (a query's precision), rounded down.
func inUnit(res any, unit uint64) any {
	switch r := res.(type) {
	case rawResult:
		r.Start, r.End = r.Start/unit, r.End/unit
		for i := range r.Points {
			r.Points[i].Time /= unit
		}
		return r
	case downsampledResult:
		r.Start, r.End = r.Start/unit, r.End/unit
		for i := range r.Buckets {
			r.Buckets[i].Time /= unit
		}
		return r
	}
	return res
}

// parseTime reads a query's time: a number of units of unit nanoseconds
// since 1970, or an RFC 3339 time; empty is def.
func parseTime(param, s string, def, unit uint64) (uint64, error) {
	if s == "" {
		return def, nil
	}
	if n, err := strconv.ParseUint(s, 10, 64); err == nil && n <= math.MaxUint64/unit {
		return n * unit, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || t.Before(time.Unix(0, 0)) || t.After(time.Unix(0, math.MaxInt64)) {
		return 0, fmt.Errorf("%w: %s %s is neither nanoseconds since 1970 nor an RFC 3339 time from 1970 to 2262", errBadRequest, param, quote(s))
	}
	return uint64(t.UnixNano()), nil
}

type seriesList struct {
	Series []seriesEntry `json:"series"`
}

// series serves GET /series: the index.
func (s *server) series(r *http.Request) (any, error) {
	if err := params(r.URL.Query()); err != nil {
		return nil, err
	}
	return seriesList{s.st.idx.list()}, nil
}

type retentionResult struct {
	Before uint64 `json:"before"`
	Series int    `json:"series"`
}

// expire serves POST /retention: apply retention now.
func (s *server) expire(r *http.Request) (any, error) {
	if err := params(r.URL.Query()); err != nil {
		return nil, err
	}
	if s.retention == 0 {
		return nil, errRetentionOff
	}
	before := cutoff(time.Now(), s.retention)
	n, err := s.st.expire(r.Context(), before)
	if err != nil {
		return nil, err
	}
	return retentionResult{Before: before, Series: n}, nil
}
