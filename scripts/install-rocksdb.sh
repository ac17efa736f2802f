#!/usr/bin/env bash
# Installs RocksDB's official release library under PREFIX (default
# /usr/local) for the engine/rocksdb cgo binding:
#
#   PREFIX/lib/librocksdb.so.11.8.1 (and the .so.11, .so links)
#   PREFIX/include/rocksdb/c.h      the C API header of the same release
#   PREFIX/lib/pkgconfig/rocksdb.pc
#
# RocksDB's maintainers publish release builds of the library only inside
# the Java binding, org.rocksdb:rocksdbjni, fetched here with Maven.
# Its Linux x86-64 library exports the whole C API beside the JNI one,
# links its compression libraries in statically and has no test sync
# points; compiling RocksDB ourselves would take far longer. The library
# has no SONAME, so it gets one (librocksdb.so.11): programs linked with
# it then record that name, which Debian's librocksdb cannot answer to.
#
# Headers do not ship in the jar; the C API header of the same release is
# the one the Rust crate librocksdb-sys 0.19.0+11.8.1 carries, fetched
# from crates.io (the Go binding grocksdb has no release for 11.8.1). The
# jar, the library inside it, the crate and the header are pinned by
# sha256 below. Re-running is instant: a stamp
# keyed by the checksums and this script skips an up-to-date install.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly VERSION=11.8.1
readonly SOVERSION=11
# The main jar carries every platform's library (the linux64 classifier
# jar stops at 11.1.2).
readonly ARTIFACT=org.rocksdb:rocksdbjni:$VERSION
readonly JAR=rocksdbjni-$VERSION.jar
readonly JAR_SHA256=628ed387887f4a431df480857954df2a28b4389bfe24858ccdec611cabf65dbf
readonly MEMBER=librocksdbjni-linux64.so
readonly MEMBER_SHA256=265c656af5c6502cb8d71db1a74858509f706cc47f1a5b6f603c736d11ce677d
readonly CRATE=librocksdb-sys-0.19.0+$VERSION
readonly CRATE_URL=https://static.crates.io/crates/librocksdb-sys/$CRATE.crate
readonly CRATE_SHA256=4f45e86edad8e88efe97dbf384b4e48e1ff0f111eabf154c7b09d7a1e5fb573c
readonly HEADER_SHA256=d2d96eb10b8670e37cb51c91758e39d7f10acfede72ab69e765326585eefb41f

[[ $(uname -m) == x86_64 ]] ||
	die "the official RocksDB $VERSION library is pinned for Linux x86-64 only, and this is $(uname -sm)"

need sha256sum "install coreutils"
need flock "install util-linux"
lock rocksdb

lib="$PREFIX/lib/librocksdb.so.$VERSION"
stampfile="$root/build/rocksdb.stamp"
stamp="$PREFIX $JAR_SHA256 $HEADER_SHA256 $(sha256sum "$0" | cut -d' ' -f1)"
if up_to_date "$stampfile" "$stamp" && [[ -f $lib && -f $PREFIX/include/rocksdb/c.h &&
	-f $PREFIX/lib/pkgconfig/rocksdb.pc ]]; then
	exit 0
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
check_sha256 "$download/$JAR" "$JAR_SHA256"
if [[ ! -f $download/$CRATE.crate ]]; then
	need curl "install curl (apt-get install curl)"
	mkdir -p "$download"
	echo "install-rocksdb: fetching $CRATE_URL"
	curl -fsSL --retry 3 -o "$download/$CRATE.crate.part" "$CRATE_URL" ||
		die "could not fetch $CRATE_URL; check network access, or copy $CRATE.crate into $download"
	mv "$download/$CRATE.crate.part" "$download/$CRATE.crate"
fi
check_sha256 "$download/$CRATE.crate" "$CRATE_SHA256"

work=$(mktemp -d "$root/build/rocksdb-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
unzip -q -d "$work" "$download/$JAR" "$MEMBER"
check_sha256 "$work/$MEMBER" "$MEMBER_SHA256"
tar -xzf "$download/$CRATE.crate" -C "$work" "$CRATE/rocksdb/include/rocksdb/c.h"
header="$work/$CRATE/rocksdb/include/rocksdb/c.h"
check_sha256 "$header" "$HEADER_SHA256"
patchelf --set-soname "librocksdb.so.$SOVERSION" "$work/$MEMBER"

echo "install-rocksdb: installing RocksDB $VERSION into $PREFIX"
install_library "$work/$MEMBER" rocksdb "$VERSION" "$SOVERSION"
as_root install -D -m 0644 "$header" "$PREFIX/include/rocksdb/c.h"
write_pc rocksdb "$VERSION" "RocksDB, the official release library" "-lrocksdb"
refresh_linker install-rocksdb
echo "$stamp" >"$stampfile"
