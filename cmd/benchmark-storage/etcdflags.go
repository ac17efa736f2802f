package main

import (
	"errors"
	"flag"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/etcd"
)

// etcdFlags are the etcd engine's settings on the command line.
type etcdFlags struct {
	// endpoints, separated by commas, override the config's [etcd]
	// endpoints; "" keeps them. A string keeps the flags comparable.
	endpoints string
}

func (f *etcdFlags) define(fs *flag.FlagSet) {
	fs.Func("etcd-endpoints", "the etcd engine uses the running cluster at these client URLs, `host:port,...`, under a run prefix of its own that it deletes at the end unless -keep; overrides the config's [etcd] endpoints (default: start a local cluster of 3 members)", func(v string) error {
		eps := strings.Split(v, ",")
		for i, e := range eps {
			if eps[i] = strings.TrimSpace(e); eps[i] == "" {
				return errors.New("an empty endpoint: give host:port or http://host:port, separated by commas")
			}
		}
		f.endpoints = strings.Join(eps, ",")
		return nil
	})
}

// apply sets the endpoints of the etcd engine's options o, and makes an
// engine on a given cluster delete its run prefix when it closes unless
// keep: the cluster outlives the run directory, which the parent removes.
func (f etcdFlags) apply(name string, o *engine.Options, keep bool) error {
	if name != "etcd" {
		return nil
	}
	own, err := engine.OptionsFor[etcd.Options](*o, name)
	if err != nil {
		return err
	}
	if f.endpoints != "" {
		own.Endpoints = strings.Split(f.endpoints, ",")
	}
	own.DropOnClose = len(own.Endpoints) > 0 && !keep
	o.Engine = own
	return nil
}
