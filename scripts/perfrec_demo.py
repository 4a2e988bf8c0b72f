#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec's first five minutes: boot QEMU, profile a boot flow, show perf's report.

Usage:
    perfrec_demo.py --build-dir build/qemu_arm64_perfrec --out build/demo

Boots the built U-Boot on QEMU virt and records, with call graphs, a small
verified-boot flow: load an image from the host (semihosting), check its
CRC-32, hash it with SHA-256. Shows the board's own 'perfrec report', brings
the perf.data to the host ('save hostfs'), prints the top of 'perf report'
and writes an offline flame graph (flame.html, and flame.png when Chromium
is there). It keeps what it showed in transcript.md, paths relative to the
repository; --readme FILE puts that between FILE's lines <!-- demo:start -->
and <!-- demo:end --> (make demo-picture: the README's first screen). Exit
code 0 when perf's hottest function is the one the board's report names
first, perf names the CRC-32 loop, and the flame graph holds its call path.
(Which function is hottest depends on the release: 2023.01 hashes with the
crypto extensions, 2026.10 with mbedtls in C.)
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
from perfrec_qemu import Board

FLOW = ('load hostfs - $kernel_addr_r {image}; crc32 $kernel_addr_r $filesize; '
        'hash sha256 $kernel_addr_r $filesize')
RECORD = 'perfrec record -g -F 20000 -o 0x50000000 -s 0x1000000 -- run verify_boot'
HOT = 'crc32_no_comp'
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAME = os.path.join(REPO, 'tools', 'perfrec', 'perfrec_flamegraph.py')
MARKERS = ('<!-- demo:start -->', '<!-- demo:end -->')


def perf(args, out):
    """Run host perf with its HOME in @out; return the CompletedProcess"""
    return subprocess.run(['perf'] + args, capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=out, PAGER='cat'))


def first_symbol(report):
    """Return the first function in the table of 'perfrec report', or None"""
    lines = report.splitlines()
    for num, line in enumerate(lines):
        if line.split()[-1:] == ['Symbol'] and num + 1 < len(lines):
            return lines[num + 1].split()[-1]
    return None


def put_transcript(path, text):
    """Replace the lines between @path's demo markers with @text in a code
    block; return an error message, or None"""
    with open(path, encoding='utf-8') as inf:
        lines = inf.read().split('\n')
    if [lines.count(m) for m in MARKERS] != [1, 1] or \
            lines.index(MARKERS[0]) > lines.index(MARKERS[1]):
        return '%s: needs one line %s before one line %s' % (path, *MARKERS)
    start, end = lines.index(MARKERS[0]), lines.index(MARKERS[1])
    lines[start + 1:end] = ['```'] + text.rstrip('\n').split('\n') + ['```']
    with open(path + '.tmp', 'w', encoding='utf-8') as outf:
        outf.write('\n'.join(lines))
    os.replace(path + '.tmp', path)
    return None


def main(argv=None):
    """Run the demo; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True, help='U-Boot build directory')
    parser.add_argument('--out', required=True, help='where perf.data and the flame graph go')
    parser.add_argument('--no-browser', action='store_true',
                        help='write flame.html only (no Chromium check or picture)')
    parser.add_argument('--readme', help='put the transcript between the demo markers '
                        'of this file')
    args = parser.parse_args(argv)

    build = os.path.abspath(args.build_dir)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    data = os.path.join(out, 'perf.data')
    for name in ('perf.data', 'flame.html', 'flame.png'):
        if os.path.exists(os.path.join(out, name)):
            os.remove(os.path.join(out, name))

    print('perfrec demo: booting U-Boot on QEMU virt (%s/u-boot.bin)\n' % build)
    flow = FLOW.format(image=os.path.join(build, 'u-boot'))
    # -icount shift=0: one instruction a cycle, the same profile on every host
    outputs = {}
    shown = []
    with Board(build, icount='shift=0') as board:
        for cmd in ("setenv verify_boot '%s'" % flow, RECORD, 'perfrec report -n 5',
                    'save hostfs - $fileaddr %s $filesize' % data):
            print('=> ' + cmd)
            outputs[cmd] = board.run(cmd)
            print(outputs[cmd])
            shown += ['=> ' + cmd] + ([outputs[cmd]] if outputs[cmd] else [])
    board_top = first_symbol(outputs['perfrec report -n 5'])

    symfs = os.path.join(build, 'symfs')
    report = ['report', '-i', data, '--symfs=' + symfs, '--stdio', '--no-children',
              '-g', 'none', '--percent-limit', '0.5']
    print('\n$ perf ' + ' '.join(report))
    proc = perf(report, out)
    lines = proc.stdout.splitlines()
    print('\n'.join(line for line in lines if line.strip()))
    top = [line.split()[-1] for line in lines if line.strip() and not line.startswith('#')]
    shown += ['', '$ perf ' + ' '.join(report)]
    shown += [line.rstrip() for line in lines if line.strip() and not line.startswith('#')
              or line.startswith('# Samples') or line.startswith('# Overhead')]
    if proc.returncode or not top or top[0] != board_top or HOT not in top:
        print('perfrec demo: perf\'s hottest function is %s, the board\'s %s, and %s is %s\n%s'
              % (top[0] if top else None, board_top, HOT,
                 'named' if HOT in top else 'missing', proc.stderr))
        return 1

    html = os.path.join(out, 'flame.html')
    flame = ['/usr/bin/python3', FLAME, '-i', data, '--symfs', symfs, '-o', html]
    if not args.no_browser:
        flame += ['--png', os.path.join(out, 'flame.png'), '--hover', HOT]
    print('\n$ ' + ' '.join(flame))
    proc = subprocess.run(flame, capture_output=True, text=True, check=False)
    print(proc.stdout, proc.stderr, sep='', end='')
    with open(html, encoding='utf-8', errors='replace') as inf:
        page = inf.read() if proc.returncode == 0 else ''
    if proc.returncode or '"%s"' % HOT not in page or '"do_mem_crc"' not in page:
        print('perfrec demo: the flame graph does not show %s under do_mem_crc' % HOT)
        return 1

    transcript = '\n'.join(shown).replace(REPO + '/', '') + '\n'
    with open(os.path.join(out, 'transcript.md'), 'w', encoding='utf-8') as outf:
        outf.write(transcript)
    if args.readme:
        err = put_transcript(args.readme, transcript)
        if err:
            print('perfrec demo: ' + err)
            return 1
    print('\nperfrec demo: done. Open %s in a browser (it needs no network). Try also:\n'
          '  perf report -i %s --symfs=%s --stdio -G\n'
          '  perf annotate -i %s --symfs=%s --stdio %s\n'
          '  perf script -i %s --symfs=%s | head -n 30\n'
          '  hotspot --debugPaths %s %s'
          % (html, data, symfs, data, symfs, HOT, data, symfs,
             os.path.join(symfs, '.debug'), data))
    return 0


if __name__ == '__main__':
    sys.exit(main())
