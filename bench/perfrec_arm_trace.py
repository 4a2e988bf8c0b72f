#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Follow one arming call by call: which of perfrec's files it enters, in order.

Usage:
    perfrec_arm_trace.py --build-dir build/qemu_arm64_perfrec [--cell el2-gicv3]

Boots the build in QEMU virt under -icount shift=0 twice: once for U-Boot's
relocation offset (bdinfo), once with QEMU's execution trace (-d
exec,nochain, one instruction per TB) filtered to the functions of
drivers/perf/ and lib/perfrec/, while 'perfrec record -c <huge> -- echo'
arms and disarms. Each traced instruction goes to its function (nm -S of
u-boot) and the function to the object file that defines it (nm of each
.o). From the first instruction of perfrec_session_arm() to the CPU's
unmask, a call is the first instruction of a function of another file
than the last one traced; the script prints those calls in order, then
how many times each file was entered. The whole run takes under a minute.
"""

import argparse
import bisect
import collections
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'scripts'))
# pylint: disable=wrong-import-position
from perfrec_qemu import Board  # noqa: E402  # pylint: disable=import-error
from perfrec_bench_runner import CELLS, HUGE_PERIOD, RE_RELOC, one_insn_per_tb  # noqa: E402
from perfrec_bench_trace import RE_TRACE  # noqa: E402

NM = 'aarch64-linux-gnu-nm'
# The files whose entries the summary counts: the sources, the controllers, their callers
SUMMARY = ['perfrec_hw', 'perfrec_source', 'pmuv3', 'perfrec_timer', 'perfrec_ctlr',
           'perfrec_gic', 'perfrec_gic_dt', 'perfrec_bcm2836_ctlr', 'perfrec_counters',
           'perfrec_cpu']


def nm_lines(*args):
    """nm's output lines, split"""
    out = subprocess.run([NM] + list(args), stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout
    return [line.split() for line in out.splitlines()]


def functions(build_dir):
    """[(address, size, name, file)] of perfrec's functions in u-boot, by address"""
    owner = {}
    objs = glob.glob(os.path.join(build_dir, 'drivers/perf/**/*.o'), recursive=True) + \
        glob.glob(os.path.join(build_dir, 'lib/perfrec/*.o'))
    for obj in objs:
        if not obj.endswith('built-in.o'):
            for fields in nm_lines('--defined-only', obj):
                if len(fields) == 3 and fields[1] in 'tT':
                    owner[fields[2]] = os.path.basename(obj)[:-2]
    return sorted((int(f[0], 16), int(f[1], 16), f[3], owner[f[3]])
                  for f in nm_lines('-S', '--defined-only', os.path.join(build_dir, 'u-boot'))
                  if len(f) == 4 and f[2] in 'tT' and f[3] in owner)


def calls(log, funcs, off):
    """The calls into another file from the arming's first instruction to the unmask"""
    starts = [addr + off for addr, _, _, _ in funcs]
    found, armed, last = [], False, None
    with open(log, encoding='utf-8', errors='replace') as inf:
        for line in inf:
            match = RE_TRACE.match(line)
            if not match:
                continue
            addr = int(match.group(1), 16)
            idx = bisect.bisect_right(starts, addr) - 1
            if idx < 0:
                continue
            _, _, name, fname = funcs[idx]
            entry = addr == starts[idx]
            armed = armed or (entry and name == 'perfrec_session_arm')
            if not armed:
                continue
            if entry and fname != last:
                found.append((fname, name))
            last = fname
            if name == 'perfrec_cpu_unmask':
                break
    return found


def main(argv=None):
    """Trace one arming and print what it enters"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True, help='an AArch64 build of perfrec')
    parser.add_argument('--cell', default='el2-gicv3', choices=sorted(CELLS))
    parser.add_argument('--qemu', default='qemu-system-aarch64')
    args = parser.parse_args(argv)
    funcs = functions(args.build_dir)
    machine = CELLS[args.cell][0]
    with Board(args.build_dir, machine=machine, icount='shift=0', qemu=args.qemu) as board:
        off = int(RE_RELOC.search(board.run('bdinfo')).group(1), 16)
    ranges = ','.join(f'{addr + off:#x}+{size:#x}' for addr, size, _, _ in funcs if size)
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, 'exec.log')
        extra = ['-d', 'exec,nochain', '-D', log, '-dfilter', ranges] + \
            one_insn_per_tb(args.qemu)
        with Board(args.build_dir, machine=machine, icount='shift=0', qemu=args.qemu,
                   extra=extra) as board:
            board.run(f'perfrec record -c {HUGE_PERIOD} -- echo')
        found = calls(log, funcs, off)
    for fname, name in found:
        print(f'{fname:22} {name}')
    count = collections.Counter(fname for fname, _ in found)
    print('entries: ' + ', '.join(f'{f} {count[f]}' for f in SUMMARY))
    return 0 if found else 1


if __name__ == '__main__':
    sys.exit(main())
