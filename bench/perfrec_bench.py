#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Measure what one perfrec sample costs, icount-exact, over the QEMU matrix.

Usage:
    perfrec_bench.py --build-dir <dir> [--readme FILE] [--json [FILE]]
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
JSON; --readme replaces the text between the lines <!-- bench:start --> and
<!-- bench:end --> of that file with the tables (only if every check held).
Exit code 0 on success, 1 if a run failed or a check did not hold.

Needs qemu-system-aarch64 and binutils for aarch64 (nm, objdump, addr2line;
prefix from --cross-compile or $CROSS_COMPILE). Standard library only.
"""

import argparse
import bisect
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

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

# 115200 baud, 8N1: 10 bits a byte
UART_BYTES_PER_S = 11520

# A period no workload here reaches: the "without sampling" runs
HUGE_PERIOD = 100000000000

# Fixed anchors for the tables (not measured by this script)
FLOOR = {2: 128, 3: 131}
FLOOR_TEXT = ('bare-metal floor (handler storing only a PC, measured on '
              'this QEMU): 128 (GICv2) / 131 (GICv3)')
LINUX_TEXT = 'Linux perf record default: 4000 Hz'

CATEGORIES = ['entry/exit', 'GIC', 'PMU', 'record', 'dispatch/other']

# Innermost inlined function -> category; names not listed (readl,
# __read_once_size, ...) defer to the function they are inlined into.
FUNC_CATEGORY = {
    'perfrec_gic_ack': 'GIC',
    'perfrec_gic_intid': 'GIC',
    'perfrec_gic_eoi': 'GIC',
    'read_icc_iar1_el1': 'GIC',
    'write_icc_eoir1_el1': 'GIC',
    'read_pmovsclr_el0': 'PMU',
    'write_pmovsclr_el0': 'PMU',
    'read_pmccntr_el0': 'PMU',
    'write_pmccntr_el0': 'PMU',
    'read_pmevcntrn_el0': 'PMU',
    'write_pmevcntrn_el0': 'PMU',
    'perfrec_irq_read_counter': 'PMU',
    'perfrec_irq_write_counter': 'PMU',
    'perfrec_irq_reload': 'PMU',
    'perfrec_irq_adjust': 'PMU',
    'read_cntpct_el0': 'record',
    'perfrec_irq_now_ns': 'record',
    'perfrec_irq_sample': 'record',
    'perfrec_irq_put': 'record',
    'perfrec_irq_handler': 'dispatch/other',
}

# Offsets of the IRQ/FIQ entries in a vector table (current EL, SP0/SPx)
IRQ_ENTRIES = (0x080, 0x100, 0x280, 0x300)

RE_RELOC = re.compile(r'reloc off\s*=\s*(0x[0-9a-fA-F]+)')
RE_SUMMARY = re.compile(r'perfrec: (\d+) samples, (\d+) lost, (\d+) bytes of '
                        r'perf\.data at (0x[0-9a-fA-F]+), workload rc (-?\d+)')
RE_COUNTED = re.compile(r'event (\S+): (\d+) counted, period (\d+)')
RE_STATUS = re.compile(r'samples: (\d+), lost: (\d+), spurious: (\d+), '
                       r'foreign: (\d+), late: (\d+)')
RE_TRACE = re.compile(r'^Trace \d+: \S+ \[[0-9a-fA-F]+/([0-9a-fA-F]+)/')
# QEMU's notes that the TB logged just before retired no instruction
RE_UNDONE = (re.compile(r'cpu_io_recompile: rewound execution of TB to '
                        r'([0-9a-fA-F]+)'),
             re.compile(r'Stopped execution of TB chain before \S+ '
                        r'\[([0-9a-fA-F]+)\]'))


class BenchError(Exception):
    """A run failed or a figure could not be trusted"""


def log(args, msg):
    """Progress to stderr with -v"""
    if args.verbose:
        print('perfrec_bench: %s' % msg, file=sys.stderr, flush=True)


class Uboot(Board):
    """U-Boot in QEMU under -icount shift=0, driven over its serial console"""

    def __init__(self, args, cell, extra=()):
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


# --- The ELF: where perfrec's IRQ code is and what each instruction is --------

class Image:
    """Addresses and source attribution of perfrec's IRQ path in the ELF"""

    def __init__(self, args):
        self.elf = os.path.join(args.build_dir, 'u-boot')
        self.cross = args.cross_compile
        for tool in ('nm', 'objdump', 'addr2line'):
            if not shutil.which(self.cross + tool):
                raise BenchError('%s%s not found (install binutils-aarch64-linux-gnu '
                                 'or set --cross-compile)' % (self.cross, tool))
        if not os.path.isfile(self.elf):
            raise BenchError('%s: no such file' % self.elf)
        self.vectors = {}  # el -> (start, size)
        self.funcs = []  # (start, size, name) of the IRQ path's C code
        self._find_symbols()
        self.ranges = sorted([v for v in self.vectors.values()] +
                             [(s, n) for s, n, _ in self.funcs])
        self.counter_read, self.counter_write = self._counter_accesses()
        self.category = {}
        self.inner = {}
        self.lock = threading.Lock()  # cells are traced in parallel

    def _tool(self, name, *argv):
        res = subprocess.run([self.cross + name] + list(argv), check=True,
                             stdout=subprocess.PIPE, universal_newlines=True)
        return res.stdout

    def _find_symbols(self):
        allsyms = []
        for line in self._tool('nm', '-n', '-S', '-l', '--defined-only',
                               self.elf).splitlines():
            left, _, where = line.partition('\t')
            parts = left.split()
            if len(parts) == 4:
                addr, size, kind, name = parts
                size = int(size, 16)
            elif len(parts) == 3:
                addr, kind, name = parts
                size = None
            else:
                continue
            allsyms.append((int(addr, 16), size, kind, name, where))
        starts = sorted({a for a, _, k, _, _ in allsyms if k in 'tTwW'})
        for addr, size, kind, name, where in allsyms:
            m = re.fullmatch(r'perfrec_vectors_el([123])', name)
            if m:
                # A table is 2 KiB at most; its last entry is one branch, so
                # the next symbol may start inside that 2 KiB
                nxt = bisect.bisect_right(starts, addr)
                end = starts[nxt] if nxt < len(starts) else addr + 0x800
                self.vectors[int(m.group(1))] = (addr, min(0x800, end - addr))
            elif kind in 'tT' and size and re.search(r'/perfrec_(irq|unwind)\.c:\d', where):
                self.funcs.append((addr, size, name))
        if sorted(self.vectors) != [1, 2, 3]:
            raise BenchError('%s: perfrec_vectors_el1/2/3 not found' % self.elf)
        if not any(n == 'perfrec_irq_handler' for _, _, n in self.funcs):
            raise BenchError('%s: perfrec_irq_handler (perfrec_irq.c) not found; '
                             'is the ELF built with debug info?' % self.elf)

    def _counter_accesses(self):
        """PCs of the handler's PMCCNTR_EL0 read and write"""
        reads, writes = set(), set()
        for start, size, _ in self.funcs:
            dis = self._tool('objdump', '-d', '--start-address=%#x' % start,
                             '--stop-address=%#x' % (start + size), self.elf)
            for line in dis.splitlines():
                m = re.match(r'\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+(mrs|msr)\s+(.*)', line)
                if not m or 'pmccntr_el0' not in m.group(3):
                    continue
                (reads if m.group(2) == 'mrs' else writes).add(int(m.group(1), 16))
        return reads, writes

    def filter_arg(self, reloc):
        """-dfilter value: the relocated vector tables and the IRQ path's C code"""
        return ','.join('%#x+%#x' % (start + reloc, size) for start, size in self.ranges)

    def in_range(self, addr):
        return any(s <= addr < s + n for s, n in self.ranges)

    def vector_el(self, addr):
        for el, (start, size) in self.vectors.items():
            if start <= addr < start + size:
                return el
        return None

    def attribute(self, addrs):
        """Fill self.category and self.inner for ELF addresses @addrs"""
        with self.lock:
            self._attribute(addrs)

    def _attribute(self, addrs):
        todo = sorted(a for a in set(addrs) if a not in self.category)
        for addr in todo:
            if self.vector_el(addr):
                self.category[addr] = 'entry/exit'
                self.inner[addr] = 'perfrec_vectors_el%d' % self.vector_el(addr)
        todo = [a for a in todo if a not in self.category]
        if not todo:
            return
        out = self._tool('addr2line', '-a', '-f', '-i', '-e', self.elf,
                         *['%#x' % a for a in todo])
        chains = {}
        cur = None
        lines = out.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if re.fullmatch(r'0x[0-9a-f]+', line):
                cur = int(line, 16)
                chains[cur] = []
                i += 1
                continue
            chains[cur].append(line)  # function name, then file:line
            i += 2
        for addr in todo:
            names = chains.get(addr, [])
            cat = None
            for name in names:
                if name in FUNC_CATEGORY:
                    cat = FUNC_CATEGORY[name]
                    break
            self.category[addr] = cat or 'dispatch/other'
            self.inner[addr] = names[0] if names else '??'


