package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
)

// A series is one field of one measurement and tag set. Its name is the
// line-protocol text of that line up to the field's "=": measurement, tags
// sorted by key, a space, the field key, escaped as line protocol escapes
// them, for example
//
//	cpu,host=a,region=eu usage
//
// so one series has one name however the tags of its lines were ordered.

type tag struct{ key, value []byte }

// seriesName returns the name of field of measurement with tags, sorting
// tags in place. The line-protocol encoder escapes and checks each part.
func seriesName(measurement []byte, tags []tag, field []byte) (string, error) {
	slices.SortFunc(tags, func(a, b tag) int { return bytes.Compare(a.key, b.key) })
	for i := 1; i < len(tags); i++ {
		if bytes.Equal(tags[i-1].key, tags[i].key) {
			return "", fmt.Errorf("%w: tag %s given twice", errBadRequest, quote(string(tags[i].key)))
		}
	}
	var enc lineprotocol.Encoder
	enc.StartLineRaw(measurement)
	for _, t := range tags {
		enc.AddTagRaw(t.key, t.value)
	}
	// A field needs a value; the name ends before it.
	const zero = "=0i"
	enc.AddFieldRaw(field, lineprotocol.IntValue(0))
	if err := enc.Err(); err != nil {
		return "", fmt.Errorf("%w: %w", errBadRequest, err)
	}
	line := enc.Bytes()
	return string(line[:len(line)-len(zero)]), nil
}

// parseSeriesName returns the name of the series s names, in whatever order
// s gives its tags: s is read as a line-protocol line without its value.
func parseSeriesName(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("%w: missing parameter series", errBadRequest)
	}
	measurement, tags, field, err := splitSeriesName(s)
	if err != nil {
		return "", err
	}
	return seriesName(measurement, tags, field)
}

// splitSeriesName reads s, a series' name in any tag order, into its
// measurement, tags and field.
func splitSeriesName(s string) (measurement []byte, tags []tag, field []byte, err error) {
	bad := func(err error) ([]byte, []tag, []byte, error) {
		return nil, nil, nil, fmt.Errorf("%w: series %s is not \"measurement[,tag=value...] field\": %w", errBadRequest, quote(s), err)
	}
	if bytes.ContainsAny([]byte(s), "\r\n") {
		return bad(errors.New("a line break"))
	}
	dec := lineprotocol.NewDecoderWithBytes([]byte(s + "=0i"))
	dec.Next()
	m, err := dec.Measurement()
	if err != nil {
		return bad(err)
	}
	measurement = bytes.Clone(m)
	for {
		k, v, err := dec.NextTag()
		if err != nil {
			return bad(err)
		}
		if k == nil {
			break
		}
		tags = append(tags, tag{bytes.Clone(k), bytes.Clone(v)})
	}
	f, _, err := dec.NextField()
	if err != nil {
		return bad(err)
	}
	field = bytes.Clone(f)
	switch k, _, err := dec.NextField(); {
	case err != nil:
		return bad(err)
	case k != nil:
		return bad(errors.New("more than one field"))
	}
	return measurement, tags, field, nil
}
