package cassandra_test

import (
	"os"
	"strings"
	"sync"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/cassandra"
	"github.com/tsbench/storage/engine/enginetest"
)

// keyspaces opens the suite's engines on the shared node and hands each
// subtest's keyspace, emptied with TRUNCATE, to the next subtest that
// opens a new directory: creating a keyspace and its table costs the node
// a few times what a TRUNCATE does, and the suite makes about sixty.
// Only a subtest's first open of an empty directory takes a kept
// keyspace, adopting it as engine.Open adopts a directory without its
// marker; the first subtest, the suite's second processes and the
// directories engine.Checkpoint opens make keyspaces of their own.
type keyspaces struct {
	opts *engine.Options
	host string

	mu   sync.Mutex
	s    *gocql.Session // for TRUNCATE, made by the first one
	free []string
}

// open is the suite's enginetest.Factory.
func (k *keyspaces) open(t *testing.T, dir string) (engine.Engine, error) {
	// A subtest's own opens only: a second process's suite runs on its
	// top-level test, in a directory the parent's subtest uses.
	fresh := strings.Count(t.Name(), "/") == 1 && isEmptyDir(dir)
	if fresh {
		if ks := k.take(); ks != "" {
			if err := cassandra.UseKeyspace(dir, []string{k.host}, ks); err != nil {
				return nil, err
			}
		}
	}
	db, err := engine.Open("cassandra", dir, k.opts)
	if err != nil || !fresh {
		return db, err
	}
	ks, err := cassandra.KeyspaceIn(dir)
	if err != nil {
		db.Close()
		return nil, err
	}
	// Registered before the suite's own cleanup that closes db, so run
	// after it.
	t.Cleanup(func() { k.give(t, ks) })
	return db, nil
}

func (k *keyspaces) take() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.free) == 0 {
		return ""
	}
	ks := k.free[len(k.free)-1]
	k.free = k.free[:len(k.free)-1]
	return ks
}

// give empties keyspace ks and keeps it for the next subtest.
func (k *keyspaces) give(t *testing.T, ks string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.s == nil {
		cc := gocql.NewCluster(k.host)
		s, err := cc.CreateSession()
		if err != nil {
			t.Errorf("connect to truncate %s: %v", ks, err)
			return
		}
		k.s = s
	}
	if err := k.s.Query(`TRUNCATE "` + ks + `".kv`).Consistency(gocql.All).Exec(); err != nil {
		t.Errorf("truncate %s: %v", ks, err)
		return
	}
	k.free = append(k.free, ks)
}

// close ends the session.
func (k *keyspaces) close() {
	if k.s != nil {
		k.s.Close()
	}
}

// runSuite runs the acceptance suite on the shared node's engines.
func runSuite(t *testing.T, opts *engine.Options) {
	k := &keyspaces{opts: opts, host: opts.Engine.(*cassandra.Options).Hosts[0]}
	defer k.close()
	enginetest.Run(t, k.open)
}

// isEmptyDir reports whether dir is a directory with nothing in it.
func isEmptyDir(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}
