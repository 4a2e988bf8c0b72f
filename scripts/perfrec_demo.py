#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec's first five minutes: boot QEMU, record a workload, show perf's report.

Usage:
    perfrec_demo.py --build-dir build/qemu_arm64_perfrec --out build/demo

Boots the built U-Boot on QEMU virt, records 'crc32' over 64 MiB at 4 kHz,
brings the perf.data to the host over semihosting ('save hostfs') and prints
the top of 'perf report'. Exit code 0 when perf names crc32's inner loop on top.
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfrec_qemu import Board  # pylint: disable=wrong-import-position

RECORD = 'perfrec record -F 4000 -o 0x50000000 -s 0x1000000 -- crc32 0x40000000 0x4000000'
HOT = 'crc32_no_comp'


def main(argv=None):
    """Run the demo; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True, help='U-Boot build directory')
    parser.add_argument('--out', required=True, help='where perf.data goes')
    args = parser.parse_args(argv)

    build = os.path.abspath(args.build_dir)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    data = os.path.join(out, 'perf.data')
    if os.path.exists(data):
        os.remove(data)

    print('perfrec demo: booting U-Boot on QEMU virt (%s/u-boot.bin)\n' % build)
    with Board(build) as board:
        for cmd in (RECORD, 'save hostfs - $fileaddr %s $filesize' % data):
            print('=> ' + cmd)
            print(board.run(cmd))

    report = ['perf', 'report', '-i', data, '--symfs=' + build, '--stdio']
    print('\n$ ' + ' '.join(report) + ' | head -n 20')
    proc = subprocess.run(report, capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=out, PAGER='cat'))
    lines = proc.stdout.splitlines()
    print('\n'.join(lines[:20]))
    top = [line for line in lines if line.strip() and not line.startswith('#')]
    if proc.returncode or not top or HOT not in top[0]:
        print('perfrec demo: perf did not name %s on top\n%s' % (HOT, proc.stderr))
        return 1
    print('\nperfrec demo: done. Try also:\n'
          '  perf annotate -i %s --symfs=%s --stdio %s\n'
          '  perf script -i %s --symfs=%s | head' % (data, build, HOT, data, build))
    return 0


if __name__ == '__main__':
    sys.exit(main())
