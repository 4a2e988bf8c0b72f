#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""What perfrec's optional parts cost in image size and in speed.

Compares the full perfrec build with builds that each leave one part out
(make bench-size builds them from bench/variants/*.config): u-boot.bin's
size and its text/data/bss, and, for builds that still have perfrec, the
instructions a few workloads take (perfrec stat under QEMU -icount
shift=0, where one instruction is one cycle). With --tracer, the same
workloads under U-Boot's function tracer (FTRACE=1, CONFIG_TRACE) against
its release built without, and under perfrec sampling at 4 kHz. Prints
Markdown tables; --doc (or --readme) puts them, as reStructuredText,
between the lines '.. size:start' and '.. size:end' of the doc page
(doc/develop/perfrec.rst; in a Markdown file between <!-- size:start -->
and <!-- size:end -->); --json writes the figures for perfrec_bench.py's
anchors table.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'scripts'))
# pylint: disable=wrong-import-position
from perfrec_bench import (HUGE_PERIOD, BenchError, Uboot, readme_markers, table,
                           update_readme)
from perfrec_qemu import Board, BoardError

# Call-heavy, table-driven and byte-loop code: frame records cost most in the first
WORKLOADS = ['perfrec_test calls 100000', 'hash sha1 0x40000000 0x100000',
             'crc32 0x40000000 0x100000']

WHAT = {
    'no-frame-pointers': 'without frame records in every function (`-g` skips callers)',
    'no-callchain': 'without call graphs (no `-g`: no walker, no frame records)',
    'no-report': 'without the symbol table (no `perfrec report`)',
    'no-stat': 'without `perfrec stat`',
    'no-events': 'with cycles and cpu-clock only (no event counters, events table, `list`)',
    'no-stream': 'without streaming (no `dump -i`, no `start -S`)',
    'no-test-command': 'without the self-test command (`perfrec_test`)',
    'no-build-id': 'without the build-id note',
    'with-boot': 'with the early and whole-boot recording (and the bootstage it selects)',
    'smallest': 'the smallest useful perfrec (`bench/variants/smallest.config`)',
    'no-perfrec': 'without perfrec at all',
}


def sizes(build_dir, cross):
    """u-boot.bin bytes and the ELF's text, data, bss"""
    out = subprocess.run([cross + 'size', os.path.join(build_dir, 'u-boot')],
                         capture_output=True, text=True, check=True).stdout
    text, data, bss = (int(v) for v in out.splitlines()[1].split()[:3])
    return {'bin': os.path.getsize(os.path.join(build_dir, 'u-boot.bin')),
            'text': text, 'data': data, 'bss': bss}


def vector_fill(build_dir):
    """Bytes the linker pads before perfrec's first vector table (2 KiB
    aligned), from u-boot.map; None without one"""
    fill = None
    with open(os.path.join(build_dir, 'u-boot.map'), encoding='utf-8') as inf:
        # The memory map, after the list of discarded sections
        for line in inf:
            if line.startswith('Linker script and memory map'):
                break
        for line in inf:
            match = re.match(r'^ \*fill\*\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)', line)
            if match:
                fill = int(match.group(1), 16)
            elif line.startswith(' .text.perfrec_vectors_') or \
                    line.startswith(' .text.perfrec_boot_vectors_el'):
                return fill or 0
            elif line.strip() and not line.startswith(' *fill*'):
                fill = None
    return None


def config_has(build_dir, option):
    with open(os.path.join(build_dir, '.config')) as inf:
        return ('%s=y\n' % option) in inf.read()


def _count(board, build_dir, wl):
    out = board.run('perfrec stat -e instructions -- %s' % wl)
    match = re.search(r'^\s+(\d+)\s+instructions\s*$', out, re.M)
    if not match:
        raise BenchError('%s: perfrec stat -- %s:\n%s' % (build_dir, wl, out))
    return int(match.group(1))


def instructions(build_dir, qemu, before=()):
    """{workload: instructions} counted by perfrec stat under -icount shift=0

    @before: commands to run first. 'echo' is what perfrec stat counts around
    any command (its dispatch and the counters' start and stop).
    """
    counts = {}
    try:
        with Board(build_dir, machine='virt', icount='shift=0', qemu=qemu) as board:
            for cmd in before:
                board.run(cmd)
            for wl in WORKLOADS + ['echo']:
                counts[wl] = _count(board, build_dir, wl)
    except BoardError as err:
        raise BenchError('%s: %s' % (build_dir, err)) from err
    return counts


def sampled(build_dir, qemu, opts='-F 4000'):
    """{workload: (samples, cycles with @opts, cycles unsampled)} from perfrec record"""
    res = {}
    # QEMU virt as instructions() boots it: EL1, GICv2
    env = types.SimpleNamespace(build_dir=build_dir, qemu=qemu, timeout=300)
    with Uboot(env, 'el1-gicv2') as ub:
        for wl in WORKLOADS:
            base = ub.record('-c %d' % HUGE_PERIOD, wl)
            run = ub.record(opts, wl)
            res[wl] = (run['samples'], run['counted'], base['counted'])
    return res


def tracer(base_dir, trace_dir, qemu, cross):
    """U-Boot's function tracer on the same workloads, against its release's plain build"""
    res = {'base': sizes(base_dir, cross), 'trace': sizes(trace_dir, cross)}
    res['base']['insns'] = instructions(base_dir, qemu)
    res['trace']['insns'] = instructions(trace_dir, qemu)
    res['paused'] = instructions(trace_dir, qemu, before=['trace pause'])
    with open(os.path.join(base_dir, 'include', 'generated', 'version_autogenerated.h')) as inf:
        match = re.search(r'PLAIN_VERSION "([^"]+)"', inf.read())
    res['version'] = match.group(1) if match else '?'
    # The workloads' own instructions: less what perfrec stat counts around 'echo'
    for key in ('base', 'trace'):
        res[key]['net'] = {wl: res[key]['insns'][wl] - res[key]['insns']['echo']
                           for wl in WORKLOADS}
    res['paused_net'] = {wl: res['paused'][wl] - res['paused']['echo'] for wl in WORKLOADS}
    # perfrec_test calls <n> calls a small function n times
    res['calls'] = {wl: int(wl.split()[-1]) for wl in WORKLOADS
                    if wl.startswith('perfrec_test calls ')}
    res['per_call'] = {wl: (res['trace']['net'][wl] - res['base']['net'][wl]) / n
                       for wl, n in res['calls'].items()}
    res['per_call_paused'] = {wl: (res['paused_net'][wl] - res['base']['net'][wl]) / n
                              for wl, n in res['calls'].items()}
    return res


def pct(count, base):
    return '%d (%+.2f%%)' % (count, 100.0 * (count - base) / base)


def markdown_tracer(trc, samp):
    out = ['', 'The instrumentation anchor: U-Boot\'s function tracer (`FTRACE=1`, '
           '`CONFIG_TRACE`; `bench/variants/ftrace.config`) on the same workloads, '
           'instructions under `-icount shift=0` (each less what `perfrec stat -- echo` '
           'counts), against perfrec sampling them at 4 kHz. The tracer is built on '
           'U-Boot %s: on 2023.01 `CONFIG_TRACE` selects `TIMER_EARLY`, which needs a '
           'driver-model timer that arm64\'s generic timer does not have, so it does not '
           'link.' % trc['version'], '']
    head = ['build (U-Boot %s)' % trc['version'], 'u-boot.bin'] + \
        ['`%s`' % wl for wl in WORKLOADS]
    base = trc['base']['net']
    rows = [['perfrec build, no tracer', '%d' % trc['base']['bin']] +
            ['%d' % base[wl] for wl in WORKLOADS],
            ['with the tracer, tracing', '%d' % trc['trace']['bin']] +
            [pct(trc['trace']['net'][wl], base[wl]) for wl in WORKLOADS],
            ['with the tracer, `trace pause`', ''] +
            [pct(trc['paused_net'][wl], base[wl]) for wl in WORKLOADS]]
    if samp:
        rows.append(['perfrec sampling at 4 kHz (U-Boot 2023.01 build)', ''] +
                    ['%d samples, %+.3f%%' % (samp[wl][0],
                                              100.0 * (samp[wl][1] - samp[wl][2]) / samp[wl][2])
                     for wl in WORKLOADS])
    out += table(head, rows)
    calls = ''.join(' `%s` makes %d calls: %.0f instructions each while tracing, %.0f '
                    'paused.' % (wl, trc['calls'][wl], trc['per_call'][wl],
                                 trc['per_call_paused'][wl])
                    for wl in WORKLOADS if wl in trc['per_call'])
    out += ['', 'Every function entry and exit calls the tracer, which stores a 12-byte '
            'record for each (24 bytes a call) while its buffer lasts; paused, each call '
            'still pays the hooks\' checks.%s Its cost follows the calls the code makes; '
            'sampling\'s follows time alone.' % calls]
    return out


def markdown(full, variants, trc=None, samp=None):
    out = ['Image size and speed of the optional parts: the full perfrec build '
           '(`configs/qemu_arm64_perfrec_defconfig`) against builds with one part left '
           'out (or added) (`make bench-size`; speed: instructions under QEMU '
           '`-icount shift=0`).', '']
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
    names = dict(variants)
    if 'smallest' in names and 'no-perfrec' in names:
        out += ['', 'The smallest useful perfrec (record, dump over the UART, flat samples, '
                'cycles and cpu-clock) adds %d bytes to u-boot.bin, %d of them code '
                '(text): its size against the build without perfrec.' %
                (names['smallest']['bin'] - names['no-perfrec']['bin'],
                 names['smallest']['text'] - names['no-perfrec']['text'])]
        if names['smallest'].get('vector_fill') is not None:
            out += ['Of these, %d are the padding before its vector table, which must '
                    'start at a 2 KiB boundary: code that grows or shrinks before the table '
                    'moves the total in steps of 2 KiB, not byte by byte.' %
                    names['smallest']['vector_fill']]
    out += ['', 'vs full: bytes the full build spends on the part (or, for a part it does '
            'not have, what adding it costs). Frame records '
            '(`-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer '
            '-fno-optimize-sibling-calls`) add a prologue and epilogue to every '
            'leaf and keep tail calls as calls; the symbol table is the names and '
            'addresses of every function (`CONFIG_KALLSYMS`).']
    if trc:
        out += markdown_tracer(trc, samp)
    return '\n'.join(out) + '\n'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--full', required=True, help='build directory of the full build')
    parser.add_argument('--variant', action='append', default=[], metavar='NAME=DIR')
    parser.add_argument('--doc', '--readme', dest='doc', metavar='FILE',
                        help='replace the size markers of this doc page '
                        '(doc/develop/perfrec.rst)')
    parser.add_argument('--qemu', default='qemu-system-aarch64')
    parser.add_argument('--cross-compile', default='aarch64-linux-gnu-')
    parser.add_argument('--tracer', metavar='BASE_DIR=TRACE_DIR',
                        help='U-Boot\'s function tracer: a build with FTRACE=1 and '
                        'CONFIG_TRACE, and the same release built without')
    parser.add_argument('--json', metavar='FILE', help='also write the figures as JSON')
    args = parser.parse_args(argv)
    try:
        if args.doc:
            readme_markers(args.doc, 'size')
        full = sizes(args.full, args.cross_compile)
        full['insns'] = instructions(args.full, args.qemu)
        variants = []
        for spec in args.variant:
            name, _, build_dir = spec.partition('=')
            res = sizes(build_dir, args.cross_compile)
            res['vector_fill'] = vector_fill(build_dir)
            # perfrec_test's workloads, whose instructions perfrec stat counts
            if all(config_has(build_dir, opt) for opt in (
                    'CONFIG_CMD_PERFREC_TEST', 'CONFIG_PERFREC_STAT', 'CONFIG_PERFREC_EVENTS')):
                res['insns'] = instructions(build_dir, args.qemu)
            variants.append((name, res))
        trc = samp = None
        if args.tracer:
            base_dir, _, trace_dir = args.tracer.partition('=')
            trc = tracer(base_dir, trace_dir, args.qemu, args.cross_compile)
            samp = sampled(args.full, args.qemu)
    except (BenchError, OSError, subprocess.CalledProcessError) as err:
        print('perfrec_size: %s' % err, file=sys.stderr)
        return 1
    text = markdown(full, variants, trc, samp)
    if args.json:
        with open(args.json, 'w') as fh:
            json.dump({'full': full, 'variants': dict(variants), 'tracer': trc,
                       'sampled': samp, 'workloads': WORKLOADS}, fh, indent=1)
    sys.stdout.write(text)
    if args.doc:
        update_readme(args.doc, text, 'size')
    return 0


if __name__ == '__main__':
    sys.exit(main())