# --- Measurements -------------------------------------------------------------

def workload(size):
    return 'crc32 0x40000000 %#x' % size


def measure_difference(args, cell):
    """Difference method at each period; also the relocation offset"""
    res = {'runs': [], 'per_period': {}}
    with Uboot(args, cell) as ub:
        res['reloc_off'] = ub.reloc_off()
        wl = workload(args.size)
        base = ub.record('-c %d' % HUGE_PERIOD, wl)
        if base['samples']:
            raise BenchError('%s: baseline took %d samples' % (cell, base['samples']))
        res['baseline'] = base
        for period in args.periods:
            costs = []
            for _ in range(args.repeat):
                run = ub.record('-c %d' % period, wl)
                if not run['samples']:
                    raise BenchError('%s: -c %d took no samples' % (cell, period))
                run['cost'] = (run['counted'] - base['counted']) / run['samples']
                run['bytes_per_sample'] = (run['bytes'] - base['bytes']) / run['samples']
                res['runs'].append(run)
                costs.append(run)
            res['per_period'][period] = {
                'samples': costs[0]['samples'],
                'cost': sum(r['cost'] for r in costs) / len(costs),
                'cost_spread': max(r['cost'] for r in costs) - min(r['cost'] for r in costs),
                'bytes_per_sample': costs[0]['bytes_per_sample'],
            }
    res['fit'], res['fixed'] = fit(res['runs'], base['counted'])
    log(args, '%s: difference method done' % cell)
    return res


