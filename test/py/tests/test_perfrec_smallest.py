# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of the smallest useful perfrec build (bench/variants/smallest.config)

"""The smallest useful build: record, dump over the UART, flat samples,
cycles and cpu-clock, where U-Boot runs at EL2 with a GICv3. make check
builds it and runs these in two cells of its own (scripts/perfrec_run_tests.py,
--also-smallest): at EL2 with a GICv3 every test but the EL one, and at EL1
the EL one. Each part the build leaves out says in one line which option it
needs, with rc 1 and nothing armed.
"""

import re

import pytest

from perfrec_data import PerfData
from perfrec_helpers import (BUF, BUF_SIZE, GIC, cell_el, perf, record, registers, run_rc,
                             status, uart_data)

BUF_ARGS = f'-o {BUF:#x} -s {BUF_SIZE:#x}'
SHORT_CRC = 'crc32 0x40000000 0x100000'


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.notbuildconfigspec('perfrec_events')
@pytest.mark.requiredtool('perf')
def test_perfrec_smallest_record(ubman, tmp_path):
    """cycles and cpu-clock over crc32, off the board over the UART: every
    sample is there, registers are as they were, and perf names crc32's loop"""
    cons = ubman
    before = registers(cons)
    for args, event in (('', 'cycles'), ('-e cpu-clock', 'cpu-clock')):
        res = record(cons, f'{args} -F 4000 {BUF_ARGS}', 'crc32 0x40000000 0x1000000')
        assert res['rc'] == 0 and res['lost'] == 0 and res['samples'] > 20, res['out']
        assert 'instead' not in res['out'], res['out']
        assert registers(cons) == before
        path, data = uart_data(cons, tmp_path, f'{event}.data')
        pdata = PerfData(data)
        assert len(pdata.samples) == res['samples']
        assert [name for _, name, _ in pdata.event_desc] == [event]
        assert all(not s.callchain for s in pdata.samples)
        report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                                 '--stdio', '--sort', 'symbol'])
        top = [line for line in report.splitlines() if line.strip() and
               not line.startswith('#')][0]
        assert 'crc32_no_comp' in top, report


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.notbuildconfigspec('perfrec_events')
def test_perfrec_smallest_left_out(ubman):
    """What the build leaves out: one line naming its option, rc 1, nothing
    armed, registers untouched; the help does not offer it"""
    cons = ubman
    before = registers(cons)
    for cmd, why in (
            ('perfrec stat -- ' + SHORT_CRC, 'perfrec stat needs CONFIG_PERFREC_STAT'),
            ('perfrec list', 'perfrec list needs CONFIG_PERFREC_EVENTS'),
            ('perfrec report', 'perfrec report needs CONFIG_PERFREC_REPORT'),
            ('perfrec dump -i', 'perfrec dump -i needs CONFIG_PERFREC_DUMP_STREAM'),
            (f'perfrec record -g {BUF_ARGS} -- {SHORT_CRC}',
             'Call graphs (-g) need CONFIG_PERFREC_CALLCHAIN'),
            (f'perfrec record -e instructions {BUF_ARGS} -- {SHORT_CRC}',
             "Event 'instructions' needs CONFIG_PERFREC_EVENTS"),
            (f'perfrec record -e r11 {BUF_ARGS} -- {SHORT_CRC}',
             "Event 'r11' needs CONFIG_PERFREC_EVENTS"),
            (f'perfrec start -S 11520 {BUF_ARGS}', 'Streaming (-S) needs CONFIG_PERFREC_STREAM')):
        out, ret = run_rc(cons, cmd)
        assert ret == 1 and why in out, (cmd, out)
        assert 'crc32 for' not in out, out
        assert status(cons)[0] != 'recording'
    assert registers(cons) == before
    out = cons.run_command('help perfrec')
    assert 'perfrec record [-e <events>] [-c <period> | -F <hz>] [-j <pct>]' in out, out
    for offered in ('-g', 'perfrec stat [', 'perfrec list', 'perfrec report', '-S', '[-i]',
                    '[-z]'):
        assert offered not in out, (offered, out)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.notbuildconfigspec('perfrec_gicv2')
def test_perfrec_smallest_gicv2_left_out(ubman):
    """A GICv2 in the device tree (its compatible, set at the prompt): the
    PMU's and the timer's interrupt are refused, each in one line naming
    CONFIG_PERFREC_GICV2; nothing armed, registers untouched"""
    cons = ubman
    before = registers(cons)
    cons.run_command('fdt addr $fdtcontroladdr')
    compat = cons.run_command(f'fdt get value compat {GIC} compatible; echo $compat').strip()
    try:
        cons.run_command(f'fdt set {GIC} compatible arm,pl390')
        out, ret = run_rc(cons, f'perfrec record {BUF_ARGS} -- {SHORT_CRC}')
        why = (r'/%s: its interrupt parent ' + re.escape(GIC) +
               r' \(compatible "arm,pl390"\) needs CONFIG_PERFREC_GICV2, which this build '
               r'leaves out')
        assert ret == 1, out
        assert re.search(r'^perfrec: ' + why % 'pmu' + r'; sampling cpu-clock at 4000 Hz '
                         r'instead\s*$', out, re.M), out
        assert re.search(r'^perfrec: cpu-clock cannot sample: ' + why % 'timer' + r'\s*$',
                         out, re.M), out
        assert 'crc32 for' not in out, out
        assert status(cons)[0] != 'recording'
    finally:
        cons.run_command(f'fdt set {GIC} compatible {compat}')
    assert registers(cons) == before
    record(cons, f'-F 4000 {BUF_ARGS}', SHORT_CRC)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.notbuildconfigspec('perfrec_el1')
def test_perfrec_smallest_el_left_out(ubman):
    """U-Boot at an EL the build leaves out (EL1 here): every arming is
    refused in one line naming its option, no register of that EL is read
    (status -v shows none), and U-Boot goes on"""
    cons = ubman
    level = cell_el()
    assert level != 2, 'run this in a cell at EL1 or EL3'
    why = f"U-Boot runs at EL{level}, which this build leaves out (CONFIG_PERFREC_EL{level})"
    for cmd in (f'perfrec record {BUF_ARGS} -- {SHORT_CRC}',
                f'perfrec record -e cpu-clock {BUF_ARGS} -- {SHORT_CRC}',
                f'perfrec start {BUF_ARGS}'):
        out, ret = run_rc(cons, cmd)
        assert ret == 1 and why in out, (cmd, out)
        assert 'crc32 for' not in out and 'instead' not in out, out
        assert status(cons)[0] != 'recording'
    out = cons.run_command('perfrec status -v')
    assert 'reg ' not in out, out
    out, ret = run_rc(cons, SHORT_CRC)
    assert ret == 0 and 'crc32 for' in out, out
