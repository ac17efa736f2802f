// Package all links in every workload, each registering itself with
// package workload/suite, as engine/all does the engines: a program that
// imports it for its side effects can run any of them by name.
package all

import (
	// Each registers itself from its init.
	_ "github.com/tsbench/storage/workload/crash"
	_ "github.com/tsbench/storage/workload/micro"
	_ "github.com/tsbench/storage/workload/mixed"
	_ "github.com/tsbench/storage/workload/steady"
	_ "github.com/tsbench/storage/workload/timeseries"
)
