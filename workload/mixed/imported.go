package mixed

import (
	"fmt"
	"sync"

	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

// imported is a run on an imported file's points (-values FILE,
// points.File) in place of generated ones: what writers acknowledged of
// each series, a few numbers a series, since the file is never held.
type imported struct {
	file   *points.File
	series []fileSeries
}

// fileSeries is one series' acknowledgements, which its writer updates
// and readers copy whole.
type fileSeries struct {
	mu sync.Mutex
	fileAck
}

// fileAck is what writers had acknowledged of a series: a read checks
// against it, and picks its range from it.
type fileAck struct {
	n   int64  // acknowledged points
	sum uint64 // the sum of their digests (points.Digest)
	// first and last are the timestamps of the first and latest
	// acknowledged points, lastDigest the latest's digest; valid when
	// n > 0. A series' points are in increasing time, so those
	// acknowledged are exactly those at or before last.
	first, last, lastDigest uint64
}

// openImported reads the surveyed file for a run (points.Values.Open).
func openImported(v points.Values) (*imported, error) {
	f, err := v.Open()
	if err != nil {
		return nil, err
	}
	return &imported{file: f, series: make([]fileSeries, f.Series)}, nil
}

// acked is a copy of what writers had acknowledged of series s.
func (im *imported) acked(s int64) fileAck {
	fs := &im.series[s]
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.fileAck
}

// ack acknowledges the committed points of p, in order.
func (im *imported) ack(p *pointBatch) {
	from := 0
	for j, end := range p.ends {
		key := p.keys[j*tskey.KeySize : (j+1)*tskey.KeySize]
		s, ts, _, _ := tskey.ParseKey(key) // a key the stream made
		d := points.Digest(key, p.vals[from:end])
		from = end
		fs := &im.series[s]
		fs.mu.Lock()
		if fs.n == 0 {
			fs.first = ts
		}
		fs.n++
		fs.sum += d
		fs.last, fs.lastDigest = ts, d
		fs.mu.Unlock()
	}
}

// put adds a point the file's stream made, copied.
func (p *pointBatch) put(key, val []byte) {
	p.keys = append(p.keys, key...)
	p.vals = append(p.vals, val...)
	p.ends = append(p.ends, len(p.vals))
}

// preloadFeed feeds the file's points from its first on.
func (im *imported) preloadFeed() (feed, error) {
	st, err := im.file.Stream(0)
	if err != nil {
		return feed{}, err
	}
	var in points.Batch
	return feed{
		fill: func(p *pointBatch, n int64) error {
			if err := st.Fill(&in, n); err != nil {
				return err
			}
			for j := range in.Len() {
				p.put(in.Key(j), in.Value(j))
			}
			return nil
		},
		ack:   im.ack,
		close: st.Close,
	}, nil
}

// replay acknowledges the file's first n points without writing them:
// a preload a dataset holds already.
func (im *imported) replay(n int64) error {
	f, err := im.preloadFeed()
	if err != nil {
		return err
	}
	defer f.close()
	var p pointBatch
	for done := int64(0); done < n; done += int64(p.len()) {
		p.reset()
		if err := f.fill(&p, min(n-done, replayBatch)); err != nil {
			return fmt.Errorf("preload from the dataset: %w", err)
		}
		im.ack(&p)
	}
	return nil
}

// replayBatch is how many points replay reads at once.
const replayBatch = 1024

// writerFeed feeds the writer of the series [lo, hi) their points of the
// file from point from on, in file order, and after its last the file
// again, later by its span (points.Stream): each writer reads the whole
// file and keeps its own series' points. A fill reads the file at most
// once round and stops reading when stop says so: a writer whose series
// are rare in the file commits a short batch rather than read on past
// the run's end.
func (im *imported) writerFeed(from, lo, hi int64, stop func() bool) (feed, error) {
	st, err := im.file.Stream(from)
	if err != nil {
		return feed{}, err
	}
	var in points.Batch
	at := 0 // the next point of in to look at
	return feed{
		fill: func(p *pointBatch, n int64) error {
			var read int64
			for int64(p.len()) < n {
				if at == in.Len() {
					if read >= im.file.Points || stop() {
						return nil
					}
					if err := st.Fill(&in, n); err != nil {
						return err
					}
					read += int64(in.Len())
					at = 0
				}
				key := in.Key(at)
				if s, _, _, _ := tskey.ParseKey(key); int64(s) >= lo && int64(s) < hi {
					p.put(key, in.Value(at))
				}
				at++
			}
			return nil
		},
		ack:   im.ack,
		close: st.Close,
	}, nil
}
