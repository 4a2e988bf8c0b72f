# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Host tests of tools/perfrec/perfrec_diff.py

"""Host tests of tools/perfrec/perfrec_diff.py, the A/B comparison.

Usage:
    /usr/bin/python3 -m pytest -p no:cacheprovider test/host/test_perfrec_diff.py

The two builds are test/host/diff_fixture.c (with diff_fixture_b.c), linked
without and with -DDIFF_NEW: another layout, other clone names
(diff_scan.isra.0 against diff_scan.constprop.3 and diff_scan.cold), a
function each that the other lacks, and a static diff_helper in each of the
two files. The recordings come from test_perfrec_data.py's builder, with a
known number of samples in each function (period 1000) and callchains made
of addresses inside the callers. The tool's table must give exactly the
plan's events per function, matched across the builds; its gates must trip
on what grew past them and on nothing else; its flame graph must hold the
union of both trees and draw in headless Chromium; bad input must get one
line and exit 2.
"""

import json
import os
import re
import sys

import pytest

from conftest import ARM32_CROSS_COMPILE, CROSS_COMPILE, GEN_BASE, REPO, build_fixture, run, tool
from test_flamegraph import npm_installed  # noqa: F401 (fixture)
from test_perf_data_buildid import write
from test_perfrec_data import BASIC, CONTEXT_USER, P, build, SYN_PERIOD
import test_perfrec_report_tool as report_tool

sys.path.insert(0, os.path.join(REPO, 'tools', 'perfrec'))
# pylint: disable=wrong-import-position
import perfrec_diff  # noqa: E402

TOOL = os.path.join(REPO, 'tools', 'perfrec', 'perfrec_diff.py')
SOURCES = ('diff_fixture.c', 'diff_fixture_b.c')
A = 'diff_fixture.c'
B = 'diff_fixture_b.c'

# (call path outermost first, as (file or None, symbol), samples)
START = (None, '_start')
BASE_PLAN = (
    ((START, (A, 'diff_scan.isra.0')), 10),
    ((START, (A, 'diff_helper')), 3),
    ((START, (None, 'diff_b_entry'), (B, 'diff_helper')), 5),
    ((START, (A, 'diff_gone')), 2),
)
NEW_PLAN = (
    ((START, (A, 'diff_scan.constprop.3')), 9),
    ((START, (A, 'diff_scan.constprop.3'), (A, 'diff_scan.cold')), 4),
    ((START, (A, 'diff_helper')), 3),
    ((START, (None, 'diff_b_entry'), (B, 'diff_helper')), 1),
    ((START, (A, 'diff_fresh')), 4),
)
# What the tool must say: function -> (base events, new events)
WANT = {
    'diff_scan': (10000, 13000),
    f'diff_helper@{A}': (3000, 3000),
    f'diff_helper@{B}': (5000, 1000),
    'diff_gone': (2000, 0),
    'diff_fresh': (0, 4000),
}



class Build:  # pylint: disable=too-few-public-methods  # a record with one lookup
    """A fixture build: its Elf and its functions by (file, name)"""

    def __init__(self, elf):
        self.elf = elf
        self.funcs = {}
        out = run([tool(CROSS_COMPILE + 'readelf'), '-sW', elf.path]).stdout
        home = None
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 8 and fields[3] == 'FILE':
                home = fields[7]
            elif len(fields) == 8 and fields[3] == 'FUNC':
                key = (home if fields[4] == 'LOCAL' else None, fields[7])
                self.funcs[key] = int(fields[1], 16)

    def runtime(self, key, offset=4):
        """Run-time address @offset bytes into function @key"""
        return self.funcs[key] + offset - self.elf.text_base + GEN_BASE


def build_pair(tmp_path_factory, cflags=(), cross=CROSS_COMPILE):
    """(base, new) fixture builds, both with a sha1 build-id"""
    return tuple(Build(build_fixture(str(tmp_path_factory.mktemp(name)), 0, 'sha1', SOURCES,
                                     cflags + flags, cross))
                 for name, flags in (('diffbase', ()), ('diffnew', ('-DDIFF_NEW',))))


@pytest.fixture(scope='module', name='builds')
def fixture_builds(tmp_path_factory):
    """(base, new) fixture builds, both with a sha1 build-id"""
    return build_pair(tmp_path_factory)


@pytest.fixture(scope='module', name='builds32')
def fixture_builds32(tmp_path_factory):
    """The same builds for 32-bit Arm (ELF32, ARM state, as U-Boot's 32-bit build)"""
    return build_pair(tmp_path_factory, ('-marm',), ARM32_CROSS_COMPILE)


