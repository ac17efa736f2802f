package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
)

// point is one field of one line, parsed and encoded, not yet stored.
type point struct {
	name  string
	kind  kind
	ts    uint64
	value []byte
}

// precisions are the values of /write's precision parameter.
var precisions = map[string]lineprotocol.Precision{
	"ns": lineprotocol.Nanosecond,
	"us": lineprotocol.Microsecond,
	"ms": lineprotocol.Millisecond,
	"s":  lineprotocol.Second,
	"n":  lineprotocol.Nanosecond,  // InfluxDB 1.x's spelling
	"u":  lineprotocol.Microsecond, // InfluxDB 1.x's spelling
}

// parseLines parses line protocol into one point per field. A line without
// a timestamp takes now.
func parseLines(body []byte, prec lineprotocol.Precision, now time.Time) ([]point, error) {
	dec := lineprotocol.NewDecoderWithBytes(body)
	var pts []point
	var tags []tag
	for dec.Next() {
		m, err := dec.Measurement()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errBadRequest, err)
		}
		// The decoder's slices last until its next call.
		measurement := bytes.Clone(m)
		tags = tags[:0]
		for {
			k, v, err := dec.NextTag()
			if err != nil {
				return nil, fmt.Errorf("%w: %w", errBadRequest, err)
			}
			if k == nil {
				break
			}
			tags = append(tags, tag{bytes.Clone(k), bytes.Clone(v)})
		}
		first := len(pts)
		for {
			k, v, err := dec.NextField()
			if err != nil {
				return nil, fmt.Errorf("%w: %w", errBadRequest, err)
			}
			if k == nil {
				break
			}
			name, err := seriesName(measurement, tags, k)
			if err != nil {
				return nil, err
			}
			p := point{name: name}
			switch v.Kind() {
			case lineprotocol.Int:
				p.kind, p.value = kindInt, appendInt(nil, v.IntV())
			case lineprotocol.Float:
				p.kind, p.value = kindFloat, appendFloat(nil, v.FloatV())
			default:
				return nil, fmt.Errorf("%w: series %s: %s values are not stored, only integer and float", errBadRequest, quote(name), v.Kind())
			}
			pts = append(pts, p)
		}
		t, err := dec.Time(prec, now)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errBadRequest, err)
		}
		if t.UnixNano() < 0 {
			return nil, fmt.Errorf("%w: timestamp %s is before 1970", errBadRequest, t.UTC().Format(time.RFC3339Nano))
		}
		for i := first; i < len(pts); i++ {
			pts[i].ts = uint64(t.UnixNano())
		}
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("%w: the body holds no points", errBadRequest)
	}
	return pts, nil
}

// write stores pts in one batch, with the index entries of the series they
// create: all or nothing. A series' type is that of its first point; a point
// of the other type is refused.
func (s *store) write(pts []point) (created int, err error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	added := map[string]series{}
	s.idx.mu.RLock()
	next := s.idx.next
	s.idx.mu.RUnlock()
	key := make([]byte, 0, tskey.KeySize)
	for _, p := range pts {
		sr, ok := s.idx.lookup(p.name)
		if !ok {
			sr, ok = added[p.name]
		}
		if !ok {
			k := indexKey(p.name)
			// The same bound on every engine, so a name one engine takes
			// is taken by all.
			if err := engine.CommonLimits().CheckKey(k); err != nil {
				return 0, fmt.Errorf("%w: series name %s is too long (%d bytes): %w", errBadRequest, quote(p.name), len(p.name), err)
			}
			if next > maxSeriesID {
				return 0, fmt.Errorf("%w: no series id left for %s", errBadIndex, quote(p.name))
			}
			sr = series{id: next, kind: p.kind}
			next++
			added[p.name] = sr
			b.Put(k, sr.value())
		}
		if sr.kind != p.kind {
			return 0, fmt.Errorf("%w: series %s holds %s values, not %s", errBadRequest, quote(p.name), sr.kind, p.kind)
		}
		// Sequence 0: a point written again at the same time replaces the
		// first, as InfluxDB does.
		b.Put(tskey.AppendKey(key[:0], sr.id, p.ts, 0), p.value)
	}
	if len(added) > 0 {
		b.Put([]byte(nextIDKey), binary.BigEndian.AppendUint64(nil, next))
	}
	if err := b.Commit(); err != nil {
		return 0, fmt.Errorf("write %d points: %w", len(pts), err)
	}
	s.idx.add(added, next)
	return len(added), nil
}
