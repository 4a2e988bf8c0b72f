#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Run a command while a busy loop holds one CPU core: a slower, busier host
#
# Usage: scripts/perfrec_load.sh <command> [args...]
#
# The loop is pinned to the last core (taskset) and ends with the command, on
# every way out. Exit status: the command's.

set -u
core=$(($(nproc) - 1))
taskset -c "$core" sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT INT TERM
echo "perfrec_load: busy loop (pid $hog) on core $core while: $*"
"$@"