def make(bld, plan, path, callchain=True, nr_events=1):
    """Write @plan's samples for @bld to @path, interleaved; return the path"""
    samples = []
    left = [[p, n] for p, n in plan]
    while any(n for _, n in left):
        for item in left:
            if item[1]:
                chain = [bld.runtime(key) for key in reversed(item[0])]
                samples.append((chain[0], [CONTEXT_USER] + chain if callchain else None,
                                len(samples) % nr_events))
                item[1] -= 1
    stype = BASIC | P.SAMPLE_IDENTIFIER | (P.SAMPLE_CALLCHAIN if callchain else 0)
    text = bld.elf.text_segment
    data = build(stype, nr_events, samples, GEN_BASE, text.vaddr + text.memsz,
                 bld.elf.pgoff)
    with open(path, 'wb') as outf:
        outf.write(data)
    return str(path)


def run_tool(tmp_path, *args, script=TOOL):
    """Run perfrec_diff.py (or @script) with a private perf HOME; return the CompletedProcess"""
    return report_tool.run_tool(tmp_path, *args, script=script)


def rows(out):
    """{name: (base, new, delta, percent, mark)} of the tool's only table"""
    report = perfrec_diff.read_report(out)
    assert list(report) == ['syn-a'], out
    return report['syn-a'][0]


@pytest.fixture(name='pair')
def fixture_pair(builds, tmp_path):
    """(base.data, base dir, new.data, new dir) of the two plans"""
    base, new = builds
    return (make(base, BASE_PLAN, tmp_path / 'base.data'), base.elf.symfs,
            make(new, NEW_PLAN, tmp_path / 'new.data'), new.elf.symfs)


def test_functions_matched_across_builds(pair, tmp_path):
    """Every function's events, matched by name across clones, layouts and files"""
    proc = run_tool(tmp_path, *pair, '-n', '0')
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == '', proc.stderr
    table = rows(proc.stdout)
    base_total = sum(n for _, n in BASE_PLAN) * SYN_PERIOD
    assert {name: row[:2] for name, row in table.items()} == WANT, proc.stdout
    for name, (before, after, delta, share, mark) in table.items():
        assert delta == after - before
        assert share == pytest.approx(round(100 * delta / base_total, 2), abs=1e-9), name
        assert mark == ('new' if not before else 'vanished' if not after else None), name
    # Sorted by the size of the delta
    order = [abs(row[2]) for row in table.values()]
    assert order == sorted(order, reverse=True), proc.stdout
    total = re.search(r'^Total: base (\d+), new (\d+), delta ([+-]\d+)', proc.stdout, re.M)
    assert total and int(total.group(1)) == base_total, proc.stdout
    assert int(total.group(2)) == sum(n for _, n in NEW_PLAN) * SYN_PERIOD


def test_call_paths(pair, tmp_path):
    """-g: the call paths whose events changed, innermost first, with their deltas"""
    proc = run_tool(tmp_path, *pair, '-g', '--paths', '0')
    assert proc.returncode == 0, proc.stderr
    paths = {}
    for line in proc.stdout.split('call paths that changed most')[1].splitlines():
        mat = re.match(r'^\s+(\d+)\s+(\d+)\s+([+-]\d+)\s+\S+%\s+(.*?)(?:\s+\((?:new|vanished)\))?$',
                       line)
        if mat:
            paths[mat.group(4)] = (int(mat.group(1)), int(mat.group(2)))
    assert paths == {
        'diff_scan <- diff_scan <- _start': (0, 4000),
        'diff_scan <- _start': (10000, 9000),
        f'diff_helper@{B} <- diff_b_entry <- _start': (5000, 1000),
        'diff_gone <- _start': (2000, 0),
        'diff_fresh <- _start': (0, 4000),
    }, proc.stdout


def test_without_callchains(builds, tmp_path):
    """Recordings without callchains compare by function; -g is refused"""
    base, new = builds
    pair = (make(base, BASE_PLAN, tmp_path / 'b.data', callchain=False), base.elf.symfs,
            make(new, NEW_PLAN, tmp_path / 'n.data', callchain=False), new.elf.symfs)
    proc = run_tool(tmp_path, *pair)
    assert proc.returncode == 0, proc.stderr
    assert {name: row[:2] for name, row in rows(proc.stdout).items()} == WANT
    proc = run_tool(tmp_path, *pair, '-g')
    assert proc.returncode == 2 and proc.stdout == ''
    assert proc.stderr.count('\n') == 1 and 'record with -g' in proc.stderr, proc.stderr


