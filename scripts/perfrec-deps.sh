#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Install the Debian packages perfrec needs to build, run and test, when missing.
#
# Usage: scripts/perfrec-deps.sh [--check]
#   --check  only list what is missing; exit 1 if anything is

set -eu

# One package a line, with the reason it is needed.
PACKAGES="
make			build driver
gcc			host builds of the writer and U-Boot's host tools
libc6-dev		host builds
gcc-aarch64-linux-gnu	cross compiler for U-Boot
binutils-aarch64-linux-gnu	readelf/objdump/addr2line for the aarch64 ELF
bison			U-Boot's Kconfig and dtc
flex			U-Boot's Kconfig and dtc
bc			U-Boot's build scripts
libssl-dev		U-Boot's host tools (mkimage)
libgnutls28-dev		U-Boot's host tools (mkeficapsule)
uuid-dev		U-Boot's host tools
swig			U-Boot's pylibfdt
device-tree-compiler	dtc
python3			Debian's interpreter for the build, tests and tools
python3-dev		U-Boot's pylibfdt
python3-setuptools	U-Boot's pylibfdt
python3-pytest		U-Boot's test/py harness
python3-filelock	U-Boot's test/py harness
python3-pytest-xdist	U-Boot's test/py conftest hook
python3-pycryptodome	a stock U-Boot test imported at collection
python3-pyelftools	ELF symbol checks in tests
qemu-system-arm		qemu-system-aarch64: the board every test runs on
linux-perf		host perf: the judge of every perf.data
dpkg-dev		dpkg-source, to unpack U-Boot's Debian source package
xz-utils		Debian source tarballs
bzip2			Debian source tarballs
patch			Debian source patches
perl			U-Boot's checkpatch.pl
"

want=$(printf '%s\n' "$PACKAGES" | awk 'NF { print $1 }')
missing=
for pkg in $want; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $pkg"
	fi
done

if [ -z "$missing" ]; then
	echo "perfrec-deps: all $(echo $want | wc -w) packages present"
	exit 0
fi

echo "perfrec-deps: missing:$missing"
[ "${1:-}" = "--check" ] && exit 1

SUDO=
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
