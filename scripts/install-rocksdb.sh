#!/usr/bin/env bash
# Installs RocksDB's official release library for the engine/rocksdb cgo
# binding.
#
#   scripts/install-rocksdb.sh          the default release, 11.8.1, under
#                                       PREFIX (default /usr/local):
#     PREFIX/lib/librocksdb.so.11.8.1 (and the .so.11, .so links)
#     PREFIX/include/rocksdb/c.h      the C API header of the same release
#     PREFIX/lib/pkgconfig/rocksdb.pc
#   scripts/install-rocksdb.sh VERSION  another release, for -engine
#                                       rocksdb@VERSION, under build/:
#     build/rocksdb/VERSION/lib/librocksdb.so.11  loaded by a benchmark's
#                                       child through LD_LIBRARY_PATH
#     build/rocksdb/VERSION/include/rocksdb/c.h   where librocksdb-sys
#                                       carries that release's header
#
# RocksDB's maintainers publish release builds of the library only inside
# the Java binding, org.rocksdb:rocksdbjni, fetched here with Maven.
# Its Linux x86-64 library exports the whole C API beside the JNI one,
# links its compression libraries in statically and has no test sync
# points; compiling RocksDB ourselves would take far longer. The library
# has no SONAME, so it gets one (librocksdb.so.11, for every release):
# programs linked with it then record that name, which Debian's librocksdb
# cannot answer to, and one binary loads any release installed here.
#
# Headers do not ship in the jar; the C API header of a release is the one
# the Rust crate librocksdb-sys carries for it, fetched from crates.io (the
# Go binding grocksdb has no release for 11.8.1). Only 10.4.2 and 11.8.1
# have such a crate; the other releases get no header: the binary is
# compiled against 11.8.1's, and engine/rocksdb compares the functions it
# calls with those each library exports before a run. Every jar, library
# inside it, crate and header is pinned by sha256 below. Re-running is
# instant: a stamp keyed by the checksums and this script skips an
# up-to-date install. A versioned install is made in a temporary folder
# and renamed into place, so a failure leaves nothing half-installed.
#
# Exit status 2 means a bad request: a release not in the table below, or
# a file whose sha256 differs from its pin.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly DEFAULT=11.8.1
readonly SOVERSION=11
# The main jar carries every platform's library (the linux64 classifier
# jar stops at 11.1.2).
readonly MEMBER=librocksdbjni-linux64.so

