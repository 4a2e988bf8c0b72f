#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Judge a perfrec profile against the exact truth: QEMU's count of every instruction.

Usage:
    perfrec_exact.py compare --elf u-boot --counts counts.txt --data perf.data
                     [--symfs DIR] [--reloc-off OFF] [--exclude-symbols RE] [--fold-symbols RE]
                     [--top N] [--json] [--max-tvd X]
    perfrec_exact.py plugin-args --elf u-boot --reloc-off OFF [--window pmu|timer|boot]
    perfrec_exact.py build-plugin [--out DIR] [--api-version 1]

Under QEMU -icount shift=0 a cycle is an instruction, so a recording of
'cycles' should give each function the share of samples that it has of the
instructions run between the counters' start and stop. The TCG plugin
scripts/qemu-plugin/perfrec_insn_count.c counts those per guest PC, the
interrupt handler's (which no sample can hit) apart. 'compare' maps both to
the u-boot ELF's functions, at the link address (before relocation) or
relocated (by --reloc-off, else the perf.data's MMAP of /u-boot: link = addr
- start + pgoff - p_offset + p_vaddr), and prints TVD = 1/2 sum |p_exact -
p_perf|, the samples and the functions whose shares differ most. perfrec's
IRQ path runs with interrupts masked: it is left out of both sides
(--exclude-symbols). 'tvd_random' is the mean TVD of as many independent
random samples of the exact profile: the noise level to judge TVD by.
--fold-symbols counts the functions it matches as one, on both sides: a
busy-wait loop that spans two functions (__udelay() and get_ticks()) is
sampled at the same few of its instructions when its length and the
period's share a factor (doc/develop/perfrec.rst), which splits its time
between them wrongly but not its total.

scripts/perfrec_exact_run.py records on QEMU with the plugin and compares.

Exit code 0; 1 when TVD is over --max-tvd; 2 for bad input, with one line
naming the value and the reason.
"""

import argparse
import bisect
import collections
import json
import math
import os
import re
import subprocess
import sys

from elftools.elf.elffile import ELFFile
from elftools.common.exceptions import ELFError

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN_SRC = os.path.join(TOP, 'scripts', 'qemu-plugin', 'perfrec_insn_count.c')
PLUGIN_NAME = 'libperfrec_insn_count.so'
UNKNOWN = '[unknown]'
# perfrec's IRQ path: the vector tables and what only the handler runs
DEFAULT_EXCLUDE = r'perfrec_(boot_)?vectors_el[123]|perfrec_irq_.*|perfrec_unwind.*'
VECTORS = re.compile(r'perfrec_(boot_)?vectors_el[123]$')
VECTOR_BYTES = 0x800
# MSR PMCNTENSET_EL0 / PMCNTENCLR_EL0, Xt in bits 0-4
MSR_PMCNTENSET = 0xd51b9c20
MSR_PMCNTENCLR = 0xd51b9c40
MMAP = re.compile(r'PERF_RECORD_MMAP2? .*?\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|\d+)'
                  r'[^\]]*\]: \S+ (\S+)')
Sym = collections.namedtuple('Sym', 'addr size name bind type')


class BadInput(Exception):
    """A value the tool cannot use: the message names it and why"""


def number(text, what):
    """@text as an integer (0x.. hex or decimal); BadInput names @what"""
    try:
        return int(text, 0)
    except (TypeError, ValueError):
        raise BadInput(f'{what} {text!r}: not a number') from None


# --- Symbols -----------------------------------------------------------------

def sym_rank(sym):
    """Sort key, best first, of one of several names at an address, as perf's
    choose_best_symbol(): sized, a function, not weak, global, fewer leading
    underscores, longer"""
    return (sym.size == 0, sym.type != 'STT_FUNC', sym.bind == 'STB_WEAK',
            sym.bind != 'STB_GLOBAL', len(sym.name) - len(sym.name.lstrip('_')),
            -len(sym.name))


class Symbols:
    """Address -> function name: one canonical name per address, each
    function to its size's end or (size 0) to the next function, as perf"""

    def __init__(self, syms, text_end):
        """@syms: Sym entries; @text_end: where the last one without a size ends"""
        by_addr = collections.defaultdict(list)
        for sym in syms:
            by_addr[sym.addr].append(sym)
        self.starts = sorted(by_addr)
        self.names, self.ends = [], []
        for i, addr in enumerate(self.starts):
            best = min(by_addr[addr], key=sym_rank)
            nxt = self.starts[i + 1] if i + 1 < len(self.starts) else max(text_end, addr)
            self.names.append(best.name)
            self.ends.append(min(addr + best.size, nxt) if best.size else nxt)
        self.low = self.starts[0] if self.starts else 0
        self.high = max(self.ends) if self.ends else 0

    def lookup(self, addr):
        """The function holding link address @addr, or UNKNOWN"""
        i = bisect.bisect_right(self.starts, addr) - 1
        return self.names[i] if i >= 0 and addr < self.ends[i] else UNKNOWN

    def find(self, name):
        """The link address of function @name"""
        if name not in self.names:
            raise BadInput(f'symbol {name}: not in the ELF')
        return self.starts[self.names.index(name)]


