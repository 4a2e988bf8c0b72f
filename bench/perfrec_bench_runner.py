# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec_bench.py's runner: U-Boot in QEMU under -icount shift=0.

The cells of the matrix (EL x GIC, with the QEMU machine of each), the
session figures perfrec prints and how they are parsed, BenchError, the
progress log and Uboot, which boots one cell and drives its console
(perfrec record + perfrec status in one call); one_insn_per_tb, the QEMU
option that logs one instruction per TB.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'scripts'))
from perfrec_qemu import Board, BoardError  # pylint: disable=wrong-import-position

# name: (-M machine, exception level, GIC version)
CELLS = {
    'el1-gicv2': ('virt', 1, 2),
    'el1-gicv3': ('virt,gic-version=3', 1, 3),
    'el2-gicv2': ('virt,virtualization=on', 2, 2),
    'el2-gicv3': ('virt,virtualization=on,gic-version=3', 2, 3),
    'el3-gicv2': ('virt,secure=on,virtualization=on', 3, 2),
    'el3-gicv3': ('virt,secure=on,virtualization=on,gic-version=3', 3, 3),
}
OVERHEAD_CELL = 'el2-gicv3'
# The 32-bit Arm build's (--arm32-build-dir: qemu_arm_defconfig, through
# qemu-system-arm with -cpu max, PMUv3 in AArch32): SVC mode is EL1, Hyp EL2
ARM32_CELLS = {
    'arm32-svc-gicv2': ('virt', 1, 2),
    'arm32-svc-gicv3': ('virt,gic-version=3', 1, 3),
    'arm32-hyp-gicv2': ('virt,virtualization=on', 2, 2),
}
ARM32_QEMU = 'qemu-system-arm'

# A period no workload here reaches: the "without sampling" runs (on 32-bit
# Arm, where every counter is 32 bits, the longest there is: 2^32 - 4096,
# room for a late interrupt's gap)
HUGE_PERIOD = 100000000000
ARM32_HUGE_PERIOD = 0xfffff000


def huge_period(cell):
    """The 'without sampling' period of @cell"""
    return ARM32_HUGE_PERIOD if cell in ARM32_CELLS else HUGE_PERIOD

RE_RELOC = re.compile(r'reloc off\s*=\s*(0x[0-9a-fA-F]+)')
RE_SUMMARY = re.compile(r'perfrec: (\d+) samples, (\d+) lost, (\d+) bytes of '
                        r'perf\.data at (0x[0-9a-fA-F]+), workload rc (-?\d+)')
RE_COUNTED = re.compile(r'event (\S+): (\d+) counted, period (\d+)')
RE_STATUS = re.compile(r'samples: (\d+), lost: (\d+), spurious: (\d+), '
                       r'foreign: (\d+), late: (\d+)')


class BenchError(Exception):
    """A run failed or a figure could not be trusted"""


def log(args, msg):
    """Progress to stderr with -v"""
    if args.verbose:
        print('perfrec_bench: %s' % msg, file=sys.stderr, flush=True)


class Uboot(Board):
    """U-Boot in QEMU under -icount shift=0, driven over its serial console"""

    def __init__(self, args, cell, extra=()):
        if cell in ARM32_CELLS:
            super().__init__(args.arm32_build_dir, machine=ARM32_CELLS[cell][0],
                             icount='shift=0', cpu='max', extra=list(extra), qemu=ARM32_QEMU)
        else:
            super().__init__(args.build_dir, machine=CELLS[cell][0], icount='shift=0',
                             extra=list(extra), qemu=args.qemu)
        self.cell = cell
        self.timeout = args.timeout

    def __enter__(self):
        try:
            return super().__enter__()
        except BoardError as exc:
            raise BenchError('%s: %s' % (self.cell, exc)) from exc

    def run(self, cmd, timeout=None):
        """Run one command; return its output without the echo and prompt"""
        try:
            return super().run(cmd, timeout or self.timeout)
        except BoardError as exc:
            raise BenchError('%s: %s' % (self.cell, exc)) from exc

    def reloc_off(self):
        """U-Boot's relocation offset, from bdinfo"""
        out = self.run('bdinfo')
        m = RE_RELOC.search(out)
        if not m:
            raise BenchError('%s: no "reloc off" in bdinfo:\n%s' % (self.cell, out))
        return int(m.group(1), 16)

    def record(self, opts, workload, lost_ok=False):
        """perfrec record + perfrec status: return the session's figures"""
        out = self.run('perfrec record %s -- %s' % (opts, workload))
        m = RE_SUMMARY.search(out)
        if not m:
            raise BenchError('%s: perfrec record %s: no summary line:\n%s' %
                             (self.cell, opts, out))
        samples, lost, size, _, rc = m.groups()
        if int(rc):
            raise BenchError('%s: workload "%s" returned %s' % (self.cell, workload, rc))
        status = self.run('perfrec status')
        mc = RE_COUNTED.search(status)
        ms = RE_STATUS.search(status)
        if not mc or not ms:
            raise BenchError('%s: cannot parse perfrec status:\n%s' % (self.cell, status))
        res = {
            'opts': opts, 'workload': workload,
            'samples': int(samples), 'lost': int(lost), 'bytes': int(size),
            'counted': int(mc.group(2)),
            'spurious': int(ms.group(3)), 'foreign': int(ms.group(4)),
            'late': int(ms.group(5)),
        }
        if res['samples'] != int(ms.group(1)):
            raise BenchError('%s: summary says %d samples, status %s' %
                             (self.cell, res['samples'], ms.group(1)))
        if res['lost'] and not lost_ok:
            raise BenchError('%s: perfrec record %s lost %d samples: figures would '
                             'be wrong' % (self.cell, opts, res['lost']))
        return res


def one_insn_per_tb(qemu):
    """@qemu's option for one instruction per TB: -singlestep until QEMU 8.0"""
    helptext = subprocess.run([qemu, '-help'], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout
    return ['-singlestep'] if re.search(r'^-singlestep', helptext, re.M) else \
        ['-accel', 'tcg,one-insn-per-tb=on']
