#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Record one flow on two U-Boot builds and compare them with perfrec_diff.py.

Usage:
    perfrec_diff_builds.py --base-dir DIR --new-dir DIR --out DIR [--flow CMDS]
                           [--base-flow CMDS] [--png] [--check-match]
                           [--fail-above PCT]

Boots each build on QEMU virt under -icount shift=0, records the flow with
call graphs ('perfrec record -g -e cycles -c PERIOD -- run perfrec_flow'),
brings each perf.data to the host (OUT/base.data, OUT/new.data) and runs
perfrec_diff.py -g on them, writing its report to OUT/diff.txt and its
differential flame graph to OUT/diff.html (and OUT/diff.png with --png).
--base-flow records another flow on the base build (a planted change);
--fail-above is perfrec_diff.py's gate, whose exit code (1: it failed) is
then this script's.

--check-match is make check's test of matching across builds whose layout
differs (the default and the early-boot build): the two ELFs must place the
flow's functions at other addresses and have other build-ids, and yet every
function with at least 1% of either recording's events must be in both (not
new, not vanished) with its events within MATCH_PCT percent of each other
or two periods. Exit code 0 when all went well.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'tools',
                     'perfrec')
sys.path.insert(0, TOOLS)
# pylint: disable=wrong-import-position
from perfrec_qemu import Board  # noqa: E402
from perfrec_diff import elf_functions, read_report  # noqa: E402

FLOW = ('crc32 0x40000000 0x400000; hash sha256 0x40000000 0x100000; '
        'perfrec_test chain 3 300000')
PERIOD = 10007
RECORD = (f'perfrec record -g -e cycles -c {PERIOD} -o 0x50000000 -s 0x1000000 -- '
          'run perfrec_flow')
# Functions of the flow whose addresses must differ between the builds
FLOW_FUNCS = ('crc32_no_comp', 'perfrec_test_spin')
MATCH_PCT = 2.0
SUMMARY = re.compile(r'perfrec: (\d+) samples, (\d+) lost, (\d+) bytes')


def record_and_save(board, cmd, path, timeout=600):
    """Run the perfrec record @cmd on @board, save the perf.data at host @path

    Returns:
        tuple: (samples, bytes of perf.data); raises RuntimeError if the
        recording failed or lost samples, or the file was not written
    """
    out = board.run(cmd, timeout=timeout)
    mat = SUMMARY.search(out)
    if not mat or mat.group(2) != '0':
        raise RuntimeError(f'recording failed:\n{out}')
    saved = board.run(f'save hostfs - $fileaddr {path} $filesize', timeout=timeout)
    if 'bytes written' not in saved:
        raise RuntimeError(f'saving {path} failed:\n{saved}')
    return int(mat.group(1)), int(mat.group(3))


def record(build, flow, path):
    """Boot @build, record @flow, save the perf.data at @path"""
    with Board(build, icount='shift=0') as board:
        board.run(f"setenv perfrec_flow '{flow}'")
        record_and_save(board, RECORD, path)


def check_match(args, report):
    """Return the problems with @report as a match of one flow on two builds"""
    problems = []
    funcs = [{name: addr for addr, _, name, _ in elf_functions(os.path.join(d, 'u-boot'))}
             for d in (args.base_dir, args.new_dir)]
    moved = [name for name in FLOW_FUNCS if funcs[0].get(name) != funcs[1].get(name)]
    if moved != list(FLOW_FUNCS):
        problems.append(f'the builds place {set(FLOW_FUNCS) - set(moved)} at the same address: '
                        'no test of matching across layouts')
    ids = re.findall(r'build-id ([0-9a-f]+|none)', report.splitlines()[0])
    if len(set(ids)) != 2:
        problems.append(f'the builds have one build-id: {ids}')
    rows, (base_total, new_total) = read_report(report)['cycles']
    for name, (before, after, _, _, mark) in rows.items():
        if before * 100 < base_total and after * 100 < new_total:
            continue
        if mark:
            problems.append(f'{name} has {before} / {after} events but is marked {mark}')
        elif abs(after - before) > max(2 * PERIOD, MATCH_PCT / 100 * before):
            problems.append(f'{name}: {before} -> {after} events, more than {MATCH_PCT}% or '
                            'two periods apart')
    return problems


def main(argv=None):
    """Record on both builds, compare; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--base-dir', required=True)
    parser.add_argument('--new-dir', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--flow', default=FLOW, help='the flow recorded (default %(default)s)')
    parser.add_argument('--base-flow', help='the flow recorded on the base build (default: --flow)')
    parser.add_argument('--png', action='store_true', help='also picture the flame graph')
    parser.add_argument('--fail-above', metavar='PCT', help="perfrec_diff.py's gate")
    parser.add_argument('--hover', metavar='NAME', help='the picture with the pointer on NAME')
    parser.add_argument('--check-match', action='store_true',
                        help='check that the flow matches function by function')
    args = parser.parse_args(argv)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, name) for name in ('base.data', 'new.data')]
    for path in paths:
        if os.path.exists(path):
            os.remove(path)
    for build, flow, path in ((args.base_dir, args.base_flow or args.flow, paths[0]),
                              (args.new_dir, args.flow, paths[1])):
        print(f'perfrec_diff_builds: recording "{flow}" on {build}')
        record(os.path.abspath(build), flow, path)
    cmd = ['/usr/bin/python3', os.path.join(TOOLS, 'perfrec_diff.py'), paths[0], args.base_dir,
           paths[1], args.new_dir, '-g', '-n', '0' if args.check_match else '12', '--paths', '5',
           '--flame', os.path.join(out, 'diff.html')]
    if args.fail_above:
        cmd += ['--fail-above', args.fail_above]
    if args.hover:
        cmd += ['--hover', args.hover]
    if args.png:
        cmd += ['--png', os.path.join(out, 'diff.png'), '--png-width', '1200']
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    with open(os.path.join(out, 'diff.txt'), 'w', encoding='utf-8') as outf:
        outf.write(proc.stdout)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode:
        print(f'perfrec_diff_builds: perfrec_diff.py exited {proc.returncode}', file=sys.stderr)
        return proc.returncode
    if args.check_match:
        problems = check_match(args, proc.stdout)
        for problem in problems:
            print(f'perfrec_diff_builds: {problem}', file=sys.stderr)
        if problems:
            return 1
        print('perfrec_diff_builds: the flow matches function by function across the builds')
    return 0


if __name__ == '__main__':
    sys.exit(main())
