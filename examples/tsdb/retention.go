package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/tsbench/storage/engine/tskey"
)

// expire deletes every point older than before: one DeleteRange per series
// over its time bounds [0, before). It returns how many series it went
// through. The index keeps series whose points have all expired: it costs a
// few bytes each, and a series' id is never given out again. Engine calls
// take no context, so ctx is checked between series: a shutdown waits for
// one DeleteRange, not for the whole pass.
func (s *store) expire(ctx context.Context, before uint64) (int, error) {
	ids := s.idx.ids()
	buf := make([]byte, 2*tskey.KeySize)
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return 0, fmt.Errorf("expire: %w", err)
		}
		start, end := tskey.TimeBounds(buf, id, 0, before)
		if err := s.db.DeleteRange(start, end); err != nil {
			return 0, fmt.Errorf("expire series %d: %w", id, err)
		}
	}
	return len(ids), nil
}

// cutoff is the first timestamp retention keeps at now.
func cutoff(now time.Time, retention time.Duration) uint64 {
	return uint64(max(now.Add(-retention).UnixNano(), 0))
}

// expireEvery applies retention now and then every interval until ctx is
// done, logging each pass, since it deletes data. A failed pass is
// logged; the next one tries again.
func (s *store) expireEvery(ctx context.Context, retention, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		start, before := time.Now(), cutoff(time.Now(), retention)
		n, err := s.expire(ctx, before)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Printf("retention: %v", err)
		case err == nil:
			log.Printf("retention: deleted the points before %s (older than %v) of %d series in %v",
				time.Unix(0, int64(before)).UTC().Format(time.RFC3339), retention, n, time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
