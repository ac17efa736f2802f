package etcd_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/etcd"
)

// endpointsOf reads the client URLs of the local cluster in dir.
func endpointsOf(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "etcd.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Members []struct {
			ClientPort int `json:"client_port"`
		} `json:"members"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	var eps []string
	for _, m := range l.Members {
		eps = append(eps, fmt.Sprintf("127.0.0.1:%d", m.ClientPort))
	}
	return eps
}

// TestGivenCluster uses a local cluster as a given one: an engine on it
// sees and deletes only its own prefix.
func TestGivenCluster(t *testing.T) {
	t.Parallel()
	hostDir := t.TempDir()
	host := openDB(t, hostDir, nil)
	defer host.Close()
	for _, k := range []string{"a", "m", "z"} {
		if err := host.Put([]byte(k), []byte("host")); err != nil {
			t.Fatal(err)
		}
	}
	given := &etcd.Options{Endpoints: endpointsOf(t, hostDir)}
	dir := t.TempDir()
	db := openDB(t, dir, given)
	if d := db.Describe(); !strings.Contains(d, "given cluster of 3 members") || !strings.Contains(d, `prefix "/tsbench/`) {
		t.Errorf("Describe = %q, want a given cluster of 3 members and its run prefix", d)
	}
	if db.PIDs() != nil {
		t.Errorf("PIDs on a given cluster = %v, want nil", db.PIDs())
	}
	for _, k := range []string{"a", "b"} {
		if err := db.Put([]byte(k), []byte("mine")); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, db); n != 2 {
		t.Fatalf("the engine on the given cluster sees %d keys, want its own 2", n)
	}
	if err := db.DeleteRange(nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db); n != 0 {
		t.Fatalf("after DeleteRange(nil, nil) the engine sees %d keys, want 0", n)
	}
	if n := count(t, host); n != 3 {
		t.Fatalf("the cluster's other keys: %d after the engine deleted its own, want 3", n)
	}
	if err := db.Put([]byte("kept"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopening finds the same prefix; without endpoints it says where
	// the data is.
	if _, err := engine.Open("etcd", dir, nil); !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), "/tsbench/") {
		t.Fatalf("reopen without endpoints = %v, want ErrInvalidOptions naming the prefix", err)
	}
	db = openDB(t, dir, given)
	if v, err := db.Get([]byte("kept")); err != nil || string(v) != "1" {
		t.Fatalf("Get after reopen = %q, %v; want 1", v, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// DropOnClose deletes the prefix, and only it, on Close.
	drop := *given
	drop.DropOnClose = true
	db = openDB(t, dir, &drop)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openDB(t, dir, given)
	if n := count(t, db); n != 0 {
		t.Errorf("after a Close with DropOnClose the prefix holds %d keys, want 0", n)
	}
	db.Close()
	if n := count(t, host); n != 3 {
		t.Fatalf("the cluster's other keys: %d after a Close with DropOnClose, want 3", n)
	}
}

func count(t *testing.T, db engine.Reader) int {
	t.Helper()
	it := enginetest.NewIterator(t, db, engine.IterOptions{})
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const timeout = time.Second
	start := time.Now()
	_, err := engine.Open("etcd", dir, &engine.Options{Engine: &etcd.Options{Endpoints: []string{"127.0.0.1:1"}, DialTimeout: timeout}})
	took := time.Since(start)
	if !errors.Is(err, etcd.ErrUnreachable) {
		t.Fatalf("Open of an unreachable endpoint = %v, want ErrUnreachable", err)
	}
	if took > timeout+2*time.Second {
		t.Errorf("Open took %v to fail, want about the dial timeout %v", took, timeout)
	}
	t.Logf("failed after %v: %v", took, err)
	if _, err := os.Stat(filepath.Join(dir, "etcd.json")); err == nil {
		t.Errorf("a failed first Open recorded a prefix")
	}
}

func TestLocalOptionsWithEndpoints(t *testing.T) {
	_, err := engine.Open("etcd", t.TempDir(), &engine.Options{Engine: &etcd.Options{Endpoints: []string{"127.0.0.1:1"}, Members: 5}})
	if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), "members") {
		t.Fatalf("members with endpoints = %v, want ErrInvalidOptions naming members", err)
	}
}
