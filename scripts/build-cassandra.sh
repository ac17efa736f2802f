#!/usr/bin/env bash
# Resolves the Apache Cassandra server that engine/cassandra starts as a
# local cluster: org.apache.cassandra:cassandra-all at the version
# scripts/cassandra/pom.xml pins, with its dependencies, from Maven Central
# into ~/.m2 (Maven checks each download against its .sha1; -C makes a
# mismatch fatal), and writes their classpath to build/cassandra/classpath,
# where the engine reads it. The server jar itself is pinned here by
# sha256 as well. Then it compiles scripts/cassandra/Probe.java, the JVM
# that the engine's Compact sends flush and compact requests to over JMX,
# into build/cassandra/probe with the JDK's javac. Quick and silent when
# the classpath is newer than the POM and every jar it names is there,
# and the probe is newer than its source and the classpath.
set -euo pipefail
cd "$(dirname "$0")/.."

version=5.0.9
sha256=6a80e6fddde88817deec4839ae431e3a9c4eeb728560336890094c6f870fef5e
pom=scripts/cassandra/pom.xml
out=build/cassandra/classpath
jar=$HOME/.m2/repository/org/apache/cassandra/cassandra-all/$version/cassandra-all-$version.jar
probe_src=scripts/cassandra/Probe.java
probe_out=build/cassandra/probe
probe_class=$probe_out/org/tsbench/cassandra/Probe.class

done_already() {
	[ -f "$out" ] && [ "$out" -nt "$pom" ] && [ "$out" -nt "$0" ] || return 1
	local f
	while IFS= read -r -d: f || [ -n "$f" ]; do
		[ -f "$f" ] || return 1
	done <"$out"
}
# build_probe compiles the probe against the resolved jars, which give
# it the StorageService MBean interface it calls, unless it is up to date.
build_probe() {
	if [ -f "$probe_class" ] && [ "$probe_class" -nt "$probe_src" ] && [ "$probe_class" -nt "$out" ] && [ "$probe_class" -nt "$0" ]; then
		return 0
	fi
	if ! command -v javac >/dev/null; then
		echo "build-cassandra: no javac: install Debian's openjdk-17-jdk-headless (make setup does)" >&2
		exit 1
	fi
	echo "build-cassandra: compiling $probe_src into $probe_out" >&2
	rm -rf "$probe_out.tmp"
	# -path: the jars' manifests name Class-Path entries that do not exist.
	javac --release 17 -Xlint:all,-path -Werror -cp "$(cat "$out")" -d "$probe_out.tmp" "$probe_src"
	rm -rf "$probe_out"
	mv "$probe_out.tmp" "$probe_out"
}
if done_already; then
	build_probe
	exit 0
fi

for tool in java:openjdk-17-jre-headless mvn:maven; do
	if ! command -v "${tool%%:*}" >/dev/null; then
		echo "build-cassandra: no ${tool%%:*}: install Debian's ${tool#*:} (make setup does)" >&2
		exit 1
	fi
done

echo "build-cassandra: resolving cassandra-all $version and its dependencies into ~/.m2" >&2
mkdir -p build/cassandra
# Offline first, so that nothing is fetched when ~/.m2 holds it all; online
# when something is missing. Debian's Maven prints colour resets even in
# batch mode: they are dropped.
mvn_() {
	local log
	if log=$(mvn -B -q -C -o -f "$pom" "$@" 2>&1); then
		return 0
	fi
	if grep -q "offline" <<<"$log"; then
		mvn -B -q -C -f "$pom" "$@" 2>&1 | sed 's/\x1b\[0m//g' >&2
		return "${PIPESTATUS[0]}"
	fi
	sed 's/\x1b\[0m//g' <<<"$log" >&2
	return 1
}
if ! mvn_ dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$PWD/$out.tmp"; then
	echo "build-cassandra: Maven could not resolve cassandra-all $version (see above); check the network to Maven Central and run make setup again" >&2
	exit 1
fi
if ! echo "$sha256  $jar" | sha256sum -c --quiet - >/dev/null 2>&1; then
	echo "build-cassandra: $jar does not have the pinned sha256 $sha256: delete it and run make setup again" >&2
	rm -f "$out.tmp"
	exit 1
fi
mv "$out.tmp" "$out"
build_probe
