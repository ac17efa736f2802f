package cassandra

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"sync"

	"github.com/tsbench/storage/engine"
)

// Compact implements engine.Backend through the probe (probe.go) on each
// node's JMX port, every node at once: flush (the memtable to an SSTable,
// so that what was just written or deleted is compacted too), then
// compact, a major compaction of the engine's table into one SSTable per
// node, which drops the data of tombstones older than gc_grace and, with
// gc_grace 0 (the default), the tombstones too: what nodetool flush and
// nodetool compact do. Cassandra compacts whole tables: the bounds are
// ignored. Each flush and compaction waits at most compact_timeout. A given cluster's
// nodes are reached at the JMX addresses of Options.JMX; without them
// Compact there fails with engine.ErrNotSupported.
func (d *DB) Compact(start, end []byte) error {
	jmx := d.JMX()
	if len(jmx) == 0 {
		return fmt.Errorf("%w: cassandra: Compact runs flush and compact on the nodes' JMX ports: give the cluster's [cassandra] jmx, or run nodetool compact %s %s on its nodes",
			engine.ErrNotSupported, d.l.Keyspace, table)
	}
	for _, addr := range jmx {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return fmt.Errorf("%w: jmx %q: %v; give host:port", engine.ErrInvalidOptions, addr, err)
		}
	}
	p, err := d.probe()
	if err != nil {
		return err
	}
	errs := make([]error, len(jmx))
	var wg sync.WaitGroup
	for i, addr := range jmx {
		wg.Go(func() {
			for _, op := range []string{"flush", "compact"} {
				if _, errs[i] = p.run(op, addr, d.l.Keyspace, table, d.o.CompactTimeout); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// probe returns the running probe, started now unless it runs already,
// once every local node runs.
func (d *DB) probe() (*probe, error) {
	if n := d.local.exitedNode(); n != nil {
		return nil, fmt.Errorf("%w: node %d (%v)", ErrNodeExited, n.cfg.index, n.err)
	}
	java, err := exec.LookPath(d.o.Java)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoJava, err)
	}
	classpath, err := probeClasspath(d.o)
	if err != nil {
		return nil, err
	}
	return startedProbe(java, classpath)
}

// JMX returns the JMX addresses of the cluster's nodes that Compact uses:
// a local cluster's, on 127.0.0.1, or a given cluster's Options.JMX.
func (d *DB) JMX() []string {
	if d.local == nil {
		return d.o.JMX
	}
	var addrs []string
	for _, n := range d.local.list() {
		addrs = append(addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(n.cfg.jmxPort)))
	}
	return addrs
}