def fit(runs, base):
    """Least squares of counted - base = cost * samples + fixed

    A sampled session counts a few dozen cycles more than its samples
    explain, the same number at any period: the slope over several periods
    is the cost of one more sample, free of that fixed part.
    """
    xs = [r['samples'] for r in runs]
    ys = [r['counted'] - base for r in runs]
    if len(set(xs)) < 2:
        return None, None
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / \
        sum((x - mx) ** 2 for x in xs)
    return slope, my - slope * mx


def one_insn_per_tb(qemu):
    """@qemu's option for one instruction per TB: -singlestep until QEMU 8.0"""
    helptext = subprocess.run([qemu, '-help'], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout
    return ['-singlestep'] if re.search(r'^-singlestep', helptext, re.M) else \
        ['-accel', 'tcg,one-insn-per-tb=on']


def parse_trace(path):
    """Executed PCs of a -d exec -singlestep log; return (pcs, dropped)

    A "Trace" line is printed when QEMU enters a TB (here one instruction),
    which is not always when the instruction retires: under icount an MMIO
    access makes QEMU rewind the TB and run it again ("cpu_io_recompile:
    rewound ..."), and a TB can exit at its start, before its instruction,
    for a pending interrupt or an icount deadline ("Stopped execution of TB
    chain before ..."). Both notes follow the Trace line of the attempt that
    retired nothing: those lines are dropped.
    """
    pcs = []
    dropped = 0
    with open(path, errors='replace') as fh:
        for line in fh:
            m = RE_TRACE.match(line)
            if m:
                pcs.append(int(m.group(1), 16))
                continue
            for regex in RE_UNDONE:
                m = regex.search(line)
                if m and pcs and pcs[-1] == int(m.group(1), 16):
                    pcs.pop()
                    dropped += 1
    return pcs, dropped


def measure_trace(args, cell, image, reloc, logdir):
    """Breakdown per sample from QEMU's execution trace"""
    logpath = os.path.join(logdir, 'trace-%s.log' % cell)
    extra = ['-d', 'exec,nochain', '-D', logpath, '-dfilter', image.filter_arg(reloc)]
    extra += args.one_insn_per_tb
    with Uboot(args, cell, extra) as ub:
        check = ub.reloc_off()
        if check != reloc:
            raise BenchError('%s: reloc off changed between boots (%#x, %#x)' %
                             (cell, reloc, check))
        run = ub.record('-c %d' % args.trace_period, workload(args.trace_size))
    pcs, dropped = parse_trace(logpath)
    if not run['samples']:
        raise BenchError('%s: trace run took no samples' % cell)
    if not pcs:
        raise BenchError('%s: empty trace (-dfilter %s, reloc off %#x)' %
                         (cell, image.filter_arg(reloc), reloc))
    elf_pcs = [pc - reloc for pc in pcs]
    stray = [pc for pc in set(elf_pcs) if not image.in_range(pc)]
    if stray:
        raise BenchError('%s: trace has PCs outside the filter (%s): is -dfilter '
                         'honoured?' % (cell, ', '.join('%#x' % p for p in stray[:4])))
    el = CELLS[cell][1]
    vstart = image.vectors[el][0]
    entries = sum(1 for pc in elf_pcs if pc - vstart in IRQ_ENTRIES)
    image.attribute(elf_pcs)
    counts = {c: 0 for c in CATEGORIES}
    funcs = {}
    for pc in elf_pcs:
        counts[image.category[pc]] += 1
        name = image.inner[pc]
        funcs[name] = funcs.get(name, 0) + 1
    # Instructions the counter cannot see: after its read, up to and
    # including its write (the write sets the count the next one starts from)
    window = 0
    inside = False
    for pc in elf_pcs:
        if pc in image.counter_read:
            inside = True
        elif inside:
            window += 1
            if pc in image.counter_write:
                inside = False
    n = run['samples']
    if not args.keep_logs:
        os.unlink(logpath)
    log(args, '%s: trace done (%d instructions, %d samples)' % (cell, len(pcs), n))
    return {
        'run': run, 'trace_lines_not_retired': dropped, 'irq_entries': entries,
        'instructions': len(pcs), 'per_sample': len(pcs) / n,
        'categories': {c: v / n for c, v in counts.items()},
        'functions': {k: v / n for k, v in sorted(funcs.items(), key=lambda kv: -kv[1])},
        'uncounted_window': window / n,
        'dfilter': image.filter_arg(reloc),
    }


def measure_overhead(args, cell):
    """Workload slowdown at each -F"""
    res = {'cell': cell, 'workload': workload(args.overhead_size), 'runs': []}
    with Uboot(args, cell) as ub:
        wl = res['workload']
        base = ub.record('-c %d' % HUGE_PERIOD, wl)
        res['baseline'] = base
        for hz in args.freqs:
            run = ub.record('-F %d' % hz, wl)
            delta = run['counted'] - base['counted']
            run['hz'] = hz
            run['overhead_pct'] = 100.0 * delta / base['counted']
            run['cost'] = delta / run['samples'] if run['samples'] else None
            run['bytes_per_sample'] = ((run['bytes'] - base['bytes']) / run['samples']
                                       if run['samples'] else None)
            # virtual time is 1 ns per instruction: samples per second of it
            run['rate_hz'] = run['samples'] * 1e9 / run['counted']
            res['runs'].append(run)
    log(args, '%s: overhead done' % cell)
    return res


def measure_wire(args, cell):
    """Bytes on the serial line per sample for 'perfrec dump', plain and gzip"""
    res = {'cell': cell, 'workload': workload(args.wire_size), 'period': args.wire_period}
    with Uboot(args, cell) as ub:
        run = ub.record('-c %d' % args.wire_period, res['workload'])
        res['samples'] = run['samples']
        res['bytes'] = run['bytes']
        for name, opts in (('plain', ''), ('gzip', '-z')):
            out = ub.run('perfrec dump %s' % opts)
            lines = [line for line in out.split('\n') if line.strip()]
            block = [line for line in lines
                     if line.startswith(('perfrec-begin', 'perfrec-end')) or
                     re.match(r'^[0-9a-f]+:', line)]
            if not block or not block[0].startswith('perfrec-begin'):
                raise BenchError('%s: perfrec dump %s printed no block' % (cell, opts))
            wire = sum(len(line) + 2 for line in block)     # CR LF per line
            res[name] = {'wire': wire, 'per_sample': wire / run['samples']}
    for name in ('plain', 'gzip'):
        per = res[name]['per_sample']
        res[name]['samples_per_s'] = UART_BYTES_PER_S / per
        res[name]['ten_s_4khz_s'] = 40000 * per / UART_BYTES_PER_S
    log(args, '%s: wire done' % cell)
    return res


def fit_line(points):
    """Least squares y = a + b * x over [(x, y)]: return (a, b), or (None, None)"""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if n < 2 or not sxx:
        return None, None
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - slope * mx, slope


def measure_callgraph(args, cell):
    """Counted cycles per sample with and without -g over nested calls of known depth"""
    res = {'cell': cell, 'period': args.callgraph_period, 'loops': args.callgraph_loops,
           'runs': []}
    with Uboot(args, cell) as ub:
        for depth in args.callgraph_depths:
            wl = 'perfrec_test chain %d %d' % (depth, args.callgraph_loops)
            base = ub.record('-c %d' % HUGE_PERIOD, wl)
            row = {'depth': depth, 'workload': wl}
            for name, opts in (('flat', ''), ('graph', '-g ')):
                run = ub.record('%s-c %d' % (opts, args.callgraph_period), wl)
                if not run['samples']:
                    raise BenchError('%s: %s took no samples' % (cell, run['opts']))
                row[name] = (run['counted'] - base['counted']) / run['samples']
                row[name + '_bytes'] = (run['bytes'] - base['bytes']) / run['samples']
                row[name + '_run'] = run
            # A -g sample adds nr and nr entries: the context marker, the PC, the callers
            row['callers'] = (row['graph_bytes'] - row['flat_bytes']) / 8 - 3
            row['extra'] = row['graph'] - row['flat']
            res['runs'].append(row)
    res['fixed'], res['per_caller'] = fit_line([(r['callers'], r['extra'])
                                                for r in res['runs']])
    log(args, '%s: call graph done' % cell)
    return res


# Options that take the general handler, against the one-event fast path
PATHS = [('one event (fast path)', '-c 20000'),
         ('two events: cycles, r11', '-e cycles,r11 -c 20000'),
         ('one event, `-j 10`', '-j 10 -c 20000'),
         ('one event, `-g`', '-g -c 20000')]


def measure_paths(args, cell):
    """Counted cycles per sample on the fast path and on the general one"""
    wl = workload(args.size)
    res = {'cell': cell, 'workload': wl, 'runs': []}
    with Uboot(args, cell) as ub:
        base = ub.record('-c %d' % HUGE_PERIOD, wl)
        for name, opts in PATHS:
            run = ub.record(opts, wl)
            run['name'] = name
            run['cost'] = (run['counted'] - base['counted']) / run['samples']
            run['bytes_per_sample'] = (run['bytes'] - base['bytes']) / run['samples']
            res['runs'].append(run)
    log(args, '%s: paths done' % cell)
    return res


def measure_capacity(args, cell):
    """What one buffer holds, the rates it takes without loss, what happens above

    Each run checks perfrec's books: every period that ended is a sample
    stored, a sample lost (buffer full) or a late period (the interrupt came
    after the next period had ended too), so samples + lost + late ==
    floor(events / period).
    """
    wl = workload(args.overhead_size)
    res = {'cell': cell, 'workload': wl, 'buf': args.capacity_buf, 'runs': [],
           'limit_workload': workload(args.trace_size), 'limit': []}
    sessions = ['-c %d' % p for p in args.capacity_periods]
    sessions += ['-g -c %d' % p for p in args.capacity_graph_periods]
    with Uboot(args, cell) as ub:
        res['baseline'] = ub.record('-c %d' % HUGE_PERIOD, wl)
        for opts in sessions:
            run = ub.record('-s %#x %s' % (args.capacity_buf, opts), wl, lost_ok=True)
            run['graph'] = opts.startswith('-g')
            res['runs'].append(run)
        res['limit_baseline'] = ub.record('-c %d' % HUGE_PERIOD, res['limit_workload'])
        for period in args.limit_periods:
            res['limit'].append(ub.record('-c %d' % period, res['limit_workload']))
    for run in res['runs'] + res['limit']:
        run['period'] = int(run['opts'].split()[-1])
        run['attempted'] = run['samples'] + run['lost'] + run['late']
        run['expected'] = run['counted'] // run['period']
        run['rate_hz'] = run['attempted'] * 1e9 / run['counted']
    for run in res['limit']:
        run['slowdown'] = run['counted'] / res['limit_baseline']['counted']
    for graph in (False, True):
        full = [r['samples'] for r in res['runs'] if r['graph'] == graph and r['lost']]
        res['capacity_graph' if graph else 'capacity'] = max(full) if full else None
    log(args, '%s: capacity done' % cell)
    return res


def measure_clock(args, cell):
    """cpu-clock: what a timer sample costs, from the time it adds (1 ns per instruction)"""
    wl = workload(args.size)
    res = {'cell': cell, 'workload': wl, 'runs': []}
    with Uboot(args, cell) as ub:
        base = ub.record('-c %d' % HUGE_PERIOD, wl)
        for period in args.clock_periods:
            run = ub.record('-e cpu-clock -c %d' % period, wl)
            if not run['samples']:
                raise BenchError('%s: cpu-clock -c %d took no samples' % (cell, period))
            run['period'] = period
            run['cost'] = (run['counted'] - base['counted']) / run['samples']
            res['runs'].append(run)
    log(args, '%s: cpu-clock done' % cell)
    return res


def cell_job(args, cell, image, logdir):
    diff = measure_difference(args, cell)
    trace = measure_trace(args, cell, image, diff['reloc_off'], logdir)
    return {'difference': diff, 'trace': trace, 'paths': measure_paths(args, cell)}


# --- Output -------------------------------------------------------------------

def fmt(val, places=2):
    if val is None:
        return '-'
    if abs(val - round(val)) < 0.005:
        return '%d' % round(val)
    return '%.*f' % (places, val)


def label(cell):
    """el2-gicv3 -> EL2 / GICv3"""
    el, gic = cell.split('-')
    return '%s / GICv%s' % (el.upper(), gic[-1])


def table(head, rows, align=None):
    align = align or ['---'] + ['---:'] * (len(head) - 1)
    out = ['| ' + ' | '.join(head) + ' |', '|' + '|'.join(align) + '|']
    out += ['| ' + ' | '.join(row + [''] * (len(head) - len(row))) + ' |'
            for row in rows]
    return out


def markdown_anchors(result, size):
    """perfrec's headline figures beside Linux perf's defaults, U-Boot's tracer, the floor"""
    cells = result['cells']
    cell = OVERHEAD_CELL if OVERHEAD_CELL in cells else next(iter(cells))
    fast = cells[cell]['difference']
    per_sample = fast['fit'] if fast['fit'] is not None else \
        next(iter(fast['per_period'].values()))['cost']
    floor = FLOOR[CELLS[cell][2]]
    costs = [r['difference']['fit'] for r in cells.values() if r['difference']['fit']]
    trc = (size or {}).get('tracer')
    calls_wl = 'perfrec_test calls 100000'
    rows = [['instructions per sample (flat, one event; %s)' % label(cell),
             '%s (%s to %s over the cells)' % (fmt(per_sample, 0), fmt(min(costs), 0),
                                              fmt(max(costs), 0)), '',
             ('%s per function call traced' % fmt(trc['per_call'][calls_wl], 0))
             if trc and calls_wl in trc['per_call'] else '',
             '%d (a handler storing only a PC)' % floor]]
    ov = result.get('overhead')
    at4k = [r for r in (ov or {}).get('runs', []) if r['hz'] == 4000]
    if at4k:
        run = at4k[0]
        tr = ''
        if trc:
            tr = '; '.join('%+.1f%% on `%s`' % (
                100.0 * (trc['trace']['net'][wl] - trc['base']['net'][wl]) /
                trc['base']['net'][wl], wl) for wl in trc['base']['net'])
        samp = (size or {}).get('sampled') or {}
        mine = '%.3f%% (`%s`)' % (run['overhead_pct'], ov['workload'])
        if samp:
            pcts = [100.0 * (c - b) / b for _, c, b in samp.values()]
            mine += '; %.3f%% to %.3f%% on the tracer\'s workloads' % (min(pcts), max(pcts))
        rows.append(['workload overhead at 4 kHz', mine, '', tr or '(not measured)',
                     '%.3f%%' % (100.0 * floor * 4000 / 1e9)])
    rows.append(['default rate', '4000 Hz (`-F`, up to 100000)', '4000 Hz',
                 'every function call', ''])
    cg = result.get('callgraph')
    rows.append(['bytes per sample in memory', '48 flat%s' % (
        ', %s with `-g` at %s callers' % (fmt(cg['runs'][0]['graph_bytes'], 0),
                                          fmt(cg['runs'][0]['callers'], 0)) if cg else ''),
                 '40 (IP, TID, TIME, PERIOD)', '24 a call (two 12-byte records)',
                 '8 (a PC)'])
    wire = result.get('wire')
    if wire:
        rows.append(['bytes per sample over the UART', '%s (`-z`: %s)' % (
            fmt(wire['plain']['per_sample'], 1), fmt(wire['gzip']['per_sample'], 1)),
                     '', '', ''])
        rows.append(['10 s at 4 kHz over 115200 baud', '%s s (`-z`: %s s)' % (
            fmt(wire['plain']['ten_s_4khz_s'], 0), fmt(wire['gzip']['ten_s_4khz_s'], 0)),
                     '', '', ''])
    cap = result.get('capacity')
    if cap and cap['capacity']:
        rows.append(['samples a %d KiB buffer holds' % (cap['buf'] // 1024),
                     '%d flat (%.1f s at 4 kHz)' % (cap['capacity'], cap['capacity'] / 4000.0),
                     '', '', ''])
    out = ['perfrec beside its anchors (figures from the tables below; QEMU `-icount '
           'shift=0`, one instruction a nanosecond).', '']
    out += table(['figure', 'perfrec', 'Linux `perf record` default', 'U-Boot\'s function '
                  'tracer', 'floor'], rows, ['---'] * 5)
    return out + ['']


def markdown(result, size=None):
    cfg = result['config']
    periods = cfg['periods']
    cells = result['cells']
    out = markdown_anchors(result, size)
    out += ['Instructions per sample, vector entry to `eret`: QEMU %s virt, '
           'cortex-a57, `-icount shift=0` (1 instruction = 1 cycle).' % result['qemu'], '']
    rows = []
    for cell, res in cells.items():
        d, t = res['difference'], res['trace']
        rows.append([label(cell)] + [fmt(d['per_period'][p]['cost']) for p in periods] +
                    [fmt(d['fit']), fmt(t['per_sample']), fmt(t['uncounted_window']),
                     fmt(t['per_sample'] - t['uncounted_window']),
                     fmt(d['per_period'][periods[0]]['bytes_per_sample'])])
    rows.append([FLOOR_TEXT])
    out += table(['cell'] + ['counted, `-c %d`' % p for p in periods] +
                 ['counted, fit', 'executed (trace)', 'uncounted window',
                  'trace - window', 'bytes/sample'], rows)
    fixed = [r['difference']['fixed'] for r in cells.values()
             if r['difference']['fixed'] is not None]
    fitnote = ('; fit: the slope over all periods, free of the ~%s cycles a sampled '
               'session counts once whatever its period' %
               fmt(sum(fixed) / len(fixed), 0)) if fixed else ''
    out += ['', 'Counted: (cycles perfrec counts over `%s` while sampling - cycles '
            'it counts with a period that never overflows) / samples%s. Executed: '
            'instructions QEMU traced in the vector table and perfrec_irq.o. '
            'Uncounted window: those after the handler reads PMCCNTR_EL0, up to '
            'and including its reload, which the counter cannot see. Bytes: '
            'perf.data growth per sample.' % (workload(cfg['size']), fitnote), '']
    out += ['Executed instructions per sample by category (QEMU `-d exec,nochain '
            '%s -dfilter`, `-c %d` over `%s`; each instruction goes to its '
            'innermost inlined function as addr2line reports it).' %
            (cfg['one_insn_per_tb'], cfg['trace_period'], workload(cfg['trace_size'])), '']
    rows = [[label(cell)] + [fmt(res['trace']['categories'][c]) for c in CATEGORIES] +
            [fmt(res['trace']['per_sample'])] for cell, res in cells.items()]
    out += table(['cell'] + CATEGORIES + ['total'], rows)
    out += ['', 'entry/exit: the vector entry (register saves, `bl`, restores, '
            '`eret`); GIC: acknowledge, INTID, EOI; PMU: overflow flags, counter '
            'read and reload; record: timestamp, building and storing the sample; '
            'dispatch/other: the rest of perfrec_irq_handler (frame, loop, '
            'checks, barriers).']
    ov = result.get('overhead')
    if ov:
        out += ['', 'Workload overhead, %s, `%s`.' % (label(ov['cell']), ov['workload']), '']
        rows = [['%d' % r['hz'], '%d' % r['samples'], fmt(r['rate_hz'], 0), fmt(r['cost']),
                 '%.3f%%' % r['overhead_pct'],
                 '%.3f%%' % r.get('overhead_executed_pct', r['overhead_pct'])]
                for r in ov['runs']]
        rows.append([LINUX_TEXT])
        out += table(['`-F`', 'samples', 'samples/s', 'counted/sample',
                      'overhead, counted', 'overhead, executed'], rows)
        out += ['', 'Overhead, counted: (cycles counted sampling - without) / without. '
                'Executed: plus the uncounted window of every sample. Frequency '
                'mode recomputes the period in each interrupt, so a sample costs '
                'more than with `-c`. samples/s: per second of virtual time '
                '(1 ns per instruction).']
    wire = result.get('wire')
    if wire:
        out += ['', 'Bytes on the serial line (`perfrec dump`, framed base64 with a CRC per '
                'line; `-z`: gzip first), %s, `-c %d` over `%s`: %d samples, %d bytes of '
                'perf.data. At 115200 baud the line carries %d bytes/s.' %
                (label(wire['cell']), wire['period'], wire['workload'], wire['samples'],
                 wire['bytes'], UART_BYTES_PER_S), '']
        rows = [[name, '%d' % wire[key]['wire'], fmt(wire[key]['per_sample'], 1),
                 fmt(wire[key]['samples_per_s'], 0), fmt(wire[key]['ten_s_4khz_s'], 0)]
                for name, key in (('`perfrec dump`', 'plain'), ('`perfrec dump -z`', 'gzip'))]
        out += table(['dump', 'bytes on the wire', 'bytes/sample', 'samples/s live at 115200',
                      '10 s at 4 kHz: seconds at 115200'], rows)
        out += ['', 'A flat sample is 48 bytes in memory (perf record\'s default sample is '
                '40, with CPU and id 56); base64 and framing make it 72.4 on the wire. gzip '
                'gains most where the samples repeat (a hot loop); a varied boot profile '
                'compresses less.']
    out += ['', 'The fast path and the general handler in every cell, over `%s`: counted '
            'cycles per sample (two events: per sample of either; the event counter\'s '
            'overflow comes late under `-icount`, often with the cycle counter\'s; `-g`: '
            'the chain from `crc32` up to `_main`).' % workload(cfg['size']), '']
    rows = [[label(cell)] + [fmt(r['cost']) for r in res['paths']['runs']] +
            [fmt(res['paths']['runs'][-1]['bytes_per_sample'], 0)]
            for cell, res in cells.items()]
    head = ['%s<br>`%s`' % (name.replace('one event, ', ''), opts) for name, opts in PATHS]
    out += table(['cell'] + head + ['bytes/sample, `-g`'], rows)
    cap = result.get('capacity')
    if cap:
        base = cap['baseline']['counted']
        out += ['', 'Buffer capacity, %s, `-s %#x` (%d KiB) over `%s` (%d cycles unsampled: '
                '%.2f s of virtual time). Every period that ends is a sample stored, a '
                'sample lost (buffer full) or late; stored + lost + late = '
                'floor(events / period) held in every run.' %
                (label(cap['cell']), cap['buf'], cap['buf'] // 1024, cap['workload'], base,
                 base / 1e9), '']
        rows = [['`%s`' % r['opts'].replace('-s %#x ' % cap['buf'], ''),
                 fmt(r['rate_hz'], 0), '%d' % r['expected'], '%d' % r['samples'],
                 '%d' % r['lost'], '%d' % r['late'], '%d' % r['bytes']]
                for r in cap['runs']]
        out += table(['options', 'samples/s', 'periods', 'stored', 'lost', 'late',
                      'perf.data bytes'], rows, ['---'] + ['---:'] * 6)
        flat = cap['capacity']
        if flat:
            clean = [r for r in cap['runs'] if not r['graph'] and not r['lost']]
            header = cap['baseline']['bytes']
            per = (clean[0]['bytes'] - header) / clean[0]['samples'] if clean else 48
            out += ['', '%d KiB hold %d flat samples%s: over this workload every rate up to '
                    '%s samples/s loses nothing, and at 4 kHz the buffer lasts %.1f s (a '
                    '10-second boot at 4 kHz needs %d KiB flat). Above that perfrec keeps '
                    'the first samples, counts each later one as lost (perf report '
                    'prints the lost count) and ends a valid perf.data inside the buffer.' %
                    (cap['buf'] // 1024, flat,
                     (' (%d with `-g` here)' % cap['capacity_graph'])
                     if cap['capacity_graph'] else '',
                     fmt(flat * 1e9 / base, 0), flat / 4000.0,
                     (40000 * per + header + 1023) // 1024)]
        rows = [['%d' % r['period'], fmt(r['rate_hz'], 0), '%d' % r['expected'],
                 '%d' % r['samples'], '%d' % r['late'], '%.2f' % r['slowdown']]
                for r in cap['limit']]
        out += ['', 'The handler\'s own limit, %s, `-c <period>` over `%s`: a sample costs '
                'about %s cycles, so short periods leave the workload little. A period '
                'that ends before the handler has finished is late: skipped, with the '
                'counter\'s phase kept, so the workload still ends and the books still '
                'balance.' % (label(cap['cell']), cap['limit_workload'],
                              fmt(cells[cap['cell']]['difference']['fit'], 0)), '']
        out += table(['`-c`', 'samples/s', 'periods', 'stored', 'late',
                      'workload x'], rows)
    clk = result.get('clock')
    if clk:
        out += ['', 'cpu-clock (the generic timer\'s interrupt instead of the PMU\'s), %s, '
                'over `%s`: instructions a sample adds to the run, from the time cpu-clock '
                'counts against the cycles the same run takes unsampled (one instruction a '
                'nanosecond).' % (label(clk['cell']), clk['workload']), '']
        rows = [['%d' % r['period'], '%d' % r['samples'], fmt(r['cost'])] for r in clk['runs']]
        out += table(['`-c` (ns)', 'samples', 'instructions/sample'], rows)
    cg = result.get('callgraph')
    if cg:
        out += ['', 'Call graphs (`-g`), %s, `-c %d` over `perfrec_test chain <depth> %d`: '
                'counted cycles per sample, flat and with the frame-record walk.' %
                (label(cg['cell']), cg['period'], cg['loops']), '']
        rows = [['%d' % r['depth'], fmt(r['callers'], 1), fmt(r['flat']), fmt(r['graph']),
                 fmt(r['extra']), fmt(r['graph_bytes'], 0)] for r in cg['runs']]
        out += table(['depth', 'callers/sample', 'flat', '`-g`', '`-g` - flat',
                      'bytes/sample, `-g`'], rows)
        if cg['per_caller'] is not None:
            out += ['', 'Each caller walked costs %s cycles, plus %s per sample: a chain '
                    'is 8 bytes per caller plus 24. callers/sample counts every caller '
                    'up to `_main` (the shell adds a dozen to the workload\'s depth).' %
                    (fmt(cg['per_caller']), fmt(cg['fixed'], 0))]
    return '\n'.join(out) + '\n'


def readme_markers(path, name='bench'):
    """Lines of @path and the indexes of its two marker lines <!-- @name:start/end -->"""
    start, end = '<!-- %s:start -->' % name, '<!-- %s:end -->' % name
    try:
        with open(path) as fh:
            lines = fh.read().split('\n')
    except OSError as err:
        raise BenchError('--readme %s: %s' % (path, err.strerror))
    stripped = [line.strip() for line in lines]
    if stripped.count(start) != 1 or stripped.count(end) != 1:
        raise BenchError('--readme %s: needs exactly one line "%s" and one line "%s" '
                         '(the tables go between them)' % (path, start, end))
    i, j = stripped.index(start), stripped.index(end)
    if j < i:
        raise BenchError('--readme %s: "%s" comes before "%s"' % (path, end, start))
    return lines, i, j


def update_readme(path, text, name='bench'):
    """Replace the lines between @path's markers @name with @text"""
    lines, i, j = readme_markers(path, name)
    new = lines[:i + 1] + text.rstrip('\n').split('\n') + lines[j:]
    tmp = path + '.tmp'
    with open(tmp, 'w') as fh:
        fh.write('\n'.join(new))
    os.replace(tmp, path)


def check(result):
    """Consistency checks; return a list of problems"""
    problems = []
    for cell, res in result['cells'].items():
        d, t = res['difference'], res['trace']
        costs = [v['cost'] for v in d['per_period'].values()]
        if max(costs) - min(costs) > 1:
            problems.append('%s: cost per sample depends on the period: %s' %
                            (cell, ', '.join(fmt(c) for c in costs)))
        if t['irq_entries'] != t['run']['samples']:
            problems.append('%s: %d IRQ entries in the trace for %d samples' %
                            (cell, t['irq_entries'], t['run']['samples']))
        counted = d['fit'] if d['fit'] is not None else costs[0]
        gap = t['per_sample'] - t['uncounted_window'] - counted
        if abs(gap) > 0.5:
            problems.append('%s: trace - uncounted window = %s, counted = %s (off by %s)' %
                            (cell, fmt(t['per_sample'] - t['uncounted_window']),
                             fmt(counted), fmt(gap)))
        for run in d['runs'] + [t['run']]:
            problems += flags(cell, run)
    if result.get('callgraph'):
        cg = result['callgraph']
        for row in cg['runs']:
            problems += flags(cg['cell'], row['flat_run']) + flags(cg['cell'], row['graph_run'])
            if row['extra'] <= 0 or row['callers'] < row['depth']:
                problems.append('%s: -g over depth %d: %s callers, %s more cycles' %
                                (cg['cell'], row['depth'], fmt(row['callers'], 1),
                                 fmt(row['extra'])))
    for cell, res in result['cells'].items():
        for run in res['paths']['runs']:
            if run['name'].startswith('one event,') or run['name'].startswith('two'):
                continue    # jitter and a late event counter make late periods
            problems += flags(cell, run)
    cap = result.get('capacity')
    if cap:
        for run in cap['runs'] + cap['limit']:
            if run['attempted'] != run['expected']:
                problems.append('%s: %s: stored %d + lost %d + late %d != floor(%d / %d)' %
                                (cap['cell'], run['opts'], run['samples'], run['lost'],
                                 run['late'], run['counted'], run['period']))
        for run in cap['runs']:
            if run['bytes'] > cap['buf']:
                problems.append('%s: %s: %d bytes of perf.data in a %d-byte buffer' %
                                (cap['cell'], run['opts'], run['bytes'], cap['buf']))
            if run['late']:
                problems.append('%s: %s: %d late periods' % (cap['cell'], run['opts'],
                                                            run['late']))
        for graph in (False, True):
            full = {r['samples'] for r in cap['runs'] if r['graph'] == graph and r['lost']}
            if len(full) > 1:
                problems.append('%s: a full buffer held different counts: %s' %
                                (cap['cell'], sorted(full)))
        if not cap['capacity']:
            problems.append('%s: no -c period filled the %d-byte buffer' %
                            (cap['cell'], cap['buf']))
    if result.get('clock'):
        for run in result['clock']['runs']:
            problems += flags(result['clock']['cell'], run)
    if result.get('overhead'):
        for run in result['overhead']['runs']:
            problems += flags(result['overhead']['cell'], run)
    return problems


def flags(cell, run):
    """A run with odd interrupts measures more than the sample path"""
    if run['spurious'] or run['foreign'] or run['late']:
        return ['%s: %s: spurious %d, foreign %d, late %d' %
                (cell, run['opts'], run['spurious'], run['foreign'], run['late'])]
    return []


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--build-dir', required=True,
                        help='U-Boot build directory (u-boot and u-boot.bin)')
    parser.add_argument('--readme', help='replace the bench markers of this file')
    parser.add_argument('--json', nargs='?', const='-', metavar='FILE',
                        help='JSON to FILE, or instead of markdown to stdout')
    parser.add_argument('--cell', action='append', choices=sorted(CELLS),
                        help='only this cell (repeatable); default all')
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
                        default=[1000, 400, 200, 150, 100, 50])
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

    if args.readme:
        try:
            readme_markers(args.readme)  # fail now, not after the runs
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
            futs = {cell: pool.submit(cell_job, args, cell, image, logdir) for cell in cells}
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
    if args.readme and result['problems']:
        print('perfrec_bench: %s left as it was' % args.readme, file=sys.stderr)
    elif args.readme:
        try:
            update_readme(args.readme, text)
        except BenchError as err:
            print('perfrec_bench: %s' % err, file=sys.stderr)
            return 1
    log(args, 'done in %.1f s' % result['seconds'])

    return 1 if result['problems'] else 0


if __name__ == '__main__':
    sys.exit(main())
