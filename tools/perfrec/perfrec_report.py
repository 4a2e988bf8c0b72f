#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# One step from a perfrec recording and its U-Boot build to perf's answers

"""One step from a perfrec recording and its U-Boot build to perf's answers.

Usage:
    perfrec_report.py PERF_DATA BUILD_DIR [--cache] [--annotate [FUNC] | --folded |
                      --flame OUT.html] [-- PERF_REPORT_ARGS...]
    perfrec_report.py PERF_DATA BUILD_DIR --diff BASE.data BASE_DIR [-- DIFF_ARGS...]

Checks that PERF_DATA was recorded by the U-Boot in BUILD_DIR (the GNU
build-id in the recording against the one of BUILD_DIR/u-boot: a mismatch is
an error, never a report with wrong or missing names), then runs the host perf
on it:
  (default)     perf report --stdio --no-children, plus PERF_REPORT_ARGS
  --annotate    perf annotate --stdio of FUNC, or of the hottest function
  --folded      folded stacks ("u-boot;outer;...;inner <samples>", one per
                line) by perf's stackcollapse script, for flame graph tools
  --flame       an offline flame graph page (perfrec_flamegraph.py)
  --diff        PERF_DATA compared with the baseline BASE.data, function by
                function (perfrec_diff.py, which DIFF_ARGS go to; its exit
                status: 1 when a gate failed, 2 on bad input)
Symbols come through --symfs BUILD_DIR, or with --cache through perf's
build-id cache: the ELF is added to it, and perf then finds it by itself
(later 'perf report -i PERF_DATA' needs no --symfs either).

Exit status: 0 on success, 1 on a mismatch or a perf failure, 2 on a usage error.
"""

import argparse
import os
import re
import subprocess
import sys

from perfrec_elf import load

PERF = os.environ.get('PERF', 'perf')
STACKCOLLAPSE = '/usr/lib/perf-core/scripts/python/stackcollapse.py'
FLAMEGRAPH = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'perfrec_flamegraph.py')
DIFF = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'perfrec_diff.py')


def elf_build_id(path):
    """The NT_GNU_BUILD_ID of little-endian ELF (64- or 32-bit) @path as hex, or
    None; a ValueError (perfrec_elf.ElfError) when @path is no such ELF"""
    return load(path).build_id()


def perf(args, check=True, **kwargs):
    """Run host perf; return the CompletedProcess (stderr passed through)"""
    proc = subprocess.run([PERF] + args, stdout=subprocess.PIPE, text=True,
                          check=False, **kwargs)
    if check and proc.returncode:
        raise RuntimeError(f'perf {args[0]} failed (exit {proc.returncode})')
    return proc


def recorded_build_id(data, quiet=False):
    """The build-id perf finds in @data for /u-boot, or None (@quiet: perf's stderr too)"""
    out = perf(['buildid-list', '-i', data],
               stderr=subprocess.DEVNULL if quiet else None).stdout
    ids = [line.split()[0] for line in out.splitlines()
           if len(line.split()) == 2 and line.split()[1] == '/u-boot']
    return ids[0] if ids else None


def top_function(text):
    """(share, name) of the function with the largest share in the first
    event's table of a perf report @text (--stdio --sort sym -F
    overhead,sym), or None"""
    best_share, best = -1.0, None
    for line in text.splitlines():
        mat = re.match(r'^\s+([\d.]+)%\s+\[\.\]\s+(\S+)', line)
        if mat and not mat.group(2).startswith('0x') and float(mat.group(1)) > best_share:
            best_share, best = float(mat.group(1)), mat.groups()
        elif best and line.startswith('# Samples:'):
            break       # the next event's table
    return best


def hottest(data, symfs):
    """The function with the largest share of the first event"""
    best = top_function(perf(['report', '-i', data, '--stdio', '--no-children', '-g', 'none',
                              '--sort', 'sym', '-F', 'overhead,sym'] + symfs).stdout)
    if not best:
        raise RuntimeError(f'perf names no function in {data}')
    return best[1]


def main(argv=None):
    """Check the build, run perf; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('data', help='the perf.data perfrec wrote')
    parser.add_argument('build_dir', help='the U-Boot build directory (holding u-boot)')
    parser.add_argument('--cache', action='store_true',
                        help="add the ELF to perf's build-id cache and use that, not --symfs")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument('--annotate', nargs='?', const='', metavar='FUNC',
                      help='annotate FUNC (default: the hottest function)')
    mode.add_argument('--folded', action='store_true', help='print folded stacks')
    mode.add_argument('--flame', metavar='OUT.html', help='write an offline flame graph')
    mode.add_argument('--diff', nargs=2, metavar=('BASE.data', 'BASE_DIR'),
                      help='compare with a baseline recording and its build (perfrec_diff.py)')
    argv = sys.argv[1:] if argv is None else list(argv)
    extra = argv[argv.index('--') + 1:] if '--' in argv else []
    args = parser.parse_args(argv[:len(argv) - len(extra) - (1 if '--' in argv else 0)])

    if args.diff:
        return subprocess.run(['/usr/bin/python3', DIFF] + args.diff + [args.data, args.build_dir] +
                              extra, check=False).returncode
    elf = os.path.join(args.build_dir, 'u-boot')
    try:
        for path in (args.data, elf):
            if not os.path.isfile(path):
                raise RuntimeError(f'{path}: no such file')
        want = elf_build_id(elf)
        got = recorded_build_id(args.data)
        if got and want and got != want:
            raise RuntimeError(f'{args.data} was recorded by the U-Boot with build-id {got}, but '
                               f'{elf} has build-id {want}: give the build directory of the U-Boot '
                               'that made the recording')
        if not got:
            print(f'perfrec_report: {args.data} carries no build-id: trusting that {elf} is the '
                  'build that made it', file=sys.stderr)
        symfs = ['--symfs', args.build_dir]
        if args.cache:
            if not (got and want):
                raise RuntimeError(f'--cache needs a build-id in both {args.data} and {elf}')
            perf(['buildid-cache', '--add', elf])
            symfs = []
        if args.flame:
            proc = subprocess.run(['/usr/bin/python3', FLAMEGRAPH, '-i', args.data,
                                   '--symfs', args.build_dir, '-o', args.flame], check=False)
            return 1 if proc.returncode else 0
        if args.folded:
            out = perf(['script', '-i', args.data, '-s', STACKCOLLAPSE] + symfs).stdout
        elif args.annotate is not None:
            func = args.annotate or hottest(args.data, symfs)
            out = perf(['annotate', '-i', args.data, '--stdio', func] + symfs).stdout
        else:
            out = perf(['report', '-i', args.data, '--stdio', '--no-children'] + symfs +
                       extra).stdout
    except (RuntimeError, ValueError, OSError) as err:
        print(f'perfrec_report: {err}', file=sys.stderr)
        return 1
    sys.stdout.write(out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
