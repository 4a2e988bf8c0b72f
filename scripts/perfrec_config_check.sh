#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Check that every option the config fragments set stuck in a U-Boot .config
#
# Usage: scripts/perfrec_config_check.sh <.config> <fragment>...
#
# Kconfig silently drops an option whose dependencies are not met. For each
# option the fragments set (the last setting wins, as with merge_config.sh),
# the .config must hold the same line, or for "# CONFIG_X is not set" no
# "CONFIG_X=" line. Else it names the option, removes the .config (so that the
# next make configures again) and exits 1.

set -eu
config=$1
shift
grep -hE '^CONFIG_|^# CONFIG_.* is not set' "$@" |
	awk '{ k = $0; sub(/^# /, "", k); sub(/[= ].*/, "", k);
	       if (!(k in v)) o[n++] = k; v[k] = $0 }
	     END { for (i = 0; i < n; i++) print v[o[i]] }' |
	while IFS= read -r opt; do
		case "$opt" in
		"# "*) k=${opt#\# }; ! grep -q "^${k%% *}=" "$config" ;;
		*) grep -qxF "$opt" "$config" ;;
		esac || { echo "perfrec: '$opt' did not stick in $config"; rm -f "$config"; exit 1; }
	done
