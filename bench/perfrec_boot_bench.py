#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""What recording the whole boot costs: time to the prompt, with and without.

Usage:
    perfrec_boot_bench.py --build-dir build/qemu_arm64_perfrec_early [--readme README.md]

Boots the early-boot build (CONFIG_PERFREC_BOOT) on QEMU virt at EL2 under
-icount shift=0, where a nanosecond is an instruction, and reads bootstage's
marks at the prompt: once with the recording off (the device tree's
/options/u-boot perfrec,early = <0>), then recording with call graphs every
250000 cycles (4 kHz at QEMU's 1 GHz), every 20000 (the default) and every
10000 (100 kHz), and flat every 20000. What a sample costs comes by
difference, from the board_init_f mark to the board_init_r mark, against a
boot recorded with a period too long to end there; the flat one must stay
within the normal flat path's 113 instructions plus 4. The figures hold for icount only: on hardware the handler
costs more before the caches are on. --readme replaces the text between
<!-- bench-boot:start --> and <!-- bench-boot:end --> with the table.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
sys.path.insert(0, os.path.join(TOP, 'bench'))
# pylint: disable=wrong-import-position
from perfrec_bench import update_readme
from perfrec_qemu import Board

MACHINE = 'virt,virtualization=on,gic-version=3'
# (what, /options/u-boot properties)
RUNS = [('off', {'perfrec,early': 0}),
        ('armed, no sample (every 4e9 cycles)', {'perfrec,boot-period': 4000000000}),
        ('4 kHz (every 250000 cycles)', {'perfrec,boot-period': 250000}),
        ('default (every 20000 cycles)', {}),
        ('100 kHz (every 10000 cycles)', {'perfrec,boot-period': 10000}),
        ('flat, every 20000 cycles', {'perfrec,boot-callchain': 0})]
# The flat sample path of the boot handler may cost this much more than the
# normal handler's (perfrec_bench.py measures 113): its address classification
FLAT_LIMIT = 113 + 4
MARKS = ('board_init_f', 'board_init_r', 'main_loop')


def dtb_with(tmp, props):
    """QEMU's device tree with @props in /options/u-boot; its path"""
    dtb = os.path.join(tmp, 'options.dtb')
    subprocess.run(['qemu-system-aarch64', '-M', MACHINE + ',dumpdtb=' + dtb, '-cpu',
                    'cortex-a57', '-m', '1G', '-display', 'none', '-nic', 'none'],
                   check=True, capture_output=True)
    subprocess.run(['fdtput', '-p', '-c', dtb, '/options/u-boot'], check=True)
    for name, val in props.items():
        subprocess.run(['fdtput', '-t', 'u', dtb, '/options/u-boot', name, str(val)],
                       check=True)
    return dtb


def boot(build, tmp, props):
    """Boot once; return ({mark: µs}, samples of the recording or 0, samples
    from the board_init_f mark to the board_init_r mark)"""
    with Board(build, machine=MACHINE, icount='shift=0',
               extra=['-dtb', dtb_with(tmp, props)]) as board:
        report = board.run('bootstage report')
        state = board.run('perfrec status')
        phases = board.run('perfrec report -n 1')
    marks = {m.group(2): int(m.group(1).replace(',', ''))
             for m in re.finditer(r'^\s*([\d,]+)\s+[\d,]+\s+(\S+)\s*$', report, re.M)}
    missing = [mark for mark in MARKS if mark not in marks]
    if missing:
        raise SystemExit('perfrec_boot_bench: no %s in bootstage report:\n%s' % (missing, report))
    samples = re.search(r'samples: (\d+)', state)
    split = {m.group(1): int(m.group(2)) for m in
             re.finditer(r'^(\S+)\s+(\d+)\s+[\d.]+%\s+[\d.]+\s*$', phases, re.M)}
    return (marks, int(samples.group(1)) if samples else 0,
            split.get('board_init_f', 0) + split.get('relocation', 0))


def main(argv=None):
    """Run the benchmark; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True, help='the early-boot build')
    parser.add_argument('--readme', help='replace the bench-boot markers of this file')
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for what, props in RUNS:
            marks, samples, early = boot(os.path.abspath(args.build_dir), tmp, props)
            rows.append((what, samples, marks, early))
    base = rows[0][2]['main_loop']
    # Instructions a sample costs, by difference over board_init_f and
    # relocation (from mark to mark: no arming and no copy in between),
    # against the recording armed with a period that never ends there (its
    # hooks and phase switches cost the same)
    span = rows[1][2]['board_init_r'] - rows[1][2]['board_init_f']
    costs = [(marks['board_init_r'] - marks['board_init_f'] - span) * 1000 / early
             if early else None for _, _, marks, early in rows]
    lines = ['Whole-boot recording (`make bench-boot`): instructions from reset to the prompt '
             '(bootstage\'s main_loop mark, `-icount shift=0`: a nanosecond is an instruction; '
             'on hardware, without caches before initr_caches(), a sample costs more), EL2 / '
             'GICv3, call graphs on unless flat.', '',
             '| recording | samples to the prompt | board_init_f mark (M insns) | board_init_r '
             'mark (M) | main_loop mark, the prompt (M) | overhead | insns per sample before '
             'board_init_r |',
             '|---|---|---|---|---|---|---|']
    for (what, samples, marks, _), cost in zip(rows, costs):
        lines.append('| %s | %s | %.3f | %.3f | %.3f | %s | %s |' % (
            what, samples or '-', marks['board_init_f'] / 1000, marks['board_init_r'] / 1000,
            marks['main_loop'] / 1000,
            '-' if marks is rows[0][2] else '%+.1f%%' % (100.0 * (marks['main_loop'] - base) /
                                                          base),
            '-' if cost is None else '%.0f' % cost))
    over = costs[-1] > FLAT_LIMIT + 2000 / rows[-1][3]
    lines += ['', 'The flat boot sample costs %.0f instructions (budget %d: the normal flat '
              'path\'s 113 and the address classification%s); bootstage marks are whole '
              'microseconds, so the figure is good to about %.0f instructions.'
              % (costs[-1], FLAT_LIMIT, ': over it' if over else '', 2000 / rows[-1][3])]
    text = '\n'.join(lines) + '\n'
    print(text)
    if args.readme:
        update_readme(args.readme, text, 'bench-boot')
    if over:
        print('perfrec_boot_bench: the flat boot sample costs more than %d instructions'
              % FLAT_LIMIT, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
