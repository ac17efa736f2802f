package cassandra

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are Cassandra's own settings, the [cassandra] table of a config
// file. Hosts chooses between a given cluster and a local one started in
// the engine directory; the fields marked "local cluster" configure that
// cluster's nodes and are errors together with Hosts, since a given
// cluster keeps its own.
type Options struct {
	// Hosts are the addresses ("host" or "host:port") of nodes of a running
	// cluster to use. The engine then keeps its data in a keyspace of its
	// own, recorded in the engine directory. Default none: start a local
	// cluster in the engine directory.
	Hosts []string `toml:"hosts"`
	// DropOnClose makes Close drop the engine's keyspace on a given
	// cluster, which outlives the engine directory (benchmark-storage sets
	// it unless -keep). Default false.
	DropOnClose bool `toml:"drop_on_close"`
	// JMX are the JMX addresses ("host:port") of a given cluster's nodes,
	// where Compact asks each node to flush and compact (through the
	// probe, a JVM on the local server's jars, Classpath). Default none:
	// Compact on a given cluster fails with engine.ErrNotSupported. A
	// local cluster's are its own.
	JMX []string `toml:"jmx"`
	// Nodes is the local cluster's node count, on consecutive loopback
	// addresses from Address, at most 9. Default 3.
	Nodes int `toml:"nodes"`
	// Address is the local cluster's first node's loopback address; node i
	// listens on the i-th address after it, every node on the same ports
	// (CQL 9042, storage 7000), so one machine runs one local cluster per
	// range of addresses. Default "127.0.0.2".
	Address string `toml:"address"`
	// RF is the keyspace's replication factor, at most Nodes on a local
	// cluster. Default 3, or Nodes for a smaller local cluster.
	RF int `toml:"rf"`
	// Consistency is the level of every read and write: ONE, TWO, THREE,
	// QUORUM, ALL, LOCAL_ONE or LOCAL_QUORUM. Default "QUORUM".
	Consistency string `toml:"consistency"`
	// CommitlogSync is the local cluster's commitlog_sync: "periodic"
	// (acknowledged before the commit log is synced, which happens every
	// 10 s), "batch" (every write synced before it is acknowledged) or
	// "group" (writes synced together every 15 ms, then acknowledged).
	// Default "periodic", or "batch" under the shared sync = "batch".
	CommitlogSync string `toml:"commitlog_sync"`
	// Heap is each local node's Java heap (-Xms and -Xmx) in bytes, 256 MiB
	// to 64 GiB. Default 1 GiB.
	Heap int64 `toml:"heap"`
	// NodeMemory, above 0, puts each local node in a memory cgroup of its
	// own with this limit in bytes, page cache included, as if each ran
	// on a machine of that size: at least heap + 256 MiB, at most 1 TiB,
	// and it needs root and a memory cgroup hierarchy. Default 0: the
	// nodes share the engine process's memory, and its limit if it has
	// one.
	NodeMemory int64 `toml:"node_memory"`
	// JVMOptions are more flags for each local node's java, after the
	// engine's own, which they override: -XX:TieredStopAtLevel=1, say,
	// compiles with C1 alone, which halves the CPU time of a node that
	// lives a minute (the package's tests) and slows one that runs long.
	// Each starts with "-". Default none.
	JVMOptions []string `toml:"jvm_options"`
	// Compaction is the table's compaction strategy: "size_tiered",
	// "leveled", "time_window" or "unified". Default "size_tiered"
	// (Cassandra 5.0's default for a table).
	Compaction string `toml:"compaction"`
	// GCGrace is the table's gc_grace_seconds: how long a tombstone is
	// kept before a compaction may drop it with the data it deletes.
	// Default 0: Compact gives deleted data's space back at once, as the
	// engine contract's Compact says; a replica that was down during the
	// delete and missed it (hints are not kept for such a table) can then
	// bring the data back, so set Cassandra's own 240h for a cluster that
	// loses nodes. At most 8760h.
	GCGrace time.Duration `toml:"gc_grace"`
	// PrefixLength is how many leading bytes of a key make its partition
	// key, 1 to 64: the series id of package tskey's keys. Keys are ordered
	// within a partition only, under the default partitioner. Default 8.
	PrefixLength int `toml:"prefix_length"`
	// Partitioner is the local cluster's: "murmur3" (Murmur3Partitioner,
	// what production runs: partitions spread by hash, keys ordered only
	// within one) or "byte_ordered" (ByteOrderedPartitioner: one bytewise
	// order over every key, a test mode under which the engine passes the
	// whole acceptance suite; it puts all of a range of keys on one node).
	// Default "murmur3".
	Partitioner string `toml:"partitioner"`
	// StartTimeout bounds the wait for each local node's CQL port, 1s to
	// 1h. Default 2m.
	StartTimeout time.Duration `toml:"start_timeout"`
	// InFlight bounds the parts (one per partition) of one Commit sent at
	// once, 1 to 1024: a batch of the 2014 order touches as many
	// partitions as it has points. Default 32.
	InFlight int `toml:"in_flight"`
	// RequestTimeout bounds every request on the client side but Compact's,
	// 1s to 24h. Default 30s.
	RequestTimeout time.Duration `toml:"request_timeout"`
	// CompactTimeout bounds each flush and each major compaction of
	// Compact on one node, 1s to 24h: a compaction rewrites all of a
	// node's data, minutes for gigabytes. Default 24h.
	CompactTimeout time.Duration `toml:"compact_timeout"`
	// Java is the local cluster's java executable, a path or a name looked
	// up in PATH. Default "java".
	Java string `toml:"java"`
	// Classpath is the file holding the server's classpath, which
	// scripts/build-cassandra.sh writes, with Compact's probe compiled
	// beside it (probe/). Default: build/cassandra/classpath beside the
	// directory of the running binary, or in the current directory or the
	// nearest of its parents that has one.
	Classpath string `toml:"classpath"`
}