def open_elf(path):
    """(ELFFile, file) of @path"""
    try:
        inf = open(path, 'rb')  # pylint: disable=consider-using-with
    except OSError as err:
        raise BadInput(f'ELF {path}: {err.strerror}') from None
    try:
        return ELFFile(inf), inf
    except ELFError as err:
        inf.close()
        raise BadInput(f'ELF {path}: {err}') from None


def load_symbols(path):
    """Symbols of the ELF at @path: functions and code labels, no mapping symbols"""
    elf, inf = open_elf(path)
    with inf:
        secs = list(elf.iter_sections())
        code = {i for i, sec in enumerate(secs) if sec['sh_flags'] & 4}  # SHF_EXECINSTR
        text_end = max((secs[i]['sh_addr'] + secs[i]['sh_size'] for i in code), default=0)
        table = elf.get_section_by_name('.symtab')
        if table is None:
            raise BadInput(f'ELF {path}: no symbol table')
        syms = []
        for sym in table.iter_symbols():
            kind, shndx = sym['st_info']['type'], sym['st_shndx']
            if (not sym.name or sym.name.startswith(('$', '.L')) or not isinstance(shndx, int)
                    or shndx not in code or kind not in ('STT_FUNC', 'STT_GNU_IFUNC',
                                                         'STT_NOTYPE')):
                continue
            syms.append(Sym(sym['st_value'], sym['st_size'], sym.name,
                            sym['st_info']['bind'], kind))
    return Symbols(syms, text_end)


def load_segments(path):
    """[(p_offset, p_vaddr, p_filesz)] of the ELF's PT_LOAD segments"""
    elf, inf = open_elf(path)
    with inf:
        return [(seg['p_offset'], seg['p_vaddr'], seg['p_filesz'])
                for seg in elf.iter_segments() if seg['p_type'] == 'PT_LOAD']


def elf_words(path, addr, count):
    """@count 32-bit words of the ELF's code at link address @addr"""
    elf, inf = open_elf(path)
    with inf:
        for sec in elf.iter_sections():
            if sec['sh_addr'] <= addr and addr + 4 * count <= sec['sh_addr'] + sec['sh_size']:
                data = sec.data()[addr - sec['sh_addr']:addr - sec['sh_addr'] + 4 * count]
                return [int.from_bytes(data[i:i + 4], 'little') for i in range(0, len(data), 4)]
    raise BadInput(f'address {addr:#x}: not in the ELF')


def reloc_from_mmap(start, pgoff, segments):
    """The run-time offset of the image perf maps at @start with @pgoff"""
    for p_offset, p_vaddr, p_filesz in segments:
        if p_offset <= pgoff < p_offset + max(p_filesz, 1):
            return start - pgoff + p_offset - p_vaddr
    raise BadInput(f'MMAP pgoff {pgoff:#x}: in no PT_LOAD segment of the ELF')


def to_link(addr, syms, reloc_off):
    """Link address of run-time @addr: as it is if the image holds it, else
    less @reloc_off (None if neither does)"""
    if syms.low <= addr < syms.high:
        return addr
    if reloc_off is not None and syms.low <= addr - reloc_off < syms.high:
        return addr - reloc_off
    return None


def by_function(weights, syms, reloc_off):
    """{function: weight} of {run-time address: weight}"""
    out = collections.Counter()
    for addr, weight in weights.items():
        link = to_link(addr, syms, reloc_off)
        out[UNKNOWN if link is None else syms.lookup(link)] += weight
    return out


# --- Inputs ------------------------------------------------------------------

def parse_counts(text, what='counts'):
    """({pc: count}, {pc: handler count}, {meta}) of the plugin's output"""
    counts, irq, meta = {}, {}, {}
    for num, line in enumerate(text.splitlines(), 1):
        if line.startswith('#'):
            words = line[1:].split()
            if len(words) == 2:
                meta.setdefault(words[0], []).append(words[1])
            continue
        words = line.split()
        if not words:
            continue
        try:
            if len(words) == 2 or (len(words) == 3 and words[2] == 'irq'):
                (irq if len(words) == 3 else counts)[int(words[0], 16)] = int(words[1])
                continue
        except ValueError:
            pass
        raise BadInput(f'{what} line {num} {line!r}: not "<hex pc> <count> [irq]"')
    if 'perfrec_insn_count' not in meta:
        raise BadInput(f'{what}: not perfrec_insn_count output (no header)')
    return counts, irq, meta


