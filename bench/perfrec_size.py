#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""What perfrec's optional parts cost in image size and in speed.

Compares the full perfrec build with builds that each leave one part out
(make bench-size builds them from bench/variants/*.config): u-boot.bin's
size and its text/data/bss, and, for builds that still have perfrec, the
instructions a few workloads take (perfrec stat under QEMU -icount
shift=0, where one instruction is one cycle). Prints a Markdown table;
--readme puts it between the lines <!-- size:start --> and <!-- size:end -->.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'scripts'))
# pylint: disable=wrong-import-position
from perfrec_bench import BenchError, readme_markers, table, update_readme
from perfrec_qemu import Board, BoardError

# Call-heavy, table-driven and byte-loop code: frame records cost most in the first
WORKLOADS = ['perfrec_test calls 100000', 'hash sha1 0x40000000 0x100000',
             'crc32 0x40000000 0x100000']

WHAT = {
    'no-frame-pointers': 'without frame records (no `-g`)',
    'no-report': 'without the symbol table (no `perfrec report`)',
    'no-build-id': 'without the build-id note',
    'no-perfrec': 'without perfrec at all',
}


def sizes(build_dir, cross):
    """u-boot.bin bytes and the ELF's text, data, bss"""
    out = subprocess.run([cross + 'size', os.path.join(build_dir, 'u-boot')],
                         capture_output=True, text=True, check=True).stdout
    text, data, bss = (int(v) for v in out.splitlines()[1].split()[:3])
    return {'bin': os.path.getsize(os.path.join(build_dir, 'u-boot.bin')),
            'text': text, 'data': data, 'bss': bss}


def config_has(build_dir, option):
    with open(os.path.join(build_dir, '.config')) as inf:
        return ('%s=y\n' % option) in inf.read()


def instructions(build_dir, qemu):
    """{workload: instructions} counted by perfrec stat under -icount shift=0"""
    counts = {}
    try:
        with Board(build_dir, machine='virt', icount='shift=0', qemu=qemu) as board:
            for wl in WORKLOADS:
                out = board.run('perfrec stat -e instructions -- %s' % wl)
                match = re.search(r'^\s+(\d+)\s+instructions\s*$', out, re.M)
                if not match:
                    raise BenchError('%s: perfrec stat -- %s:\n%s' % (build_dir, wl, out))
                counts[wl] = int(match.group(1))
    except BoardError as err:
        raise BenchError('%s: %s' % (build_dir, err)) from err
    return counts


def markdown(full, variants):
    out = ['Image size and speed of the optional parts: the full perfrec build '
           '(`configs/qemu_arm64_perfrec_defconfig`) against builds without one part '
           '(`make bench-size`; speed: instructions under QEMU `-icount shift=0`).', '']
    head = ['build', 'u-boot.bin', 'vs full', 'text', 'data'] + \
        ['`%s`' % wl for wl in WORKLOADS]
    rows = []
    for name, res in [('full', full)] + variants:
        row = [('full' if name == 'full' else WHAT.get(name, name)), '%d' % res['bin'],
               '' if name == 'full' else '%+d' % (res['bin'] - full['bin']),
               '%d' % res['text'], '%d' % res['data']]
        for wl in WORKLOADS:
            if wl in res.get('insns', {}):
                count = res['insns'][wl]
                row.append('%d' % count if name == 'full' else '%d (%+.2f%%)' % (
                    count, 100.0 * (count - full['insns'][wl]) / full['insns'][wl]))
            else:
                row.append('-')
        rows.append(row)
    out += table(head, rows)
    out += ['', 'vs full: bytes the full build spends on the part. Frame records '
            '(`-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer '
            '-fno-optimize-sibling-calls`) add a prologue and epilogue to every '
            'leaf and keep tail calls as calls; the symbol table is the names and '
            'addresses of every function (`CONFIG_KALLSYMS`).']
    return '\n'.join(out) + '\n'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--full', required=True, help='build directory of the full build')
    parser.add_argument('--variant', action='append', default=[], metavar='NAME=DIR')
    parser.add_argument('--readme', help='replace the size markers of this file')
    parser.add_argument('--qemu', default='qemu-system-aarch64')
    parser.add_argument('--cross-compile', default='aarch64-linux-gnu-')
    args = parser.parse_args(argv)
    try:
        if args.readme:
            readme_markers(args.readme, 'size')
        full = sizes(args.full, args.cross_compile)
        full['insns'] = instructions(args.full, args.qemu)
        variants = []
        for spec in args.variant:
            name, _, build_dir = spec.partition('=')
            res = sizes(build_dir, args.cross_compile)
            if config_has(build_dir, 'CONFIG_CMD_PERFREC_TEST'):
                res['insns'] = instructions(build_dir, args.qemu)
            variants.append((name, res))
    except (BenchError, OSError, subprocess.CalledProcessError) as err:
        print('perfrec_size: %s' % err, file=sys.stderr)
        return 1
    text = markdown(full, variants)
    sys.stdout.write(text)
    if args.readme:
        update_readme(args.readme, text, 'size')
    return 0


if __name__ == '__main__':
    sys.exit(main())