// Defaults of Options.
const (
	DefaultNodes          = 3
	DefaultAddress        = "127.0.0.2"
	DefaultRF             = 3
	DefaultConsistency    = "QUORUM"
	DefaultHeap           = 1 << 30
	DefaultCompaction     = "size_tiered"
	DefaultPrefixLength   = 8
	DefaultPartitioner    = "murmur3"
	DefaultStartTimeout   = 2 * time.Minute
	DefaultRequestTimeout = 30 * time.Second
	DefaultCompactTimeout = 24 * time.Hour
	DefaultInFlight       = 32
	DefaultJava           = "java"
)

// minOffHeap is the least memory a node needs beside its heap: its
// metaspace, threads, buffers and the page cache it reads through.
const minOffHeap = 256 << 20

// maxNodes bounds a local cluster: each node takes about 1 GiB of memory
// beyond its heap.
const maxNodes = 9

// strategies are the compaction option's values and Cassandra's classes.
var strategies = map[string]string{
	"size_tiered": "SizeTieredCompactionStrategy",
	"leveled":     "LeveledCompactionStrategy",
	"time_window": "TimeWindowCompactionStrategy",
	"unified":     "UnifiedCompactionStrategy",
}

// partitioners are the partitioner option's values and Cassandra's classes.
var partitioners = map[string]string{
	"murmur3":      "org.apache.cassandra.dht.Murmur3Partitioner",
	"byte_ordered": "org.apache.cassandra.dht.ByteOrderedPartitioner",
}

// syncs are the commitlog_sync option's values.
var syncs = []string{"periodic", "batch", "group"}

