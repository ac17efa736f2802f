package cassandra

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tsbench/storage/engine"
)

var (
	_ engine.Describer = (*DB)(nil)
	_ engine.Processes = (*DB)(nil)
	_ engine.Sizer     = (*DB)(nil)
)

// Limits of every layout.
const (
	// maxKey keeps a key's clustering value well below Cassandra's 64 KiB
	// limit on a clustering value.
	maxKey = 32 << 10
	// maxBatch is the most bytes of one write or batch: one partition's
	// part of a batch is one mutation, which the commit log takes up to
	// half a segment (16 MiB of the default 32 MiB) with its overhead.
	maxBatch = 8 << 20
)

// describeCluster records what Describe reports; kind is "local" or
// "given".
func (d *DB) describeCluster(kind string) error {
	// A local cluster's nodes are known; the driver may not have found
	// them all yet when Open describes the cluster (it once listed one
	// of three).
	var hosts []string
	if d.local != nil {
		for _, n := range d.local.list() {
			hosts = append(hosts, n.cfg.address)
		}
	} else {
		for _, h := range d.s.GetHosts() {
			hosts = append(hosts, h.ConnectAddress().String())
		}
	}
	order := fmt.Sprintf("ordered within a prefix of %d bytes", d.l.PrefixLength)
	if d.global {
		order = "byte-ordered partitioner (test mode)"
	}
	noun := "nodes"
	if len(hosts) == 1 {
		noun = "node"
	}
	s := fmt.Sprintf("Cassandra %s, %s cluster of %d %s (%s), keyspace %s, rf %d, %s, %s, %d writes in flight",
		d.version, kind, len(hosts), noun, strings.Join(hosts, ", "), d.l.Keyspace, d.o.RF, d.o.Consistency, order, d.o.InFlight)
	if d.local != nil {
		s += fmt.Sprintf(", heap %dMiB, commitlog_sync %s, compaction %s, gc_grace %v", d.o.Heap>>20, d.o.CommitlogSync, d.o.Compaction, d.o.GCGrace)
		if d.o.NodeMemory > 0 {
			s += fmt.Sprintf(", node_memory %dMiB", d.o.NodeMemory>>20)
		}
		if len(d.o.JVMOptions) > 0 {
			s += ", jvm_options " + strings.Join(d.o.JVMOptions, " ") // they shape every figure
		}
	}
	d.describe = s
	return nil
}

// Describe says which cluster the engine uses, for a run's environment:
// the Cassandra version the nodes report, whether the cluster is local
// or given, its nodes, the keyspace and the settings that shape the
// figures. For example:
//
//	Cassandra 5.0.9, local cluster of 3 nodes (127.0.0.2, 127.0.0.3, 127.0.0.4), keyspace tsbench, rf 3, QUORUM, ordered within a prefix of 8 bytes, 32 writes in flight, heap 1024MiB, commitlog_sync periodic, compaction size_tiered, gc_grace 0s
func (d *DB) Describe() string { return d.describe }

// Limits reports the keys and writes the engine takes: under the default
// partitioner keys of at least prefix_length bytes, ordered within their
// prefix only; under the byte-ordered one keys of at least 1 byte (a
// partition key cannot be empty), in one order. Batches are atomic within
// a partition only. A local cluster's directory holds rf copies of the
// data.
func (d *DB) Limits() engine.Limits {
	l := engine.Limits{MinKeySize: 1, MaxKeySize: maxKey, MaxValueSize: maxBatch, MaxBatchSize: maxBatch, AtomicPrefix: d.l.PrefixLength}
	if !d.global {
		l.MinKeySize, l.OrderedPrefix = d.l.PrefixLength, d.l.PrefixLength
	}
	if d.local != nil {
		l.Copies = d.o.RF
	}
	return l
}

// PIDs returns the process ids of the local cluster's nodes, nil on a
// given cluster: Cassandra does its work in them, so a benchmark charges
// their CPU and I/O to the engine through these.
func (d *DB) PIDs() []int {
	if d.local == nil {
		return nil
	}
	var pids []int
	for _, n := range d.local.list() {
		pids = append(pids, n.cmd.Process.Pid)
	}
	return pids
}

// Sizes reports the bytes of the engine's table's SSTables on the local
// cluster's nodes, summed over the nodes (every replica's copy); both
// figures are the files' sizes, as Cassandra's files hold no free space.
// Memtables not yet flushed and the commit log are not counted. A given
// cluster's files are on its machines: Sizes fails with
// engine.ErrNotSupported there.
func (d *DB) Sizes() (inUse, onDisk int64, err error) {
	if d.local == nil {
		return 0, 0, fmt.Errorf("%w: cassandra: the given cluster's files are on its own machines", engine.ErrNotSupported)
	}
	if n := d.local.exitedNode(); n != nil {
		return 0, 0, fmt.Errorf("%w: node %d (%v)", ErrNodeExited, n.cfg.index, n.err)
	}
	for _, n := range d.local.list() {
		ks := filepath.Join(n.cfg.dir, "data", d.l.Keyspace)
		err := filepath.WalkDir(ks, func(_ string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil // files come and go as Cassandra compacts
			}
			if fi, err := e.Info(); err == nil {
				onDisk += fi.Size()
			}
			return nil
		})
		if err != nil {
			return 0, 0, err
		}
	}
	return onDisk, onDisk, nil
}
