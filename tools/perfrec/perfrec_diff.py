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

Exit status: 0, 1 when a gate failed, 2 on bad input (one line on stderr).
"""

import argparse
import collections
import html
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# pylint: disable=wrong-import-position
from perfrec_report import elf_build_id, recorded_build_id  # noqa: E402
import perfrec_flamegraph  # noqa: E402

PERF = os.environ.get('PERF', 'perf')
# What compilers append to a function they cloned or split
CLONE = re.compile(r'(?:\.(?:part|isra|constprop|cold|lto_priv|localalias)(?:\.\d+)?)+$')
UNKNOWN = '[unknown]'
# Frames of a call path shown, innermost first
PATH_SHOWN = 8
# A row of the function table, as table() prints it
REPORT_ROW = re.compile(r'^\s+(\d+)\s+(\d+)\s+([+-]\d+)\s+([+-][\d.]+)%\s+(\S+)'
                        r'(?:\s+\((new|vanished)\))?$')
SAMPLE = re.compile(r'^\s*(\d+)\s+(\S+):\s*(.*)$')
FRAME = re.compile(r'^\s*([0-9a-f]+)\s+(\S+)')
# perf's stderr lines that say nothing is wrong
PERF_HARMLESS = re.compile(r'unwind: target platform=arm64 is not supported')
STT_FUNC = 2
STT_FILE = 4
SHT_SYMTAB = 2
D3_DIST = os.path.join(perfrec_flamegraph.NPM_DIR, 'node_modules', 'd3-flame-graph', 'dist')
D3_SELECTION = os.path.join(perfrec_flamegraph.NPM_DIR, 'node_modules', 'd3-selection', 'dist',
                            'd3-selection.min.js')


class DiffError(Exception):
    """Bad input: one line for the user, exit code 2"""


def fold(name):
    """Return @name without the compiler's clone suffixes"""
    return CLONE.sub('', name)


def _symtabs(data):
    """Yield (offset, size, string table offset) of each SHT_SYMTAB of ELF64 @data"""
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum = struct.unpack_from('<HH', data, 0x3a)
    for i in range(shnum):
        sh_type, = struct.unpack_from('<I', data, shoff + i * shentsize + 4)
        if sh_type == SHT_SYMTAB:
            offset, size, link = struct.unpack_from('<QQI', data, shoff + i * shentsize + 0x18)
            str_off, = struct.unpack_from('<Q', data, shoff + link * shentsize + 0x18)
            yield offset, size, str_off


def elf_functions(path):
    """Return [(address, size, name, file or None for a global)] of ELF64 @path's functions"""
    with open(path, 'rb') as inf:
        data = inf.read()
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        raise DiffError(f'{path}: not a 64-bit little-endian ELF')
    funcs = []
    for offset, size, str_off in _symtabs(data):
        current = None
        for pos in range(offset, offset + size, 24):
            st_name, st_info, _, _, value, sym_size = struct.unpack_from('<IBBHQQ', data, pos)
            name = data[str_off + st_name:data.index(b'\0', str_off + st_name)].decode(
                errors='replace')
            if st_info & 0xf == STT_FILE:
                current = name
            elif st_info & 0xf == STT_FUNC:
                funcs.append((value, sym_size, name, current if st_info >> 4 == 0 else None))
    if not funcs:
        raise DiffError(f'{path} has no function symbols: give the unstripped u-boot ELF')
    return funcs


def ambiguous_names(funcs):
    """Return the folded names that more than one file's static functions use"""
    homes = collections.defaultdict(set)
    for _, _, name, home in funcs:
        homes[fold(name)].add(home)
    return {name for name, files in homes.items() if len(files) > 1}


def parse_frame(text):
    """Return (address, symbol, offset) of a frame perf script printed as @text"""
    mat = FRAME.match(text)
    if not mat:
        return 0, UNKNOWN, 0
    sym, _, off = mat.group(2).rpartition('+0x')
    if not sym:
        return int(mat.group(1), 16), mat.group(2), 0
    return int(mat.group(1), 16), sym, int(off, 16)


class StackCounter:
    """The distinct frames and call stacks of a stream of samples

    frames: [(address, symbol, offset)]; stacks: {(event, (frame index, ...)
    innermost first): [events, samples]}.
    """

    def __init__(self):
        self.frames = []
        self.stacks = {}
        self._index = {}

    def frame(self, text):
        """Return the index of the frame perf printed as @text"""
        fid = self._index.get(text)
        if fid is None:
            fid = self._index[text] = len(self.frames)
            self.frames.append(parse_frame(text))
        return fid

    def sample(self, event, period, ids):
        """Count a sample of @event with @period and the stack of frame indexes @ids"""
        entry = self.stacks.setdefault((event, tuple(ids)), [0, 0])
        entry[0] += period
        entry[1] += 1


