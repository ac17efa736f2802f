package cassandra

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fileswap"
)

// layoutFile records in the engine directory where the engine's data is,
// so that reopening the directory finds the same cluster and keyspace.
const layoutFile = "cassandra.json"

// table is the engine's table in its keyspace.
const table = "kv"

// layout is the content of layoutFile.
type layout struct {
	// Keyspace holds the engine's table.
	Keyspace string `json:"keyspace"`
	// PrefixLength is the partition key's length in key bytes.
	PrefixLength int `json:"prefix_length"`
	// Nodes are the local cluster's addresses; empty for a given cluster.
	Nodes []string `json:"nodes,omitempty"`
	// Partitioner is the local cluster's, an Options.Partitioner value.
	Partitioner string `json:"partitioner,omitempty"`
	// ClusterName keeps a local cluster's nodes from ever joining another
	// directory's.
	ClusterName string `json:"cluster_name,omitempty"`
	// Hosts are the given cluster's, for error messages only.
	Hosts []string `json:"hosts,omitempty"`
}

// readLayout reads dir's layout; ok is false when there is none yet.
func readLayout(dir string) (l layout, ok bool, err error) {
	ok, err = fileswap.ReadJSON(filepath.Join(dir, layoutFile), &l)
	switch {
	case err == nil && ok && (l.Keyspace == "" || l.PrefixLength < 1):
		err = fmt.Errorf("%w: a field is missing", fileswap.ErrDamaged)
	case err != nil && !errors.Is(err, fileswap.ErrDamaged):
		return l, false, fmt.Errorf("cassandra: read %s: %w", layoutFile, err)
	}
	if err != nil {
		return l, false, fmt.Errorf("%w: cassandra: %s in %s is %v; restore it or choose an empty directory", engine.ErrCorrupt, layoutFile, dir, err)
	}
	return l, ok, nil
}

// recognize reports whether dir holds this engine's layoutFile, so that
// engine.Open adopts a directory written without its marker.
func recognize(dir string) (bool, error) {
	_, ok, err := readLayout(dir)
	return ok, err
}

// write saves l in dir through a synced rename: a crash leaves the old or
// the new file, never half of one.
func (l layout) write(dir string) error {
	if err := fileswap.WriteJSON(filepath.Join(dir, layoutFile), l); err != nil {
		return fmt.Errorf("cassandra: write %s: %w (choose a writable directory)", layoutFile, err)
	}
	return nil
}

// newLocalLayout is a new local cluster's layout for o.
func newLocalLayout(o Options) layout {
	first := netip.MustParseAddr(o.Address)
	l := layout{Keyspace: "tsbench", PrefixLength: o.PrefixLength, Partitioner: o.Partitioner, ClusterName: "tsbench-" + randomHex(6)}
	for a := first; len(l.Nodes) < o.Nodes; a = a.Next() {
		l.Nodes = append(l.Nodes, a.String())
	}
	return l
}

// newGivenLayout is a new keyspace's layout on the given cluster.
func newGivenLayout(o Options) layout {
	return layout{Keyspace: "tsbench_" + randomHex(6), PrefixLength: o.PrefixLength, Hosts: o.Hosts}
}

// check refuses to open l with options meant for another cluster or
// another layout of the keys.
func (l layout) check(dir string, o Options) error {
	local := len(l.Nodes) > 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: cassandra: "+format, append([]any{engine.ErrInvalidOptions}, args...)...)
	}
	switch {
	case local && len(o.Hosts) > 0:
		return bad("%s holds a local cluster; open it without hosts, or choose an empty directory for the cluster at %v", dir, o.Hosts)
	case !local && len(o.Hosts) == 0:
		return bad("the data of %s is on the cluster at %v in keyspace %s; give its hosts, or choose an empty directory for a local cluster", dir, l.Hosts, l.Keyspace)
	case l.PrefixLength != o.PrefixLength:
		return bad("%s holds keys partitioned by their first %d bytes; set prefix_length = %d, or choose an empty directory", dir, l.PrefixLength, l.PrefixLength)
	case local && len(l.Nodes) != o.Nodes:
		return bad("%s holds a local cluster of %d nodes; set nodes = %d, or choose an empty directory", dir, len(l.Nodes), len(l.Nodes))
	case local && l.Nodes[0] != o.Address:
		return bad("%s holds a local cluster from address %s; set address = %q, or choose an empty directory", dir, l.Nodes[0], l.Nodes[0])
	case local && l.Partitioner != o.Partitioner:
		return bad("%s holds a local cluster with the %s partitioner; set partitioner = %q, or choose an empty directory", dir, l.Partitioner, l.Partitioner)
	}
	return nil
}

// nodeDir is where node i of a local cluster keeps everything.
func nodeDir(dir string, i int) string { return filepath.Join(dir, fmt.Sprintf("n%d", i)) }

// removeLocal deletes what a local cluster put in dir.
func removeLocal(dir string, l layout) {
	for i := range l.Nodes {
		os.RemoveAll(nodeDir(dir, i))
	}
	os.Remove(filepath.Join(dir, layoutFile))
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
