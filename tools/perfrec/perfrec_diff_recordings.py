# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# perfrec_diff.py's two sides: each recording read, its samples named by function

"""Read a perfrec recording for perfrec_diff.py, its samples named by function.

A Recording is one perf.data with the U-Boot build that made it: its
build-id checked against the ELF's, its samples read with perf script (only
the distinct frames and stacks kept), its frames named by function, with
the compiler's clone suffixes folded (fold()) and a static function that
several files define told apart as NAME@FILE (elf_functions(),
ambiguous_names()). totals(), scale() and compare() sum the stacks per
function or call path and line the two sides up. DiffError is bad input.

perfrec_diff.py, the command line (options, tables, gates, flame graph),
re-exports every public name of this module; this module does not import it.
"""

import collections
import os
import re
import subprocess
import tempfile

from perfrec_elf import SHT_SYMTAB, STB_LOCAL, STT_FILE, STT_FUNC, ElfError, load
from perfrec_report import elf_build_id, recorded_build_id

PERF = os.environ.get('PERF', 'perf')
# What compilers append to a function they cloned or split
CLONE = re.compile(r'(?:\.(?:part|isra|constprop|cold|lto_priv|localalias)(?:\.\d+)?)+$')
UNKNOWN = '[unknown]'
SAMPLE = re.compile(r'^\s*(\d+)\s+(\S+):\s*(.*)$')
FRAME = re.compile(r'^\s*([0-9a-f]+)\s+(\S+)')
# perf's stderr lines that say nothing is wrong
PERF_HARMLESS = re.compile(r'unwind: target platform=arm64 is not supported')


class DiffError(Exception):
    """Bad input: one line for the user, exit code 2"""


def fold(name):
    """Return @name without the compiler's clone suffixes"""
    return CLONE.sub('', name)


def elf_functions(path):
    """Return [(address, size, name, file or None for a global)] of ELF @path's
    functions (64- or 32-bit)"""
    try:
        elf = load(path)
    except ElfError as err:
        raise DiffError(str(err)) from err
    funcs = []
    for symtab in elf.sections():
        if symtab.type != SHT_SYMTAB:
            continue
        current = None
        for sym in elf.symbols(symtab):
            name = sym.name.decode(errors='replace')
            if sym.info & 0xf == STT_FILE:
                current = name
            elif sym.info & 0xf == STT_FUNC:
                funcs.append((sym.value, sym.size, name,
                              current if sym.info >> 4 == STB_LOCAL else None))
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
