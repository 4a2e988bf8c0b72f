# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Reliability: sampling never changes what the workload computes or what U-Boot is left with

"""The workload's results and registers must be the same with and without
sampling at the highest rate; every register perfrec borrows must be as
before after long runs of recordings with mixed options and failures; a
Ctrl-C ends the recording cleanly; a crash in the workload still gets
U-Boot's own crash dump through perfrec's vectors.

PERFREC_SOAK_RUNS (default 52, every kind of session four times; 'make
soak' gives 1000) sets how many back-to-back sessions the state test runs.
"""

import os
import re
import time

import pytest

from perfrec_data import PerfData
from perfrec_helpers import (BUF, BUF_SIZE, CRC, fetch, icount, perf, record, record_grown,
                             registers, run_rc, status)

BIG = 0x1000000         # 16 MiB: the most a workload below is given
ENOUGH = 2000           # samples each workload must take at the highest rate
SOAK_RUNS = int(os.environ.get('PERFREC_SOAK_RUNS', '52'))
# The highest rate, with and without call graphs, and on the timer
SAMPLING = ['-F 100000', '-g -F 100000', '-e cpu-clock -F 100000']


def workload_output(out):
    """What the workload printed: the output without perfrec's own lines"""
    return [line for line in out.splitlines()
            if line.strip() and not line.startswith(('perfrec:', 'rc:'))]


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
@pytest.mark.parametrize('opts', SAMPLING + ['-c 5000'])
def test_perfrec_registers_kept(ubman, opts):
    """Every general and SIMD register keeps its value through thousands of samples"""
    cons = ubman
    if 'cpu-clock' in opts:
        loops = 3000000
    else:
        loops = 3000000 if icount(cons) else 30000000

    def kept(res):
        assert 'regs: all 59 registers kept' in res['out'], res['out']
        assert res['rc'] == 0, res
    res = record_grown(cons, f'{opts} -o {BUF:#x} -s {BUF_SIZE:#x}', 'perfrec_test regs %d',
                       loops, least=20, check=kept)
    assert res['rc'] == 0 and res['samples'] > 20, res


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.buildconfigspec('cmd_hash')
def test_perfrec_results_unchanged(ubman):
    """crc32, sha256 (SIMD; crypto extensions where the release uses them) and
    cmp: the same with sampling

    Each workload is sized for thousands of samples at the highest rate:
    from 1 MiB, four times as much until ENOUGH samples or 16 MiB. Their
    speed differs by release (2026.07's sha256 is mbedTLS's, 48 times
    slower than 2023.01's on the crypto extensions).
    """
    cons = ubman
    cons.run_command(f'cp.q 0x40000000 {0x40000000 + BIG // 2:#x} {BIG // 16:#x}')
    workloads = ['crc32 0x40000000 %#x', 'hash sha256 0x40000000 %#x',
                 f'cmp.q 0x40000000 {0x40000000 + BIG // 2:#x} %#x']
    buf = f'-o {BUF:#x} -s {BUF_SIZE:#x}'
    for workload in workloads:
        # cmp.q counts 8-byte words, in the 8 MiB copied above at most
        unit = 16 if workload.startswith('cmp.q') else 1
        size = BIG // 16
        while True:
            sized = record(cons, f'{SAMPLING[0]} {buf}', workload % (size // unit))
            if sized['samples'] >= ENOUGH or size >= BIG:
                break
            size *= 4
        workload %= size // unit
        with cons.temporary_timeout(300000):
            plain, ret = run_rc(cons, workload)
        assert ret == 0, plain
        for opts in SAMPLING:
            res = sized if opts == SAMPLING[0] else record(cons, f'{opts} {buf}', workload)
            assert workload_output(res['out']) == workload_output(plain), (opts, res['out'])
            assert res['rc'] == 0 and res['samples'] > 0


def soak_step(cons, i):
    """One session of the soak: options and outcomes taken in turn; return its
    command. One refused before it starts must leave the last recording's
    status as it was (rc 2 below: 1, and that check)"""
    buf = f'-o {BUF:#x} -s {BUF_SIZE:#x}'
    # More events than the PMU has counters: refused when counters are assigned
    many = ','.join(['cycles'] + ['r11'] * 7)
    steps = [
        (f'perfrec record -c 20000 {buf} -- crc32 0x40000000 0x10000', 0),
        (f'perfrec record -g -F 50000 {buf} -- crc32 0x40000000 0x10000', 0),
        (f'perfrec record -e cpu-clock -c 20000 {buf} -- crc32 0x40000000 0x10000', 0),
        (f'perfrec record -e cycles,r11 -c 30000 -j 10 {buf} -- crc32 0x40000000 0x10000', 0),
        ('perfrec stat -e cycles,r11 -w 1000 -- crc32 0x40000000 0x10000', 0),
        (f'perfrec record -c 20000 -o {BUF:#x} -s 0x800 -- crc32 0x40000000 0x10000', 0),
        (f'perfrec record -c 20000 {buf} -- false', 1),
        (f'perfrec record -c 0 {buf} -- true', 2),
        (f'perfrec record -e nosuch {buf} -- true', 2),
        ('perfrec stop', 2),
        (f'perfrec record -e {many} -c 20000 -o {BUF + BUF_SIZE:#x} -s 0x100000 -- true', 2),
        (f'perfrec start -c 20000 {buf}; crc32 0x40000000 0x10000; perfrec stop', 0),
        (f'perfrec record -c 20000 {buf} -- perfrec record -- true', 1),
    ]
    cmd, want = steps[i % len(steps)]
    last = cons.run_command('perfrec status') if want == 2 else None
    out, ret = run_rc(cons, cmd)
    assert ret == min(want, 1), (cmd, out)
    assert last is None or cons.run_command('perfrec status') == last, (cmd, out)
    return cmd


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_soak_state(ubman):
    """After each of many back-to-back sessions, every borrowed register is as before"""
    cons = ubman
    before = registers(cons)
    for i in range(SOAK_RUNS):
        cmd = soak_step(cons, i)
        assert registers(cons) == before, (i, cmd)
        assert status(cons)[0] != 'recording', (i, cmd)
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_ctrlc(ubman, tmp_path):
    """Ctrl-C during a long workload: the recording ends cleanly, its file complete"""
    cons = ubman
    before = registers(cons)
    cons.run_command(f'perfrec record -c 100000 -o {BUF:#x} -s {BUF_SIZE:#x} -- sleep 30; echo '
                     'rc:$?', wait_for_prompt=False)
    # Echoed, so running: half a second of it is at least a few samples of
    # 100000 cycles even on a host that runs QEMU at one instruction a µs
    time.sleep(0.5)
    out = cons.run_command(chr(3), wait_for_echo=False, send_nl=False)
    match = re.search(r'perfrec: (\d+) samples, 0 lost, \d+ bytes of perf.data at '
                      r'0x[0-9a-f]+, workload rc (\d+)', out)
    assert match and int(match.group(1)) > 0, out
    assert match.group(2) == '1' and 'rc:1' in out, out       # sleep was interrupted
    assert status(cons)[0] == 'finalised'
    assert registers(cons) == before
    path, data = fetch(cons, tmp_path)
    assert len(PerfData(data).samples) == int(match.group(1))
    perf(tmp_path, ['report', '-i', path, '--stdio'])


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_crash_dump(ubman):
    """A synchronous abort in the workload reaches U-Boot's own handler (its crash dump)"""
    cons = ubman
    try:
        with cons.disable_check('error_please_reset'):
            cons.run_command(f'perfrec record -c 100000 -o {BUF:#x} -s {BUF_SIZE:#x} -- md.l '
                             '0xffffff0000000000 1', wait_for_prompt=False)
            cons.wait_for('"Synchronous Abort" handler, esr')
            cons.wait_for('Resetting CPU')
    finally:
        cons.restart_uboot()
    assert status(cons)[0] == 'idle'
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_report')
def test_perfrec_buffer_written_over(ubman):
    """A buffer written over once its recording ended (zeroes: records of
    size 0 in the ring): 'perfrec report' says so in one line with rc 1,
    where its walk went round for ever; a 'perfrec start' session whose ring
    the shell zeroes stops, where the walk of its end did the same"""
    cons = ubman
    zero = f'mw.l {BUF + 0x8000:#x} 0 0x2000'
    res = record(cons, f'-F 20000 -o {BUF:#x} -s {BUF_SIZE:#x}')
    assert res['size'] > 0x10000, res['out']
    cons.run_command(zero)
    out, ret = run_rc(cons, 'perfrec report')
    assert ret == 1 and out.split('rc:')[0].strip() == (
        f"The recording at {BUF:#x} was written over: its records are not perfrec's (err=-74)"), out

    cons.run_command(f'perfrec start -F 20000 -o {BUF:#x} -s {BUF_SIZE:#x}')
    cons.run_command(CRC)
    cons.run_command(zero)
    out, ret = run_rc(cons, 'perfrec stop')
    assert ret == 0 and re.search(r'perfrec: \d+ samples', out), out
    assert status(cons)[0] == 'finalised'
    assert 'ok' in cons.run_command('echo ok')
