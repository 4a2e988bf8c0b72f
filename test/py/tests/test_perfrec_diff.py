# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of perfrec_diff.py on recordings of the board under test, and its CI gate

"""tools/perfrec/perfrec_diff.py compares two recordings function by
function, in events. Here both are recorded in the same run, on the board
under test: no binary baseline is kept in the tree (it would go stale at
every relink). Under -icount shift=0 the board counts exactly, so the tool's
deltas are checked against what 'perfrec stat' counts: a workload with one
knob ('perfrec_test knob') must show the knob's extra instructions in the
knob's function and nowhere else, two runs of one flow must pass a 1% gate,
and a 2% regression planted in a boot flow must fail it, naming the function
that grew. Without icount QEMU's cycles follow the host's clock, so there
only what holds at any host speed is checked: the tool reads both and
matches the functions.

test_perfrec_diff_gate is also the example of a gate a board's CI would run:
record a baseline and a variant, then perfrec_diff.py --fail-above.
"""

import math
import os
import re
import subprocess
import sys

import pytest

from perfrec_helpers import BUF, BUF_SIZE, TIMEOUT_MS, fetch, icount, perf, record, stat

TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), 'tools', 'perfrec')
DIFF = os.path.join(TOOLS, 'perfrec_diff.py')
sys.path.insert(0, TOOLS)
# pylint: disable=wrong-import-position
import perfrec_diff  # noqa: E402

# 'perfrec_test knob LOOPS EXTRA': the same number of digits in every run,
# so that parsing the command line costs the same
KNOB = 'perfrec_test knob 300000 %d'
KNOB_BASE, KNOB_NEW = 1000000, 2000000
# A verified-boot flow: CRC-32 and SHA-256 of an image in DRAM
FLOW = 'crc32 0x40000000 %#x; hash sha256 0x40000000 0x100000'
FLOW_LEN = 0x100000
FLOW_VAR = 'perfrec_flow'
# The planted regression and the gate that must catch it (percent of the base total)
PLANTED = 2.0
GATE = 1.0


def period(cons):
    """The cycles period: exact under icount; coarse without it, as on a loaded host"""
    return 10000 if icount(cons) else 49999


def record_to(cons, tmp_path, workload, name, extra=''):
    """Record @workload's cycles with a fixed period; return (host path, summary)"""
    res = record(cons, f'-e cycles -c {period(cons)} {extra} -o {BUF:#x} -s {BUF_SIZE:#x}',
                 workload)
    assert res['samples'] and not res['lost'], res['out']
    path, _ = fetch(cons, tmp_path, name)
    return path, res


def diff(cons, tmp_path, base, new, *args):
    """Run perfrec_diff.py on two recordings of this build; return the CompletedProcess"""
    home = os.path.join(str(tmp_path), 'home')
    os.makedirs(home, exist_ok=True)
    build = cons.config.build_dir
    return subprocess.run(['/usr/bin/python3', DIFF, base, build, new, build] + list(args),
                          capture_output=True, text=True, check=False,
                          env=dict(os.environ, HOME=home, PAGER='cat'))


