#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# What made this boot slower: two perfrec recordings compared, function by function

"""Compare two perfrec recordings function by function, in events.

Usage:
    perfrec_diff.py BASE.data BASE_DIR NEW.data NEW_DIR [-e EVENT] [-g] [-n ROWS]
                    [--paths N] [--fail-above PCT] [--fail-function NAME:PCT]...
                    [--normalize]
                    [--flame OUT.html [--browser] [--png OUT.png] [--hover NAME]]

Each recording is read with its own U-Boot build (BASE_DIR/u-boot and
NEW_DIR/u-boot): its GNU build-id must be the one the recording carries (an
ELF of another build is refused, naming both ids). The host perf names every
sample (perf script --symfs DIR); functions are then matched by name across
the two builds, which may differ in layout, build-id or release:

- compiler clones fold into their function: foo.part.0, foo.isra.1,
  foo.constprop.0, foo.cold (and .lto_priv.N, .localalias) all count as foo;
- a static function whose name more than one file defines (in either build)
  is told apart by its file, as NAME@FILE (the ELF's STT_FILE symbol).

The table gives, per function and event, the events in BASE and in NEW (the
sum of the samples' periods: exact with -c, the recorded periods with -F),
the delta and the delta in percent of BASE's total, sorted by the size of the
delta; functions only one side has are marked (new) or (vanished). A line
with both totals ends each table. With -g, the call paths (innermost first)
whose events changed most follow (their innermost 8 frames).

Gates, for CI: --fail-above PCT fails when any function grew by more than PCT
percent of BASE's total; --fail-function NAME:PCT when NAME did (shrinking
never fails). Each failing function is named in one line. --normalize scales
NEW's functions to BASE's total first, so that the tables and gates compare
shares: for recordings whose totals follow the host's speed (QEMU without
-icount, a timer event), where a slower run would grow every function.

--flame writes a differential flame graph of the first event compared (-e
chooses another): the union of both recordings'
call trees (a frame as wide as the larger of its two counts, so that
vanished frames are still there), red where NEW grew, blue where it shrank,
orange for new frames and grey for vanished ones, whose labels say
"(new)" and "(vanished)". The page is offline (d3-flame-graph from npm,
inlined); --browser, --png and --hover check and picture it in headless
Chromium as perfrec_flamegraph.py does.

The recordings are read and named by perfrec_diff_recordings.py; this
file is the command line: the tables, the gates and the flame graph.

Exit status: 0, 1 when a gate failed, 2 on bad input (one line on stderr).
"""

import argparse
import html
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
# Every public name of perfrec_diff_recordings (scripts import elf_functions from here)
from perfrec_diff_recordings import (  # noqa: E402,F401  # pylint: disable=unused-import
    PERF, CLONE, UNKNOWN, SAMPLE, FRAME, PERF_HARMLESS, STT_FUNC, STT_FILE, SHT_SYMTAB,
    DiffError, fold, elf_functions, ambiguous_names, parse_frame, StackCounter, perf_stacks,
    Recording, totals, scale, compare
)
import perfrec_flamegraph  # noqa: E402

# Frames of a call path shown, innermost first
PATH_SHOWN = 8
# A row of the function table, as table() prints it
REPORT_ROW = re.compile(r'^\s+(\d+)\s+(\d+)\s+([+-]\d+)\s+([+-][\d.]+)%\s+(\S+)'
                        r'(?:\s+\((new|vanished)\))?$')
D3_DIST = os.path.join(perfrec_flamegraph.NPM_DIR, 'node_modules', 'd3-flame-graph', 'dist')
D3_SELECTION = os.path.join(perfrec_flamegraph.NPM_DIR, 'node_modules', 'd3-selection', 'dist',
                            'd3-selection.min.js')


def mark(row):
    """'(new)', '(vanished)' or '' for a row of compare()"""
    if not row[1] and row[2]:
        return '  (new)'
    if row[1] and not row[2]:
        return '  (vanished)'
    return ''


def pct(value, total):
    """@value in percent of @total, signed, 2 decimals"""
    return f'{100.0 * value / total:+.2f}%'


