package main

import (
	"bytes"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine/etcd"
)

func TestEtcdEndpointsFlag(t *testing.T) {
	for _, keep := range []bool{false, true} {
		args := []string{"-engine", "etcd,pebble", "-path", t.TempDir(), "-etcd-endpoints", "10.0.0.1:2379, 10.0.0.2:2379"}
		if keep {
			args = append(args, "-keep")
		}
		s, err := parseFlags(args)
		if err != nil {
			t.Fatal(err)
		}
		// The child gets the same settings.
		child, err := readJob(bytes.NewReader(newJob(s, roleRun, "etcd", "d", "log").encode()))
		if err != nil {
			t.Fatal(err)
		}
		o, err := engineOptions(child, "etcd")
		if err != nil {
			t.Fatal(err)
		}
		own, ok := o.Engine.(*etcd.Options)
		if !ok {
			t.Fatalf("Engine = %T, want *etcd.Options", o.Engine)
		}
		if want := []string{"10.0.0.1:2379", "10.0.0.2:2379"}; !slices.Equal(own.Endpoints, want) || own.DropOnClose == keep {
			t.Errorf("with keep %v: endpoints %q, drop on close %v; want %q and %v", keep, own.Endpoints, own.DropOnClose, want, !keep)
		}
		if o, err := engineOptions(child, "pebble"); err != nil || o.Engine != nil {
			t.Errorf("pebble's options %+v, %v: the etcd flag must leave other engines alone", o, err)
		}
	}
	if _, err := parseFlags([]string{"-engine", "etcd", "-etcd-endpoints", "a:1,,b:2"}); err == nil {
		t.Error("an empty endpoint was accepted")
	}
}