def read_counts(path):
    """parse_counts() of the file at @path"""
    try:
        with open(path, encoding='utf-8') as inf:
            return parse_counts(inf.read(), path)
    except OSError as err:
        raise BadInput(f'counts {path}: {err.strerror}') from None


def parse_script(text):
    """([(start, len, pgoff, file)], {ip: period}, samples) of 'perf script
    -F ip,period --show-mmap-events' output"""
    mmaps, weights, samples = [], collections.Counter(), 0
    for line in text.splitlines():
        match = MMAP.search(line)
        if match:
            mmaps.append((int(match.group(1), 16), int(match.group(2), 16),
                          int(match.group(3), 0), match.group(4)))
            continue
        words = line.split()
        if len(words) == 2 and words[0].isdigit():
            weights[int(words[1], 16)] += int(words[0])
            samples += 1
    return mmaps, weights, samples


def parse_lost(text):
    """Samples lost, by 'perf report --stats' output: its per-event sections'
    LOST_SAMPLES lines (the aggregated one counts records)"""
    lost, per_event = 0, False
    for line in text.splitlines():
        if line.rstrip().endswith('stats:'):
            per_event = not line.startswith('Aggregated')
        match = re.match(r'\s*LOST_SAMPLES events:\s*(\d+)', line)
        if match and per_event:
            lost += int(match.group(1))
    return lost


def perf_run(perf, data, args):
    """stdout of perf @args on @data (its HOME beside it: perf writes ~/.debug)"""
    if not os.path.isfile(data):
        raise BadInput(f'perf.data {data}: no such file')
    env = dict(os.environ, PAGER='cat', HOME=os.path.dirname(os.path.abspath(data)))
    try:
        proc = subprocess.run([perf] + args + ['-i', data], capture_output=True, text=True,
                              check=False, env=env)
    except OSError as err:
        raise BadInput(f'perf {perf}: {err.strerror}') from None
    if proc.returncode:
        why = ' '.join(proc.stderr.strip().splitlines()[-1:])
        raise BadInput(f'perf.data {data}: perf {args[0]} failed: {why}')
    return proc.stdout


def perf_script(data, symfs, perf='perf'):
    """parse_script() of perf's reading of @data, and the samples lost"""
    args = ['script', '-F', 'ip,period', '-G', '--show-mmap-events']
    mmaps, weights, samples = parse_script(perf_run(perf, data, args + (
        ['--symfs', symfs] if symfs else [])))
    return mmaps, weights, samples, parse_lost(perf_run(perf, data, ['report', '--stats']))


# --- The comparison ----------------------------------------------------------

def fold(weights, pattern):
    """@weights with the functions that @pattern matches summed into one,
    named by the pattern"""
    if not pattern:
        return weights
    folded = collections.Counter()
    for name, weight in weights.items():
        folded[pattern.pattern if pattern.fullmatch(name) else name] += weight
    return dict(folded)


def shares(weights, exclude):
    """({function: share}, total, excluded weight) of @weights without @exclude"""
    kept = {name: w for name, w in weights.items() if not (exclude and exclude.fullmatch(name))}
    total = sum(kept.values())
    return ({name: w / total for name, w in kept.items()} if total else {}, total,
            sum(weights.values()) - total)


def tvd(first, second):
    """Total variation distance of two {key: share} distributions"""
    return 0.5 * sum(abs(first.get(k, 0.0) - second.get(k, 0.0)) for k in set(first) | set(second))


def tvd_random(dist, samples):
    """Expected TVD of @samples independent samples of @dist from @dist itself
    (normal approximation: E|X| = sigma sqrt(2/pi))"""
    if not samples:
        return 0.0
    return 0.5 * sum(math.sqrt(2 * x * (1 - x) / (math.pi * samples)) for x in dist.values())


def rank(exact, perf, kept):
    """Rows of each function's shares and their difference, largest first"""
    rows = []
    for name in set(exact) | set(perf):
        want, got = exact.get(name, 0.0), perf.get(name, 0.0)
        # The variance floored at one sample's: one stray sample is z ~ 1
        sigma = math.sqrt(max(want * (1 - want), 1 / max(kept, 1)) / max(kept, 1))
        rows.append({'function': name, 'exact_pct': 100 * want, 'perf_pct': 100 * got,
                     'diff_pct': 100 * (got - want), 'diff_samples': (got - want) * kept,
                     'z': (got - want) / sigma})
    return sorted(rows, key=lambda r: (-abs(r['diff_pct']), r['function']))


