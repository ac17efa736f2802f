package cassandra

import (
	"context"
	"errors"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/writebuf"
)

var _ engine.ContextCommitter = (*batch)(nil)

// batch buffers its writes in Go and commits them split by partition.
type batch struct {
	d *DB
	writebuf.Buffer
}

// NewBatch implements engine.Backend.
func (d *DB) NewBatch() engine.BackendBatch { return &batch{d: d} }

// Commit implements engine.BackendBatch; see the package documentation
// for what it promises.
func (b *batch) Commit() error { return b.CommitContext(context.Background()) }

// write is one write of a part: its clustering value, and its value, nil
// for a delete.
type write struct {
	c, v []byte
	del  bool
}

// CommitContext implements engine.ContextCommitter. Only the last write
// of each key is sent, since the writes of one Commit share a timestamp,
// at which Cassandra would let a delete win over a later put. The writes
// of each partition go as one UNLOGGED batch (or a single statement) to
// a replica of the partition, all partitions concurrently; Commit
// returns once every part is acknowledged at the consistency level, or
// with the first error, the batch kept.
func (b *batch) CommitContext(ctx context.Context) error {
	if b.Len() == 0 {
		return nil
	}
	d := b.d
	type part struct {
		p      []byte
		writes []write
		at     map[string]int
	}
	var parts []*part
	byP := map[string]*part{}
	b.Each(func(key, value []byte, del bool) error {
		p, c := d.split(key)
		pt := byP[string(p)]
		if pt == nil {
			pt = &part{p: p, at: map[string]int{}}
			byP[string(p)] = pt
			parts = append(parts, pt)
		}
		w := write{c: c, v: nonNil(value), del: del}
		if i, ok := pt.at[string(c)]; ok {
			pt.writes[i] = w
		} else {
			pt.at[string(c)] = len(pt.writes)
			pt.writes = append(pt.writes, w)
		}
		return nil
	})
	ts := d.now()
	ctx, cancel := context.WithTimeout(ctx, d.o.RequestTimeout)
	defer cancel()
	errs := make([]error, len(parts))
	sem := make(chan struct{}, d.o.InFlight)
	done := make(chan struct{})
	for i, pt := range parts {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; done <- struct{}{} }()
			errs[i] = d.sendPart(ctx, pt.p, pt.writes, ts)
		}()
	}
	for range parts {
		<-done
	}
	if err := errors.Join(errs...); err != nil {
		for _, e := range errs {
			if e != nil {
				return e // the first: they are alike
			}
		}
	}
	b.Reset()
	return nil
}

// sendPart writes one partition's part at timestamp ts.
func (d *DB) sendPart(ctx context.Context, p []byte, ws []write, ts int64) error {
	if len(ws) == 1 {
		q := d.s.Query(d.qPut, p, ws[0].c, ws[0].v)
		if ws[0].del {
			q = d.s.Query(d.qDel, p, ws[0].c)
		}
		if err := q.WithTimestamp(ts).ExecContext(ctx); err != nil {
			return d.wrap("commit batch", err)
		}
		return nil
	}
	bt := d.s.Batch(gocql.UnloggedBatch).WithTimestamp(ts)
	for _, w := range ws {
		if w.del {
			bt.Query(d.qDel, p, w.c)
		} else {
			bt.Query(d.qPut, p, w.c, w.v)
		}
	}
	if err := bt.ExecContext(ctx); err != nil {
		return d.wrap("commit batch", err)
	}
	return nil
}
