#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Print the make arguments that select the newest U-Boot release perfrec can get
#
# Usage: scripts/perfrec_newest.sh <python> <build dir> <newest suite> <fallback suite> [tree]
#
# With a tree (NEWEST_SRC=): that tree. Otherwise the newest suite's source
# package is fetched (scripts/perfrec_get_uboot.py); when Debian lists it but
# does not serve its files (exit 3), the fallback suite stands in and a
# NOT TESTED line on stderr says so (fatal with REQUIRE_NEWEST=1). Any other
# failure to fetch is fatal.

set -u
python=$1 build=$2 newest=$3 fallback=$4 tree=${5:-}

if [ -n "$tree" ]; then
	echo "UBOOT_SRC=$tree"
	exit 0
fi
rc=0
"$python" scripts/perfrec_get_uboot.py --suite "$newest" --apt-dir "$build/apt/$newest" \
	--dest "$build/uboot/$newest" >&2 || rc=$?
case $rc in
0)
	echo "UBOOT_SUITE=$newest"
	;;
3)
	echo "perfrec: NOT TESTED: U-Boot of Debian $newest (listed, but its source is not" \
	     "served); Debian $fallback stands in as the newest release" >&2
	[ -z "${REQUIRE_NEWEST:-}" ] || exit 1
	echo "UBOOT_SUITE=$fallback"
	;;
*)
	exit "$rc"
	;;
esac
