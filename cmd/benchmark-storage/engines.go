package main

// Every backend is linked in, so that -engine all runs them all.
import _ "github.com/tsbench/storage/engine/all"
