package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/tsbench/storage/engine"
)

// engineFlags are shared engine options set on the command line. Like
// -sync they override the config file, for every engine alike.
type engineFlags struct {
	cacheSize   int64  // bytes; 0 keeps the config's (default 64 MiB)
	compression string // "on", "off", or "" to keep the config's (on)
}

func (f *engineFlags) define(fs *flag.FlagSet) {
	fs.Var((*countValue)(&f.cacheSize), "cache-size", "block cache of every engine in `bytes` (64M is 64,000,000); overrides the config's cache_size (default 64 MiB)")
	fs.Func("compression", "block compression of every engine: `on|off`; overrides the config's disable_compression (default on)", func(v string) error {
		if v != "on" && v != "off" {
			return fmt.Errorf("use on or off")
		}
		f.compression = v
		return nil
	})
}

// apply sets the options that were given.
func (f engineFlags) apply(o *engine.Options) {
	if f.cacheSize > 0 {
		o.CacheSize = f.cacheSize
	}
	if f.compression != "" {
		o.DisableCompression = f.compression == "off"
	}
}

// args are the flags that give a child the same options.
func (f engineFlags) args() []string {
	var args []string
	if f.cacheSize > 0 {
		args = append(args, "-cache-size", strconv.FormatInt(f.cacheSize, 10))
	}
	if f.compression != "" {
		args = append(args, "-compression", f.compression)
	}
	return args
}