def table(proc):
    """({function: (base, new, delta, percent, mark)}, (base total, new total)) of cycles"""
    assert proc.returncode in (0, 1), proc.stderr
    report = perfrec_diff.read_report(proc.stdout)
    assert list(report) == ['cycles'] and report['cycles'][0], proc.stdout
    return report['cycles']


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.requiredtool('perf')
def test_perfrec_diff_knob(ubman, tmp_path):  # pylint: disable=too-many-locals
    """One function's work grown by a known count: the delta is there, and only there"""
    cons = ubman
    # Without icount: more work, for samples at any host speed
    scale = 1 if icount(cons) else 25
    with cons.temporary_timeout(TIMEOUT_MS):
        base, brec = record_to(cons, tmp_path, KNOB % (KNOB_BASE * scale), 'base.data')
        new, nrec = record_to(cons, tmp_path, KNOB % (KNOB_NEW * scale), 'new.data')
    proc = diff(cons, tmp_path, base, new, '-n', '0')
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    rows, (total_b, total_n) = table(proc)
    assert sum(row[0] for row in rows.values()) == total_b, proc.stdout
    assert sum(row[1] for row in rows.values()) == total_n, proc.stdout
    assert rows['perfrec_test_knob'][1] > 0, proc.stdout
    if not icount(cons):
        return
    for name in ('perfrec_test_knob', 'perfrec_test_spin'):
        assert rows[name][0] and rows[name][1], proc.stdout
    per = period(cons)
    # Each run's events are its samples times the period
    assert (total_b, total_n) == (brec['samples'] * per, nrec['samples'] * per), proc.stdout
    # The knob's extra work, counted without sampling
    counts = [stat(cons, '-e cycles', KNOB % extra)[0]['cycles']
              for extra in (KNOB_BASE, KNOB_NEW)]
    extra = counts[1] - counts[0]
    assert extra > 0
    # The cycles counter counts perfrec's handler too: each sample costs the
    # interrupted code @cost more events (test_perfrec_bench-like difference)
    cost = (total_b - counts[0]) / brec['samples']
    assert 0 < cost < per, (total_b, counts)
    want = extra + cost * (nrec['samples'] - brec['samples'])
    knob = rows.pop('perfrec_test_knob')
    # One period for each end of the knob's stretch in each recording
    assert abs(knob[2] - want) <= 2 * per, (knob, want, proc.stdout)
    # Everything before the knob ran the same instructions: the same samples
    assert abs(rows['perfrec_test_spin'][2]) <= per, proc.stdout
    # After it, the samples fall at other instructions: a period at each boundary
    assert all(abs(row[2]) <= 2 * per for row in rows.values()), proc.stdout
    assert sum(abs(row[2]) for row in rows.values()) <= 4 * per, proc.stdout


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_hash')
@pytest.mark.requiredtool('perf')
def test_perfrec_diff_gate(ubman, tmp_path):  # pylint: disable=too-many-locals
    """The CI gate: two runs of a boot flow pass 1%; a planted 2% regression fails it"""
    cons = ubman
    cons.run_command(f"setenv {FLOW_VAR} '{FLOW % FLOW_LEN}'")
    with cons.temporary_timeout(TIMEOUT_MS):
        base, _ = record_to(cons, tmp_path, f'run {FLOW_VAR}', 'base.data')
        again, _ = record_to(cons, tmp_path, f'run {FLOW_VAR}', 'again.data')
    same = diff(cons, tmp_path, base, again, '--fail-above', str(GATE))
    rows, (total_b, _) = table(same)
    assert 'crc32_no_comp' in rows, same.stdout
    if not icount(cons):
        assert same.returncode in (0, 1), same.stderr
        return
    assert same.returncode == 0, same.stdout + same.stderr
    assert max(abs(row[3]) for row in rows.values()) < GATE, same.stdout

    # Plant the regression: CRC-32 over more bytes, PLANTED percent of the
    # base total more cycles (its per-byte cost counted by 'perfrec stat')
    counts = [stat(cons, '-e cycles', f'crc32 0x40000000 {size:#x}')[0]['cycles']
              for size in (FLOW_LEN, 2 * FLOW_LEN)]
    per_byte = (counts[1] - counts[0]) / FLOW_LEN
    more = math.ceil(PLANTED / 100 * total_b / per_byte / 64) * 64
    cons.run_command(f"setenv {FLOW_VAR} '{FLOW % (FLOW_LEN + more)}'")
    with cons.temporary_timeout(TIMEOUT_MS):
        slower, _ = record_to(cons, tmp_path, f'run {FLOW_VAR}', 'slower.data')

    caught = diff(cons, tmp_path, base, slower, '--fail-above', str(GATE))
    assert caught.returncode == 1, caught.stdout + caught.stderr
    failed = re.findall(r'^perfrec_diff: FAIL: (\S+) grew by (\d+) cycles events, '
                        r'\+([\d.]+)% of the base total \(limit 1%\)$', caught.stderr, re.M)
    assert [name for name, _, _ in failed] == ['crc32_no_comp'], caught.stderr
    rows, _ = table(caught)
    crc = rows['crc32_no_comp']
    # The planted work, plus the handler's share of each extra period, less
    # a period at each end of the stretch in each recording
    slack = 100 * 2 * period(cons) / total_b
    assert PLANTED - slack <= crc[3] < PLANTED + 0.5, caught.stdout
    for args, code in ((['--fail-above', str(PLANTED + 1)], 0),
                       (['--fail-function', f'crc32_no_comp:{PLANTED - 0.5}'], 1),
                       (['--fail-function', f'crc32_no_comp:{PLANTED + 1}'], 0)):
        assert diff(cons, tmp_path, base, slower, *args).returncode == code, args
    cons.run_command(f'setenv {FLOW_VAR}')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.requiredtool('perf')
def test_perfrec_diff_frequency(ubman, tmp_path):
    """With -F the events are the periods perfrec recorded, as perf script reads them"""
    cons = ubman
    args = f'-F 20000 -o {BUF:#x} -s {BUF_SIZE:#x}'
    paths = []
    with cons.temporary_timeout(TIMEOUT_MS):
        for name, extra in (('base.data', KNOB_BASE), ('new.data', KNOB_NEW)):
            res = record(cons, args, KNOB % (extra * (1 if icount(cons) else 25)))
            assert res['samples'] and not res['lost'], res['out']
            paths.append(fetch(cons, tmp_path, name)[0])
    proc = diff(cons, tmp_path, *paths, '-n', '0')
    assert proc.returncode == 0, proc.stderr
    rows, totals = table(proc)
    for path, total, column in zip(paths, totals, (0, 1)):
        periods = [int(line) for line in perf(tmp_path, [
            'script', '-i', path, '--symfs=' + cons.config.build_dir, '-F', 'period']).split()]
        # An adaptive period: not every sample's is the same
        assert len(set(periods)) > 1 or len(periods) == 1, periods
        assert total == sum(periods), (total, sum(periods))
        assert sum(row[column] for row in rows.values()) == total
