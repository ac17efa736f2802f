#!/usr/bin/env bash
# Builds LevelDB 1.23 as a release library and installs it under PREFIX
# (default /usr/local) for the engine/leveldb cgo binding:
#
#   PREFIX/lib/libleveldb.so.1.23.0 (and the .so.1, .so links)
#   PREFIX/include/leveldb/*.h
#   PREFIX/lib/pkgconfig/leveldb.pc
#
# Debian's libleveldb is built without NDEBUG, so its assertions run on
# every hot path. This is the same upstream source, the 1.23 release
# tarball Debian ships as leveldb_1.23.orig.tar.gz (checksum pinned
# below), compiled with -O2 -DNDEBUG and Snappy, and with
# -frecord-gcc-switches so that the flags can be read back from the
# installed library. Its soname, libleveldb.so.1, differs from Debian's
# libleveldb.so.1d, so a program linked with it cannot load Debian's.
#
# The tarball is fetched with apt-get source from the deb-src twin of this
# system's own Debian entries, through a private apt configuration under
# build/, so the system's apt state is not touched. Re-running is instant:
# a stamp keyed by the checksum and this script skips an up-to-date
# install.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly VERSION=1.23
readonly TARBALL=leveldb_$VERSION.orig.tar.gz
readonly SHA256=9a37f8a6174f09bd622bc723b55881dc541cd50747cbd08831c2a82d620f6d76
readonly LIBRARY=libleveldb.so.$VERSION.0

need sha256sum "install coreutils"
need flock "install util-linux"
lock leveldb

stampfile="$stamps/leveldb.stamp"
stamp="$PREFIX $SHA256 $(sha256sum "$0" | cut -d' ' -f1)"
if up_to_date "$stampfile" "$stamp" && [[ -f $PREFIX/lib/$LIBRARY && -f $PREFIX/include/leveldb/c.h &&
	-f $PREFIX/lib/pkgconfig/leveldb.pc ]]; then
	exit 0
fi

# deb_src_entries CODENAME prints, in deb822 form, a deb-src entry for
# every enabled deb entry of the system's apt sources (either format) that
# carries the suite CODENAME, with that suite alone: other suites and
# third-party repositories are not needed and may have no sources.
deb_src_entries() {
	local list parts f
	eval "$(apt-config shell list Dir::Etc::sourcelist/f parts Dir::Etc::sourceparts/d)"
	shopt -s nullglob
	# One-line style: deb [options] URI SUITE COMPONENT...
	for f in "$list" "$parts"/*.list; do
		[[ -f $f ]] || continue
		awk -v suite="$1" '
			$1 != "deb" { next }
			{
				i = 2; opts = ""
				if ($2 ~ /^\[/) {
					while (i <= NF && $i !~ /\]$/) { opts = opts " " $i; i++ }
					opts = opts " " $i; i++
					gsub(/[][]/, "", opts)
				}
				if ($(i + 1) != suite) next
				printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $i, suite
				for (j = i + 2; j <= NF && $j !~ /^#/; j++) printf " %s", $j
				printf "\n"
				n = split(opts, o, " ")
				for (j = 1; j <= n; j++) {
					split(o[j], kv, "=")
					if (kv[1] == "signed-by") printf "Signed-By: %s\n", kv[2]
					if (kv[1] == "trusted") printf "Trusted: %s\n", kv[2]
				}
				printf "\n"
			}' "$f"
	done
	# deb822 style: one paragraph per entry; continuation lines start
	# with white space.
	for f in "$parts"/*.sources; do
		awk -v suite="$1" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " suite " ") && tolower(enabled) != "no")
					printf "Types: deb-src\nSuites: %s\n%s\n", suite, rest
				types = suites = enabled = rest = ""; field = ""
			}
			/^#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ { if (field != "skip") rest = rest $0 "\n"; next }
			{
				name = tolower($0); sub(/:.*/, "", name)
				value = $0; sub(/^[^:]*:[ \t]*/, "", value)
				field = "keep"
				if (name == "types") { types = value; field = "skip" }
				else if (name == "suites") { suites = value; field = "skip" }
				else if (name == "enabled") { enabled = value; field = "skip" }
				else rest = rest $0 "\n"
			}
			END { flush() }' "$f"
	done
}

