#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Measure perfrec_diff.py on two 100000-sample call-graph recordings.

Usage:
    perfrec_diff_bench.py --build-dir DIR --out DIR [--doc FILE] [--runs N]

Records a flow with -g on QEMU virt under -icount shift=0 twice (the second
time with 2% more CRC-32 work), at least SAMPLES samples each, brings both
to the host and times 'perfrec_diff.py BASE DIR NEW DIR -g' (RUNS runs):
wall time, CPU time and the peak resident memory of the largest process
(perf script or the Python), from getrusage() of the children. Prints a
markdown table; --doc (or --readme) replaces the text between the lines
'.. bench-diff:start' and '.. bench-diff:end' of the doc page
(doc/develop/perfrec.rst) with it as reStructuredText (<!-- bench-diff:start -->
and <!-- bench-diff:end --> in a Markdown file). Exit code 0 on success.
"""

import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'scripts'))
# pylint: disable=wrong-import-position
from perfrec_qemu import Board  # noqa: E402
from perfrec_diff_builds import record_and_save  # noqa: E402
from perfrec_bench_report import put_doc  # noqa: E402

DIFF = os.path.join(os.path.dirname(HERE), 'tools', 'perfrec', 'perfrec_diff.py')
SAMPLES = 100000
PERIOD = 4000
CRC_LEN = 0x3000000
RECORD = (f'perfrec record -g -e cycles -c {PERIOD} -o 0x50000000 -s 0x3000000 -- '
          'crc32 0x40000000 {size:#x}')


def measure(args, paths):
    """Time perfrec_diff.py -g on @paths in a child; return (wall, cpu, peak KiB)"""
    cmd = [sys.executable, '-c', '''
import resource, subprocess, sys, time
start = time.monotonic()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
wall = time.monotonic() - start
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(proc.returncode, wall, use.ru_utime + use.ru_stime, use.ru_maxrss)
''', '/usr/bin/python3', DIFF, paths[0], args.build_dir, paths[1], args.build_dir, '-g']
    code, wall, cpu, peak = subprocess.run(cmd, capture_output=True, text=True,
                                           check=True).stdout.split()
    if code != '0':
        raise RuntimeError(f'perfrec_diff.py exited {code}')
    return float(wall), float(cpu), int(peak)



def main(argv=None):
    """Record, measure, print (and put in the doc page); return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--doc', '--readme', dest='doc', metavar='FILE',
                        help='replace the bench-diff markers of this doc page '
                        '(doc/develop/perfrec.rst)')
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args(argv)
    # Fail now, not after the runs
    if args.doc and not put_doc(args.doc, 'bench-diff', 'perfrec_diff_bench'):
        return 1
    os.makedirs(args.out, exist_ok=True)
    paths = [os.path.join(os.path.abspath(args.out), n) for n in ('base.data', 'new.data')]
    got = []
    with Board(os.path.abspath(args.build_dir), icount='shift=0') as board:
        for path, size in zip(paths, (CRC_LEN, CRC_LEN * 102 // 100)):
            samples, size_bytes = record_and_save(board, RECORD.format(size=size), path,
                                                  timeout=1200)
            got.append((samples, size_bytes))
    if min(s for s, _ in got) < SAMPLES:
        print(f'perfrec_diff_bench: only {got} samples: raise CRC_LEN', file=sys.stderr)
        return 1
    runs = [measure(args, paths) for _ in range(args.runs)]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    peak = max(r[2] for r in runs)
    table = '\n'.join([
        '| Diffing two `-g` recordings | base | new |',
        '|---|---|---|',
        f'| samples | {got[0][0]} | {got[1][0]} |',
        f'| perf.data bytes | {got[0][1]} | {got[1][1]} |',
        '',
        f'| `perfrec_diff.py -g` (median of {args.runs} runs, {os.cpu_count()} cores) | |',
        '|---|---|',
        f'| wall time | {wall:.1f} s |',
        f'| CPU time (Python and perf script) | {cpu:.1f} s |',
        f'| peak resident memory, largest process | {peak / 1024:.0f} MiB |',
    ])
    print(table)
    if args.doc and not put_doc(args.doc, 'bench-diff', 'perfrec_diff_bench', table):
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
