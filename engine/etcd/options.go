package etcd

import (
	"cmp"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are etcd's own settings, the [etcd] table of a config file.
// Endpoints chooses between a given cluster and a local one started in the
// engine directory; the fields marked "local cluster" are that cluster's
// server flags and are errors together with Endpoints, since a given
// cluster keeps its own.
type Options struct {
	// Endpoints are the client URLs of a running cluster to use, as
	// "host:port" or "http://host:port". The engine then reads and writes
	// only keys under its own prefix, recorded in the engine directory.
	// Default none: start a local cluster in the engine directory.
	Endpoints []string `toml:"endpoints"`
	// DropOnClose makes Close delete every key under the engine's prefix
	// first: for a run whose data is not wanted afterwards on a given
	// cluster, which outlives the engine directory (benchmark-storage sets
	// it unless -keep). Other users' keys are left alone. Default false.
	DropOnClose bool `toml:"drop_on_close"`
	// DialTimeout bounds how long Open waits for the cluster to answer
	// with a quorum, at most 1h. Default 5s.
	DialTimeout time.Duration `toml:"dial_timeout"`
	// RequestTimeout bounds every request, Compact's compaction and each
	// member's defragmentation included. At most 24h. Default 1m.
	RequestTimeout time.Duration `toml:"request_timeout"`
	// MaxRequestBytes is the largest request, a whole batch included: the
	// local cluster's --max-request-bytes and the client's send limit.
	// etcd's own default, 1.5 MiB, cannot hold a batch of two 1 MiB values.
	// At most 1 GiB. Default 10 MiB.
	MaxRequestBytes int `toml:"max_request_bytes"`
	// Members is the local cluster's member count; 3 survives the loss of
	// one, 5 of two. Default 3.
	Members int `toml:"members"`
	// BackendQuota is each local member's --quota-backend-bytes: once its
	// backend file reaches it, writes fail with ErrQuota. etcd suggests at
	// most 8 GiB; at most 64 GiB is taken. Default 2 GiB.
	BackendQuota int64 `toml:"backend_quota"`
	// MaxTxnOps is the local cluster's --max-txn-ops, the most distinct
	// keys a batch may write, at most 1048576; etcd's own default is 128.
	// Default 10000.
	MaxTxnOps int `toml:"max_txn_ops"`
	// SnapshotCount is the local cluster's --snapshot-count: a member
	// writes a snapshot to disk after this many Raft entries, which lets
	// it remove the write-ahead log segments the snapshot covers. On etcd
	// 3.4 it also bounds the Raft log each member holds in memory: a
	// member frees all but the last 5,000 entries only when it snapshots.
	// etcd 3.6 frees them every 100 entries, whatever this is. At most
	// 2^24; etcd's own default is 10,000 in 3.6, 100,000 in 3.4.
	// Default 10000.
	SnapshotCount int `toml:"snapshot_count"`
	// Binary is the etcd server the local cluster's members run, a path
	// or a name looked up in PATH: etcd 3.4 or later, as "etcd --version"
	// reports it. The default, etcd-tsbench, is etcd 3.6.16, which make
	// setup builds from its Go module (scripts/build-etcd.sh); "etcd" is
	// Debian's etcd-server, 3.4.23, which make setup installs too. A
	// directory's cluster is refused to a binary of another minor release
	// than the one it last ran, as etcd converts its data for good.
	// Default "etcd-tsbench".
	Binary string `toml:"binary"`
	// HeapProfiles is an existing directory in which the local cluster's
	// members' heap profiles are kept, MEMBER-heap.pprof (go tool pprof),
	// fetched every 10 s and at Close: the members then run with
	// --enable-pprof, which serves /debug/pprof on their loopback client
	// ports. A member the OOM killer ends leaves its last profile. Default
	// "": none.
	HeapProfiles string `toml:"heap_profiles"`
}

// Defaults of Options.
const (
	DefaultDialTimeout     = 5 * time.Second
	DefaultRequestTimeout  = time.Minute
	DefaultMaxRequestBytes = 10 << 20
	DefaultMembers         = 3
	DefaultBackendQuota    = 2 << 30
	DefaultMaxTxnOps       = 10000
	DefaultSnapshotCount   = 10000
	DefaultBinary          = "etcd-tsbench"
)

// maxMembers is etcd's recommended largest cluster; more members only slow
// every write down.
const maxMembers = 7

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	err := defaults.Fill("etcd",
		// Far beyond any use; etcd and gRPC add to the request size
		// in int32 arithmetic, and a member holds that many entries.
		defaults.In("dial_timeout", &o.DialTimeout, DefaultDialTimeout, 1, time.Hour),
		defaults.In("request_timeout", &o.RequestTimeout, DefaultRequestTimeout, 1, 24*time.Hour),
		defaults.In("max_request_bytes", &o.MaxRequestBytes, DefaultMaxRequestBytes, 1, 1<<30),
	)
	if err != nil {
		return o, err
	}
	if len(o.Endpoints) > 0 {
		return o, o.checkGiven()
	}
	o.Endpoints = nil // a config file's endpoints = [] means none too
	err = defaults.Fill("etcd",
		defaults.Of("members", &o.Members, DefaultMembers),
		defaults.In("backend_quota", &o.BackendQuota, DefaultBackendQuota, 1, 64<<30),
		defaults.In("max_txn_ops", &o.MaxTxnOps, DefaultMaxTxnOps, 1, 1<<20),
		defaults.In("snapshot_count", &o.SnapshotCount, DefaultSnapshotCount, 1, 1<<24),
	)
	if err != nil {
		return o, err
	}
	if o.Members > maxMembers {
		return o, fmt.Errorf("%w: etcd: members %d: use 1 to %d (3 or 5 are usual)", engine.ErrInvalidOptions, o.Members, maxMembers)
	}
	o.Binary = cmp.Or(o.Binary, DefaultBinary)
	if o.HeapProfiles != "" {
		if fi, err := os.Stat(o.HeapProfiles); err != nil || !fi.IsDir() {
			return o, fmt.Errorf("%w: etcd: heap_profiles %s is not a directory: create it first or name another", engine.ErrInvalidOptions, o.HeapProfiles)
		}
	}
	return o, nil
}

// checkGiven refuses the local cluster's flags and empty endpoints beside
// the endpoints of a given cluster.
func (o Options) checkGiven() error {
	var local []string
	for _, f := range []struct {
		key string
		set bool
	}{
		{"members", o.Members != 0}, {"backend_quota", o.BackendQuota != 0},
		{"max_txn_ops", o.MaxTxnOps != 0}, {"snapshot_count", o.SnapshotCount != 0},
		{"binary", o.Binary != ""}, {"heap_profiles", o.HeapProfiles != ""},
	} {
		if f.set {
			local = append(local, f.key)
		}
	}
	if len(local) > 0 {
		return fmt.Errorf("%w: etcd: %s configure the local cluster, but endpoints name a running one, which keeps its own flags; remove them or the endpoints",
			engine.ErrInvalidOptions, strings.Join(local, ", "))
	}
	for _, e := range o.Endpoints {
		if strings.TrimSpace(e) == "" {
			return fmt.Errorf("%w: etcd: an empty endpoint; give host:port or http://host:port", engine.ErrInvalidOptions)
		}
	}
	return nil
}