def perf_stacks(data, symfs, label):
    """Run perf script on @data; return a StackCounter of its samples

    perf's output is read as it comes and only distinct frames and stacks
    are kept: 100000 samples of 30 frames are 3 million lines.
    """
    counter = StackCounter()
    with tempfile.TemporaryDirectory(prefix='perfrec-diff-') as home, \
            tempfile.TemporaryFile('w+') as err:
        with subprocess.Popen([PERF, 'script', '-i', data, '--symfs', symfs,
                               '-F', 'event,period,ip,sym,symoff'],
                              stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL,
                              text=True, env=dict(os.environ, HOME=home, PAGER='cat')) as proc:
            event, period, ids = None, 0, []
            for line in proc.stdout:
                if line.startswith('\t'):
                    ids.append(counter.frame(line.strip()))
                    continue
                mat = SAMPLE.match(line)
                if mat:
                    if event is not None:
                        counter.sample(event, period, ids)
                    event, period, ids = mat.group(2), int(mat.group(1)), []
                    if mat.group(3).strip():
                        ids.append(counter.frame(mat.group(3).strip()))
            if event is not None:
                counter.sample(event, period, ids)
        err.seek(0)
        noise = [line.strip() for line in err if line.strip() and not PERF_HARMLESS.search(line)]
    if proc.returncode:
        why = noise[0] if noise else f'exit {proc.returncode}'
        raise DiffError(f'{label}: {data}: perf script cannot read it: {why}')
    if not counter.stacks:
        raise DiffError(f'{label}: {data} holds no samples' + (f' ({noise[0]})' if noise else ''))
    return counter


class Recording:
    """One perf.data and the U-Boot build that made it, as named call stacks

    stacks: {event: [(events, samples, (frame name, ...) innermost first)]},
    one entry per distinct stack (filled by name()).
    """

    def __init__(self, data, build_dir, label):
        self.data = data
        self.label = label
        elf = os.path.join(build_dir, 'u-boot')
        for path in (data, elf):
            if not os.path.isfile(path):
                raise DiffError(f'{label}: {path}: no such file')
        want = elf_build_id(elf)
        try:
            got = recorded_build_id(data, quiet=True)
        except RuntimeError as err:
            raise DiffError(f'{label}: {data}: perf cannot read it ({err})') from err
        if got and want and got != want:
            raise DiffError(f'{label}: {data} was recorded by the U-Boot with build-id {got}, '
                            f'but {elf} has build-id {want}: give the build directory of '
                            'the U-Boot that made it')
        self.build_id = got or want
        self.funcs = elf_functions(elf)
        counter = perf_stacks(data, build_dir, label)
        self.frames, self.raw = counter.frames, counter.stacks
        self.stacks = {}

    @property
    def events(self):
        """The events of the samples, sorted"""
        return sorted({event for event, _ in self.raw})

    @property
    def chained(self):
        """True when the samples have call chains"""
        return any(len(ids) > 1 for _, ids in self.raw)

    def name(self, ambiguous):
        """Name every frame (folded; NAME@FILE where @ambiguous); fill self.stacks"""
        by_name = collections.defaultdict(list)
        for func in self.funcs:
            by_name[func[2]].append(func)
        # perf's addresses and the ELF's differ by one constant: learn it
        # from the frames whose symbol only one function has
        shifts = collections.Counter(addr - off - by_name[sym][0][0]
                                     for addr, sym, off in self.frames
                                     if len(by_name.get(sym, ())) == 1)
        shift = shifts.most_common(1)[0][0] if shifts else 0

        def frame_name(addr, sym, off):
            base = fold(sym)
            if sym == UNKNOWN or base not in ambiguous:
                return base
            for value, _, _, home in by_name.get(sym, ()):
                if value == addr - off - shift:
                    return f'{base}@{home}' if home else base
            # perf's name with no ELF symbol to place it: keep what perf said
            return base

        names = [frame_name(*frame) for frame in self.frames]
        merged = {}
        for (event, ids), (events, samples) in self.raw.items():
            chain = [names[fid] for fid in ids]
            while len(chain) > 1 and chain[-1] == UNKNOWN:
                chain.pop()
            entry = merged.setdefault((event, tuple(chain) or (UNKNOWN,)), [0, 0])
            entry[0] += events
            entry[1] += samples
        for (event, chain), (events, samples) in merged.items():
            self.stacks.setdefault(event, []).append((events, samples, chain))


def totals(stacks, key):
    """Return ({key(chain): events}, total events, samples) of @stacks"""
    counts = collections.Counter()
    total = samples = 0
    for events, count, chain in stacks:
        counts[key(chain)] += events
        total += events
        samples += count
    return counts, total, samples


def scale(counts, total_b, total_n):
    """@counts (of a recording of @total_n events) as shares of @total_b"""
    return collections.Counter({name: round(events * total_b / total_n)
                                for name, events in counts.items()})


def compare(base, new):
    """Return [(name, base events, new events, delta)] sorted by |delta|, then by name"""
    rows = [(name, base.get(name, 0), new.get(name, 0), new.get(name, 0) - base.get(name, 0))
            for name in set(base) | set(new)]
    rows.sort(key=lambda row: (-abs(row[3]), -max(row[1], row[2]), str(row[0])))
    return rows


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
