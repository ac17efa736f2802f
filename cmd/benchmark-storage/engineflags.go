package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/cgroup"
	"github.com/tsbench/storage/internal/report"
)

// engineFlags are shared engine options set on the command line. Like
// -sync they override the config file, for every engine alike.
type engineFlags struct {
	cacheSize   int64  // bytes; 0 keeps the config's (default 64 MiB)
	compression string // "on", "off", or "" to keep the config's (on)
	etcd        etcdFlags
}

func (f *engineFlags) define(fs *flag.FlagSet) {
	f.etcd.define(fs)
	fs.Var((*sizeValue)(&f.cacheSize), "cache-size", "block cache of every engine in `bytes`: 64MiB, 64M (64,000,000) or a plain number; overrides the config's cache_size (default 64 MiB)")
	fs.Func("compression", "block compression of every engine: `on|off`; overrides the config's disable_compression (default on)", func(v string) error {
		if v != "on" && v != "off" {
			return fmt.Errorf("use on or off")
		}
		f.compression = v
		return nil
	})
}

// sizeValue is a flag.Value for a size in bytes with an optional unit, as
// config files take them (engine.ParseSize).
type sizeValue int64

func (v *sizeValue) Set(s string) error {
	n, err := engine.ParseSize(s)
	switch {
	case err != nil:
		return errors.New(strings.TrimPrefix(err.Error(), fmt.Sprintf("size %q", s)+": "))
	case n < 1:
		return errors.New("must be at least 1 byte")
	}
	*v = sizeValue(n)
	return nil
}

func (v *sizeValue) String() string { return strconv.FormatInt(int64(*v), 10) }

// memoryValue is -memory: a size of at least cgroup.MinLimit.
type memoryValue int64

func (v *memoryValue) Set(s string) error {
	n, err := engine.ParseSize(s)
	switch {
	case err != nil:
		return errors.New(strings.TrimPrefix(err.Error(), fmt.Sprintf("size %q", s)+": "))
	case n < cgroup.MinLimit:
		return fmt.Errorf("is below the minimum of %s: no engine opens in less; raise it, or leave -memory out for no limit", report.Bytes(cgroup.MinLimit))
	}
	*v = memoryValue(n)
	return nil
}

func (v *memoryValue) String() string { return strconv.FormatInt(int64(*v), 10) }
