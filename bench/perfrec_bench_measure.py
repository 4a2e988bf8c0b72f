# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec_bench.py's measurements: one function per benchmark.

Each measure_* boots the cell it is given and returns its figures as a
dict: the difference method (measure_difference, with the fit over
periods), the execution trace breakdown (measure_trace), the overhead at
each -F, the bytes on the wire, call graphs by depth, the fast path against
the general handler (PATHS), the buffer's capacity and cpu-clock; cell_job
runs the per-cell ones.
"""

import os
import re

from perfrec_bench_runner import (ARM32_CELLS, CELLS, HUGE_PERIOD, BenchError, Uboot,
                                  huge_period, log)
from perfrec_bench_trace import CATEGORIES, parse_trace

# 115200 baud, 8N1: 10 bits a byte
UART_BYTES_PER_S = 11520


def workload(size):
    return 'crc32 0x40000000 %#x' % size


def measure_difference(args, cell):
    """Difference method at each period; also the relocation offset"""
    res = {'runs': [], 'per_period': {}}
    with Uboot(args, cell) as ub:
        res['reloc_off'] = ub.reloc_off()
        wl = workload(args.size)
        base = ub.record('-c %d' % huge_period(cell), wl)
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
    el = (ARM32_CELLS if cell in ARM32_CELLS else CELLS)[cell][1]
    vstart = image.vectors[el][0]
    entries = sum(1 for pc in elf_pcs if pc - vstart in image.irq_entries)
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
            res['limit'].append(ub.record('-c %d' % period, res['limit_workload'],
                                          lost_ok=True))
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
    # The general handler's paths (events, -j, -g) are measured on AArch64
    paths = {'cell': cell, 'runs': []} if cell in ARM32_CELLS else measure_paths(args, cell)
    return {'difference': diff, 'trace': trace, 'paths': paths}
