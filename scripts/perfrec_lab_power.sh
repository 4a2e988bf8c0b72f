#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# A board's power in the loopback lab (scripts/perfrec_loopback_lab.py):
# pdudaemon's localcmdline driver runs it for an outlet.
#
#   perfrec_lab_power.sh on PLACE_DIR    start the board's QEMU (once)
#   perfrec_lab_power.sh off PLACE_DIR   stop it, and wait until it is gone
#
# PLACE_DIR holds the image the power-on boots and qemu.env, the console
# hook's environment for the board (test/hooks/bin/u-boot-test-console, whose
# QEMU command line the tests use), its UART on the lab's console relay.
# QEMU's PID goes to PLACE_DIR/qemu.pid, its own messages to qemu.log.

set -e
dir=$2
pidfile=$dir/qemu.pid
hooks=$(dirname "$0")/../test/hooks/bin

off() {
	[ -f "$pidfile" ] || return 0
	pid=$(cat "$pidfile")
	rm -f "$pidfile"
	kill "$pid" 2>/dev/null || return 0
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 "$pid" 2>/dev/null || true
}

case $1 in
on)
	off
	set -a
	# shellcheck disable=SC1091
	. "$dir/qemu.env"
	set +a
	"$hooks/u-boot-test-console" </dev/null >"$dir/qemu.log" 2>&1 &
	echo $! >"$pidfile"
	;;
off)
	off
	;;
*)
	echo "usage: $0 on|off PLACE_DIR" >&2
	exit 2
	;;
esac
