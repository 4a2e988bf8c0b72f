#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Judge saved recordings again with a newer perf: perf 7.3 must agree with 6.1.

Usage (under perfrec_lab_host.py run, which sets PERFREC_LAB_ROOT):
    perfrec_perf_versions.py --results build/test-results... --builds build [-j 2]

Every *.data file a test saved under a cell's tmp/ directory (perfrec_run_tests.py
gives each cell --basetemp there) is read by bookworm's perf and by the trixie
chroot's: 'perf script -F ip,sym' (with each sample's call chain, one line an
entry, where it has one), the ELF found by build-id among the builds' u-boot
files. The recordings are not made again. A file bookworm's perf cannot read
cleanly (the tests' damaged transfers, synthetic negative controls) is counted
and left out. Exit 0 when both name the same function for every sample and
every chain entry of every file (a file with no sample: neither prints
one), 1 when one differs (its first lines are shown) or when there is
nothing to judge.
"""

import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'test/py/tests'))
# pylint: disable-next=wrong-import-position
from perfrec_data import check_perf_stderr  # noqa: E402


def build_ids(builds):
    """{build-id: build directory} of every u-boot ELF directly under @builds"""
    ids = {}
    for elf in sorted(glob.glob(os.path.join(os.path.abspath(builds), '*', 'u-boot'))):
        out = subprocess.run(['readelf', '-n', elf], capture_output=True, text=True,
                             errors='replace', check=False).stdout
        match = re.search(r'Build ID: ([0-9a-f]+)', out)
        if match:
            ids.setdefault(match.group(1), os.path.dirname(elf))
    return ids


def recordings(results):
    """The *.data files the tests saved under @results' cells' tmp/ trees (not
    through pytest's '-current' links, which repeat the last test's, nor into
    the chroot)"""
    found = []
    lab = os.environ.get('PERFREC_LAB_ROOT', '')
    for top, dirs, files in os.walk(os.path.abspath(results)):
        # Not into the chroot (its /proc, /sys and /dev are mounted during a run)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(top, d)) and
                   not os.path.ismount(os.path.join(top, d)) and
                   os.path.join(top, d) != lab]
        if os.sep + 'tmp' + os.sep in top + os.sep:
            found += [os.path.join(top, f) for f in files if f.endswith('.data') and
                      not os.path.islink(os.path.join(top, f))]
    return sorted(found)


def perf(cmd, path, symfs):
    """(exit code, stdout, stderr) of 'perf script' by @cmd on @path"""
    args = ['script', '-i', path, '-F', 'ip,sym', '--no-inline']
    if symfs:
        args.append('--symfs=' + symfs)
    proc = subprocess.run(cmd + ['env', 'HOME=/tmp', 'PAGER=cat', 'perf'] + args,
                          capture_output=True, text=True, errors='replace', check=False)
    return proc.returncode, proc.stdout, proc.stderr


def judge(path, ids, lab):
    """('agree' | 'unread' | 'differ', detail) for one recording"""
    out = subprocess.run(['perf', 'buildid-list', '-i', path], capture_output=True, text=True,
                         errors='replace', check=False, env=dict(os.environ, HOME='/tmp')).stdout
    match = re.search(r'^([0-9a-f]{40})', out, re.M)
    symfs = ids.get(match.group(1)) if match else None
    ret, old, err = perf([], path, symfs)
    try:
        # Bookworm's perf on x86 has no DWARF unwinder for arm64, and says so
        # for recordings whose samples carry registers: their chains are
        # frame records, which it reads
        check_perf_stderr(err, allow_lost=True,
                          allow=[r'unwind: target platform=arm64 is not supported'])
    except AssertionError:
        ret = ret or 1
    if ret:
        return 'unread', path
    ret, new, err = perf(['chroot', lab], path, symfs)
    if ret:
        return 'differ', '%s: perf 7 failed (exit %d): %s' % (path, ret, err.strip()[:300])
    if not old.strip():
        # No sample (a period longer than the workload, an event counter
        # whose overflow never came): perf 7 must print none either
        return ('empty', path) if not new.strip() else \
            ('differ', '%s: no sample for perf 6.1, %d lines from perf 7' %
             (path, len(new.splitlines())))
    why = differ(old.splitlines(), new.splitlines())
    if why:
        return 'differ', '%s: %s' % (path, why)
    return 'agree', '%s: %d lines' % (path, len(old.splitlines()))


def differ(old, new):
    """Why perf 7's 'perf script -F ip,sym' lines @new differ from 6.1's @old, or None

    Every line must name the same function. A sample's own address must be
    the same; a chain entry's may differ by one constant per map: perf 6.1
    prints a chain entry's address relative to its map, perf 7 the address
    itself (host perf's own recordings show the same: README, Real boards in
    emulation). An address in no map ([unknown]) is the same in both."""
    if len(old) != len(new):
        return '%d lines from perf 6.1, %d from perf 7' % (len(old), len(new))
    shift = None
    for i, (one, two) in enumerate(zip(old, new)):
        was, now = one.split(None, 1), two.split(None, 1)
        if not was and not now:
            continue
        if len(was) != 2 or len(now) != 2 or was[1] != now[1]:
            return 'line %d: perf 6.1 %r, perf 7 %r' % (i + 1, one, two)
        if not one.startswith('\t'):
            if was[0] != now[0]:
                return 'line %d: sample address perf 6.1 %s, perf 7 %s' % (i + 1, was[0],
                                                                            now[0])
            continue
        # An address in no map is printed as it is by both; perfrec's
        # recordings have one map: one shift for every chain entry in it
        if was[1] == '[unknown]':
            if was[0] != now[0]:
                return 'line %d: unmapped chain address perf 6.1 %s, perf 7 %s' % (
                    i + 1, was[0], now[0])
            continue
        if shift is None:
            shift = int(now[0], 16) - int(was[0], 16)
        elif int(now[0], 16) - int(was[0], 16) != shift:
            return 'line %d: chain address perf 6.1 %s, perf 7 %s: not %#x apart' % (
                i + 1, was[0], now[0], shift)
    return None


def main(argv=None):
    """Judge every saved recording with both perfs; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--results', required=True, nargs='+',
                        help='result directories whose cells\' tmp/ trees hold the recordings')
    parser.add_argument('--builds', required=True, help='where the builds are')
    parser.add_argument('-j', type=int, default=os.cpu_count())
    args = parser.parse_args(argv)
    lab = os.environ.get('PERFREC_LAB_ROOT')
    if not lab:
        print('perfrec_perf_versions: no PERFREC_LAB_ROOT: run under perfrec_lab_host.py run',
              file=sys.stderr)
        return 1
    ids = build_ids(args.builds)
    files = [f for results in args.results for f in recordings(results)]
    if not files:
        print('perfrec_perf_versions: no saved recordings under %s: run make check first' %
              ' '.join(args.results), file=sys.stderr)
        return 1
    version = subprocess.run(['chroot', lab, 'perf', '--version'], capture_output=True,
                             text=True, check=False).stdout.strip()
    counts = {'agree': 0, 'empty': 0, 'unread': 0, 'differ': 0}
    lines = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        for verdict, detail in pool.map(lambda f: judge(f, ids, lab), files):
            counts[verdict] += 1
            if verdict == 'differ':
                print('perfrec_perf_versions: ' + detail, file=sys.stderr)
            elif verdict == 'agree':
                lines += int(detail.rsplit(': ', 1)[1].split()[0])
    print('perfrec_perf_versions: %s and bookworm\'s perf on %d recordings: %d agree line by '
          'line (%d lines of samples and chain entries), %d have no sample for either, %d '
          'differ, %d not read cleanly by perf 6.1 (left out)' %
          (version, len(files), counts['agree'], lines, counts['empty'], counts['differ'],
           counts['unread']))
    return 1 if counts['differ'] or not counts['agree'] else 0


if __name__ == '__main__':
    sys.exit(main())
