# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of 'perfrec report' (the board's own top list) and of the build-id

"""'perfrec report' names the hottest functions with U-Boot's embedded
symbol table; its figures must be the ones host perf gives for the same
perf.data. The build-id in perf.data must be the ELF's, so that perf finds
the ELF through its build-id cache, and refuses one from another build.
"""

import os
import re
import shutil
import subprocess

import pytest

from perfrec_data import PerfData
from perfrec_helpers import BUF, BUF_SIZE, fetch, icount, perf, record, record_grown, run_rc
from test_perfrec_callgraph import Symboliser, chains, record_chain, workload_scale

ROW = re.compile(r'^\s+(\d+)\.(\d\d)%\s+(\d+)\s+(\S+)\s*$', re.M)
PATH_ROW = re.compile(r'^\s+(\d+)\.(\d\d)% (\S.*?)\s*$', re.M)


def board_report(cons, args=''):
    """Run 'perfrec report'; return ({event: [(hundredths %, samples, name)]}, output)"""
    out, ret = run_rc(cons, f'perfrec report {args}')
    assert ret == 0, out
    tables = {}
    for block in re.split(r'^perfrec report: ', out, flags=re.M)[1:]:
        event = re.match(r'\d+ samples of (\S+),', block).group(1)
        head = block.split('Call paths')[0]
        tables[event] = [(int(m.group(1)) * 100 + int(m.group(2)), int(m.group(3)),
                          m.group(4)) for m in ROW.finditer(head)]
    return tables, out


def perf_report(cons, tmp_path, path):
    """{event: {symbol: (hundredths %, samples)}} from host perf's report"""
    out = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                          '--stdio', '--no-children', '--sort', 'sym',
                          '-F', 'overhead,sample,sym', '--percent-limit', '0'])
    tables = {}
    for block in re.split(r"^# Samples: \S+\s+of event '", out, flags=re.M)[1:]:
        rows = {}
        for match in re.finditer(r'^\s+([\d.]+)%\s+(\d+)\s+\[.\] (\S+)', block, re.M):
            rows[match.group(3)] = (round(float(match.group(1)) * 100), int(match.group(2)))
        tables[block.split("'")[0]] = rows
    assert tables and all(tables.values()), out
    return tables


def build_id(elf):
    """The GNU build-id of @elf, as hex, from readelf -n"""
    out = subprocess.run(['aarch64-linux-gnu-readelf', '-n', elf], capture_output=True,
                         text=True, check=True).stdout
    return re.search(r'Build ID: ([0-9a-f]+)', out).group(1)


# Many locals: one scenario reads more clearly in one function than split up
@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_report')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.requiredtool('perf')
def test_perfrec_report_matches_perf(ubman, tmp_path):  # pylint: disable=too-many-locals
    """The board's top list is host perf's: same names, samples and shares"""
    cons = ubman
    period, scale = workload_scale(cons)
    # QEMU counts instructions only under icount; CPU_CYCLES (r11) always
    second = 'instructions' if icount(cons) else 'r11'
    record_grown(cons, f'-e cycles,{second} -c {period // 4} -o {BUF:#x} -s {BUF_SIZE:#x}',
                 'perfrec_test calls %d', 30000 * scale, least=40)
    tables, out = board_report(cons, '-n 4')
    assert set(tables) == {'cycles', second}, out
    assert 'Call paths' not in out, out
    path, _ = fetch(cons, tmp_path)
    hosts = perf_report(cons, tmp_path, path)
    assert set(hosts) == set(tables), hosts
    for event, rows in tables.items():
        assert 1 <= len(rows) <= 4, out
        if icount(cons):
            # Without icount QEMU samples only translation-block starts
            assert 'perfrec_test_leaf' in [r[2] for r in rows], out
        host = hosts[event]
        host_order = [name for name, _ in sorted(host.items(), key=lambda item: -item[1][0])]
        for (share, samples, name), want in zip(rows, host_order):
            assert name == want or host[name][0] == host[want][0], (rows, host)
            # perf rounds to 0.01%, the board truncates
            assert host[name][1] == samples, (name, rows, host)
            assert 0 <= host[name][0] - share <= 1, (name, rows, host)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_report')
