package main

import (
	"fmt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
)

// query is a range query of one series: its points with start <= time <
// end, raw or, with a step, downsampled into buckets of step nanoseconds
// aligned on origin, at or before start.
type query struct {
	name       string
	start, end uint64
	step       uint64 // 0: raw points
	origin     uint64
}

type rawPoint struct {
	Time  uint64 `json:"time"`
	Value any    `json:"value"`
}

// bucket sums up the points of one step; Time is its first instant.
type bucket struct {
	Time  uint64  `json:"time"`
	Count int64   `json:"count"`
	Min   any     `json:"min"`
	Max   any     `json:"max"`
	Mean  float64 `json:"mean"`
}

type resultHead struct {
	Series string `json:"series"`
	ID     uint64 `json:"id"`
	Type   string `json:"type"`
	Start  uint64 `json:"start"`
	End    uint64 `json:"end"`
}

type rawResult struct {
	resultHead
	Points []rawPoint `json:"points"`
}

type downsampledResult struct {
	resultHead
	Step    uint64   `json:"step"`
	Buckets []bucket `json:"buckets"`
}

// run answers q from one iterator bounded to the series and time range,
// with at most limit rows (points or buckets) in the result.
func (s *store) run(q query, limit int) (result any, err error) {
	sr, ok := s.idx.lookup(q.name)
	if !ok {
		return nil, fmt.Errorf("%w: series %s", errNotFound, quote(q.name))
	}
	lower, upper := tskey.TimeBounds(nil, sr.id, q.start, q.end)
	it, err := s.db.NewIterator(engine.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", q.name, err)
	}
	// Close returns the iterator's error again: keep the first.
	defer func() {
		if cerr := it.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("query %q: %w", q.name, cerr)
		}
	}()
	head := resultHead{Series: q.name, ID: sr.id, Type: sr.kind.String(), Start: q.start, End: q.end}
	if sr.kind == kindInt {
		return scan(it, q, head, limit, parseInt)
	}
	return scan(it, q, head, limit, parseFloat)
}

// errTooMany names the limit a query's result went over.
func errTooMany(limit int) error {
	return fmt.Errorf("%w: the result has more than %d rows (-max-points): narrow the time range or give a larger step", errBadRequest, limit)
}

// acc gathers the bucket being filled.
type acc[T int64 | float64] struct {
	time   uint64
	count  int64
	lo, hi T
	sum    float64 // a float, so that a mean of large integers does not overflow
}

func (a acc[T]) bucket() bucket {
	return bucket{Time: a.time, Count: a.count, Min: a.lo, Max: a.hi, Mean: a.sum / float64(a.count)}
}

func scan[T int64 | float64](it engine.Iterator, q query, head resultHead, limit int, parse func([]byte) (T, error)) (any, error) {
	points := []rawPoint{}
	buckets := []bucket{}
	var cur acc[T]
	for ok := it.First(); ok; ok = it.Next() {
		_, ts, _, err := tskey.ParseKey(it.Key())
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", q.name, err)
		}
		v, err := parse(it.Value())
		if err != nil {
			return nil, fmt.Errorf("series %q at %d: %w", q.name, ts, err)
		}
		if q.step == 0 {
			if len(points) == limit {
				return nil, errTooMany(limit)
			}
			points = append(points, rawPoint{Time: ts, Value: v})
			continue
		}
		start := q.origin + (ts-q.origin)/q.step*q.step
		if cur.count > 0 && cur.time != start {
			if len(buckets) == limit {
				return nil, errTooMany(limit)
			}
			buckets = append(buckets, cur.bucket())
			cur.count = 0
		}
		if cur.count == 0 {
			cur = acc[T]{time: start, lo: v, hi: v}
		}
		cur.count++
		cur.lo, cur.hi, cur.sum = min(cur.lo, v), max(cur.hi, v), cur.sum+float64(v)
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("query %q: %w", q.name, err)
	}
	if q.step == 0 {
		return rawResult{head, points}, nil
	}
	if cur.count > 0 {
		if len(buckets) == limit {
			return nil, errTooMany(limit)
		}
		buckets = append(buckets, cur.bucket())
	}
	return downsampledResult{head, q.step, buckets}, nil
}
