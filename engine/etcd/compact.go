package etcd

import (
	"errors"
	"fmt"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Compact implements engine.Backend. etcd keeps every revision of every key
// until a compaction, and its backend file never shrinks by itself: Compact
// compacts the history up to the current revision (or to the oldest open
// iterator's, so that no snapshot in use is lost) and then defragments
// every member, which rewrites its backend file without the free pages.
// etcd compacts the whole keyspace: the bounds are ignored, and on a given
// cluster the history of other users' keys goes too. Each member blocks
// its requests while it defragments.
func (d *DB) Compact(start, end []byte) error {
	// Holding snapMu while choosing the revision means that every
	// iterator either is counted in snaps already or reads at a later
	// revision than the one compacted to.
	d.snapMu.Lock()
	ctx, cancel := d.ctx()
	rev, err := d.revision(ctx)
	cancel()
	if err == nil {
		d.mu.Lock()
		for r := range d.snaps {
			rev = min(rev, r)
		}
		d.mu.Unlock()
	}
	d.snapMu.Unlock()
	if err != nil {
		return d.wrap("compact", err)
	}

	ctx, cancel = d.ctx()
	_, err = d.cli.Compact(ctx, rev, clientv3.WithCompactPhysical())
	cancel()
	// A compaction to rev or beyond already happened: nothing to do.
	if err != nil && !errors.Is(err, rpctypes.ErrCompacted) {
		return d.wrap("compact", err)
	}
	urls, err := d.memberURLs()
	if err != nil {
		return d.wrap("compact", err)
	}
	for _, u := range urls {
		ctx, cancel := d.ctx()
		_, err := d.cli.Defragment(ctx, u)
		cancel()
		if err != nil {
			return d.wrap(fmt.Sprintf("defragment member at %s", u), err)
		}
	}
	return nil
}

// memberURLs returns one client URL of every member of the cluster.
func (d *DB) memberURLs() ([]string, error) {
	ctx, cancel := d.ctx()
	defer cancel()
	ml, err := d.cli.MemberList(ctx)
	if err != nil {
		return nil, err
	}
	var urls []string
	for _, m := range ml.Members {
		if len(m.ClientURLs) > 0 { // a member added but not yet started has none
			urls = append(urls, m.ClientURLs[0])
		}
	}
	return urls, nil
}
