package cassandra

import (
	"context"
	"errors"
	"sync"

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
	var parts []*part
	byP := map[string]*part{}
	b.Each(func(key, value []byte, del bool) error {
		p, c := d.split(key)
		pt := byP[string(p)]
		if pt == nil {
			pt = &part{p: p}
			byP[string(p)] = pt
			parts = append(parts, pt)
		}
		pt.add(write{c: c, v: nonNil(value), del: del})
		return nil
	})
	ts := d.now()
	ctx, cancel := context.WithTimeout(ctx, d.o.RequestTimeout)
	defer cancel()
	// InFlight workers send the parts: a goroutine per part would grow a
	// fresh stack through the driver's deep calls for every one (13% of
	// the client's CPU in a 2014-order write, where a batch has a part
	// per point).
	errs := make([]error, len(parts))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(d.o.InFlight, len(parts)) {
		wg.Go(func() {
			for i := range next {
				errs[i] = d.sendPart(ctx, parts[i].p, parts[i].writes, ts)
			}
		})
	}
	for i := range parts {
		next <- i
	}
	close(next)
	wg.Wait()
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

// part is the writes of one Commit to one partition.
type part struct {
	p      []byte
	writes []write
	// at indexes writes by clustering value once a part has two: rare in
	// the 2014 order, where a batch has one point per series.
	at map[string]int
}

// add puts w in the part, in place of an earlier write of its key.
func (pt *part) add(w write) {
	if len(pt.writes) > 0 {
		if pt.at == nil {
			pt.at = map[string]int{string(pt.writes[0].c): 0}
		}
		if i, ok := pt.at[string(w.c)]; ok {
			pt.writes[i] = w
			return
		}
		pt.at[string(w.c)] = len(pt.writes)
	}
	pt.writes = append(pt.writes, w)
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
