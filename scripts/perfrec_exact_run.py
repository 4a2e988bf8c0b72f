#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Record on QEMU with the exact instruction counter, and judge the profile by it.

Usage:
    perfrec_exact_run.py --build-dir DIR --out DIR [--event cycles] [-c 10007] [-g]
                         [--workload 'CMD; CMD'] [--baseline] [--json] [--top N] [--max-tvd X]
    perfrec_exact_run.py --build-dir EARLY_DIR --out DIR --boot
                         [--boot-period N] [--boot-callchain 0|1]
    perfrec_exact_run.py --build-dir DIR --out DIR --stat

A first boot (without the plugin) reads bdinfo's "reloc off"; a second one,
under -icount shift=0 with scripts/qemu-plugin/perfrec_insn_count.c loaded
(built into OUT/plugin unless --plugin names one), counts every instruction
between the counters' start and stop (perfrec_exact.py plugin-args), records
the workload (-H: the perf.data to OUT by semihosting), and ends QEMU with
SIGTERM so that the plugin writes OUT/counts.txt. Then perfrec_exact.py
compares. The second boot must relocate where the first did.

--boot: the early build's boot recording (CONFIG_PERFREC_BOOT) from
board_init_f() to the prompt, saved with 'save hostfs'; its counting window
starts before relocation (link address) and stops after (relocated).
--boot-period and --boot-callchain set /options/u-boot's perfrec,boot-period
and perfrec,boot-callchain in QEMU's device tree (-dtb) for one run.

--stat: 'perfrec stat -e instructions' over the workload instead; the
plugin's total less the PMU's is what the plugin counts twice (QEMU re-runs
an MMIO access as a block of its own under -icount) plus the window's edges.
--baseline: time the same session without the plugin.

Exit code 0; 1 when TVD is over --max-tvd; 2 for bad input, with one line
naming the value and the reason.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

import perfrec_exact as PE
from perfrec_qemu import Board

class Parser(PE.Parser):
    """The command line's parser"""
    tool = 'perfrec_exact_run'


RELOC_OFF = re.compile(r'^reloc off\s*=\s*(0x[0-9a-f]+)', re.M)
STAT_COUNT = re.compile(r'^\s*([\d,]+)\s+instructions\b', re.M)


def board_session(build, cmds, extra=None, machine='virt', dtb=None):
    """Run @cmds on a fresh board (a real board's with its own @dtb, Board());
    return ([outputs], seconds, boot log); QEMU is ended with SIGTERM so that
    the plugin writes its counts"""
    start = time.monotonic()
    outs = []
    with Board(build, machine=machine, icount='shift=0', extra=extra, dtb=dtb) as board:
        for cmd in cmds:
            outs.append(board.run(cmd))
        board.proc.send_signal(signal.SIGTERM)
        board.proc.wait(120)
    return outs, time.monotonic() - start, board.boot_log


def reloc_of(bdinfo):
    """bdinfo's "reloc off" """
    match = RELOC_OFF.search(bdinfo)
    if not match:
        raise PE.BadInput('bdinfo: no "reloc off" line')
    return int(match.group(1), 16)


def boot_dtb(out, machine, period, callchain):
    """QEMU's device tree with the boot recording's period and call chains in
    /options/u-boot (perfrec_boot.c), where given; its path"""
    dtb = os.path.join(out, 'boot-options.dtb')
    steps = [['qemu-system-aarch64', '-M', machine + ',dumpdtb=' + dtb, '-cpu', 'cortex-a57',
              '-m', '1G', '-display', 'none', '-nic', 'none'],
             ['fdtput', '-p', '-c', dtb, '/options/u-boot']]
    for prop, val in (('perfrec,boot-period', period), ('perfrec,boot-callchain', callchain)):
        if val is not None:
            steps.append(['fdtput', '-t', 'u', dtb, '/options/u-boot', prop, str(val)])
    for cmd in steps:
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        except OSError as err:
            raise PE.BadInput(f'{cmd[0]}: {err.strerror}') from None
        if proc.returncode:
            raise PE.BadInput(f"{' '.join(cmd)}: {proc.stderr.strip()}")
    return dtb


