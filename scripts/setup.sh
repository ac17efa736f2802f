#!/usr/bin/env bash
# Installs what building and testing need, and nothing more: Debian's -dev
# packages for the C engines, HyperLevelDB built from source, and the Go
# modules. Quick and silent when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Libraries are checked as Debian packages; tools by command, since npm
# may come from another package (nodejs) than Debian's npm.
packages=(libleveldb-dev librocksdb-dev libsnappy-dev libzstd-dev liblz4-dev libbz2-dev zlib1g-dev)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm)
command -v g++ >/dev/null || missing+=(g++)
if ((${#missing[@]})); then
	echo "setup: installing ${missing[*]}" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

scripts/build-hyperleveldb.sh
go mod download
