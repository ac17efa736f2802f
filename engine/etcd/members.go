package etcd

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/tsbench/storage/engine"
)

// catchUpTimeout bounds RestartMember's wait for a restarted member to
// serve and apply what the others committed while it was down.
const catchUpTimeout = 2 * time.Minute

var _ engine.Members = (*DB)(nil)

// Members implements engine.Members: the local cluster's member count, 0
// on a given cluster.
func (d *DB) Members() int {
	if d.local == nil {
		return 0
	}
	return len(d.local.members)
}

// member returns member i of the local cluster.
func (d *DB) member(i int) (*member, error) {
	if d.local == nil {
		return nil, fmt.Errorf("%w: etcd: the members of a given cluster are not this engine's to kill or restart", engine.ErrNotSupported)
	}
	if i < 0 || i >= len(d.local.members) {
		return nil, fmt.Errorf("etcd: no member %d: the cluster has members 0 to %d", i, len(d.local.members)-1)
	}
	d.local.mu.Lock()
	defer d.local.mu.Unlock()
	return d.local.members[i], nil
}

// KillMember implements engine.Members.
func (d *DB) KillMember(i int) error {
	m, err := d.member(i)
	if err != nil {
		return err
	}
	m.cmd.Process.Kill()
	<-m.done
	return nil
}

// RestartMember implements engine.Members: it starts member i over its
// data directory with the flags it first had, then waits until it
// answers and has applied every entry the others had committed when it
// first answered.
func (d *DB) RestartMember(i int) error {
	old, err := d.member(i)
	if err != nil {
		return err
	}
	if !old.exited() {
		return fmt.Errorf("etcd: member %s still runs: kill it before restarting it", old.addr.Name)
	}
	if err := waitPorts(layout{Members: []memberAddr{old.addr}}); err != nil {
		return err
	}
	ms, err := spawn([]memberAddr{old.addr}, []*exec.Cmd{d.local.command(i)})
	if err != nil {
		return fmt.Errorf("%w: restart member %s: %w", ErrStart, old.addr.Name, err)
	}
	m := ms[0]
	d.local.mu.Lock()
	d.local.members[i] = m
	d.local.mu.Unlock()
	return d.catchUp(m)
}

// catchUp waits until m answers and has applied what the other members
// had committed by then.
func (d *DB) catchUp(m *member) error {
	deadline := time.Now().Add(catchUpTimeout)
	var target uint64 // the others' highest commit index once m answers
	for time.Now().Before(deadline) {
		if m.exited() {
			return fmt.Errorf("%w: restarted member %s exited (%v); %s", ErrStart, m.addr.Name, m.err, quote(m.log, logLines))
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		st, err := d.cli.Status(ctx, m.addr.clientURL())
		if err == nil && target == 0 {
			target, err = d.committed(ctx, m)
		}
		cancel()
		if err == nil && st.Leader != 0 && target > 0 && st.RaftAppliedIndex >= target {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%w: restarted member %s did not catch up with the others within %v; %s", ErrStart, m.addr.Name, catchUpTimeout, quote(m.log, logLines))
}

// committed returns the highest raft commit index of the members other
// than m.
func (d *DB) committed(ctx context.Context, m *member) (uint64, error) {
	var top uint64
	d.local.mu.Lock()
	others := append([]*member(nil), d.local.members...)
	d.local.mu.Unlock()
	for _, o := range others {
		if o == m || o.exited() {
			continue
		}
		st, err := d.cli.Status(ctx, o.addr.clientURL())
		if err != nil {
			return 0, err
		}
		top = max(top, st.RaftIndex)
	}
	return top, nil
}

// Alone implements engine.Members with a client of member i alone whose
// reads are serializable: served from that member's own state, without
// asking the leader, as etcdctl get --consistency=s reads.
func (d *DB) Alone(i int, read func(engine.Reader) error) error {
	m, err := d.member(i)
	if err != nil {
		return err
	}
	if m.exited() {
		return fmt.Errorf("%w: member %s (%v)", ErrMemberExited, m.addr.Name, m.err)
	}
	alone, err := connect(d.o, d.prefix, []string{m.addr.clientURL()})
	if err != nil {
		return err
	}
	defer alone.cli.Close()
	alone.reads = []clientv3.OpOption{clientv3.WithSerializable()}
	return read(alone)
}
