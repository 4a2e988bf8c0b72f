#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Measure what one perfrec sample costs, icount-exact, over the QEMU matrix.

Usage:
    perfrec_bench.py --build-dir <dir> [--doc FILE] [--json [FILE]]
                     [--cell NAME]... [-j N] [--keep-logs DIR] [-v]

Every figure comes from QEMU virt under -icount shift=0, where each guest
instruction is one cycle of PMCCNTR_EL0 and a run is (nearly) deterministic.
For each cell (EL1/EL2/EL3 x GICv2/GICv3) it measures:

  cost      instructions per sample, by difference: the cycles perfrec counts
            over a workload while sampling, minus those it counts over the
            same workload with a period too long to ever overflow, divided by
            the samples taken; at two periods, to show the cost is constant.
  breakdown the same cost from QEMU's own execution trace (-d exec,nochain
            -singlestep -dfilter over perfrec's vector table and the code of
            perfrec_irq.o and perfrec_unwind.o, at their relocated
            addresses): each logged instruction is attributed, by
            addr2line's innermost inlined function, to entry/exit, GIC, PMU,
            record or dispatch/other.
            The trace counts every instruction from vector entry to eret;
            the difference method cannot see those executed between the
            handler's read and its reload of the counter, so the script
            checks trace - that window == difference.
  bytes     perf.data growth per sample in memory.
  paths     the same cost on the general handler: two events, -j, -g.

and on one cell (EL2/GICv3):

  overhead  workload slowdown at -F 1000, 4000, 10000 and 100000,
            (counted with - counted without) / without.
  capacity  what a 256 KiB buffer holds, the rates it takes without loss,
            and the books (stored + lost + late == floor(events / period))
            above them and at periods shorter than the handler.
  wire, cpu-clock, call graphs: bytes on the UART, timer samples, -g by depth.

With --size-json (perfrec_size.py's figures, U-Boot's function tracer among
them) the first table sets the headline figures beside their anchors.

It prints markdown tables; --json prints (or writes) the same numbers as
JSON; --doc (or --readme) replaces the text between the lines
'.. bench:start' and '.. bench:end' of the doc page, doc/develop/perfrec.rst,
with the tables as reStructuredText (only if every check held); in a
Markdown file the markers are <!-- bench:start --> and <!-- bench:end -->.
Exit code 0 on success, 1 if a run failed or a check did not hold.

Needs qemu-system-aarch64 and binutils for aarch64 (nm, objdump, addr2line;
prefix from --cross-compile or $CROSS_COMPILE). Standard library only.

The code: perfrec_bench_runner.py boots the cells, perfrec_bench_trace.py
reads the ELF and QEMU's trace, perfrec_bench_measure.py holds the
measurements and perfrec_bench_report.py the tables, the doc page's markers and
the checks; this file has the command line.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from perfrec_bench_measure import (cell_job, measure_callgraph, measure_capacity,
                                   measure_clock, measure_overhead, measure_wire)
from perfrec_bench_report import (FLOOR, FLOOR_TEXT, LINUX_TEXT, check, markdown,
                                  readme_markers, table, update_readme)
from perfrec_bench_runner import (ARM32_CELLS, CELLS, HUGE_PERIOD, OVERHEAD_CELL, BenchError,
                                  Uboot, log, one_insn_per_tb)
from perfrec_bench_trace import IRQ_ENTRIES, Image, parse_trace

