#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Where U-Boot's boot time goes: a whole-boot profile on QEMU, by phase.

Usage:
    perfrec_boot_demo.py --build-dir build/qemu_arm64_perfrec_early --out build/boot-demo

The build has CONFIG_PERFREC_BOOT (configs/perfrec-early.config): U-Boot
records itself from board_init_f() on, through relocation, to the prompt.
The demo boots it under -icount shift=0 (the same profile on every host),
shows the board's own report and bootstage's, brings the perf.data to the
host and prints perf's report by phase, the hottest functions of each phase,
and a flame graph with a tree per phase (boot-flame.html, and .png when
Chromium is there). Then it boots again with the device tree saying
"record past the prompt" (/options/u-boot perfrec,until-prompt = <0>), loads
a small payload and boots it with booti: the recording ends at the OS
handoff. Exit code 0 when perf's phases are the board's, sample for sample,
and the handoff line came.
"""

import argparse
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
sys.path.insert(0, os.path.join(TOP, 'test', 'py', 'tests'))
# pylint: disable=wrong-import-position
import perfrec_payload
from perfrec_qemu import Board

FLAME = os.path.join(TOP, 'tools', 'perfrec', 'perfrec_flamegraph.py')
PHASES = ('board_init_f', 'relocation', 'board_init_r')
MACHINE = 'virt,virtualization=on'


def perf(args, out):
    """Run host perf with its HOME in @out; return its stdout, or raise"""
    proc = subprocess.run(['perf'] + args, capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=out, PAGER='cat'))
    if proc.returncode:
        raise SystemExit('perfrec boot demo: perf %s failed:\n%s' % (args[0], proc.stderr))
    return proc.stdout


def show(cmd, text):
    """Print a command and what it printed, without blank lines"""
    print(cmd)
    print('\n'.join(line for line in text.splitlines() if line.strip()) + '\n')


def board_phases(report):
    """{phase: samples} of the board's 'perfrec report'"""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r'^(\S+)\s+(\d+)\s+[\d.]+%\s+[\d.]+\s*$', report, re.M)}


def until_os_dtb(out):
    """QEMU's device tree with /options/u-boot perfrec,until-prompt = <0>"""
    dtb = os.path.join(out, 'until-os.dtb')
    subprocess.run(['qemu-system-aarch64', '-M', MACHINE + ',dumpdtb=' + dtb, '-cpu',
                    'cortex-a57', '-m', '1G', '-display', 'none', '-nic', 'none'],
                   check=True, capture_output=True)
    for args in (['-p', '-c', '/options/u-boot'],
                 ['-t', 'u', '/options/u-boot', 'perfrec,until-prompt', '0']):
        subprocess.run(['fdtput', dtb] + args, check=True)
    return dtb


def record_boot(build, data):
    """Boot to the prompt; return the board's outputs"""
    outputs = {}
    with Board(build, machine=MACHINE, icount='shift=0') as board:
        outputs['boot'] = board.boot_log
        for cmd in ('perfrec report -n 5', 'bootstage report',
                    'save hostfs - $fileaddr %s $filesize' % data):
            outputs[cmd] = board.run(cmd)
    return outputs


def boot_to_os(build, out):
    """Boot recording past the prompt into a payload; return the console text"""
    payload = perfrec_payload.build(os.path.join(out, 'payload'))
    with Board(build, machine=MACHINE, icount='shift=0',
               extra=['-dtb', until_os_dtb(out)]) as board:
        boot = board.boot_log
        board.run('load hostfs - $kernel_addr_r %s' % payload)
        text = board.send('booti $kernel_addr_r - $fdtcontroladdr',
                          perfrec_payload.END.encode())
    return boot, text