def table(rows, base_total, limit, label):
    """Return the lines of a table of compare() @rows"""
    lines = [f'{"Base":>14} {"New":>14} {"Delta":>14} {"Delta%":>8}  {label}']
    for row in rows[:limit] if limit else rows:
        name = row[0]
        if isinstance(name, tuple):
            more = len(name) - PATH_SHOWN
            name = ' <- '.join(name[:PATH_SHOWN]) + (f' <- ... ({more} more)' if more > 0 else '')
        lines.append(f'{row[1]:>14} {row[2]:>14} {row[3]:>+14} {pct(row[3], base_total):>8}  '
                     f'{name}{mark(row)}')
    if limit and len(rows) > limit:
        lines.append(f'{"":>53}  ... {len(rows) - limit} more (-n 0: all)')
    return lines


def read_report(text):
    """Read the function tables back from a report this tool printed

    Returns:
        dict: {event: ({function: (base, new, delta, percent, 'new' or
        'vanished' or None)}, (base total, new total))}
    """
    report = {}
    for block in re.split(r'^# ', text, flags=re.M)[1:]:
        head = re.match(r'(\S+): events per function', block)
        total = re.search(r'^Total: base (\d+), new (\d+), delta', block, re.M)
        if not head or not total:
            continue
        rows = {}
        for mat in filter(None, map(REPORT_ROW.match, block.splitlines())):
            rows[mat.group(5)] = (int(mat.group(1)), int(mat.group(2)), int(mat.group(3)),
                                  float(mat.group(4)), mat.group(6))
        report[head.group(1)] = (rows, (int(total.group(1)), int(total.group(2))))
    return report


def _non_negative(text):
    """@text as a float >= 0, or None"""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value >= 0 else None


def parse_gate(text):
    """Turn NAME:PCT into (NAME, float PCT)"""
    name, _, limit = text.rpartition(':')
    value = _non_negative(limit)
    if not name or value is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME:PCT with PCT >= 0")
    return name, value


