# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""perfrec_bench.py's report: Markdown tables, the doc page's markers, the checks.

markdown (with markdown_anchors, fmt, label, table) turns the figures into
the tables, FLOOR_TEXT and LINUX_TEXT being the fixed anchors beside them;
readme_markers and update_readme put them between a file's marker lines:
in a .rst file (doc/develop/perfrec.rst) the comments '.. NAME:start' and
'.. NAME:end', the tables turned into reStructuredText by markdown_to_rst;
in any other (a Markdown README) '<!-- NAME:start -->' and
'<!-- NAME:end -->', the tables as they are. check (with flags) lists the
figures that cannot be trusted.
"""

import os
import sys

from perfrec_bench_measure import PATHS, UART_BYTES_PER_S, workload
from perfrec_bench_rst import markdown_to_rst
from perfrec_bench_runner import CELLS, OVERHEAD_CELL, BenchError
from perfrec_bench_trace import CATEGORIES

# Fixed anchors for the tables (not measured by this script)
FLOOR = {2: 128, 3: 131}
FLOOR_TEXT = ('bare-metal floor (handler storing only a PC, measured on '
              'this QEMU): 128 (GICv2) / 131 (GICv3)')
LINUX_TEXT = 'Linux perf record default: 4000 Hz'


def fmt(val, places=2):
    if val is None:
        return '-'
    if abs(val - round(val)) < 0.005:
        return '%d' % round(val)
    return '%.*f' % (places, val)


def label(cell):
    """el2-gicv3 -> EL2 / GICv3; arm32-hyp-gicv2 -> 32-bit Hyp / GICv2"""
    if cell.startswith('arm32-'):
        _, mode, gic = cell.split('-')
        return '32-bit %s / GICv%s' % (mode.upper() if mode == 'svc' else mode.title(), gic[-1])
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
    costs = [r['difference']['fit'] for c, r in cells.items()
             if r['difference']['fit'] and not c.startswith('arm32-')]
    costs32 = [r['difference']['fit'] for c, r in cells.items()
               if r['difference']['fit'] and c.startswith('arm32-')]
    trc = (size or {}).get('tracer')
    calls_wl = 'perfrec_test calls 100000'
    rows = [['instructions per sample (flat, one event; %s)' % label(cell),
             '%s (%s to %s over the cells%s)' % (
                 fmt(per_sample, 0), fmt(min(costs), 0), fmt(max(costs), 0),
                 '; 32-bit Arm: %s to %s' % (fmt(min(costs32), 0), fmt(max(costs32), 0))
                 if costs32 else ''), '',
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
           'cortex-a57, `-icount shift=0` (1 instruction = 1 cycle)%s.' %
            (result['qemu'], '; 32-bit rows: qemu_arm_defconfig on qemu-system-arm, '
             '`-cpu max` (PMUv3 in AArch32), to `rfeia` or `eret`'
             if any(c.startswith('arm32-') for c in cells) else ''), '']
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
    fixed = [r['difference']['fixed'] for c, r in cells.items()
             if r['difference']['fixed'] is not None and not c.startswith('arm32-')]
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
            for cell, res in cells.items() if res['paths']['runs']]
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
                 '%d' % r['samples'], '%d' % r['lost'], '%d' % r['late'],
                 '%.2f' % r['slowdown']] for r in cap['limit']]
        out += ['', 'The handler\'s own limit, %s, `-c <period>` over `%s`: a sample costs '
                'about %s cycles, so short periods leave the workload little. A period '
                'that ends before the handler has finished is late: skipped, with the '
                'counter\'s phase kept, so the workload still ends and the books still '
                'balance; one just longer than the handler fills the buffer, and the '
                'samples that find it full are lost.' % (label(cap['cell']), cap['limit_workload'],
                              fmt(cells[cap['cell']]['difference']['fit'], 0)), '']
        out += table(['`-c`', 'samples/s', 'periods', 'stored', 'lost', 'late',
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


def marker_lines(path, name):
    """The start and end marker lines of @name in the file @path"""
    if path.endswith('.rst'):
        return '.. %s:start' % name, '.. %s:end' % name
    return '<!-- %s:start -->' % name, '<!-- %s:end -->' % name


def readme_markers(path, name='bench'):
    """Lines of @path and the indexes of its two marker lines of @name

    In a .rst file (the doc page) they are the comments '.. @name:start'
    and '.. @name:end', each at the start of its line; in any other
    '<!-- @name:start -->' and '<!-- @name:end -->'.
    """
    start, end = marker_lines(path, name)
    rst = path.endswith('.rst')
    try:
        if rst:
            with open(path, encoding='utf-8', newline='') as inf:
                lines = inf.read().split('\n')
        else:
            with open(path) as inf:
                lines = inf.read().split('\n')
    except OSError as err:
        raise BenchError('--doc %s: %s' % (path, err.strerror)) from err
    except UnicodeDecodeError as err:
        raise BenchError('--doc %s: not UTF-8: %s' % (path, err)) from err
    stripped = [line.rstrip() if rst else line.strip() for line in lines]
    if stripped.count(start) != 1 or stripped.count(end) != 1:
        raise BenchError('--doc %s: needs exactly one line "%s" and one line "%s" (%sthe '
                         'tables go between them); found %d and %d' %
                         (path, start, end, 'unindented; ' if rst else '',
                          stripped.count(start), stripped.count(end)))
    i, j = stripped.index(start), stripped.index(end)
    if j < i:
        raise BenchError('--doc %s: "%s" comes before "%s"' % (path, end, start))
    return lines, i, j


def update_readme(path, text, name='bench'):
    """Replace the lines between @path's markers @name with Markdown @text

    A .rst file gets @text as reStructuredText (markdown_to_rst), with a
    blank line after the start marker and one before the end marker; the
    rest of the file keeps its bytes.
    """
    lines, i, j = readme_markers(path, name)
    tmp = path + '.tmp'
    if path.endswith('.rst'):
        eol = '\r' if lines[i].endswith('\r') else ''
        body = markdown_to_rst(text).strip('\n')
        body = [line + eol for line in body.split('\n')] if body else []
        new = lines[:i + 1] + [eol] + body + ([eol] if body else []) + lines[j:]
        with open(tmp, 'w', encoding='utf-8', newline='') as outf:
            outf.write('\n'.join(new))
    else:
        new = lines[:i + 1] + text.rstrip('\n').split('\n') + lines[j:]
        with open(tmp, 'w') as outf:
            outf.write('\n'.join(new))
    os.replace(tmp, path)


def put_doc(path, name, prog, text=None):
    """Put @text between the @name markers of @path (None: check they are
    there); return False, saying why as @prog, if they are not"""
    try:
        if text is None:
            readme_markers(path, name)
        else:
            update_readme(path, text, name)
    except BenchError as err:
        print(f'{prog}: {err}', file=sys.stderr)
        return False
    return True


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