def compare(exact, perf, samples, exclude, top=15, folded=None):
    """The result (a dict) of comparing {function: instructions} with
    {function: period}, the functions @folded matches counted as one"""
    exact_p, exact_total, exact_out = shares(fold(exact, folded), exclude)
    perf_p, perf_total, perf_out = shares(fold(perf, folded), exclude)
    if not exact_p:
        raise BadInput('counts: no instruction left after the exclusion')
    if not perf_p:
        raise BadInput('perf.data: no sample left after the exclusion')
    kept = round(samples * perf_total / (perf_total + perf_out))
    return {'tvd': tvd(exact_p, perf_p), 'tvd_random': tvd_random(exact_p, kept),
            'samples': samples, 'samples_kept': kept, 'exact_insns': exact_total,
            'exact_excluded': exact_out, 'perf_weight': perf_total, 'perf_excluded': perf_out,
            'functions': len(set(exact_p) | set(perf_p)),
            'top': rank(exact_p, perf_p, kept)[:top]}


def format_result(res):
    """The result as text"""
    lines = [f"TVD {res['tvd']:.5f} over {res['samples']} samples ({res['samples_kept']} after "
             f"exclusion); {res['tvd_random']:.5f} expected of as many random samples",
             f"exact: {res['exact_insns']} instructions ({res['exact_excluded']} excluded, "
             f"{res.get('irq_insns', 0)} in the IRQ handler)"]
    if res.get('lost'):
        lines.append(f"WARNING: {res['lost']} samples lost: the profile misses part of the window")
    lines.append(f"{'function':40} {'exact%':>9} {'perf%':>9} {'diff':>9} {'samples':>8} "
                 f"{'z':>6}")
    for row in res['top']:
        lines.append(f"{row['function'][:40]:40} {row['exact_pct']:9.4f} {row['perf_pct']:9.4f} "
                     f"{row['diff_pct']:+9.4f} {row['diff_samples']:+8.1f} {row['z']:+6.1f}")
    return '\n'.join(lines)


def regex(text, option):
    """@text compiled, or None if empty; bad input names @option"""
    try:
        return re.compile(text) if text else None
    except re.error as err:
        raise BadInput(f'{option} {text!r}: {err}') from None


def run_compare(args):
    """The 'compare' command's result"""
    syms = load_symbols(args.elf)
    counts, irq, meta = read_counts(args.counts)
    mmaps, weights, samples, lost = perf_script(args.data, args.symfs, args.perf)
    reloc_off = number(args.reloc_off, '--reloc-off') if args.reloc_off else None
    if reloc_off is None:
        image = [m for m in mmaps if m[3].endswith('u-boot')]
        if not image:
            raise BadInput(f'perf.data {args.data}: no MMAP of u-boot (give --reloc-off)')
        reloc_off = reloc_from_mmap(image[0][0], image[0][2], load_segments(args.elf))
    exclude = regex(args.exclude_symbols, '--exclude-symbols')
    folded = regex(args.fold_symbols, '--fold-symbols')
    res = compare(by_function(counts, syms, reloc_off), by_function(weights, syms, reloc_off),
                  samples, exclude, args.top, folded)
    res.update(reloc_off=reloc_off, irq_insns=sum(irq.values()), lost=lost,
               window=meta.get('state', ['?'])[0])
    return res


# --- The plugin's window -----------------------------------------------------

