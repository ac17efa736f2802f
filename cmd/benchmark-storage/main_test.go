package main

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Environment variables of the child re-exec trick: run starts children
// with os.Executable, which in a test is the test binary, so TestMain turns
// that binary into the command when asked.
const (
	// envChild makes the test binary behave as benchmark-storage.
	envChild = "BENCHMARK_STORAGE_TEST_AS_COMMAND"
	// envFault makes one engine's child misbehave before it writes a
	// result: "NAME:3" exits with status 3 as if it crashed, "NAME:kill"
	// dies of SIGKILL as if out of memory, "NAME:0" exits cleanly without
	// a result, "NAME:hang" sleeps until killed, "NAME:panic" panics.
	envFault = "BENCHMARK_STORAGE_TEST_FAULT"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "1" {
		fault(os.Args[1:])
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// Every child a test starts is the command: set once here, not per
	// test (t.Setenv), so that tests may run in parallel. Under -race a
	// child would sleep a second at exit (the race detector's default
	// atexit_sleep_ms): a test starts a hundred of them.
	os.Setenv(envChild, "1")
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// fault applies envFault when args are a child's for the named engine.
func fault(args []string) {
	name, what, ok := strings.Cut(os.Getenv(envFault), ":")
	if !ok || len(args) != 2 || args[0] != childJobFlag || args[1] != name {
		return
	}
	switch what {
	case "3":
		os.Exit(3)
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Hour)
	case "0":
		os.Exit(0)
	case "hang":
		time.Sleep(time.Hour)
	case "panic":
		panic("engine fault for the test")
	}
}