# What perfrec_size.py and perfrec_boot_bench.py import from here, and main
__all__ = ['HUGE_PERIOD', 'IRQ_ENTRIES', 'BenchError', 'Uboot', 'main', 'one_insn_per_tb',
           'parse_trace', 'readme_markers', 'table', 'update_readme']


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True,
                        help='U-Boot build directory (u-boot and u-boot.bin)')
    parser.add_argument('--doc', '--readme', dest='doc', metavar='FILE',
                        help='replace the bench markers of this doc page '
                        '(doc/develop/perfrec.rst)')
    parser.add_argument('--json', nargs='?', const='-', metavar='FILE',
                        help='JSON to FILE, or instead of markdown to stdout')
    parser.add_argument('--cell', action='append', choices=sorted(CELLS),
                        help='only this cell (repeatable); default all')
    parser.add_argument('--arm32-build-dir',
                        help='the 32-bit Arm build (make build-arm32): its cells (%s) too, '
                        'instructions per sample' % ', '.join(ARM32_CELLS))
    parser.add_argument('-j', '--jobs', type=int, default=min(2, os.cpu_count() or 1),
                        help='QEMUs at once (default 2)')
    parser.add_argument('--qemu', default='qemu-system-aarch64')
    parser.add_argument('--cross-compile',
                        default=os.environ.get('CROSS_COMPILE', 'aarch64-linux-gnu-'))
    parser.add_argument('--periods', type=int, nargs='+', default=[10000, 100000])
    parser.add_argument('--size', type=lambda s: int(s, 0), default=0x1000000,
                        help='crc32 bytes for the difference method')
    parser.add_argument('--repeat', type=int, default=2,
                        help='sampled runs per period (default 2)')
    parser.add_argument('--trace-period', type=int, default=20000)
    parser.add_argument('--trace-size', type=lambda s: int(s, 0), default=0x100000)
    parser.add_argument('--freqs', type=int, nargs='+',
                        default=[1000, 4000, 10000, 100000])
    parser.add_argument('--overhead-size', type=lambda s: int(s, 0), default=0x4000000)
    parser.add_argument('--wire-size', type=lambda s: int(s, 0), default=0x4000000,
                        help='crc32 bytes recorded for the wire figures (0: skip)')
    parser.add_argument('--wire-period', type=int, default=25000)
    parser.add_argument('--callgraph-depths', type=int, nargs='*', default=[1, 4, 8],
                        help='perfrec_test chain depths for the -g table (none: skip it)')
    parser.add_argument('--callgraph-period', type=int, default=20000)
    parser.add_argument('--clock-periods', type=int, nargs='*', default=[20000, 100000],
                        help='cpu-clock periods in ns for its table (none: skip it)')
    parser.add_argument('--callgraph-loops', type=int, default=2000000)
    parser.add_argument('--capacity-buf', type=lambda s: int(s, 0), default=0x40000,
                        help='buffer size for the capacity table (hex)')
    parser.add_argument('--capacity-periods', type=int, nargs='*',
                        default=[1000000, 250000, 100000, 50000, 25000, 10000],
                        help='-c periods over the overhead workload (none: skip capacity)')
    parser.add_argument('--capacity-graph-periods', type=int, nargs='*',
                        default=[250000, 100000])
    parser.add_argument('--limit-periods', type=int, nargs='*',
                        default=[1000, 400, 200, 150, 100, 80, 50])
    parser.add_argument('--timeout', type=float, default=300,
                        help='seconds per U-Boot command')
    parser.add_argument('--keep-logs', metavar='DIR',
                        help='keep the QEMU execution traces in DIR')
    parser.add_argument('--size-json', metavar='FILE',
                        help='perfrec_size.py --json output, for the anchors table')
    parser.add_argument('-v', '--verbose', action='store_true')
    args = parser.parse_args(argv)
    args.build_dir = os.path.abspath(args.build_dir)
    cells = args.cell or list(CELLS)
    if args.arm32_build_dir:
        args.arm32_build_dir = os.path.abspath(args.arm32_build_dir)
        cells += list(ARM32_CELLS)

    if args.doc:
        try:
            readme_markers(args.doc)  # fail now, not after the runs
        except BenchError as err:
            print('perfrec_bench: %s' % err, file=sys.stderr)
            return 1

    t0 = time.monotonic()
    logdir = args.keep_logs or tempfile.mkdtemp(prefix='perfrec_bench.')
    os.makedirs(logdir, exist_ok=True)
    try:
        if not shutil.which(args.qemu):
            raise BenchError('%s not found' % args.qemu)
        qemu_ver = subprocess.run([args.qemu, '--version'], stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout.split('\n')[0]
        m = re.search(r'version (\S+)', qemu_ver)
        args.one_insn_per_tb = one_insn_per_tb(args.qemu)
        image = Image(args)
        image32 = Image(args, arm32=True) if args.arm32_build_dir else None
        result = {
            'qemu': m.group(1) if m else qemu_ver,
            'config': {'periods': args.periods, 'size': args.size,
                       'repeat': args.repeat, 'trace_period': args.trace_period,
                       'trace_size': args.trace_size, 'freqs': args.freqs,
                       'overhead_size': args.overhead_size, 'huge_period': HUGE_PERIOD,
                       'one_insn_per_tb': ' '.join(args.one_insn_per_tb)},
            'reference': {'floor': FLOOR, 'floor_text': FLOOR_TEXT,
                          'linux_text': LINUX_TEXT},
            'cells': {},
        }
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            ovf = None
            if OVERHEAD_CELL in cells and args.freqs:  # the longest job: first
                ovf = pool.submit(measure_overhead, args, OVERHEAD_CELL)
            futs = {cell: pool.submit(cell_job, args, cell,
                                      image32 if cell in ARM32_CELLS else image, logdir)
                    for cell in cells}
            for cell in cells:
                result['cells'][cell] = futs[cell].result()
            capf = None
            if OVERHEAD_CELL in cells and args.capacity_periods:
                capf = pool.submit(measure_capacity, args, OVERHEAD_CELL)
            clkf = None
            if OVERHEAD_CELL in cells and args.clock_periods:
                clkf = pool.submit(measure_clock, args, OVERHEAD_CELL)
            cgf = None
            if OVERHEAD_CELL in cells and args.callgraph_depths:
                cgf = pool.submit(measure_callgraph, args, OVERHEAD_CELL)
            wiref = None
            if OVERHEAD_CELL in cells and args.wire_size:
                wiref = pool.submit(measure_wire, args, OVERHEAD_CELL)
            if wiref:
                result['wire'] = wiref.result()
            if cgf:
                result['callgraph'] = cgf.result()
            if clkf:
                result['clock'] = clkf.result()
            if capf:
                result['capacity'] = capf.result()
            if ovf:
                result['overhead'] = ovf.result()
                window = result['cells'][OVERHEAD_CELL]['trace']['uncounted_window']
                base = result['overhead']['baseline']['counted']
                for run in result['overhead']['runs']:
                    run['overhead_executed_pct'] = 100.0 * (
                        run['counted'] - base + run['samples'] * window) / base
        result['problems'] = check(result)
        result['seconds'] = round(time.monotonic() - t0, 1)
    except (BenchError, subprocess.CalledProcessError, OSError) as err:
        print('perfrec_bench: %s' % err, file=sys.stderr)
        return 1
    finally:
        if not args.keep_logs:
            shutil.rmtree(logdir, ignore_errors=True)

    size = None
    if args.size_json:
        try:
            with open(args.size_json) as fh:
                size = json.load(fh)
        except (OSError, ValueError) as err:
            print('perfrec_bench: --size-json %s: %s' % (args.size_json, err), file=sys.stderr)
            return 1
    text = markdown(result, size)
    if args.json == '-':
        json.dump(result, sys.stdout, indent=1, sort_keys=True)
        print()
    else:
        sys.stdout.write(text)
        if args.json:
            with open(args.json, 'w') as fh:
                json.dump(result, fh, indent=1, sort_keys=True)
    for prob in result['problems']:
        print('perfrec_bench: check failed: %s' % prob, file=sys.stderr)
    if args.doc and result['problems']:
        print('perfrec_bench: %s left as it was' % args.doc, file=sys.stderr)
    elif args.doc:
        try:
            update_readme(args.doc, text)
        except BenchError as err:
            print('perfrec_bench: %s' % err, file=sys.stderr)
            return 1
    log(args, 'done in %.1f s' % result['seconds'])

    return 1 if result['problems'] else 0


if __name__ == '__main__':
    sys.exit(main())
