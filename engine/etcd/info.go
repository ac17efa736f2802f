package etcd

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"go.etcd.io/etcd/api/v3/etcdserverpb"

	"github.com/tsbench/storage/engine"
)

var (
	_ engine.Describer = (*DB)(nil)
	_ engine.Processes = (*DB)(nil)
	_ engine.Sizer     = (*DB)(nil)
)

// describeCluster records what Describe reports, asked of the members
// themselves: kind is "local" or "given", bin the local members' binary
// ("" for a given cluster).
func (d *DB) describeCluster(kind, bin string) error {
	ctx, cancel := d.ctx()
	defer cancel()
	ml, err := d.cli.MemberList(ctx)
	if err != nil {
		return d.wrap("list members", err)
	}
	version := "unknown version"
	var members []string
	slices.SortFunc(ml.Members, func(a, b *etcdserverpb.Member) int { return cmp.Compare(a.Name, b.Name) })
	for _, m := range ml.Members {
		if len(m.ClientURLs) == 0 {
			members = append(members, m.Name+" (not started)")
			continue
		}
		members = append(members, m.Name+" "+m.ClientURLs[0])
		if st, err := d.cli.Status(ctx, m.ClientURLs[0]); err == nil {
			version = st.Version
		}
	}
	noun := "members"
	if len(ml.Members) == 1 {
		noun = "member"
	}
	if bin != "" {
		bin = ", binary " + bin
	}
	d.version = version
	d.describe = fmt.Sprintf("etcd %s, %s cluster of %d %s (%s)%s, key prefix %q",
		version, kind, len(ml.Members), noun, strings.Join(members, ", "), bin, d.prefix)
	return nil
}

// Describe says which cluster the engine uses, for a run's environment:
// the etcd version the members report, whether the cluster is local
// (started by the engine in its directory, then with the binary its
// members run) or given, its members and the engine's key prefix. For
// example:
//
//	etcd 3.6.16, local cluster of 3 members (m0 http://127.0.0.1:40527, ...), binary /usr/local/bin/etcd-tsbench, key prefix "/"
func (d *DB) Describe() string { return d.describe }

// Version is the etcd version the cluster's members report, which
// differs from the driver's (the default binary's) when the binary
// option names another etcd, such as Debian's 3.4.23.
func (d *DB) Version() string { return d.version }

// Sizes reports the members' backend files, summed over the members
// (every member holds a full copy): inUse is the bytes of pages holding
// data, onDisk the file sizes, which only a defragmentation (Compact)
// brings down to inUse. The write-ahead logs and snapshots each member
// also keeps are not included.
//
// With a member of the local cluster gone it fails at once with
// ErrMemberExited, rather than wait request_timeout for the dead member's
// status or sum up fewer copies than the directory holds.
func (d *DB) Sizes() (inUse, onDisk int64, err error) {
	if m := d.local.exitedMember(); m != nil {
		return 0, 0, fmt.Errorf("%w: member %s (%v)", ErrMemberExited, m.addr.Name, m.err)
	}
	urls, err := d.memberURLs()
	if err != nil {
		return 0, 0, d.wrap("sizes", err)
	}
	for _, u := range urls {
		ctx, cancel := d.ctx()
		st, err := d.cli.Status(ctx, u)
		cancel()
		if err != nil {
			return 0, 0, d.wrap("status of member at "+u, err)
		}
		inUse += st.DbSizeInUse
		onDisk += st.DbSize
	}
	return inUse, onDisk, nil
}

// Limits implements engine's per-backend limits: a value, a Put and a
// batch are each one request, of at most max_request_bytes (the engine's
// key prefix and etcd's framing add a little, which the server may still
// refuse); max_txn_ops counts distinct keys, which a batch's Len does
// not, so it is left to the server. A local cluster's directory holds a
// full copy of the data per member; a given cluster's holds none, only
// etcd.json, so its Copies is left at 1.
func (d *DB) Limits() engine.Limits {
	l := engine.Limits{MaxValueSize: d.o.MaxRequestBytes, MaxBatchSize: d.o.MaxRequestBytes}
	if d.local != nil {
		l.Copies = len(d.local.members)
	}
	return l
}

// PIDs returns the process ids of the local cluster's members, nil on a
// given cluster. etcd does its work in them, not in this process, so a
// benchmark charges their CPU and I/O to the engine through these.
func (d *DB) PIDs() []int {
	if d.local == nil {
		return nil
	}
	var pids []int
	d.local.mu.Lock()
	defer d.local.mu.Unlock()
	for _, m := range d.local.members {
		pids = append(pids, m.cmd.Process.Pid)
	}
	return pids
}