def board_commands(args, data):
    """The commands 'run' gives the board after bdinfo"""
    workload = f'"{args.workload}"'
    if args.stat:
        return ['perfrec stat -e instructions -- ' + workload]
    if args.boot:
        return [f'save hostfs - $fileaddr {data} $filesize']
    chain = ' -g' if args.callgraph else ''
    return [f'perfrec record -e {args.event} -c {args.period}{chain} -o 0x50000000 '
            f'-s 0x1000000 -H {data} -- {workload}']


def run_board(args):
    """The 'run' command's result"""
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    elf = os.path.join(args.build_dir, 'u-boot')
    plugin = args.plugin or PE.build_plugin(os.path.join(out, 'plugin'))
    qemu_args = []
    if args.boot and (args.boot_period or args.boot_callchain is not None):
        qemu_args = ['-dtb', boot_dtb(out, args.machine, args.boot_period, args.boot_callchain)]
    probe = board_session(args.build_dir, ['bdinfo'], qemu_args, args.machine)
    reloc_off = reloc_of(probe[0][0])
    counts = os.path.join(out, 'counts.txt')
    pargs = ','.join([plugin, 'out=' + counts] + PE.plugin_args(
        elf, reloc_off, 'boot' if args.boot else 'timer' if args.event == 'cpu-clock' else 'pmu'))
    data = os.path.join(out, 'boot.data' if args.boot else 'perf.data')
    cmds = ['bdinfo'] + board_commands(args, data)
    if os.path.exists(data):
        os.remove(data)
    outs, plugin_s, _ = board_session(args.build_dir, cmds, qemu_args + ['-plugin', pargs],
                                      args.machine)
    if reloc_of(outs[0]) != reloc_off:
        raise PE.BadInput(f'reloc off {reloc_off:#x}: the second boot relocated to '
                       f'{reloc_of(outs[0]):#x}')
    timings = {'probe_boot_s': probe[1], 'plugin_run_s': plugin_s}
    if args.baseline:
        timings['baseline_run_s'] = board_session(args.build_dir, cmds, qemu_args,
                                                  args.machine)[1]
    if args.stat:
        return stat_result(outs[1], counts, timings)
    res = PE.run_compare(argparse.Namespace(
        elf=elf, counts=counts, data=data, reloc_off=hex(reloc_off),
        symfs=os.path.join(args.build_dir, 'symfs'), perf=args.perf,
        exclude_symbols=args.exclude_symbols, fold_symbols=args.fold_symbols, top=args.top))
    res.update(timings=timings, commands=cmds[1:], plugin_args=pargs)
    return res


def stat_result(output, counts, timings):
    """perfrec stat's instruction count against the plugin's total"""
    match = STAT_COUNT.search(output)
    if not match:
        raise PE.BadInput(f'perfrec stat: no instruction count in {output[-200:]!r}')
    _, _, meta = PE.read_counts(counts)
    stat = int(match.group(1).replace(',', ''))
    plugin = int(meta['total'][0]) + int(meta['irq_total'][0])
    return {'stat_instructions': stat, 'plugin_instructions': plugin,
            'extra': plugin - stat, 'window': meta['state'][0], 'timings': timings,
            'stat_output': output}


def parse_args(argv):
    """The parsed command line"""
    parser = Parser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--plugin', help='the built plugin (default: built into OUT/plugin)')
    parser.add_argument('--event', default='cycles')
    parser.add_argument('-c', '--period', type=int, default=10007)
    parser.add_argument('-g', '--callgraph', action='store_true')
    parser.add_argument('--workload', default='crc32 0x40000000 0x800000; '
                        'hash sha256 0x40000000 0x800000')
    parser.add_argument('--boot', action='store_true',
                        help="the early build's boot recording, from board_init_f()")
    parser.add_argument('--boot-period', type=int, help="the boot recording's period (-dtb)")
    parser.add_argument('--boot-callchain', type=int, choices=(0, 1),
                        help='the boot recording with call chains or not (-dtb)')
    parser.add_argument('--stat', action='store_true', help='perfrec stat against the plugin')
    parser.add_argument('--baseline', action='store_true',
                        help='time a run without the plugin')
    parser.add_argument('-M', '--machine', default='virt')
    PE.add_compare_args(parser)
    return parser.parse_args(argv)


def main(argv=None):
    """Run; return the exit code"""
    args = parse_args(argv)
    try:
        res = run_board(args)
    except PE.BadInput as err:
        print(f'perfrec_exact_run: {err}', file=sys.stderr)
        return 2
    return PE.print_result(res, args)


if __name__ == '__main__':
    sys.exit(main())