@pytest.mark.parametrize('gate, code, failing', [
    (['--fail-above', '19'], 1, ['diff_fresh']),        # +20% of the base total
    (['--fail-above', '14'], 1, ['diff_fresh', 'diff_scan']),
    (['--fail-above', '20'], 0, []),                   # not more than 20%
    (['--fail-function', 'diff_scan:14.9'], 1, ['diff_scan']),
    (['--fail-function', 'diff_scan:15'], 0, []),
    (['--fail-function', f'diff_helper@{B}:0'], 0, []),     # it shrank
    (['--fail-function', 'diff_gone:0', '--fail-function', 'diff_fresh:19.5'], 1,
     ['diff_fresh']),
], ids=['above-19', 'above-14', 'above-20', 'func-14.9', 'func-15', 'shrank', 'two'])
def test_gates(pair, tmp_path, gate, code, failing):
    """A gate fails on each function that grew past it, naming it, and on no other"""
    proc = run_tool(tmp_path, *pair, *gate)
    assert proc.returncode == code, proc.stderr
    named = re.findall(r'^perfrec_diff: FAIL: (\S+) grew by \d+ syn-a events', proc.stderr, re.M)
    assert sorted(named) == sorted(failing), proc.stderr
    assert len(proc.stderr.splitlines()) == len(failing), proc.stderr
    assert 'Total: base' in proc.stdout


def test_identical_pass(builds, tmp_path):
    """The same recording twice: every delta 0, a 0% gate passes"""
    base, _ = builds
    path = make(base, BASE_PLAN, tmp_path / 'b.data')
    proc = run_tool(tmp_path, path, base.elf.symfs, path, base.elf.symfs, '--fail-above', '0')
    assert proc.returncode == 0, proc.stderr
    assert all(row[2] == 0 for row in rows(proc.stdout).values()), proc.stdout


def test_normalize(builds, tmp_path):
    """A recording twice as long, function for function: every function grew
    by its own size, and by nothing in shares (--normalize)"""
    base, _ = builds
    one = make(base, BASE_PLAN, tmp_path / 'one.data')
    two = make(base, [(path, 2 * count) for path, count in BASE_PLAN], tmp_path / 'two.data')
    proc = run_tool(tmp_path, one, base.elf.symfs, two, base.elf.symfs, '--fail-above', '0')
    assert proc.returncode == 1
    assert all(row[2] == row[0] > 0 for row in rows(proc.stdout).values()), proc.stdout
    proc = run_tool(tmp_path, one, base.elf.symfs, two, base.elf.symfs, '--fail-above', '0',
                    '--normalize')
    assert proc.returncode == 0, proc.stderr
    assert 'NEW scaled to the base total by' in proc.stdout
    assert all(row[2] == 0 and row[0] == row[1] for row in rows(proc.stdout).values()), \
        proc.stdout


def test_report_front_door(pair, tmp_path):
    """perfrec_report.py --diff is the same code: the same output, the same gate"""
    base, base_dir, new, new_dir = pair
    direct = run_tool(tmp_path, *pair, '-g', '--fail-above', '19')
    door = run_tool(tmp_path, new, new_dir, '--diff', base, base_dir, '--', '-g',
                    '--fail-above', '19', script=report_tool.TOOL)
    assert direct.returncode == door.returncode == 1
    assert (direct.stdout, direct.stderr) == (door.stdout, door.stderr)


def flame_tree(page):
    """The stacks JSON of a differential flame graph page, as {path: (base, new)}"""
    with open(page, encoding='utf-8') as inf:
        text = inf.read()
    tree = json.loads(re.search(r'^const stacks = (.*);$', text, re.M).group(1))
    nodes = {}

    def walk(node, path):
        path = path + (node['name'],)
        nodes[path] = (node['base'], node['new'])
        assert node['value'] >= 0 and node['value'] >= 0
        for kid in node['children']:
            walk(kid, path)
    walk(tree, ())
    return nodes


def test_flame_graph(pair, tmp_path, npm_installed):  # pylint: disable=unused-argument
    """The union tree: vanished and new frames there and marked; drawn by Chromium"""
    page = tmp_path / 'diff.html'
    png = tmp_path / 'diff.png'
    proc = run_tool(tmp_path, *pair, '--flame', page, '--png', png)
    assert proc.returncode == 0, proc.stderr
    assert not perfrec_diff.perfrec_flamegraph.remote_refs(page.read_text())
    nodes = flame_tree(page)
    root = ('u-boot', '_start')
    assert nodes == {
        ('u-boot',): (20000, 21000),
        root: (20000, 21000),
        root + ('diff_scan',): (10000, 13000),
        root + ('diff_scan', 'diff_scan (new)'): (0, 4000),
        root + (f'diff_helper@{A}',): (3000, 3000),
        root + ('diff_b_entry',): (5000, 1000),
        root + ('diff_b_entry', f'diff_helper@{B}'): (5000, 1000),
        root + ('diff_gone (vanished)',): (2000, 0),
        root + ('diff_fresh (new)',): (0, 4000),
    }
    assert png.stat().st_size > 1000
    frames = re.search(r'(\d+) frames drawn', proc.stdout)
    assert frames and int(frames.group(1)) >= 6, proc.stdout
    # The frame labels Chromium drew
    out = run(['node', perfrec_diff.perfrec_flamegraph.CHECKER, str(page)]).stdout.split('\n')
    assert 'diff_gone (vanished)' in out and 'diff_fresh (new)' in out, out


