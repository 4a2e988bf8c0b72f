#!/bin/sh
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Run one group of U-Boot's 'ut' tests on sandbox; all of them must run and pass
#
# Usage: scripts/perfrec_sandbox_ut.sh <sandbox build dir> <suite> <prefix> <test source>...
#
# Runs 'ut <suite> <prefix>*' in the sandbox u-boot and prints its Test: and
# Failures: lines (2025.10 on: 'Test: <name>' without the suite's prefix, and
# 'Tests run: N, ..., failures: 0'). The tests the sources define (<SUITE>_TEST(<suite>_test_<prefix>...),
# e.g. LIB_TEST(lib_test_perf_data_...)) must each have run, with no failure:
# a test that silently stops being built or run fails the check.

set -u
dir=$1 suite=$2 prefix=$3
shift 3
name=${suite}_test_$prefix
want=$(cat "$@" | grep -c "^[A-Z_]*TEST($name")
out=$(cd "$dir" && ./u-boot -T -c "ut $suite $prefix*" 2>&1 | tr -d '\r')
echo "$out" | grep -E '^(Test:|Failures:|Tests run:)'
ran=$(echo "$out" | grep -Ec "^Test: (${suite}_test_)?$prefix")
passed=$(echo "$out" | grep -Exc 'Failures: 0|Tests run: [0-9]+, .*failures: 0')
if [ "$passed" -ne 1 ] || [ "$ran" -ne "$want" ]; then
	echo "perfrec: ut $suite $prefix*: $ran of $want tests ran, or one failed"
	echo "$out" | tail -20
	exit 1
fi
