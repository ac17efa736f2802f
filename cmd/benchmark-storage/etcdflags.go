package main

import (
	"errors"
	"flag"
	"strings"
)

// etcdFlags are the etcd engine's settings on the command line.
type etcdFlags struct {
	// endpoints, separated by commas, override the config's [etcd]
	// endpoints; "" keeps them. A string keeps the flags comparable.
	endpoints string
}

func (f *etcdFlags) define(fs *flag.FlagSet) {
	fs.Func("etcd-endpoints", "the etcd engine uses the running cluster at these client URLs, `host:port,...`, under a run prefix of its own, which each engine process deletes when it closes the engine, unless -keep (one killed first leaves it); the same as -set etcd.endpoints=host:port,... (default: start a local cluster of 3 members)", func(v string) error {
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
