package etcd

import (
	"context"
	"errors"
	"time"
)

// LeaderPID returns the process id of the local cluster's leader, for
// tests that kill it.
func LeaderPID(d *DB) (int, error) {
	if d.local == nil {
		return 0, errors.New("not a local cluster")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, m := range d.local.members {
		st, err := d.cli.Status(ctx, m.addr.clientURL())
		if err != nil {
			return 0, err
		}
		if st.Leader == st.Header.MemberId {
			return m.cmd.Process.Pid, nil
		}
	}
	return 0, errors.New("no member leads")
}