@pytest.mark.buildconfigspec('perfrec_callchain')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_report_call_paths(ubman, tmp_path):
    """With -g the report's call paths are the samples' chains, counted"""
    cons = ubman
    record_chain(cons)
    _, out = board_report(cons, '-n 3')
    paths = [(int(m.group(1)) * 100 + int(m.group(2)), m.group(3).split(' <- '))
             for m in PATH_ROW.finditer(out.split('Call paths')[1])]
    assert 1 <= len(paths) <= 3, out
    _, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    sym = Symboliser(cons)
    # The board names a return address by its call: so does the host here
    named = [[names[0]] + [sym(ip - 4) for ip in sample.callchain[2:]]
             for sample, names in zip(pdata.samples, chains(pdata, sym))]
    counts = {}
    for names in named:
        key = tuple(n or '[unknown]' for n in names[:8])
        while len(key) > 1 and key[-1] == '[unknown]':
            key = key[:-1]
        counts[key] = counts.get(key, 0) + 1
    total = len(pdata.samples)
    for share, names in paths:
        assert share == counts[tuple(names)] * 10000 // total, (names, out)
    assert max(counts.values()) * 10000 // total == paths[0][0], (counts, out)
    want = ['perfrec_test_spin', 'perfrec_test_chain3', 'perfrec_test_chain2',
            'perfrec_test_chain1', 'do_perfrec_test_chain']
    assert paths[0][1][:5] == want, out


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_report')
def test_perfrec_report_bad_input(ubman):
    """Bad counts get one line naming the value; no recording is refused too"""
    cons = ubman
    for bad in ('0', 'ten', '1001', '-3', ''):
        out, ret = run_rc(cons, f'perfrec report -n {bad}' if bad else 'perfrec report -n')
        assert ret == 1, out
        if bad:
            assert f"Invalid count '{bad}'" in out, out
    out, ret = run_rc(cons, 'perfrec stat -e cycles -- echo x')
    assert ret == 0, out
    out, ret = run_rc(cons, 'perfrec report')
    assert ret == 1 and 'No finished recording to report' in out, out
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_build_id')
@pytest.mark.requiredtool('perf')
def test_perfrec_build_id(ubman, tmp_path):
    """perf.data carries the ELF's build-id; perf finds the ELF by it"""
    cons = ubman
    elf = os.path.join(cons.config.build_dir, 'u-boot')
    want = build_id(elf)
    assert len(want) == 40
    record(cons, f'-c 20000 -o {BUF:#x} -s {BUF_SIZE:#x}', 'crc32 0x40000000 0x100000')
    path, _ = fetch(cons, tmp_path)
    listed = perf(tmp_path, ['buildid-list', '-i', path])
    assert listed.split() == [want, '/u-boot'], listed

    # Through the build-id cache: no --symfs, and the names are right
    perf(tmp_path, ['buildid-cache', '--add', elf])
    report = perf(tmp_path, ['report', '-i', path, '--stdio', '--sort', 'sym'])
    assert re.search(r'\[\.\] crc32_no_comp', report), report

    # An ELF of another build (its build-id differs) is not used to name samples
    other = tmp_path / 'other'
    other.mkdir()
    with open(elf, 'rb') as inf:
        image = inf.read()
    assert image.count(bytes.fromhex(want)) == 1
    flipped = bytes.fromhex(want)[:-1] + bytes([bytes.fromhex(want)[-1] ^ 1])
    (other / 'u-boot').write_bytes(image.replace(bytes.fromhex(want), flipped))
    home = tmp_path / 'home'
    shutil.rmtree(home / '.debug')
    proc = subprocess.run(['perf', 'report', '-i', path, '--symfs=' + str(other), '--stdio',
                           '--sort', 'sym', '-v'], capture_output=True, text=True,
                          env=dict(os.environ, HOME=str(home), PAGER='cat'), check=False)
    assert proc.returncode == 0, proc.stderr
    assert 'crc32_no_comp' not in proc.stdout, proc.stdout
    assert 'build id mismatch' in proc.stderr, proc.stderr
