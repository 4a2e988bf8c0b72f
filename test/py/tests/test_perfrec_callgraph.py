# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of call graphs (perfrec record -g) against workloads with known call paths

"""perfrec_test (CONFIG_CMD_PERFREC_TEST) runs nested calls of a known depth
and a loop with garbage in x29/x30. Every sample's chain is symbolised with
the ELF's symbol table and checked against the path the code really takes:
no frame duplicated, none skipped, whatever instruction the sample hit.
"""

import bisect
import json
import os
import re
import subprocess

import pytest

from perfrec_data import PerfData
from perfrec_helpers import (BUF, BUF_SIZE, CRC_AT, bdinfo, fetch, icount, perf, record_grown,
                             registers, symbols)

CONTEXT_USER = 0xfffffffffffffe00
# The offline flame graph maker (perf's flamegraph.py with d3-flame-graph's
# template); its npm packages stay in the project (PERFREC_NPM_DIR)
FLAMEGRAPH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), 'tools', 'perfrec', 'perfrec_flamegraph.py')


# A callable: __call__ is all it offers
class Symboliser:  # pylint: disable=too-few-public-methods
    """Run-time address -> function name, from the u-boot ELF"""

    def __init__(self, cons):
        self.reloc = bdinfo(cons, 'reloc off')
        # Of several names at one address, the one perf shows: fewer leading
        # underscores, else the longer name (perf's choose_best_symbol())
        best = {}
        for name, (start, end) in symbols(cons).items():
            if end <= start:
                continue
            rank = (-(len(name) - len(name.lstrip('_'))), len(name), name)
            if start not in best or rank > best[start][0]:
                best[start] = (rank, end, name)
        syms = sorted((start, end, name) for start, (_, end, name) in best.items())
        self.starts = [s[0] for s in syms]
        self.syms = syms

    def __call__(self, addr):
        link = addr - self.reloc
        idx = bisect.bisect_right(self.starts, link) - 1
        if idx >= 0 and link < self.syms[idx][1]:
            return self.syms[idx][2]
        return None


def chains(pdata, sym):
    """Each sample's call chain as function names, innermost first"""
    out = []
    for sample in pdata.samples:
        ips = sample.callchain
        assert ips and ips[0] == CONTEXT_USER and ips[1] == sample.ip, ips
        out.append([sym(ip) for ip in ips[1:]])
    return out


def workload_scale(cons):
    """(period, loop multiplier): without icount QEMU runs the loops in real
    time, so they must run longer to gather samples, and a coarser period
    keeps the interrupts from crowding them out on a loaded host. How many
    samples they then give depends on the host: record_grown() doubles the
    loops until there are enough."""
    return (7919, 1) if icount(cons) else (49999, 100)


def record_chain(cons, depth=3):
    """Record -g over perfrec_test chain @depth, with more than 100 samples;
    return the summary"""
    period, scale = workload_scale(cons)
    return record_grown(cons, f'-g -c {period} -o {BUF:#x} -s {BUF_SIZE:#x}',
                        f'perfrec_test chain {depth} %d', 200000 * scale, least=100)


def expected_path(func, depth):
    """The call path from perfrec_test's command handler down to @func"""
    levels = [f'perfrec_test_chain{n}' for n in range(1, depth + 1)]
    if func == 'perfrec_test_spin':
        path = levels + [func]
    else:
        path = levels[:levels.index(func) + 1]
    return list(reversed(['do_perfrec_test_chain'] + path))


# Many locals: one scenario reads more clearly in one function than split up
@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.buildconfigspec('perfrec_callchain')
@pytest.mark.requiredtool('perf')
@pytest.mark.parametrize('depth', [1, 5, 8])
def test_perfrec_callgraph_known_paths(ubman, tmp_path, depth):  # pylint: disable=too-many-locals
    """Every sample in the nested calls carries exactly the path it was on"""
    cons = ubman
    before = registers(cons)
    res = record_chain(cons, depth)
    assert registers(cons) == before
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    assert len(pdata.samples) == res['samples'] > 100
    assert all(a.sample_type & (1 << 5) for a in pdata.attrs)       # PERF_SAMPLE_CALLCHAIN
    sym = Symboliser(cons)
    checked = 0
    for names in chains(pdata, sym):
        assert None not in names, names
        if not names[0].startswith('perfrec_test_'):
            continue
        want = expected_path(names[0], depth)
        assert names[:len(want)] == want, (names, want)
        # And on up through the shell to U-Boot's main loop, each caller once
        assert 'do_perfrec_record' in names and names[-1] == '_main', names
        checked += 1
    # Without icount a loaded host lets more samples land outside the workload
    assert checked > (0.9 if icount(cons) else 0.5) * len(pdata.samples)

    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--no-children', '-g', 'caller'])
    leaf = 'perfrec_test_spin'
    assert re.search(rf'\[\.\] {leaf}', report), report
    order = [line.strip() for line in report.splitlines()
             if re.match(r'^\s+(---)?\w+$', line)]
    want = ['do_perfrec_test_chain'] + [f'perfrec_test_chain{n}'
                                        for n in range(1, depth + 1)] + [leaf]
    joined = ' '.join(name.lstrip('-') for name in order)
    assert ' '.join(want) in joined, report


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.buildconfigspec('perfrec_callchain')
def test_perfrec_callgraph_trashed_frame_pointer(ubman, tmp_path):
    """Garbage in x29 and x30 ends the chain at the PC, and never faults"""
    cons = ubman
    before = registers(cons)
    period, scale = workload_scale(cons)

    def done(res):
        assert 'trash: done' in res['out'] and res['rc'] == 0, res['out']
    record_grown(cons, f'-g -c {period} -o {BUF:#x} -s {BUF_SIZE:#x}',
                 'perfrec_test trash %d', 400000 * scale, least=50, check=done)
    assert registers(cons) == before
    _, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    sym = Symboliser(cons)
    inside = [names for names in chains(pdata, sym) if names[0] == 'perfrec_test_trash']
    assert len(inside) > (0.8 if icount(cons) else 0.5) * len(pdata.samples)
    # The loop runs with garbage in both: nothing beyond the PC can be trusted
    assert sum(1 for names in inside if len(names) == 1) > 0.9 * len(inside)
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_callgraph_flat_unchanged(ubman, tmp_path):
    """Without -g samples stay 48 bytes and carry no chain"""
    cons = ubman
    record_grown(cons, f'-c 20000 -o {BUF:#x} -s {BUF_SIZE:#x}', CRC_AT, 0x100000)
    _, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    assert pdata.samples and all(s.callchain is None for s in pdata.samples)
    assert all(r.size == 48 for r in pdata.records if r.type == 9)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.buildconfigspec('perfrec_callchain')