// replicas are the consistency levels taken, with the replicas each needs
// beyond a quorum's (0: any replication factor serves it).
var replicas = map[string]int{"ONE": 1, "TWO": 2, "THREE": 3, "QUORUM": 0, "ALL": 0, "LOCAL_ONE": 1, "LOCAL_QUORUM": 0}

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key and the fix in one line.
func (o Options) Resolve(shared engine.Options) (any, error) {
	bad := func(format string, args ...any) (any, error) {
		return o, fmt.Errorf("%w: cassandra: "+format, append([]any{engine.ErrInvalidOptions}, args...)...)
	}
	err := defaults.Fill("cassandra",
		defaults.In("prefix_length", &o.PrefixLength, DefaultPrefixLength, 1, 64),
		defaults.In("gc_grace", &o.GCGrace, 0, 0, 8760*time.Hour),
		defaults.In("start_timeout", &o.StartTimeout, DefaultStartTimeout, time.Second, time.Hour),
		defaults.In("request_timeout", &o.RequestTimeout, DefaultRequestTimeout, time.Second, 24*time.Hour),
		defaults.In("compact_timeout", &o.CompactTimeout, DefaultCompactTimeout, time.Second, 24*time.Hour),
		defaults.In("in_flight", &o.InFlight, DefaultInFlight, 1, 1024),
	)
	if err != nil {
		return o, err
	}
	o.Consistency = strings.ToUpper(cmp.Or(o.Consistency, DefaultConsistency))
	need, ok := replicas[o.Consistency]
	if !ok {
		return bad("consistency %q: use one of ONE, TWO, THREE, QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM", o.Consistency)
	}
	if _, err := gocql.ParseConsistencyWrapper(o.Consistency); err != nil {
		return bad("consistency %q: %v", o.Consistency, err)
	}
	o.Compaction = cmp.Or(o.Compaction, DefaultCompaction)
	if _, ok := strategies[o.Compaction]; !ok {
		return bad("compaction %q: use one of %s", o.Compaction, strings.Join(sortedKeys(strategies), ", "))
	}
	if len(o.Hosts) > 0 {
		if err := o.checkGiven(); err != nil {
			return o, err
		}
		o.JVMOptions = nil // a config file's [] means none too
		if err := defaults.Fill("cassandra", defaults.In("rf", &o.RF, DefaultRF, 1, 100)); err != nil {
			return o, err
		}
		if need > o.RF {
			return bad("consistency %s needs %d replicas, but rf is %d: raise rf or choose QUORUM", o.Consistency, need, o.RF)
		}
		o.Java = cmp.Or(o.Java, DefaultJava)
		return o, nil
	}
	if len(o.JMX) > 0 {
		return bad("jmx names a given cluster's JMX ports; a local cluster uses its own: remove it, or give the cluster's hosts")
	}
	o.Hosts, o.JMX = nil, nil // a config file's [] means none too
	if err := defaults.Fill("cassandra", defaults.In("nodes", &o.Nodes, DefaultNodes, 1, maxNodes)); err != nil {
		return o, err
	}
	if err := defaults.Fill("cassandra",
		defaults.In("rf", &o.RF, min(DefaultRF, o.Nodes), 1, maxNodes),
		defaults.In("heap", &o.Heap, DefaultHeap, 256<<20, 64<<30),
		defaults.In("node_memory", &o.NodeMemory, 0, 0, 1<<40),
	); err != nil {
		return o, err
	}
	if o.NodeMemory != 0 && o.NodeMemory < o.Heap+minOffHeap {
		return bad("node_memory %d MiB leaves a node with a heap of %d MiB less than %d MiB beside it: raise node_memory to at least %d MiB, or lower heap",
			o.NodeMemory>>20, o.Heap>>20, minOffHeap>>20, (o.Heap+minOffHeap)>>20)
	}
	if o.RF > o.Nodes {
		return bad("rf %d is more than the local cluster's %d nodes: set rf to at most %d, or nodes to at least %d", o.RF, o.Nodes, o.Nodes, o.RF)
	}
	if need > o.RF {
		return bad("consistency %s needs %d replicas, but rf is %d: raise rf or choose QUORUM", o.Consistency, need, o.RF)
	}
	o.Address = cmp.Or(o.Address, DefaultAddress)
	a, err := netip.ParseAddr(o.Address)
	if err != nil || !a.Is4() || !a.IsLoopback() || a.As4()[3] == 0 || int(a.As4()[3])+o.Nodes-1 > 254 {
		return bad("address %q: use a loopback IPv4 address such as 127.0.0.2 with room for %d nodes after it in its last byte", o.Address, o.Nodes)
	}
	o.Partitioner = cmp.Or(o.Partitioner, DefaultPartitioner)
	if _, ok := partitioners[o.Partitioner]; !ok {
		return bad("partitioner %q: use murmur3 or byte_ordered (a test mode)", o.Partitioner)
	}
	switch {
	case o.CommitlogSync == "" && shared.Sync == engine.SyncBatch:
		o.CommitlogSync = "batch"
	case o.CommitlogSync == "":
		o.CommitlogSync = "periodic"
	case !slices.Contains(syncs, o.CommitlogSync):
		return bad("commitlog_sync %q: use periodic, batch or group", o.CommitlogSync)
	case shared.Sync == engine.SyncBatch && o.CommitlogSync == "periodic":
		return bad("commitlog_sync periodic acknowledges writes before they are synced, but sync is batch: use commitlog_sync batch or group, or sync none")
	}
	for _, f := range o.JVMOptions {
		if !strings.HasPrefix(f, "-") {
			return bad("jvm_options %q: give java flags, each starting with -, such as -XX:TieredStopAtLevel=1", f)
		}
	}
	if len(o.JVMOptions) == 0 {
		o.JVMOptions = nil // a config file's [] means none too
	}
	o.Java = cmp.Or(o.Java, DefaultJava)
	return o, nil
}

// checkGiven refuses the local cluster's settings beside the hosts of a
// given cluster, and empty hosts.
func (o Options) checkGiven() error {
	var local []string
	for _, f := range []struct {
		key string
		set bool
	}{
		{"nodes", o.Nodes != 0}, {"address", o.Address != ""}, {"commitlog_sync", o.CommitlogSync != ""},
		{"heap", o.Heap != 0}, {"partitioner", o.Partitioner != ""}, {"jvm_options", len(o.JVMOptions) > 0},
		{"node_memory", o.NodeMemory != 0},
	} {
		if f.set {
			local = append(local, f.key)
		}
	}
	if len(local) > 0 {
		return fmt.Errorf("%w: cassandra: %s configure the local cluster, but hosts name a running one, which keeps its own settings; remove them or the hosts",
			engine.ErrInvalidOptions, strings.Join(local, ", "))
	}
	for _, h := range o.Hosts {
		if strings.TrimSpace(h) == "" {
			return fmt.Errorf("%w: cassandra: an empty host; give host or host:port", engine.ErrInvalidOptions)
		}
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