def main(argv=None):
    """Run the demo; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True, help='U-Boot build with PERFREC_BOOT')
    parser.add_argument('--out', required=True, help='where perf.data and the flame graph go')
    parser.add_argument('--no-browser', action='store_true',
                        help='write boot-flame.html only (no Chromium check or picture)')
    args = parser.parse_args(argv)

    build = os.path.abspath(args.build_dir)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    data = os.path.join(out, 'boot.data')
    symfs = os.path.join(build, 'symfs')
    for name in ('boot.data', 'boot-flame.html', 'boot-flame.png'):
        if os.path.exists(os.path.join(out, name)):
            os.remove(os.path.join(out, name))

    print('perfrec boot demo: U-Boot records its own boot on QEMU virt (%s/u-boot.bin)\n'
          % build)
    outputs = record_boot(build, data)
    show('(the boot, perfrec\'s lines)',
         '\n'.join(line for line in outputs['boot'].splitlines() if 'perfrec' in line))
    for cmd in ('perfrec report -n 5', 'bootstage report'):
        show('=> ' + cmd, outputs[cmd])

    report = ['report', '-i', data, '--symfs=' + symfs, '--stdio', '--sort', 'comm',
              '-g', 'none', '-F', 'overhead,sample,comm']
    text = perf(report, out)
    show('$ perf ' + ' '.join(report), text)
    ours = {m.group(2): int(m.group(1))
            for m in re.finditer(r'^\s+[\d.]+%\s+(\d+)\s+(\S+)\s*$', text, re.M)}
    theirs = board_phases(outputs['perfrec report -n 5'])
    for phase in PHASES:
        top = ['report', '-i', data, '--symfs=' + symfs, '--stdio', '--comms', phase,
               '--percentage', 'relative', '--sort', 'symbol', '--no-children', '-g', 'none',
               '--percent-limit', '5']
        show('$ perf ' + ' '.join(top),
             '\n'.join(line for line in perf(top, out).splitlines()
                       if line.strip() and not line.startswith('#')))
    if not set(PHASES) <= set(ours) or ours != {k: v for k, v in theirs.items() if v}:
        print('perfrec boot demo: perf\'s phases %s are not the board\'s %s' % (ours, theirs))
        return 1

    html = os.path.join(out, 'boot-flame.html')
    flame = ['/usr/bin/python3', FLAME, '-i', data, '--symfs', symfs, '-o', html]
    if not args.no_browser:
        flame += ['--png', os.path.join(out, 'boot-flame.png'), '--hover', 'board_init_f']
    print('$ ' + ' '.join(flame))
    proc = subprocess.run(flame, capture_output=True, text=True, check=False)
    # Its first line says what it wrote (then the frame labels, with --png)
    print(proc.stdout.split('\n', 1)[0], proc.stderr, sep='\n', end='')
    with open(html, encoding='utf-8', errors='replace') as inf:
        page = inf.read() if proc.returncode == 0 else ''
    if proc.returncode or any('"%s (1)"' % phase not in page for phase in PHASES):
        print('perfrec boot demo: the flame graph has no tree for each of %s' % (PHASES,))
        return 1

    print('\nperfrec boot demo: now through bootcmd into an OS (a payload that prints '
          'what it is handed)\n')
    boot, text = boot_to_os(build, out)
    show('(the boot, perfrec\'s lines)',
         '\n'.join(line for line in boot.splitlines() if 'perfrec' in line))
    show('=> booti $kernel_addr_r - $fdtcontroladdr', text)
    if not re.search(r'perfrec: stopped for the OS: [1-9]\d* samples, 0 lost', text):
        print('perfrec boot demo: no handoff line')
        return 1

    print('perfrec boot demo: done. Open %s in a browser (it needs no network). Try also:\n'
          '  perf report -i %s --symfs=%s --stdio --sort comm,symbol\n'
          '  perf script -i %s --symfs=%s --comms relocation | head -n 30\n'
          '  hotspot --debugPaths %s %s'
          % (html, data, symfs, data, symfs, os.path.join(symfs, '.debug'), data))
    return 0


if __name__ == '__main__':
    sys.exit(main())