def test_perfrec_callgraph_prologues(ubman, tmp_path):
    """Samples in prologues and epilogues get the same exact paths (the LR rule)"""
    cons = ubman
    period, scale = workload_scale(cons)
    # Jitter spreads the samples over every instruction: a fixed period under
    # icount would hit the same few PCs of the loop, whichever they are, and
    # a short one hits more of them. Without icount interrupts come at
    # translation-block starts whatever the period, and a few microseconds
    # of the host's time are less than one handler takes on a loaded host:
    # the next overflow is then pending when the handler returns and is
    # taken at the same PC, over and over, wherever the recording is
    if icount(cons):
        period //= 8
    record_grown(cons, f'-g -j 20 -c {period} -o {BUF:#x} -s {BUF_SIZE:#x}',
                 'perfrec_test calls %d', 30000 * scale, least=50)
    _, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    sym = Symboliser(cons)
    leaf_start = symbols(cons)['perfrec_test_leaf'][0] + sym.reloc
    edges = 0
    checked = 0
    for sample, names in zip(pdata.samples, chains(pdata, sym)):
        if names[0] == 'perfrec_test_leaf':
            want = ['perfrec_test_leaf', 'perfrec_test_caller', 'do_perfrec_test_calls']
            # Entry (before x29 is set) and exit (after it is restored)
            edges += sample.ip - leaf_start in (0, 4, 0x10, 0x14)
        elif names[0] == 'perfrec_test_caller':
            want = ['perfrec_test_caller', 'do_perfrec_test_calls']
        else:
            continue
        assert names[:len(want)] == want, (hex(sample.ip), names)
        assert names.count(names[1]) == 1 or names[1] == names[2] is None, names
        checked += 1
    # The loop is nearly all the workload's time: most samples are checked
    assert checked > 0.5 * len(pdata.samples), (checked, len(pdata.samples))
    # Without icount QEMU takes interrupts at translation-block starts only:
    # whether a sample lands in an epilogue is then luck
    if icount(cons):
        assert edges > 20


def flame_stacks(html_path):
    """perf's stacks in a flame graph page: {name: (self samples, children)} from 'all'"""
    with open(html_path, encoding='utf-8') as inf:
        text = inf.read()
    match = re.search(r'const stacks = \[(.*?)\];\s*const options', text, re.S)
    assert match, html_path

    def tree(node):
        return node['n'], (node['v'], dict(tree(child) for child in node['c']))
    return dict([tree(json.loads(match.group(1)))])


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.buildconfigspec('perfrec_callchain')
@pytest.mark.requiredtool('perf')
@pytest.mark.requiredtool('node')
def test_perfrec_callgraph_flamegraph(ubman, tmp_path):
    """A -g recording makes a flame graph with the workload's call path on top"""
    cons = ubman
    record_chain(cons)
    path, data = fetch(cons, tmp_path)
    total = len(PerfData(data).samples)
    html_path = str(tmp_path / 'flame.html')
    proc = subprocess.run(['/usr/bin/python3', FLAMEGRAPH, '-i', path, '--symfs',
                           cons.config.build_dir, '-o', html_path, '--browser'],
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=str(tmp_path)))
    assert proc.returncode == 0 and proc.stderr == '', proc.stderr
    drawn = proc.stdout.splitlines()[1:]
    assert 'perfrec_test_spin' in drawn and 'do_perfrec_test_chain' in drawn, proc.stdout

    # Down from the root: the shell, then the workload's levels, each once
    node = flame_stacks(html_path)['all']
    assert sum(child[0] for child in node[1].values()) == 0
    node = node[1]['u-boot (1)']
    levels = ['do_perfrec_test_chain', 'perfrec_test_chain1', 'perfrec_test_chain2',
              'perfrec_test_chain3', 'perfrec_test_spin']

    def find(node, name):
        hits = [node[1][name]] if name in node[1] else []
        for child in node[1].values():
            hits += find(child, name)
        return hits
    # The command's frame that the workload's levels are under (without
    # icount a sample in its prologue may hang it under another path too)
    hits = find(node, levels[0])
    assert hits, 'do_perfrec_test_chain not in the graph'
    node = max(hits, key=lambda hit: levels[1] in hit[1])
    # The command also prints its result: below it, only the levels
    assert levels[1] in node[1], [list(hit[1]) for hit in hits]
    node = node[1][levels[1]]
    for name in levels[2:]:
        assert list(node[1]) == [name], (name, list(node[1]))
        node = node[1][name]
    assert node[0] > (0.9 if icount(cons) else 0.5) * total, (node[0], total)