# The releases of org.rocksdb:rocksdbjni served on Maven Central, each
# checked once by downloading it: the jar's classifier (- for the main
# jar; 10.4.2's main jar carries no native library, its linux64 one
# does), the jar's sha256, its Linux x86-64 library's, and the
# librocksdb-sys crate carrying its C header (- for none).
readonly RELEASES="
10.0.1    -       e96a0e5cfce70af7da59ca84e54f849a3ec51de435e63a807fcad56f3806ba62 3218784b59b9cb258d6eb0e513ee697f141ae737502d6a330d5433cddad07286 -
10.1.3    -       e7f925287d9fe2574fb7c7a86f7facaa9b8ab602a2eed0e598bf633528121498 b30a66cdbc6a8c6ba6b4d06b8be48cfa20364197ce085cbf748ad3ff8d774913 -
10.2.1    -       4358a08bb96652dca35247137ec42db26e6b71f0a02633a3d7508cf2971f2f8b 5f72e5df43909a8eed04f9d0f2eccb77f7de12c1de3451f52143602848f02379 -
10.4.2    linux64 34a9b9ab5bdb128c058363d72a83ab5d0a498a97df9cf1291f1a6e9260bb70b1 36d6570459a9ed6b01b0de4adae6d19e19cf9671d59ac878e21fc4a6da487607 0.17.3+10.4.2
10.5.1    -       0932becb931032701aaf1ff965df9bef5e1e4a8a6b89da172f9e4d962de20fe9 b3642a51e76e0f8089bf5a8d99490e1823a9f3279ee91bad9f795499bc0d55ca -
10.6.2    -       b8cd69e581964e46e8dbc75d287352d2be81c3339822ae18d82f1d13fecf1cd2 1fc598c2283714cdfda05a24546fc6a0760d58f5877112d8eba171d3c426edbc -
10.10.1   -       3e3c9e439b89c2ac4aaa7512bc73052d44b3a6397daed6cb88168cefa6e431a9 14750307fe12f75bd400ed8156dfb737a7a7229ffe4c8b8bbe218e754dbe14b2 -
10.10.1.1 -       e862cc37a22df8f1e7c12556f5141ce65d782af77e30aee1bd7d488d7c554fde 980731bb963544daf1a3e21d250c26bf675443af2940716ec95ef5381db418c3 -
11.0.4    -       bacde04f91daa0d7939f8a7a4ad11cc7a15b9b5f415ce3aa7bdb769a28101047 6baeb89ee3a578d9f54ec9b5a58d82ebc00e6e0f6bf896bf59a2f9f0b4d0e83f -
11.1.1    -       71353febb7196261d6204d0f606e365e78009aaf014580a2f91d3a9a2d7d982e b65b6dd0d0263ceebe6897bb82041ff6546c2eab696e6470c42f380959a53a84 -
11.1.2    -       d2851e044959af829fe486757c15174f570d7f06ee6eab2cb1be2ac0cc7e168f 677f59bfa16175a2d0a165b2e9dbee6e64d242ac3747b25e10c94033d5f37e06 -
11.8.1    -       628ed387887f4a431df480857954df2a28b4389bfe24858ccdec611cabf65dbf 265c656af5c6502cb8d71db1a74858509f706cc47f1a5b6f603c736d11ce677d 0.19.0+11.8.1
"
# The librocksdb-sys crates named above: the crate's sha256 (as crates.io
# lists it) and its rocksdb/include/rocksdb/c.h's.
readonly CRATES="
0.17.3+10.4.2 cef2a00ee60fe526157c9023edab23943fae1ce2ab6f4abb2a807c1746835de9 5be95e4571b5dc38061b304ec7035b7b5faa611a6df860d30f394d359ce47e0c
0.19.0+11.8.1 4f45e86edad8e88efe97dbf384b4e48e1ff0f111eabf154c7b09d7a1e5fb573c d2d96eb10b8670e37cb51c91758e39d7f10acfede72ab69e765326585eefb41f
"

# bad says what is wrong with the request in one line and exits 2.
bad() {
	echo "$script: $*" >&2
	exit 2
}

# pinned FILE WANT exits 2 unless FILE has sha256 WANT, deleting FILE, a
# download, so that the next run fetches it again.
pinned() {
	local got
	got=$(sha256sum "$1" | cut -d' ' -f1)
	[[ $got == "$2" ]] && return
	rm -f "$1"
	bad "$(basename "$1") has sha256 $got, want $2: a corrupt or substituted download, deleted; run again to fetch it again"
}

