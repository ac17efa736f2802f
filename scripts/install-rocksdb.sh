#!/usr/bin/env bash
# Installs RocksDB's official release library under PREFIX (default
# /usr/local) for the engine/rocksdb cgo binding:
#
#   PREFIX/lib/librocksdb.so.11.1.2 (and the .so.11, .so links)
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
# the one grocksdb's module carries. The jar, the library inside it and
# the header are pinned by sha256 below. Re-running is instant: a stamp
# keyed by the checksums and this script skips an up-to-date install.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly VERSION=11.1.2
readonly SOVERSION=11
readonly ARTIFACT=org.rocksdb:rocksdbjni:$VERSION
readonly JAR=rocksdbjni-$VERSION.jar
readonly JAR_SHA256=d2851e044959af829fe486757c15174f570d7f06ee6eab2cb1be2ac0cc7e168f
readonly MEMBER=librocksdbjni-linux64.so
readonly MEMBER_SHA256=677f59bfa16175a2d0a165b2e9dbee6e64d242ac3747b25e10c94033d5f37e06
readonly HEADER_SHA256=5ccf0734b2a821826458c2ccb312d40dc02cfa0f504e96ba9dcdc2e557338765

[[ $(uname -m) == x86_64 ]] ||
	die "the official RocksDB $VERSION library is pinned for Linux x86-64 only, and this is $(uname -sm)"

need sha256sum "install coreutils"
need flock "install util-linux"
need go "install Go (see go.mod for the version)"
lock rocksdb

# grocksdb v1.11.1 is the Go binding built for RocksDB 11.1.2; only its
# copy of the release's c.h is used. The Go module proxy serves it, and
# the Go checksum database vouches for it besides the pin below.
module=github.com/linxGnu/grocksdb@v1.11.1
dir=$(cd "$root" && go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -n $dir ]] || die "go mod download $module failed; check network access"
header="$dir/c.h"
got=$(sha256sum "$header" | cut -d' ' -f1)
[[ $got == "$HEADER_SHA256" ]] ||
	die "$header has sha256 $got, want $HEADER_SHA256; change the module version and the pin together"

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

work=$(mktemp -d "$root/build/rocksdb-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
unzip -q -d "$work" "$download/$JAR" "$MEMBER"
check_sha256 "$work/$MEMBER" "$MEMBER_SHA256"
patchelf --set-soname "librocksdb.so.$SOVERSION" "$work/$MEMBER"

echo "install-rocksdb: installing RocksDB $VERSION into $PREFIX"
install_library "$work/$MEMBER" rocksdb "$VERSION" "$SOVERSION"
as_root install -D -m 0644 "$header" "$PREFIX/include/rocksdb/c.h"
write_pc rocksdb "$VERSION" "RocksDB, the official release library" "-lrocksdb"
refresh_linker install-rocksdb
echo "$stamp" >"$stampfile"
