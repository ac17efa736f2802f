package etcd

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fileswap"
)

// layoutFile records in the engine directory where the engine's data is,
// so that reopening the directory finds the same cluster and prefix.
const layoutFile = "etcd.json"

// localPrefix is the key prefix in a local cluster, which holds nothing
// else: one byte, so that the empty key is storable (etcd refuses an empty
// key) at the least cost per key.
const localPrefix = "/"

// layout is the content of layoutFile.
type layout struct {
	// Prefix starts every key this engine stores.
	Prefix string `json:"prefix"`
	// Members is the local cluster; empty for a given cluster.
	Members []memberAddr `json:"members,omitempty"`
	// Token keeps the local cluster's members from ever joining the
	// members of another directory's cluster.
	Token string `json:"token,omitempty"`
	// Version is the etcd version the local cluster's members last
	// started with (etcd --version); empty in a directory written before
	// it was recorded.
	Version string `json:"etcd_version,omitempty"`
	// Endpoints are the given cluster's, for error messages only: a
	// reopen may name other members of the same cluster.
	Endpoints []string `json:"endpoints,omitempty"`
}

// memberAddr is a local member's name and loopback ports. The peer port
// is part of the cluster's membership, so a restart must reuse it.
type memberAddr struct {
	Name       string `json:"name"`
	ClientPort int    `json:"client_port"`
	PeerPort   int    `json:"peer_port"`
}

func (m memberAddr) clientURL() string { return fmt.Sprintf("http://127.0.0.1:%d", m.ClientPort) }
func (m memberAddr) peerURL() string   { return fmt.Sprintf("http://127.0.0.1:%d", m.PeerPort) }

// readLayout reads dir's layout; ok is false when there is none yet.
func readLayout(dir string) (l layout, ok bool, err error) {
	ok, err = fileswap.ReadJSON(filepath.Join(dir, layoutFile), &l)
	switch {
	case err == nil && ok && l.Prefix == "":
		err = fmt.Errorf("%w: a field is missing", fileswap.ErrDamaged)
	case err != nil && !errors.Is(err, fileswap.ErrDamaged):
		return l, false, fmt.Errorf("etcd: read %s: %w", layoutFile, err)
	}
	if err != nil {
		return l, false, fmt.Errorf("%w: etcd: %s in %s is %v; restore it or choose an empty directory", engine.ErrCorrupt, layoutFile, dir, err)
	}
	return l, ok, nil
}

// recognize reports whether dir holds this engine's layoutFile, so that
// engine.Open adopts a directory written without it (Driver.Recognize).
func recognize(dir string) (bool, error) {
	_, ok, err := readLayout(dir)
	return ok, err
}

// write saves l in dir, through a synced rename so a crash leaves the old
// or the new file, never half of one.
func (l layout) write(dir string) error {
	if err := fileswap.WriteJSON(filepath.Join(dir, layoutFile), l); err != nil {
		return fmt.Errorf("etcd: write %s: %w (choose a writable directory)", layoutFile, err)
	}
	return nil
}

// check refuses to open l with options meant for another kind of cluster.
func (l layout) check(dir string, o Options) error {
	local := len(l.Members) > 0
	switch {
	case local && len(o.Endpoints) > 0:
		return fmt.Errorf("%w: etcd: %s holds a local cluster; open it without endpoints, or choose an empty directory for the cluster at %v",
			engine.ErrInvalidOptions, dir, o.Endpoints)
	case !local && len(o.Endpoints) == 0:
		return fmt.Errorf("%w: etcd: the data of %s is on the cluster at %v under prefix %q; give its endpoints, or choose an empty directory for a local cluster",
			engine.ErrInvalidOptions, dir, l.Endpoints, l.Prefix)
	case local && len(l.Members) != o.Members:
		return fmt.Errorf("%w: etcd: %s holds a local cluster of %d members; set members = %d, or choose an empty directory",
			engine.ErrInvalidOptions, dir, len(l.Members), len(l.Members))
	}
	return nil
}

// checkVersion refuses to start l's local cluster with etcd v when its
// members last ran another minor release: etcd converts its data to its
// own release when it starts and cannot convert it back, so a newer
// release would change the directory for good (and measure another etcd
// than the one that wrote it), and an older one refuses the data.
func (l layout) checkVersion(dir, bin string, v etcdVersion) error {
	if l.Version == "" {
		return nil
	}
	rel := release(l.Version)
	if rel == v.release() {
		return nil
	}
	would := "cannot read its data"
	if releaseBefore(rel, v.release()) {
		would = "would convert its data for good"
	}
	return fmt.Errorf("%w: etcd: %s holds a local cluster that ran etcd %s, and etcd %s (%s) %s; set [etcd] binary to an etcd %s, or choose an empty directory",
		engine.ErrInvalidOptions, dir, l.Version, v.full, bin, would, rel)
}

// releaseBefore reports whether release a ("3.4") is older than b ("3.6").
func releaseBefore(a, b string) bool {
	var am, an, bm, bn int
	fmt.Sscanf(a, "%d.%d", &am, &an)
	fmt.Sscanf(b, "%d.%d", &bm, &bn)
	return am < bm || am == bm && an < bn
}

// release is the major.minor release of a version such as "3.6.16".
func release(version string) string {
	f := strings.SplitN(version, ".", 3)
	return strings.Join(f[:min(2, len(f))], ".")
}

// newLocalLayout chooses free loopback ports for n members.
func newLocalLayout(n int) (layout, error) {
	// Every port is held open until all are chosen, so no two coincide.
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	port := func() (int, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("%w: no free loopback port: %w", ErrStart, err)
		}
		lns = append(lns, ln)
		return ln.Addr().(*net.TCPAddr).Port, nil
	}
	l := layout{Prefix: localPrefix, Token: randomHex(8)}
	for i := range n {
		m := memberAddr{Name: fmt.Sprintf("m%d", i)}
		var err error
		if m.ClientPort, err = port(); err != nil {
			return l, err
		}
		if m.PeerPort, err = port(); err != nil {
			return l, err
		}
		l.Members = append(l.Members, m)
	}
	return l, nil
}

// newGivenLayout makes a fresh run prefix on the cluster at endpoints.
func newGivenLayout(endpoints []string) layout {
	return layout{Prefix: "/tsbench/" + randomHex(8) + "/", Endpoints: endpoints}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
