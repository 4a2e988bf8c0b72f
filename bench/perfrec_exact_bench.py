#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec's profiles against the exact truth: the accuracy table of make bench.

Usage:
    perfrec_exact_bench.py --build-dir build/qemu_arm64_perfrec
        --early-dir build/qemu_arm64_perfrec_early --plugin PLUGIN --out DIR
        [--doc doc/develop/perfrec.rst]

Each case records on QEMU virt under -icount shift=0 while the TCG plugin
(scripts/qemu-plugin/) counts every instruction between the counters' start
and stop (scripts/perfrec_exact_run.py), and compares each function's share
of the samples' events with its share of the instructions: the total
variation distance (TVD, half the sum of the differences; 0 is the truth,
1 nothing in common), beside the TVD that as many independent random
samples would show, and the function that differs most. --doc replaces the
text between the lines '.. bench-exact:start' and '.. bench-exact:end'.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'scripts'))
# pylint: disable=wrong-import-position
import perfrec_exact_run as RUN  # noqa: E402
from perfrec_bench_report import put_doc, table  # noqa: E402

WORKLOAD = 'crc32 0x40000000 0x800000; hash sha256 0x40000000 0x800000'
# (name, early build, perfrec_exact_run.py's options)
CASES = [
    ('`cycles -c 10007`, flat', False, []),
    ('`cycles -c 10007 -g`', False, ['-g']),
    ('`cpu-clock -c 20000` (ns)', False, ['--event', 'cpu-clock', '-c', '20000']),
    ('the whole boot, from board_init_f() to the prompt, default (every 20000 cycles, '
     '`-g`)', True, ['--boot']),
    ('the same, `__udelay` and `get_ticks` (one busy-wait loop) counted as one', True,
     ['--boot', '--fold-symbols', '__udelay|get_ticks']),
    ('the whole boot, flat, every 2003 cycles', True,
     ['--boot', '--boot-period', '2003', '--boot-callchain', '0']),
]


def measure(args):
    """[(case, result)] of every case"""
    out = []
    for i, (name, early, opts) in enumerate(CASES):
        build = args.early_dir if early else args.build_dir
        argv = ['--build-dir', build, '--out', os.path.join(args.out, str(i)),
                '--plugin', args.plugin, '--workload', WORKLOAD] + opts
        res = RUN.run_board(RUN.parse_args(argv))
        print(f"perfrec_exact_bench: {name}: TVD {res['tvd']:.5f} over {res['samples']} "
              'samples', file=sys.stderr)
        out.append((name, res))
    return out


def markdown(results):
    """The accuracy table, Markdown"""
    rows = []
    for name, res in results:
        top = res['top'][0] if res.get('top') else None
        rows.append([name, '%d' % res['samples'], '%.4f' % res['tvd'],
                     '%.4f' % res['tvd_random'],
                     '`%s` %.2f%% / %.2f%%' % (top['function'], top['exact_pct'],
                                               top['perf_pct']) if top else '-',
                     '%d' % res.get('lost', 0)])
    out = ['perfrec against the exact truth (`make bench`): QEMU 7.2 virt, EL1 / GICv2, '
           '`-icount shift=0`, a TCG plugin counting every instruction from the counters\' '
           'start to their stop (the IRQ handler\'s own left out: it cannot be sampled). '
           'Workloads: `%s`.' % WORKLOAD, '']
    out += table(['recording', 'samples', 'TVD', 'TVD of as many random samples',
                  'function that differs most: exact / perfrec', 'lost'], rows,
                 ['---', '---:', '---:', '---:', '---', '---:'])
    out += ['', 'TVD: half the sum over functions of |exact share - sampled share|. '
            'Shares of instructions, each sample weighted by its period.']
    return '\n'.join(out) + '\n'


def main(argv=None):
    """Measure, print the table (and put it in the doc page); return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True)
    parser.add_argument('--early-dir', required=True)
    parser.add_argument('--plugin', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--doc', '--readme', dest='doc', metavar='FILE')
    args = parser.parse_args(argv)
    if args.doc and not put_doc(args.doc, 'bench-exact', 'perfrec_exact_bench'):
        return 1
    text = markdown(measure(args))
    print(text)
    if args.doc and not put_doc(args.doc, 'bench-exact', 'perfrec_exact_bench', text):
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
