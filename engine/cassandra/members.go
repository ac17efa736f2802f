package cassandra

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/tsbench/storage/engine"
)

const (
	// hintsFlushPeriod is Cassandra's hints_flush_period, which the local
	// nodes keep: a hint buffered in memory is in a file within it.
	hintsFlushPeriod = 10 * time.Second
	// catchUpTimeout bounds RestartMember's wait for the other nodes to
	// deliver their hints to the restarted one.
	catchUpTimeout = 5 * time.Minute
)

var _ engine.Members = (*DB)(nil)

// Members implements engine.Members: the local cluster's node count, 0
// on a given cluster.
func (d *DB) Members() int {
	if d.local == nil {
		return 0
	}
	return len(d.local.list())
}

// node returns node i of the local cluster.
func (d *DB) node(i int) (*node, error) {
	if d.local == nil {
		return nil, fmt.Errorf("%w: cassandra: the nodes of a given cluster are not this engine's to kill or restart", engine.ErrNotSupported)
	}
	nodes := d.local.list()
	if i < 0 || i >= len(nodes) {
		return nil, fmt.Errorf("cassandra: no node %d: the cluster has nodes 0 to %d", i, len(nodes)-1)
	}
	return nodes[i], nil
}

// KillMember implements engine.Members.
func (d *DB) KillMember(i int) error {
	n, err := d.node(i)
	if err != nil {
		return err
	}
	n.kill()
	return nil
}

// repairAttempts and repairRetryDelay bound RestartMember's repair.
const (
	repairAttempts   = 3
	repairRetryDelay = 5 * time.Second
)

// RestartMember implements engine.Members: it starts node i again with
// its first configuration, waits for its CQL port, then for what it
// missed. Under gc_grace 0 (the default) Cassandra keeps no hints for the
// table (a hint lives no longer than gc_grace), so node i is repaired:
// a full repair of the table over its ranges, as nodetool repair -full
// runs. Otherwise the others' hints bring it what it missed: RestartMember
// waits until no other node keeps a hint file, once the hints buffered
// while it was down have had hintsFlushPeriod to reach one.
func (d *DB) RestartMember(i int) error {
	if _, err := d.node(i); err != nil {
		return err
	}
	if err := d.local.restart(i); err != nil {
		return err
	}
	p, err := d.probe()
	if err != nil {
		return err
	}
	if d.o.GCGrace == 0 {
		// A repair begun as the node rejoins can fail a peer's validation
		// ("Got VALIDATION_REQ failure", seen once in a test); a repair is
		// idempotent, so it is tried again a little later.
		for attempt := 1; ; attempt++ {
			_, err := p.run("repair", d.JMX()[i], d.l.Keyspace, table, d.o.CompactTimeout)
			if err == nil || attempt == repairAttempts {
				return err
			}
			time.Sleep(repairRetryDelay)
		}
	}
	time.Sleep(hintsFlushPeriod + time.Second)
	deadline := time.Now().Add(catchUpTimeout)
	for {
		pending := int64(0)
		for j, addr := range d.JMX() {
			if j == i {
				continue
			}
			a, err := p.run("hints", addr, d.l.Keyspace, table, metricsTimeout)
			if err != nil {
				return err
			}
			n, err := strconv.ParseInt(strings.TrimPrefix(a, "pending_hint_files="), 10, 64)
			if err != nil {
				return fmt.Errorf("%w: hints of the node at %s: %q", ErrJMX, addr, a)
			}
			pending += n
		}
		if pending == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: node %d restarted, but the others still keep %d hint files for it after %v", ErrStart, i, pending, catchUpTimeout)
		}
		time.Sleep(time.Second)
	}
}

// Alone implements engine.Members: it stops every other node (each
// drains first), reads through a session of node i alone at consistency
// ONE, which only node i can then serve, and starts the others again,
// all at once, before it returns.
func (d *DB) Alone(i int, read func(engine.Reader) error) (err error) {
	n, err := d.node(i)
	if err != nil {
		return err
	}
	if n.exited() {
		return fmt.Errorf("%w: node %d (%v)", ErrNodeExited, i, n.err)
	}
	var stopped []int
	defer func() {
		// All at once: each rejoins the cluster it knows from its own
		// system tables, node i up throughout.
		errs := make([]error, len(stopped))
		var wg sync.WaitGroup
		for k, j := range stopped {
			wg.Go(func() { errs[k] = d.local.restart(j) })
		}
		wg.Wait()
		err = errors.Join(err, errors.Join(errs...))
	}()
	for j, o := range d.local.list() {
		if j == i || o.exited() {
			continue
		}
		// Started again even if it did not stop cleanly (it was killed).
		err = errors.Join(err, o.stop())
		stopped = append(stopped, j)
	}
	if err != nil {
		return err
	}
	s, err := session(d.o, []string{n.cfg.address}, gocql.One, true)
	if err != nil {
		return err
	}
	defer s.Close()
	alone := &DB{s: s, dir: d.dir, o: d.o, l: d.l, global: d.global, cl: gocql.One}
	alone.statements()
	return read(alone)
}
