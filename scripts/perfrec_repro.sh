#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# The two checks of a reproducible build: no relink, and the same bytes elsewhere
#
# Usage: scripts/perfrec_repro.sh relink <file> <command> [args...]
#        scripts/perfrec_repro.sh compare <dir> <other dir> <file>...
#
# relink: runs the command (a second make), its output discarded, and fails if
#         it failed or rewrote <file> (its modification time moved).
# compare: each <file> must be the same, byte for byte, in both directories.

set -u
case ${1-} in
relink)
	file=$2
	shift 2
	before=$(stat -c %Y "$file")
	if ! "$@" >/dev/null || [ "$(stat -c %Y "$file")" != "$before" ]; then
		echo "perfrec: a second make rebuilt $file"
		exit 1
	fi
	;;
compare)
	dir=$2 other=$3
	shift 3
	for f; do
		cmp "$dir/$f" "$other/$f" || exit 1
	done
	;;
*)
	echo "usage: $0 relink <file> <command> [args...] | compare <dir> <other dir> <file>..." >&2
	exit 2
	;;
esac
