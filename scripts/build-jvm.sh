#!/usr/bin/env bash
# Builds the JVM worker (jvm/, the JVM engines' child process) into
# build/jvm: worker.jar, its dependencies' jars in lib/ (from Maven
# Central the first time, into ~/.m2; offline after that), and jvm.options.
# Quick and silent when the jar is newer than every file under jvm/.
#
#   scripts/build-jvm.sh        build it
#   scripts/build-jvm.sh test   run the worker's tests (make test), offline
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v javac >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
if ((${#need[@]})); then
	echo "build-jvm: installing ${need[*]}" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
		echo "build-jvm: could not install ${need[*]}: install it with apt-get (Debian's ${need[*]}) and run make again" >&2
		exit 1
	fi
fi
release=$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
if [ "${release:-0}" -lt 17 ]; then
	echo "build-jvm: javac ${release:-?} is older than 17: install openjdk-17-jdk-headless" >&2
	exit 1
fi

# Offline first, so that a build with every artifact in ~/.m2 touches no
# network; online again only when an artifact was missing. Debian's Maven
# prints colour resets even in batch mode: they are dropped.
mvn_() {
	local out
	if out=$(mvn -B -q -f jvm/pom.xml -o "$@" 2>&1); then
		return 0
	fi
	if grep -q "in offline mode" <<<"$out"; then
		mvn -B -q -f jvm/pom.xml "$@" 2>&1 | sed 's/\x1b\[0m//g' >&2
		return
	fi
	sed 's/\x1b\[0m//g' <<<"$out" >&2
	return 1
}

if [ "${1:-}" = test ]; then
	mvn_ test
	exit
fi
jar=build/jvm/worker.jar
if [ -f "$jar" ] && [ -f build/jvm/jvm.options ] && [ -z "$(find jvm -type f -newer "$jar" -print -quit)" ]; then
	exit 0
fi
echo "build-jvm: building the JVM worker into build/jvm" >&2
# copy-dependencies adds jars and removes none: a version bump would leave
# the old jar beside the new in lib/, and the worker's classpath (lib/*)
# would load whichever came first (an 11.1.2 RocksDB under an 11.8.1 pin).
rm -rf build/jvm/lib
mvn_ -DskipTests package