def one_line_error(proc, *words):
    """The tool said what is wrong in one line and exited 2, with no report"""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == '', proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith('perfrec_diff: '), proc.stderr
    assert 'Traceback' not in proc.stderr
    for word in words:
        assert str(word) in lines[0], proc.stderr


def test_bad_input(builds, pair, tmp_path):
    """No samples, other events, no or another ELF, a truncated file: one line, exit 2"""
    base, new = builds
    base_data, base_dir, new_data, new_dir = pair
    empty = make(base, (), tmp_path / 'empty.data')
    one_line_error(run_tool(tmp_path, base_data, base_dir, empty, base_dir), empty,
                   'no samples')
    two = make(new, NEW_PLAN, tmp_path / 'two.data', nr_events=2)
    one_line_error(run_tool(tmp_path, base_data, base_dir, two, new_dir),
                   'different events', 'syn-a, syn-b')
    one_line_error(run_tool(tmp_path, base_data, base_dir, new_data, tmp_path / 'nowhere'),
                   'no such file', 'nowhere')
    one_line_error(run_tool(tmp_path, base_data, base_dir, tmp_path / 'none.data', new_dir),
                   'none.data', 'no such file')
    with open(new_data, 'rb') as inf:
        data = inf.read()
    cut = tmp_path / 'cut.data'
    cut.write_bytes(data[:len(data) * 2 // 3])
    one_line_error(run_tool(tmp_path, base_data, base_dir, cut, new_dir), 'cut.data')
    one_line_error(run_tool(tmp_path, base_data, base_dir, new_data, new_dir, '-e', 'cycles'),
                   'no cycles samples')
    one_line_error(run_tool(tmp_path, *pair, '--fail-function', 'diff_nothing:1'),
                   'diff_nothing')
    bad = run_tool(tmp_path, *pair, '--fail-above', 'lots')
    assert bad.returncode == 2 and "'lots' is not a percentage" in bad.stderr
    bad = run_tool(tmp_path, *pair, '-n', '-3')
    assert bad.returncode == 2 and '-n -3: give a count >= 0' in bad.stderr


@pytest.mark.parametrize('bits', [64, 32])
def test_elf_functions(builds, builds32, bits):
    """Every function of a 64- or 32-bit ELF, as readelf lists it, a static
    one with its file: the static diff_helper of two files told apart"""
    for bld in builds if bits == 64 else builds32:
        with open(bld.elf.path, 'rb') as inf:
            assert inf.read(5)[4] == {64: 2, 32: 1}[bits]     # EI_CLASS
        funcs = perfrec_diff.elf_functions(bld.elf.path)
        assert len(funcs) == len(bld.funcs)
        assert {(home, name): addr for addr, _, name, home in funcs} == bld.funcs
        assert all(size for _, size, _, _ in funcs)
        assert perfrec_diff.ambiguous_names(funcs) == {'diff_helper'}


def test_arm32_builds(builds32, tmp_path):
    """Two recordings of 32-bit Arm builds compare as the 64-bit ones do"""
    base, new = builds32
    proc = run_tool(tmp_path, make(base, BASE_PLAN, tmp_path / 'base.data'), base.elf.symfs,
                    make(new, NEW_PLAN, tmp_path / 'new.data'), new.elf.symfs, '-n', '0')
    assert proc.returncode == 0, proc.stderr
    assert {name: row[:2] for name, row in rows(proc.stdout).items()} == WANT, proc.stdout


def test_wrong_build_refused(gen, elf_sha1, elf_sha1_other, tmp_path):
    """A recording against another build's ELF: refused, naming both build-ids"""
    path, _ = write(gen, elf_sha1, tmp_path, 'file', elf_sha1.build_id)
    proc = run_tool(tmp_path, path, elf_sha1.symfs, path, elf_sha1_other.symfs)
    one_line_error(proc, elf_sha1.build_id.hex(), elf_sha1_other.build_id.hex(), 'new:')
    proc = run_tool(tmp_path, path, elf_sha1.symfs, path, elf_sha1.symfs)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize('name, folded', [
    ('crc32_no_comp', 'crc32_no_comp'),
    ('fs_read_lmb_check.isra.0', 'fs_read_lmb_check'),
    ('foo.part.3.cold', 'foo'),
    ('foo.constprop.0.isra.0', 'foo'),
    ('foo.cold', 'foo'),
    ('foo.lto_priv.0', 'foo'),
    ('foo.localalias', 'foo'),
    ('foo.partial', 'foo.partial'),
    ('part.1', 'part.1'),
])
def test_fold(name, folded):
    """Clone suffixes fold, and only they"""
    assert perfrec_diff.fold(name) == folded