version=${1:-$DEFAULT}
(($# <= 1)) || bad "usage: $0 [VERSION]"
row=$(awk -v v="$version" '$1 == v' <<<"$RELEASES")
[[ -n $row ]] || bad "RocksDB $version is not a release this script installs: choose one of $(awk 'NF {printf "%s%s", s, $1; s = ", "}' <<<"$RELEASES")"
read -r _ CLASSIFIER JAR_SHA256 MEMBER_SHA256 CRATE_VERSION <<<"$row"
if [[ $CLASSIFIER == - ]]; then
	readonly JAR=rocksdbjni-$version.jar ARTIFACT=org.rocksdb:rocksdbjni:$version
else
	readonly JAR=rocksdbjni-$version-$CLASSIFIER.jar ARTIFACT=org.rocksdb:rocksdbjni:$version:jar:$CLASSIFIER
fi
CRATE="" CRATE_SHA256="" HEADER_SHA256=""
if [[ $CRATE_VERSION != - ]]; then
	read -r _ CRATE_SHA256 HEADER_SHA256 <<<"$(awk -v v="$CRATE_VERSION" '$1 == v' <<<"$CRATES")"
	CRATE=librocksdb-sys-$CRATE_VERSION
fi

[[ $(uname -m) == x86_64 ]] ||
	die "the official RocksDB $version library is pinned for Linux x86-64 only, and this is $(uname -sm)"

need sha256sum "install coreutils"
need flock "install util-linux"
lock rocksdb

# A versioned release goes under build/, whole or not at all.
if [[ $# -eq 1 ]]; then
	dest="$root/build/rocksdb/$version"
	lib="$dest/lib/librocksdb.so.$SOVERSION"
	stampfile="$dest/stamp"
	stamp="$JAR_SHA256 $HEADER_SHA256 $(sha256sum "$0" | cut -d' ' -f1)"
	up_to_date "$stampfile" "$stamp" && [[ -f $lib ]] && exit 0
else
	lib="$PREFIX/lib/librocksdb.so.$version"
	stampfile="$stamps/rocksdb.stamp"
	stamp="$PREFIX $JAR_SHA256 $HEADER_SHA256 $(sha256sum "$0" | cut -d' ' -f1)"
	if up_to_date "$stampfile" "$stamp" && [[ -f $lib && -f $PREFIX/include/rocksdb/c.h &&
		-f $PREFIX/lib/pkgconfig/rocksdb.pc ]]; then
		exit 0
	fi
fi

need unzip "install unzip (apt-get install unzip)"
need patchelf "install patchelf (apt-get install patchelf)"
if [[ ! -f $download/$JAR ]]; then
	need mvn "install Maven (apt-get install maven), or copy $JAR into $download"
	echo "install-rocksdb: fetching $ARTIFACT"
	# Maven reports errors on stdout, among its progress noise.
	log=$(mvn -B -q dependency:copy -Dartifact="$ARTIFACT" -DoutputDirectory="$download" 2>&1) ||
		die "mvn could not fetch $ARTIFACT; check network access, or copy $JAR into $download:"$'\n'"$log"
fi
pinned "$download/$JAR" "$JAR_SHA256"
if [[ -n $CRATE && ! -f $download/$CRATE.crate ]]; then
	need curl "install curl (apt-get install curl)"
	url=https://static.crates.io/crates/librocksdb-sys/$CRATE.crate
	echo "install-rocksdb: fetching $url"
	curl -fsSL --retry 3 -o "$download/$CRATE.crate.part" "$url" ||
		die "could not fetch $url; check network access, or copy $CRATE.crate into $download"
	mv "$download/$CRATE.crate.part" "$download/$CRATE.crate"
fi
[[ -z $CRATE ]] || pinned "$download/$CRATE.crate" "$CRATE_SHA256"

mkdir -p "$root/build/rocksdb"
work=$(mktemp -d "$root/build/rocksdb/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
unzip -q -d "$work" "$download/$JAR" "$MEMBER"
pinned "$work/$MEMBER" "$MEMBER_SHA256"
patchelf --set-soname "librocksdb.so.$SOVERSION" "$work/$MEMBER"
header=""
if [[ -n $CRATE ]]; then
	tar -xzf "$download/$CRATE.crate" -C "$work" "$CRATE/rocksdb/include/rocksdb/c.h"
	header="$work/$CRATE/rocksdb/include/rocksdb/c.h"
	pinned "$header" "$HEADER_SHA256"
fi

if [[ $# -eq 1 ]]; then
	echo "install-rocksdb: installing RocksDB $version into $dest"
	mkdir -p "$work/release/lib"
	mv "$work/$MEMBER" "$work/release/lib/librocksdb.so.$SOVERSION"
	if [[ -n $header ]]; then
		install -D -m 0644 "$header" "$work/release/include/rocksdb/c.h"
	fi
	echo "$stamp" >"$work/release/stamp"
	# An outdated install is moved aside, not overwritten: a running
	# benchmark may have its library loaded.
	if [[ -e $dest ]]; then
		mv "$dest" "$work/old"
	fi
	mv -T "$work/release" "$dest"
	exit 0
fi

echo "install-rocksdb: installing RocksDB $version into $PREFIX"
install_library "$work/$MEMBER" rocksdb "$version" "$SOVERSION"
as_root install -D -m 0644 "$header" "$PREFIX/include/rocksdb/c.h"
write_pc rocksdb "$version" "RocksDB, the official release library" "-lrocksdb"
refresh_linker install-rocksdb
record "$stampfile" "$stamp"
