#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Run perfrec's test/py tests over the QEMU matrix with U-Boot's own harness.

Usage:
    perfrec_run_tests.py --src <u-boot tree> --build-dir <dir> --result-dir <dir>
                         [--cell NAME]... [-k EXPR] [-j N]
                         [--early-build-dir <dir> --early-result-dir <dir>
                          --early-cell NAME...]
                         [--also-build NAME SRC BUILD_DIR RESULT_DIR CELL,...]...
                         [--also-early NAME SRC BUILD_DIR RESULT_DIR CELL,...]...

Each cell boots QEMU virt in one configuration (EL, GIC version, icount, CPUs)
through the hook scripts in test/hooks and runs test/py/tests/test_perfrec*.py.
The tests whose proof does not differ between cells (perfrec_fixtures.py's
ONE_CELL) run in one of them only: --all-tests-in, by default el2-gicv3 when
it is in the run, else the first cell.
A cell passes only if tests ran, none failed and none was skipped: a missing
tool or config option must not turn into green. Exit code 0 when every cell
passes.

With --early-build-dir, the early-boot build's tests (-k perfrec_early) run
in its --early-cell cells too, in the same pool of -j cells at once: the
longest cell (the one with the one-cell tests) starts first and the short
early-boot cells come last, so that both cores stay busy to the end.
--also-build and --also-early add the cells of other releases' builds to the
same pool (make check-releases: one pool for every release's cells); each
build runs its own one-cell tests. --also-spl adds the SPL test vehicle's
cells (make build-spl: its tests and the whole-boot recording's, SPL_K).
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (-M machine, -icount, -smp, -cpu)
CELLS = {
    'el1-gicv2': ('virt', 'shift=0', 1, 'cortex-a57'),
    'el1-gicv3': ('virt,gic-version=3', 'shift=0', 2, 'cortex-a57'),
    'el2-gicv2': ('virt,virtualization=on', 'shift=0', 1, 'cortex-a57'),
    'el2-gicv3': ('virt,virtualization=on,gic-version=3', 'shift=0', 1, 'cortex-a57'),
    'el3-gicv2': ('virt,secure=on,virtualization=on', 'shift=0', 1, 'cortex-a57'),
    'el3-gicv3': ('virt,secure=on,virtualization=on,gic-version=3', 'shift=0', 1, 'cortex-a57'),
    'el2-gicv3-noicount': ('virt,virtualization=on,gic-version=3', '', 1, 'cortex-a57'),
    # PMUv3p5 (64-bit event counters); event counters interrupt on time with shift=1
    'el1-gicv3-max': ('virt,gic-version=3', 'shift=1', 1, 'max'),
}


# The early-boot build's tests (-k), and the SPL test vehicle's: its own and
# the whole-boot recording's names and readers, with U-Boot proper linked
# and loaded at CONFIG_TEXT_BASE in DRAM
EARLY_K = 'perfrec_early'
SPL_K = 'perfrec_spl or perfrec_early_boot_whole or perfrec_early_boot_readers'


def all_tests_cell(cells):
    """The cell of @cells that runs the one-cell tests by default"""
    return 'el2-gicv3' if 'el2-gicv3' in cells else cells[0]


class Job:
    """One cell of one build: where its results go, which tests it runs"""

    def __init__(self, name, src, build_dir, result_dir, k, all_tests, label):
        self.name = name
        self.src = src
        self.build_dir = build_dir
        self.result_dir = result_dir
        self.k = k
        self.all_tests = all_tests
        self.label = label


def run_cell(job):
    """Run the tests in one cell; return (label, ok, summary, seconds)"""
    name = job.name
    machine, icount, smp, cpu = CELLS[name]
    result_dir = os.path.join(os.path.abspath(job.result_dir), name)
    os.makedirs(result_dir, exist_ok=True)
    junit = os.path.join(result_dir, 'junit.xml')
    if os.path.exists(junit):
        os.remove(junit)
    env = dict(os.environ,
               PATH=os.path.join(TOP, 'test/hooks/bin') + ':/usr/bin:/bin:' +
               os.environ.get('PATH', ''),
               PYTHONPATH=os.path.join(TOP, 'test/hooks/py'),
               PYTHONDONTWRITEBYTECODE='1',
               PERFREC_CELL=name, PERFREC_QEMU_MACHINE=machine,
               PERFREC_QEMU_ICOUNT=icount, PERFREC_QEMU_SMP=str(smp),
               PERFREC_QEMU_CPU=cpu,
               PERFREC_ALL_TESTS='1' if job.all_tests else '0',
               # The SPL test vehicle's flash: test/py waits for SPL's banner
               PERFREC_SPL='1' if os.path.exists(os.path.join(job.build_dir,
                                                              'perfrec-flash.bin')) else '0',
               PERFREC_NPM_DIR=os.path.join(TOP, 'tools/perfrec/flamegraph'))
    cmd = ['/usr/bin/python3', os.path.join(job.src, 'test/py/test.py'),
           '--bd', 'qemu_arm64', '--build-dir', os.path.abspath(job.build_dir),
           '--result-dir', result_dir,
           '--persistent-data-dir', os.path.join(result_dir, 'persistent'),
           '-p', 'no:cacheprovider', '-p', 'perfrec_fixtures', '-q', '--junitxml', junit,
           # perfrec's tests; not U-Boot's test_ut.py, which runs each 'ut'
           # test on its own, and so perfrec's (test_perfrec_ut.py runs them)
           '-k', 'perfrec and not test_ut' + (' and (%s)' % job.k if job.k else '')]
    start = time.time()
    with open(os.path.join(result_dir, 'pytest.out'), 'w', encoding='utf-8') as out:
        ret = subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                             check=False).returncode
    secs = time.time() - start
    if not os.path.exists(junit):
        return job.label, False, 'no results (pytest exit %d)' % ret, secs
    suite = ET.parse(junit).getroot()
    if suite.tag == 'testsuites':
        suite = suite[0]
    tests, fails, errors, skips = (int(suite.get(k, 0)) for k in
                                   ('tests', 'failures', 'errors', 'skipped'))
    ok = ret == 0 and tests > 0 and not fails and not errors and not skips
    summary = '%d tests, %d failed, %d errors, %d skipped' % (tests, fails, errors, skips)
    if job.all_tests:
        summary += ', with the one-cell tests'
    if skips:
        summary += ' (skipped tests count as failures)'
    return job.label, ok, summary, secs


def make_jobs(args, cells):
    """The pool's jobs, in the order they start: the cells with the one-cell
    tests (the longest) first, so that the others fill the pool beside them,
    and the short early-boot cells last"""
    jobs = [Job(c, args.src, args.build_dir, args.result_dir, args.k, c == args.all_tests_in,
                c) for c in cells]
    jobs += [Job(c, args.src, args.early_build_dir, args.early_result_dir, EARLY_K, False,
                 c + ' (early)') for c in args.early_cell or []]
    for name, src, build_dir, result_dir, also in args.also_build:
        also = also.split(',')
        one = all_tests_cell(also)
        jobs += [Job(c, src, build_dir, result_dir, args.k, c == one, f'{c} ({name})')
                 for c in also]
    for name, src, build_dir, result_dir, also in args.also_early:
        jobs += [Job(c, src, build_dir, result_dir, EARLY_K, False,
                     f'{c} ({name}, early)') for c in also.split(',')]
    for name, src, build_dir, result_dir, also in args.also_spl:
        jobs += [Job(c, src, build_dir, result_dir, SPL_K, False,
                     f'{c} ({name}, SPL)') for c in also.split(',')]
    jobs.sort(key=lambda j: 0 if j.all_tests else 2 if j.k in (EARLY_K, SPL_K) else 1)
    return jobs


def main(argv=None):
    """Run the matrix; return the exit code"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--src', required=True, help='overlaid U-Boot source tree')
    parser.add_argument('--build-dir', required=True, help='U-Boot build directory')
    parser.add_argument('--result-dir', required=True, help='where logs go')
    parser.add_argument('--cell', action='append', choices=sorted(CELLS),
                        help='run only this cell (repeatable); default: all')
    parser.add_argument('-k', help='extra pytest -k expression')
    parser.add_argument('--all-tests-in', metavar='CELL', choices=sorted(CELLS),
                        help='the cell that also runs the one-cell tests '
                        '(default: el2-gicv3 if run, else the first)')
    parser.add_argument('-j', type=int, default=2, help='cells run at once (default 2)')
    parser.add_argument('--early-build-dir',
                        help='the early-boot build, whose tests (-k perfrec_early) run too')
    parser.add_argument('--early-result-dir', help='where its logs go')
    parser.add_argument('--early-cell', action='append', choices=sorted(CELLS),
                        help='a cell for the early-boot build (repeatable)')
    for opt, what in (('--also-build', "another release's test build"),
                      ('--also-early', "another release's early-boot build"),
                      ('--also-spl', "an SPL test vehicle's build")):
        parser.add_argument(opt, action='append', nargs=5, default=[],
                            metavar=('NAME', 'SRC', 'BUILD_DIR', 'RESULT_DIR', 'CELLS'),
                            help='cells (comma-separated) of %s, in the same pool '
                            '(repeatable)' % what)
    args = parser.parse_args(argv)
    if bool(args.early_build_dir) != bool(args.early_cell) or \
            bool(args.early_build_dir) != bool(args.early_result_dir):
        parser.error('--early-build-dir, --early-result-dir and --early-cell go together')
    for name, _, _, _, cells in args.also_build + args.also_early + args.also_spl:
        for cell in cells.split(','):
            if cell not in CELLS:
                parser.error('%s: cell %r: not one of %s' % (name, cell, ', '.join(sorted(CELLS))))

    cells = args.cell or list(CELLS)
    if not args.all_tests_in:
        args.all_tests_in = all_tests_cell(cells)
    elif args.all_tests_in not in cells:
        parser.error('--all-tests-in %s: not one of the cells run' % args.all_tests_in)
    jobs = make_jobs(args, cells)
    width = max(len(j.label) for j in jobs)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        for job, (label, ok, summary, secs) in zip(jobs, pool.map(run_cell, jobs)):
            print('%-*s %-4s %s in %.0f s' % (width, label, 'ok' if ok else 'FAIL', summary,
                                             secs), flush=True)
            if not ok:
                failed.append(job)
    for job in failed:
        print('perfrec: cell %s failed: see %s' %
              (job.label, os.path.join(job.result_dir, job.name, 'pytest.out')))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
