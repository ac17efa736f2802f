package main

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
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
		eff, err := engine.Effective("etcd", o)
		if err != nil {
			t.Fatal(err)
		}
		own := eff["etcd"].(map[string]any)
		if got, want := fmt.Sprint(own["endpoints"]), "[10.0.0.1:2379 10.0.0.2:2379]"; got != want || own["drop_on_close"] == keep {
			t.Errorf("with keep %v: endpoints %s, drop on close %v; want %s and %v", keep, got, own["drop_on_close"], want, !keep)
		}
		if _, ok := s.effective("pebble")["etcd"]; ok {
			t.Errorf("pebble's options %v: the etcd flag must leave other engines alone", s.effective("pebble"))
		}
	}
	if _, err := parseFlags([]string{"-engine", "etcd", "-etcd-endpoints", "a:1,,b:2"}); err == nil {
		t.Error("an empty endpoint was accepted")
	}
}