def msr_after(elf, syms, name, msr, after):
    """Link address of the MSR @msr (any Xt) in function @name, or of the
    instruction after it (@after)"""
    addr = syms.find(name)
    words = elf_words(elf, addr, (syms.ends[syms.starts.index(addr)] - addr) // 4)
    for i, word in enumerate(words):
        if word & ~0x1f == msr:
            return addr + 4 * (i + after)
    raise BadInput(f'function {name}: holds no MSR {msr:#x}')


def plugin_args(elf, reloc_off, window='pmu'):
    """The plugin's start=, stop= and irq= arguments, for the counters of a
    recording (pmu: from their enable; timer: cpu-clock, from
    perfrec_timer_start(); boot: the boot recording's enable, before
    relocation) to their stop, with perfrec's vector tables as handlers"""
    syms = load_symbols(elf)
    if window not in ('pmu', 'timer', 'boot'):
        raise BadInput(f'--window {window!r}: not pmu, timer or boot')
    if window == 'timer':
        start = syms.find('perfrec_timer_start') + reloc_off
    else:
        start = msr_after(elf, syms, 'pmuv3_start', MSR_PMCNTENSET, 1)
        start += 0 if window == 'boot' else reloc_off
    stop = msr_after(elf, syms, 'pmuv3_stop', MSR_PMCNTENCLR, 0) + reloc_off
    args = [f'start={start:#x}', f'stop={stop:#x}']
    for addr, name in zip(syms.starts, syms.names):
        if VECTORS.match(name):
            for off in sorted({0, reloc_off}):
                args.append(f'irq={addr + off:#x}-{addr + off + VECTOR_BYTES:#x}')
    return args


def build_plugin(out, api_version=1, compiler='gcc'):
    """Build the plugin into @out; return its path"""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, PLUGIN_NAME)
    cmd = [compiler, '-shared', '-O2', '-g', '-fPIC', '-fvisibility=hidden', '-Wall', '-Wextra',
           '-Werror', f'-DPLUGIN_API_VERSION={api_version}', '-o', path, PLUGIN_SRC]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode:
        why = proc.stderr.strip().replace('\n', ' | ')
        raise BadInput(f'plugin build failed: {why}')
    return path


# --- Command line ------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    """argparse, with one line and exit code 2 for bad input"""
    tool = 'perfrec_exact'

    def error(self, message):
        """Print one line; exit 2"""
        self.exit(2, f'{self.tool}: {message}\n')


def add_compare_args(parser):
    """The options of a comparison"""
    parser.add_argument('--exclude-symbols', default=DEFAULT_EXCLUDE,
                        help="regular expression of functions left out ('' for none)")
    parser.add_argument('--fold-symbols', default='',
                        help='regular expression of functions counted as one')
    parser.add_argument('--top', type=int, default=15)
    parser.add_argument('--json', action='store_true')
    parser.add_argument('--perf', default='perf')
    parser.add_argument('--max-tvd', type=float,
                        help='exit code 1 if TVD is above this (a check gate)')
    parser.add_argument('--min-samples', type=int,
                        help='exit code 1 if the recording has fewer samples (a check gate)')


def print_result(res, args):
    """Print a result, as JSON or text; return the exit code: 1 if its TVD is
    over --max-tvd"""
    if args.json:
        print(json.dumps(res, indent=1, sort_keys=True))
    elif 'stat_instructions' in res:
        print(f"perfrec stat: {res['stat_instructions']} instructions; plugin: "
              f"{res['plugin_instructions']} ({res['extra']:+d})")
    else:
        print(format_result(res))
    if args.max_tvd is not None and res.get('tvd', 0) > args.max_tvd:
        print(f"{Parser.tool}: TVD {res['tvd']:.5f} is over {args.max_tvd}", file=sys.stderr)
        return 1
    if args.min_samples is not None and res.get('samples', 0) < args.min_samples:
        print(f"{Parser.tool}: {res.get('samples', 0)} samples, fewer than {args.min_samples}",
              file=sys.stderr)
        return 1
    return 0


def parse_args(argv):
    """The parsed command line"""
    parser = Parser(description=__doc__.split('\n', 1)[0])
    sub = parser.add_subparsers(dest='command', required=True, parser_class=Parser)
    cmp = sub.add_parser('compare', help='compare counts with a perf.data')
    cmp.add_argument('--elf', required=True)
    cmp.add_argument('--counts', required=True)
    cmp.add_argument('--data', required=True)
    cmp.add_argument('--symfs')
    cmp.add_argument('--reloc-off')
    add_compare_args(cmp)
    pargs = sub.add_parser('plugin-args', help="the plugin's window and handler arguments")
    pargs.add_argument('--elf', required=True)
    pargs.add_argument('--reloc-off', required=True)
    pargs.add_argument('--window', default='pmu')
    build = sub.add_parser('build-plugin', help='build the plugin')
    build.add_argument('--out', default=os.path.join(TOP, 'build', 'qemu-plugin'))
    build.add_argument('--api-version', type=int, default=1)
    return parser.parse_args(argv)


def main(argv=None):
    """Run the command; return the exit code"""
    args = parse_args(argv)
    try:
        if args.command == 'plugin-args':
            print(','.join(plugin_args(args.elf, number(args.reloc_off, '--reloc-off'),
                                       args.window)))
            return 0
        if args.command == 'build-plugin':
            print(build_plugin(args.out, args.api_version))
            return 0
        res = run_compare(args)
    except BadInput as err:
        print(f'perfrec_exact: {err}', file=sys.stderr)
        return 2
    return print_result(res, args)


if __name__ == '__main__':
    sys.exit(main())
