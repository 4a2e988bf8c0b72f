#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Print SOURCE_DATE_EPOCH for a U-Boot tree, so that its builds are reproducible
#
# Usage: scripts/perfrec_source_date.sh <u-boot tree>
#
# The date of the Debian changelog's newest entry for Debian's source package,
# else the tree's last git commit, else (a tree without either) the
# modification time of its top-level Makefile.

set -eu
src=$1
if [ -f "$src/debian/changelog" ]; then
	dpkg-parsechangelog -l "$src/debian/changelog" -STimestamp
elif git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" log -1 --format=%ct
else
	stat -c %Y "$src/Makefile"
fi