def percent(text):
    """A percentage >= 0, for argparse"""
    value = _non_negative(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a percentage >= 0")
    return value


def gate(args, event, rows, base_total):
    """Return one line per function of @rows that grew past a gate of @args"""
    failed = []
    for name, _, _, delta in rows:
        limits = [limit for fname, limit in args.fail_function if fname == name]
        if args.fail_above is not None:
            limits.append(args.fail_above)
        for limit in sorted(limits):
            if delta > 0 and 100.0 * delta / base_total > limit:
                failed.append(f'perfrec_diff: FAIL: {name} grew by {delta} {event} events, '
                              f'{pct(delta, base_total)} of the base total (limit {limit:g}%)')
                break
    return failed


def stack_tree(base, new):
    """The union call tree of two Recording.stacks[event] lists, as d3-flame-graph's JSON"""
    root = {'name': 'u-boot', 'b': 0, 'n': 0, 'kids': {}}
    for side, stacks in (('b', base), ('n', new)):
        for period, _, names in stacks:
            node = root
            node[side] += period
            for name in reversed(names):
                node = node['kids'].setdefault(name, {'name': name, 'b': 0, 'n': 0, 'kids': {}})
                node[side] += period

    def convert(node):
        kids = [convert(kid) for kid in node['kids'].values()]
        kids_b = sum(kid['base'] for kid in kids)
        kids_n = sum(kid['new'] for kid in kids)
        name = node['name']
        if node['b'] == 0:
            name += ' (new)'
        elif node['n'] == 0:
            name += ' (vanished)'
        # selfValue: each frame's own width, the wider of its two self counts;
        # the colours and labels come from the subtree totals base and new
        return {'name': name, 'value': max(node['b'] - kids_b, node['n'] - kids_n),
                'base': node['b'], 'new': node['n'], 'children': kids}

    return convert(root)


PAGE = '''<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>{css}
body {{ font-family: sans-serif; margin: 8px; }}
#legend span {{ display: inline-block; padding: 1px 6px; margin-right: 6px; }}
#details {{ min-height: 1.2em; margin-top: 6px; }}
</style>
<script>{d3_selection}</script>
<script>{d3_flamegraph}</script>
</head>
<body>
<div id="controls"><b>{title}</b><br><span id="legend">
<span style="background: rgb(235,90,90)">grew</span>
<span style="background: rgb(90,90,235); color: white">shrank</span>
<span style="background: rgb(255,190,90)">new</span>
<span style="background: rgb(175,175,175)">vanished</span>
<span style="background: rgb(225,225,225)">unchanged</span></span> {summary}</div>
<div id="chart"></div>
<div id="details"></div>
<script>
const stacks = {stacks};
const baseTotal = {base_total};
function signed(v) {{ return (v > 0 ? '+' : '') + v; }}
function colour(d) {{
  const b = d.data.base, n = d.data.new;
  if (!b) return 'rgb(255,190,90)';
  if (!n) return 'rgb(175,175,175)';
  const r = Math.min(1, Math.abs(n - b) / Math.max(b, n));
  const c = Math.round(225 - 165 * Math.min(1, 2 * Math.sqrt(r)));
  if (n > b) return 'rgb(' + (225 + Math.round(10 * r)) + ',' + c + ',' + c + ')';
  if (n < b) return 'rgb(' + c + ',' + c + ',' + (225 + Math.round(10 * r)) + ')';
  return 'rgb(225,225,225)';
}}
function label(d) {{
  const b = d.data.base, n = d.data.new;
  return d.data.name + ': base ' + b + ', new ' + n + ', delta ' + signed(n - b) +
    ' events (' + signed((100 * (n - b) / baseTotal).toFixed(2)) + '% of the base total)';
}}
const chart = flamegraph().width(document.getElementById('chart').clientWidth)
  .cellHeight(18).minFrameSize(1).selfValue(true).sort(true)
  .setColorMapper(colour).setLabelHandler(label)
  .setDetailsElement(document.getElementById('details'));
d3.select('#chart').datum(stacks).call(chart);
</script>
</body>
</html>
'''


def write_flame(path, base, new, event, summary):
    """Write the differential flame graph page of @event to @path"""
    parts = {}
    files = (('css', os.path.join(D3_DIST, 'd3-flamegraph.css')),
             ('d3_flamegraph', os.path.join(D3_DIST, 'd3-flamegraph.min.js')),
             ('d3_selection', D3_SELECTION))
    for key, npm_file in files:
        if not os.path.isfile(npm_file):
            raise DiffError(f'{npm_file} not found: the flame graph\'s npm packages are not '
                            f'installed: run "make deps", or "npm ci" in '
                            f'{perfrec_flamegraph.NPM_DIR}')
        with open(npm_file, encoding='utf-8') as inf:
            parts[key] = inf.read()
    tree = stack_tree(base.stacks[event], new.stacks[event])
    # No '</' inside the script: a name cannot end it
    stacks = json.dumps(tree, separators=(',', ':')).replace('</', '<\\/')
    page = PAGE.format(title=html.escape(f'perfrec diff: {event} events, '
                                         f'{os.path.basename(base.data)} -> '
                                         f'{os.path.basename(new.data)}'),
                       summary=html.escape(summary), stacks=stacks,
                       base_total=tree['base'], **parts)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as outf:
        outf.write(page)
    refs = perfrec_flamegraph.remote_refs(page)
    if refs:
        raise DiffError(f'{path} refers to a remote address: {refs[0]}')


def parse_args(argv):
    """Parse the command line; return the namespace"""
    parser = argparse.ArgumentParser(
        prog='perfrec_diff.py', description=__doc__.split('\n', 1)[0],
        epilog='Exit status: 0, 1 when a gate failed, 2 on bad input.')
    parser.add_argument('base', help="the baseline's perf.data")
    parser.add_argument('base_dir', help='the build directory (holding u-boot) that made it')
    parser.add_argument('new', help="the new recording's perf.data")
    parser.add_argument('new_dir', help='the build directory that made it')
    parser.add_argument('-e', '--event', help='compare this event only (default: every one)')
    parser.add_argument('-g', '--call-graph', action='store_true',
                        help='also compare call paths (recordings made with -g)')
    parser.add_argument('-n', '--rows', type=int, default=25,
                        help='functions shown per event (default %(default)s; 0: all)')
    parser.add_argument('--paths', type=int, default=10,
                        help='call paths shown with -g (default %(default)s; 0: all)')
    parser.add_argument('--fail-above', type=percent, metavar='PCT',
                        help="exit 1 when a function grew by more than PCT%% of the base total")
    parser.add_argument('--fail-function', type=parse_gate, action='append', default=[],
                        metavar='NAME:PCT', help='exit 1 when NAME grew by more than PCT%% '
                        'of the base total (repeatable)')
    parser.add_argument('--normalize', action='store_true',
                        help="compare shares: NEW's functions scaled to the base total")
    parser.add_argument('--flame', metavar='OUT.html', help='write a differential flame graph')
    parser.add_argument('--browser', action='store_true',
                        help='check the flame graph in headless Chromium')
    parser.add_argument('--png', help='also write a picture of it (implies --browser)')
    parser.add_argument('--hover', metavar='NAME', help='with the pointer on frame NAME')
    parser.add_argument('--png-width', type=int, default=1200, help='picture width in pixels')
    args = parser.parse_args(argv)
    for opt, value in (('-n', args.rows), ('--paths', args.paths)):
        if value < 0:
            parser.error(f"{opt} {value}: give a count >= 0 (0: all)")
    return args


def check_events(base, new, event):
    """Return the events both recordings hold that are to be compared"""
    if event:
        for rec in (base, new):
            if event not in rec.events:
                raise DiffError(f'{rec.label}: {rec.data} has no {event} samples (it has '
                                f'{", ".join(rec.events)})')
        return [event]
    if base.events != new.events:
        raise DiffError(f'the recordings are of different events: {base.data} has '
                        f'{", ".join(base.events)}, {new.data} has '
                        f'{", ".join(new.events)}')
    return base.events


def event_report(args, event, base, new):
    """Return (lines of the tables, failed gate lines) of @event"""
    funcs_b, total_b, samples_b = totals(base.stacks[event], lambda chain: chain[0])
    funcs_n, total_n, samples_n = totals(new.stacks[event], lambda chain: chain[0])
    scaled = ''
    if args.normalize and total_n:
        funcs_n = scale(funcs_n, total_b, total_n)
        scaled = f', NEW scaled to the base total by {total_b}/{total_n}'
    rows = compare(funcs_b, funcs_n)
    out = ['', f'# {event}: events per function (samples x period{scaled})']
    out += table(rows, total_b, args.rows, 'Function')
    out.append(f'Total: base {total_b}, new {total_n}, delta {total_n - total_b:+} '
               f'({pct(total_n - total_b, total_b)}) {event} events; samples '
               f'{samples_b} -> {samples_n}')
    if args.call_graph:
        paths = compare(totals(base.stacks[event], lambda chain: chain)[0],
                        totals(new.stacks[event], lambda chain: chain)[0])
        out += ['', f'# {event}: call paths that changed most (innermost first)']
        out += table([row for row in paths if row[3]], total_b, args.paths, 'Call path')
    return out, gate(args, event, rows, total_b)


def flame(args, base, new, event, summary):
    """Write --flame's page of @event, and check it in the browser if asked"""
    write_flame(args.flame, base, new, event, summary)
    print(f'perfrec_diff: wrote {args.flame} ({event})')
    if args.browser or args.png or args.hover:
        code, labels, err = perfrec_flamegraph.browser_check(
            args.flame, args.png, args.png_width, args.hover)
        if code:
            raise DiffError(f'the browser check of {args.flame} failed: '
                            f'{err.strip().splitlines()[-1] if err.strip() else code}')
        print(f'perfrec_diff: {len(labels.splitlines())} frames drawn' +
              (f', wrote {args.png}' if args.png else ''))


def run(args):
    """Compare; print the tables; return the exit code"""
    base = Recording(args.base, args.base_dir, 'base')
    new = Recording(args.new, args.new_dir, 'new')
    events = check_events(base, new, args.event)
    if args.call_graph:
        for rec in (base, new):
            if not rec.chained:
                raise DiffError(f'{rec.label}: {rec.data} has no call chains: record with -g')
    ambiguous = ambiguous_names(base.funcs) | ambiguous_names(new.funcs)
    base.name(ambiguous)
    new.name(ambiguous)
    names = {name for rec in (base, new) for stacks in rec.stacks.values()
             for _, _, chain in stacks for name in chain}
    for name, _ in args.fail_function:
        if name not in names:
            raise DiffError(f"--fail-function: no function '{name}' in either recording")

    out = [f'perfrec_diff: {base.data} (build-id {base.build_id or "none"}) -> '
           f'{new.data} (build-id {new.build_id or "none"})']
    failed = []
    summary = ''
    for event in events:
        lines, fails = event_report(args, event, base, new)
        out += lines
        failed += fails
        summary = summary or next(line for line in lines if line.startswith('Total:'))
    print('\n'.join(out))
    if args.flame:
        flame(args, base, new, events[0], summary)
    for line in failed:
        print(line, file=sys.stderr)
    return 1 if failed else 0


def main(argv=None):
    """Parse, compare, gate; return the exit code"""
    args = parse_args(argv)
    try:
        return run(args)
    except DiffError as err:
        print(f'perfrec_diff: {err}', file=sys.stderr)
    except (OSError, ValueError) as err:
        print(f'perfrec_diff: {err}', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
