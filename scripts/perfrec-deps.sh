#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Install the Debian packages perfrec needs to build, run and test, when missing,
# then the npm packages of the flame graph (tools/perfrec/flamegraph) with "npm ci".
#
# Usage: scripts/perfrec-deps.sh [--check | --list]
#   --check  only list what is missing; exit 1 if anything is
#   --list   print the Debian packages and what each is for ("<package><TAB>
#            <reason>", one a line) and nothing else: no dpkg, no apt, no npm
#            (scripts/perfrec_doc_tables.py makes the doc page's table of it)

set -eu

case "${1:-}" in
""|--check|--list) ;;
*)
	echo "usage: $0 [--check | --list]" >&2
	exit 2
	;;
esac

# One package a line, with the reason it is needed.
PACKAGES="
make			build driver
gcc			host builds of the writer and U-Boot's host tools
libc6-dev		host builds
gcc-aarch64-linux-gnu	cross compiler for U-Boot
gcc-arm-linux-gnueabihf	cross compiler for the 32-bit Arm build (make build-arm32)
binutils-aarch64-linux-gnu	readelf/objdump/addr2line for the aarch64 ELF
bison			U-Boot's Kconfig and dtc
flex			U-Boot's Kconfig and dtc
bc			U-Boot's build scripts
libssl-dev		U-Boot's host tools (mkimage)
libgnutls28-dev		U-Boot's host tools (mkeficapsule)
uuid-dev		U-Boot's host tools
efitools		cert-to-efi-sig-list, which U-Boot 2025.01's sandbox build runs
swig			U-Boot's pylibfdt
device-tree-compiler	dtc
libfdt-dev		libfdt for perfrec-verdict, perfrec's device-tree rules built for the host (make perfrec-verdict)
python3			Debian's interpreter for the build, tests and tools
python3-dev		U-Boot's pylibfdt
python3-setuptools	U-Boot's pylibfdt
python3-pytest		U-Boot's test/py harness
python3-filelock	U-Boot's test/py harness
python3-pytest-xdist	U-Boot's test/py conftest hook
python3-pycryptodome	a stock U-Boot test imported at collection
python3-pyelftools	ELF symbol checks in tests
python3-docutils	the doc page's generated tables read back (test_doc_tables.py)
qemu-system-arm		qemu-system-aarch64: the board every test runs on
linux-perf		host perf: the judge of every perf.data
dpkg-dev		dpkg-source, to unpack U-Boot's Debian source package
xz-utils		Debian source tarballs
bzip2			Debian source tarballs
patch			Debian source patches
perl			U-Boot's checkpatch.pl
nodejs			node and npm: the flame graph's npm packages and browser check
chromium		headless browser: the flame graph's test and picture
fonts-dejavu-core	text in Chromium's and hotspot's pictures
hotspot			hotspot-perfparser: the second judge of every perf.data
xvfb			a display for hotspot's picture (make hotspot-picture)
xdotool			selects hotspot's flame graph tab for the picture
adwaita-icon-theme	hotspot's toolbar icons in the picture
git			make patches: the series is git format-patch output, checked with git am
pylint			make check-series: U-Boot's pylint rules on perfrec's Python
python3-sphinx		make check-series: perfrec's pages in U-Boot's documentation build
python3-sphinx-rtd-theme	U-Boot's documentation theme
python3-sphinx-prompt	an extension U-Boot's doc/conf.py loads (2025.01 on)
graphviz		dot, which U-Boot's documentation build looks for
debootstrap		make lab-host: the trixie chroot with QEMU 11 and perf 7.3
iproute2		make check-lab: ip and ss in the lab's network namespace
util-linux		make check-lab: unshare, the lab's network namespace of its own
ccache			make check-board-builds: a rerun compiles only what changed
lzop			make check-board-builds: the armhf boards Debian builds with it (dra7xx_evm)
python3-jsonschema	make check-board-builds: binman on the arm64 boards Debian builds with it
xxd			make check-board-builds: as Debian's arm64 boards build
"

if [ "${1:-}" = "--list" ]; then
	printf '%s\n' "$PACKAGES" | awk 'NF {
		reason = $0
		if (!sub(/^[ \t]*[^ \t]+[ \t]*/, "", reason))
			reason = ""
		print $1 "\t" reason
	}'
	exit 0
fi

TOP="$(cd "$(dirname "$0")/.." && pwd)"
# The flame graph's npm packages: d3-flame-graph's offline template and
# playwright-core, exactly as package-lock.json says, into its node_modules/
NPM_DIR="$TOP/tools/perfrec/flamegraph"
# The installers' own output (apt, npm: hundreds of lines) goes here; each
# step prints one line, and the log's end when it fails
LOG="$TOP/build/deps.log"

# step <what> <command...>: run a command with its output in $LOG
step() {
	what=$1
	shift
	mkdir -p "$(dirname "$LOG")"
	echo "perfrec-deps: $what (log: $LOG)"
	echo "\$ $*" >>"$LOG"
	if ! "$@" >>"$LOG" 2>&1; then
		echo "perfrec-deps: $what failed; the end of $LOG:"
		tail -n 20 "$LOG"
		exit 1
	fi
}

# True when node_modules is missing or older than the package files ("npm ci"
# writes node_modules/.package-lock.json last)
npm_stale() {
	[ ! -f "$NPM_DIR/node_modules/.package-lock.json" ] ||
		[ -n "$(find "$NPM_DIR/package.json" "$NPM_DIR/package-lock.json" \
			-newer "$NPM_DIR/node_modules/.package-lock.json")" ]
}

npm_install() {
	if npm_stale; then
		# shellcheck disable=SC2016
		step "npm ci in $NPM_DIR" sh -c 'cd "$1" && npm ci --no-audit --no-fund --prefer-offline' \
			sh "$NPM_DIR"
	else
		echo "perfrec-deps: npm packages present in $NPM_DIR"
	fi
}

want=$(printf '%s\n' "$PACKAGES" | awk 'NF { print $1 }')
# One dpkg-query for all (every make target runs this): the installed ones
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $want 2>/dev/null |
	awk '/ ok installed$/ { print $1 }')
missing=$(printf '%s\n' "$want" | awk -v have="$installed" '
	BEGIN { n = split(have, a, "\n"); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
	!($1 in ok) { printf " %s", $1 }')
# NodeSource's nodejs brings npm; Debian's has it in a package of its own
if printf '%s\n' "$installed" | grep -qx nodejs &&
	! command -v npm >/dev/null 2>&1; then
	missing="$missing npm"
fi

if [ -z "$missing" ]; then
	echo "perfrec-deps: all $(echo $want | wc -w) packages present"
	if [ "${1:-}" = "--check" ]; then
		if npm_stale; then
			echo "perfrec-deps: npm packages missing or stale in $NPM_DIR"
			exit 1
		fi
		exit 0
	fi
	npm_install
	exit 0
fi

echo "perfrec-deps: missing:$missing"
[ "${1:-}" = "--check" ] && exit 1

SUDO=
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
step "apt-get update" $SUDO apt-get update -q
# shellcheck disable=SC2086
step "apt-get install of$missing" $SUDO apt-get install -y -q --no-install-recommends $missing
command -v npm >/dev/null 2>&1 ||
	step "apt-get install of npm" $SUDO apt-get install -y -q --no-install-recommends npm
npm_install
