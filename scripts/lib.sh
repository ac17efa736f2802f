# Shared by the install scripts (sourced, not run). Every C library the
# engines link is installed under one prefix, with a pkg-config file, so
# that cgo finds it by ordinary means: a module outside this repository
# that imports engine/all builds with a plain `go build`.

# PREFIX is where libraries, headers and .pc files go. /usr/local is on the
# compiler's, linker's, loader's and pkg-config's default search paths.
PREFIX=${PREFIX:-/usr/local}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Build trees live in the git-ignored build/ folder. Downloads, each pinned
# by sha256 and checked where it is used, live in the user's cache, which
# every clone shares: a fresh clone fetches nothing again.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/benchmark-storage
download="$cache/download"
# stamps is where an install under PREFIX records what made it (STAMP,
# up_to_date), beside what it installed rather than in a clone: a fresh
# clone whose scripts would install the same finds the work done.
stamps="$PREFIX/share/benchmark-storage"
script=$(basename "$0" .sh)

die() {
	echo "$script: $*" >&2
	exit 1
}

need() {
	command -v "$1" >/dev/null || die "$1 not found; $2"
}

# as_root runs a command as root where PREFIX is not writable by us.
as_root() {
	if [[ -w $PREFIX/lib && -w $PREFIX/include ]] || [[ $(id -u) -eq 0 ]]; then
		"$@"
	else
		need sudo "run as root, or set PREFIX to a directory you can write"
		sudo "$@"
	fi
}

# check_sha256 FILE WANT fails unless FILE has sha256 WANT.
check_sha256() {
	local got
	got=$(sha256sum "$1" | cut -d' ' -f1)
	[[ $got == "$2" ]] || die "$1 has sha256 $got, want $2; delete it to fetch it again"
}

# lock NAME serialises concurrent runs of one script, from any clone: a
# second caller waits, then finds the work done.
lock() {
	mkdir -p "$download" "$root/build"
	exec 9>"$cache/.$1.lock"
	flock 9
}

# up_to_date STAMPFILE STAMP reports whether an install recorded STAMP.
up_to_date() {
	[[ -f $1 && "$(cat "$1")" == "$2" ]]
}

# record STAMPFILE STAMP records an install under PREFIX, once it is whole.
record() {
	local tmp
	tmp=$(mktemp)
	echo "$2" >"$tmp"
	as_root install -D -m 0644 "$tmp" "$1"
	rm -f "$tmp"
}

# write_pc NAME VERSION DESCRIPTION LIBS [CFLAGS] installs NAME.pc under
# PREFIX/lib/pkgconfig. LIBS are the linker flags after -L${libdir}.
write_pc() {
	local tmp
	tmp=$(mktemp)
	cat >"$tmp" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: $1
Description: $3
Version: $2
Libs: -L\${libdir} $4
Cflags: -I\${includedir} ${5:-}
PC
	as_root install -D -m 0644 "$tmp" "$PREFIX/lib/pkgconfig/$1.pc"
	rm -f "$tmp"
}

# install_library FILE NAME VERSION SOVERSION installs the shared library
# FILE as PREFIX/lib/libNAME.so.VERSION with its libNAME.so.SOVERSION and
# libNAME.so links. The new file is renamed into place: overwriting the
# old one in place would crash programs that have it loaded.
install_library() {
	local lib="$PREFIX/lib/lib$2.so.$3"
	as_root install -D -m 0755 "$1" "$lib.new"
	as_root mv -f "$lib.new" "$lib"
	as_root ln -sfn "lib$2.so.$3" "$PREFIX/lib/lib$2.so.$4"
	as_root ln -sfn "lib$2.so.$4" "$PREFIX/lib/lib$2.so"
}

# refresh_linker makes the dynamic linker see what was installed under
# /usr/local, or tells the user of another PREFIX what to set; $1 names
# the script.
refresh_linker() {
	if [[ $PREFIX == /usr/local ]]; then
		as_root ldconfig
	else
		echo "$1: add $PREFIX/lib to LD_LIBRARY_PATH and $PREFIX/lib/pkgconfig to PKG_CONFIG_PATH" >&2
	fi
}
