package etcd_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/etcd"
)

// Every member's heap profile is in the directory after Close, whole: a
// gzipped profile as the members' /debug/pprof/heap serves it.
func TestHeapProfiles(t *testing.T) {
	t.Parallel()
	profiles := t.TempDir()
	db := openDB(t, t.TempDir(), &etcd.Options{HeapProfiles: profiles})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(profiles, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != etcd.DefaultMembers {
		t.Fatalf("profile directory holds %q, want one MEMBER-heap.pprof per member (%d)", names, etcd.DefaultMembers)
	}
	for _, name := range names {
		if !strings.HasSuffix(name, "-heap.pprof") {
			t.Errorf("%s: want only MEMBER-heap.pprof files", name)
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v, want a gzipped profile", name, err)
		}
		if n, err := io.Copy(io.Discard, z); err != nil || n == 0 {
			t.Errorf("%s: %d bytes, %v; want a whole profile", name, n, err)
		}
	}
}

func TestHeapProfilesRefused(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch")
	_, err := engine.Open("etcd", t.TempDir(), &engine.Options{Engine: &etcd.Options{HeapProfiles: missing}})
	if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), "heap_profiles") {
		t.Errorf("a missing heap_profiles directory = %v, want ErrInvalidOptions naming heap_profiles", err)
	}
	_, err = engine.Open("etcd", t.TempDir(), &engine.Options{Engine: &etcd.Options{Endpoints: []string{"127.0.0.1:1"}, HeapProfiles: t.TempDir()}})
	if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), "heap_profiles") {
		t.Errorf("heap_profiles with endpoints = %v, want ErrInvalidOptions naming heap_profiles", err)
	}
}
