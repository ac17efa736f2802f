// Package jvm registers the JVM engines, the key-value stores of the 2016
// LmdbJava reports: lmdbjava, lmdbjni, lwjgl, leveldbjni, rocksdbjni,
// mapdb, mvstore, xodus and chroniclemap. No Go program opens them: the
// JVM worker (jvm/ of this repository, built into build/jvm by
// scripts/build-jvm.sh) runs each in a JVM of its own, a child process
// that speaks the benchmark child's protocol (docs/protocol.md). Each is
// registered with engine.Driver.Process, the worker's command line, and
// in the group "jvm", which a list of engines may name as it names all.
//
// The engines share the shared options (engine.Options); lmdbjava has one
// of its own, its buffer (Options).
package jvm