# fetch downloads TARBALL into $download with apt-get source, which also
# fetches Debian's .dsc and packaging; only the tarball is kept.
fetch() {
	need apt-get "this fetches LevelDB's source from Debian; elsewhere copy $TARBALL into $download"
	local codename apt versions version
	codename=$(sed -n 's/^VERSION_CODENAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release)
	[[ -n $codename ]] || die "/etc/os-release names no release codename; copy $TARBALL into $download"
	apt="$root/build/apt"
	rm -rf "$apt"
	mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial"
	: >"$apt/empty.list"
	deb_src_entries "$codename" >"$apt/parts/leveldb-src.sources"
	[[ -s $apt/parts/leveldb-src.sources ]] ||
		die "no apt source of this system carries the suite $codename; copy $TARBALL into $download"
	local opts=(
		-o Dir::Etc::SourceList="$apt/empty.list" -o Dir::Etc::SourceParts="$apt/parts"
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
		-o APT::Sandbox::User="$(id -un)"
	)
	echo "build-leveldb: fetching LevelDB $VERSION source with apt-get"
	apt-get -qq "${opts[@]}" update ||
		die "apt-get update of the $codename source index failed; check network access, or copy $TARBALL into $download"
	# Every Debian revision of 1.23 ships the same upstream tarball, which
	# the checksum pins; the newest the archive has is taken.
	versions=$(apt-cache "${opts[@]}" showsrc leveldb | sed -n 's/^Version: //p')
	version=$(grep "^$VERSION-" <<<"$versions" | sort -V | tail -n 1) ||
		die "Debian $codename has LevelDB ${versions//$'\n'/, }, not $VERSION; copy $TARBALL into $download"
	(cd "$apt" && apt-get -qq "${opts[@]}" source --download-only "leveldb=$version" >/dev/null) ||
		die "apt-get source leveldb=$version failed; check network access, or copy $TARBALL into $download"
	mv "$apt/$TARBALL" "$download/"
	rm -rf "$apt"
}

[[ -f $download/$TARBALL ]] || fetch
check_sha256 "$download/$TARBALL" "$SHA256"

need cmake "install cmake (apt-get install cmake)"
need g++ "install g++ (apt-get install g++)"
[[ -f /usr/include/snappy.h ]] || die "snappy.h not found; install libsnappy-dev (apt-get install libsnappy-dev)"

echo "build-leveldb: compiling LevelDB $VERSION (under a minute)"
work=$(mktemp -d "$root/build/leveldb-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$download/$TARBALL" -C "$work"
# Snappy is linked in privately: RocksDB's release library exports a copy
# of Snappy of its own, and a program that loads both would otherwise run
# LevelDB's compression on RocksDB's copy (measured 27% more CPU on scans).
snappy=$(gcc -print-file-name=libsnappy.a)
[[ -f $snappy ]] || die "libsnappy.a not found; install libsnappy-dev (apt-get install libsnappy-dev)"
sed -i "s|target_link_libraries(leveldb snappy)|target_link_libraries(leveldb $snappy)|" "$work/leveldb-$VERSION/CMakeLists.txt"
grep -q "target_link_libraries(leveldb $snappy)" "$work/leveldb-$VERSION/CMakeLists.txt" ||
	die "could not point LevelDB's CMakeLists.txt at $snappy"
# HAVE_CRC32C and HAVE_TCMALLOC are preset so that whatever else is
# installed, the library is the one Debian builds: Snappy only.
cmake -S "$work/leveldb-$VERSION" -B "$work/build" -Wno-dev \
	-DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
	-DCMAKE_C_FLAGS=-frecord-gcc-switches -DCMAKE_CXX_FLAGS=-frecord-gcc-switches \
	-DBUILD_SHARED_LIBS=ON -DLEVELDB_BUILD_TESTS=OFF -DLEVELDB_BUILD_BENCHMARKS=OFF \
	-DHAVE_CRC32C=OFF -DHAVE_TCMALLOC=OFF -DCMAKE_SHARED_LINKER_FLAGS=-Wl,--exclude-libs,ALL \
	-DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib >"$work/cmake.log" ||
	die "cmake failed:"$'\n'"$(cat "$work/cmake.log")"
grep -q '^HAVE_SNAPPY:INTERNAL=1$' "$work/build/CMakeCache.txt" ||
	die "cmake did not find Snappy; install libsnappy-dev (apt-get install libsnappy-dev)"
cmake --build "$work/build" -j 2 >"$work/build.log" ||
	die "compilation failed:"$'\n'"$(tail -n 30 "$work/build.log")"

echo "build-leveldb: installing LevelDB $VERSION into $PREFIX"
as_root cmake --install "$work/build" >/dev/null
write_pc leveldb "$VERSION" "LevelDB, a release build (-O2 -DNDEBUG)" "-lleveldb"
refresh_linker build-leveldb
record "$stampfile" "$stamp"
