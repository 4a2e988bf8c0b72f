# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of 'perfrec record' and 'perfrec status' on QEMU virt, judged by the host's perf

"""perfrec tests: each recording is brought to the host over semihosting and
read by the real perf (and by perfrec_data.py for exact byte-level checks).

The QEMU matrix cell (EL, GIC, icount) comes from the board environment
(test/hooks/py/u_boot_boardenv_qemu_arm64.py). Under -icount shift=0 the
tests assert exact relations; without icount only the invariants that hold on
real hardware too.
"""

import re

import pytest

from perfrec_data import PerfData
from perfrec_helpers import (BUF, BUF_SIZE, CRC_AT, CRC_LEN, bdinfo, check_guards,
                             check_lost_file, events, fetch, gic_distributor, guard_buffer,
                             icount, image_offset, perf, record, record_grown, registers,
                             run_rc, status, symbols)


@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_help(ubman):
    """'help perfrec' documents every subcommand and option"""
    cons = ubman
    out = cons.run_command('help perfrec')
    assert 'perfrec record [-e <events>] [-c <period> | -F <hz>] [-g] [-j <pct>] [-o <addr>]' in out
    assert "perfrec start [record's options] [-S <bytes/s> [-z]]" in out
    assert 'perfrec stop' in out and 'perfrec dump [-z] [-i] [-H <hostfile>]' in out
    assert 'perfrec stat [-e <events>] [-w <events>]' in out
    assert 'perfrec list [-a]' in out
    assert 'perfrec status [-v]' in out


# Many locals: one scenario reads more clearly in one function than split up
@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_record_crc32(ubman, tmp_path):  # pylint: disable=too-many-locals
    """The user story: record crc32 at 4 kHz, and perf names its inner loop on top"""
    cons = ubman
    res = record_grown(cons, f'-F 4000 -o {BUF:#x} -s {BUF_SIZE:#x}', CRC_AT, CRC_LEN,
                       least=100, tries=4)
    assert res['rc'] == 0 and res['lost'] == 0 and res['samples'] > 100
    assert res['addr'] == BUF
    assert int(cons.run_command('printenv fileaddr').split('=')[1], 16) == BUF
    path, data = fetch(cons, tmp_path)
    assert len(data) == res['size']

    pdata = PerfData(data)
    assert len(pdata.samples) == res['samples']
    assert pdata.arch == 'aarch64'
    assert [c.comm for c in pdata.comms] == ['u-boot']

    # The MMAP record maps the relocated image to the ELF's PT_LOAD
    reloc = bdinfo(cons, 'reloc off')
    assert len(pdata.mmaps) == 1
    assert pdata.mmaps[0].start == bdinfo(cons, 'relocaddr')
    assert pdata.mmaps[0].pgoff == image_offset(cons)

    # At least 95% of the samples fall inside the function doing the work
    start, end = symbols(cons)['crc32_no_comp']
    inside = sum(1 for s in pdata.samples if start <= s.ip - reloc < end)
    assert inside >= 0.95 * len(pdata.samples), (inside, len(pdata.samples))

    symfs = cons.config.build_dir
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + symfs, '--stdio'])
    rows = [line.split() for line in report.splitlines()
            if line.strip() and not line.lstrip().startswith('#')]
    assert rows[0][1:] == ['u-boot', 'u-boot', '[.]', 'crc32_no_comp'], report
    assert float(rows[0][0].rstrip('%')) >= 95.0, report
    assert '# Total Lost Samples: 0' in report

    header = perf(tmp_path, ['report', '-i', path, '--header-only'])
    assert '# arch : aarch64' in header
    assert re.search(r'# os release : U-Boot 20\d\d\.\d\d', header), header
    assert '# cmdline : perfrec record -F 4000' in header

    script = perf(tmp_path, ['script', '-i', path, '--symfs=' + symfs])
    lines = [line for line in script.splitlines() if line.strip()]
    assert len(lines) == res['samples']
    assert sum('crc32_no_comp' in line for line in lines) >= 0.95 * len(lines)

    if icount(cons):
        # 1 instruction = 1 ns: the realised rate is close to the target
        first, last = pdata.samples[0].time, pdata.samples[-1].time
        rate = (len(pdata.samples) - 1) * 1e9 / (last - first)
        assert abs(rate - 4000) < 400, rate


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_exact_period(ubman, tmp_path):
    """-c: one sample per period, every period the same, none missed or extra"""
    cons = ubman
    results = {}
    for period in (20000, 50000, 1 << 40):
        res = record(cons, f'-c {period} -o {BUF:#x} -s {BUF_SIZE:#x}')
        _, counts, late = status(cons)
        count, last_period = counts['cycles']
        assert last_period == period
        # One sample per period: the periods that passed while the interrupt
        # was late (never under icount) are the only ones without a sample
        assert res['samples'] + late == count // period, (count, late, res)
        if icount(cons):
            assert late == 0
        _, data = fetch(cons, tmp_path, f'p{period}.data')
        pdata = PerfData(data)
        assert len(pdata.samples) == res['samples']
        assert all(s.period == period for s in pdata.samples)
        assert [s.time for s in pdata.samples] == sorted(s.time for s in pdata.samples)
        results[period] = (res['samples'], count)

    assert results[1 << 40][0] == 0
    if icount(cons):
        # The workload's own instructions do not change with sampling, and each
        # sample costs the same: events = workload + samples * handler cost
        work = results[1 << 40][1]
        costs = [(count - work) / samples for samples, count in
                 (results[20000], results[50000])]
        assert abs(costs[0] - costs[1]) < 1, costs
        assert 50 < costs[0] < 1000, costs


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_period_below_handler(ubman, tmp_path):
    """Periods shorter than the handler: the workload ends, the books balance

    The handler skips whole periods (late) to leave the workload room; the
    skipped ones counted in advance that had not passed when the recording
    ended were once left in 'late' (and, on a 32-bit event counter, could
    put the count 2^32 off).
    """
    cons = ubman
    workload = 'crc32 0x40000000 0x40000'
    expect = cons.run_command(workload)
    for event in ('cycles', 'r11'):
        for period in (50, 100, 150):
            res = record(cons, f'-e {event} -c {period} -o {BUF:#x} -s {BUF_SIZE:#x}',
                         workload)
            assert res['rc'] == 0 and expect in res['out'], res['out']
            count, last_period, late, _ = events(cons)[event]
            assert last_period == period
            assert res['samples'] + res['lost'] + late == count // period, \
                (event, period, count, late, res)
            # Not 2^32 off: under icount the count is the workload's exact
            # cycles, without it no more than the host's time it took
            if icount(cons):
                assert count < 1 << 31, (event, period, count)
            else:
                assert count <= res['ns'], (event, period, count, res['ns'])
            _, data = fetch(cons, tmp_path, f'{event}{period}.data')
            assert len(PerfData(data).samples) == res['samples']
    assert status(cons)[0] == 'finalised'


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_state_restored(ubman):
    """Every register perfrec borrows is as before after a recording"""
    cons = ubman
    before = registers(cons)
    record(cons, f'-c 10000 -o {BUF:#x} -s {BUF_SIZE:#x}', 'crc32 0x40000000 0x100000')
    assert registers(cons) == before
    assert status(cons)[0] == 'finalised'


# Many locals: one scenario reads more clearly in one function than split up
@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_buffer_full(ubman, tmp_path):
    """A small buffer: exact lost count, a valid file, nothing written outside it"""
    cons = ubman
    size = 0x1000
    guard_buffer(cons, BUF, size)
    period = 20000

    def full(res):
        return res['lost'] > 0 and res['samples'] > 0
    res = record_grown(cons, f'-c {period} -o {BUF:#x} -s {size:#x}', CRC_AT, CRC_LEN,
                       enough=full, tries=4)
    assert res['lost'] > 0 and res['samples'] > 0
    assert 'the buffer filled up' in res['out']
    _, counts, late = status(cons)
    assert res['samples'] + res['lost'] + late == counts['cycles'][0] // period
    check_guards(cons, BUF, size)
    check_lost_file(cons, tmp_path, res)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.requiredtool('perf')
def test_perfrec_workload_fails(ubman, tmp_path):
    """A failing workload still leaves a valid perf.data; perfrec passes on its rc"""
    cons = ubman
    res = record_grown(cons, f'-c 10000 -o {BUF:#x} -s {BUF_SIZE:#x}',
                       '"crc32 0x40000000 %#x; false"', 0x100000)
    assert res['rc'] == 1 and res['samples'] > 0
    path, data = fetch(cons, tmp_path)
    PerfData(data)
    perf(tmp_path, ['report', '-i', path, '--stdio'])


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_command_line_workload(ubman):
    """One quoted workload argument is a command line: ';' runs several commands"""
    cons = ubman
    res = record(cons, f'-c 10000 -o {BUF:#x} -s {BUF_SIZE:#x}',
                 '"echo first; echo second"')
    assert 'first' in res['out'] and 'second' in res['out']
    assert res['rc'] == 0


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_default_buffer(ubman):
    """Without -o/-s the buffer is free DRAM clear of U-Boot and the load areas"""
    cons = ubman
    res = record(cons, '-c 100000', 'crc32 0x40000000 0x100000')
    addr = res['addr']
    size = 0x1000000    # CONFIG_PERFREC_DEFAULT_BUF_SIZE
    assert 0x40000000 <= addr and addr + size <= 0x80000000
    lmb = cons.run_command('bdinfo')
    reserved = [(int(m.group(1), 16), int(m.group(2), 16)) for m in
                re.finditer(r'reserved\[\d+\]\s+\[(0x[0-9a-f]+)-(0x[0-9a-f]+)\]', lmb)]
    # From 2024.10 lmb keeps the buffer itself (reserved until the next recording)
    others = [(start, end) for start, end in reserved if (start, end) != (addr, addr + size - 1)]
    assert reserved and addr + size <= min(start for start, _ in others), lmb
    for var, room in (('kernel_addr_r', 0x4000000), ('ramdisk_addr_r', 0x4000000),
                      ('fdt_addr_r', 0x100000), ('scriptaddr', 0x100000)):
        out = cons.run_command(f'echo ${{{var}}}').strip()
        if out:
            start = int(out, 16)
            assert addr >= start + room or addr + size <= start, (var, hex(addr))


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_frequency_clamped(ubman):
    """A wild -F is clamped to 100 kHz with a message, and recording goes on"""
    cons = ubman
    res = record(cons, f'-F 250000 -o {BUF:#x} -s {BUF_SIZE:#x}',
                 'crc32 0x40000000 0x100000')
    assert 'Frequency 250000 Hz is above the 100000 Hz limit: using 100000 Hz' in res['out']
    assert res['rc'] == 0


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_other_interrupts_held_off(ubman):
    """An interrupt another firmware left enabled and pending is held off, then restored"""
    cons = ubman
    dist = gic_distributor(cons)
    intid = 33              # an SPI (the UART's on QEMU virt)
    reg, bit = 4 * (intid // 32), 1 << (intid % 32)
    cons.run_command(f'mw.b {dist + 0x800 + intid:#x} 1')          # GICD_ITARGETSR: CPU 0
    cons.run_command(f'mw.l {dist + 0x100 + reg:#x} {bit:#x}')      # GICD_ISENABLER
    cons.run_command(f'mw.l {dist + 0x200 + reg:#x} {bit:#x}')      # GICD_ISPENDR
    try:
        before = registers(cons)
        assert f'reg GICD_ISENABLER1 = {bit:#x}' in before

        def held_off(_):
            out = cons.run_command('perfrec status')
            assert 'foreign: 0' in out, out
            assert registers(cons) == before
        res = record_grown(cons, f'-c 20000 -o {BUF:#x} -s {BUF_SIZE:#x}', CRC_AT, 0x100000,
                           check=held_off)
        assert res['samples'] > 0
        pending = cons.run_command(f'md.l {dist + 0x200 + reg:#x} 1')
        assert f'{bit:08x}' in pending, pending
    finally:
        cons.run_command(f'mw.l {dist + 0x180 + reg:#x} {bit:#x}')  # GICD_ICENABLER
        cons.run_command(f'mw.l {dist + 0x280 + reg:#x} {bit:#x}')  # GICD_ICPENDR


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_no_timer_frequency(ubman):
    """CNTFRQ_EL0 of 0 (firmware that never set it; writable at EL3 only):
    every arming refuses in one line, and none waits on U-Boot's timer, which
    stands still then (the interrupt probe once waited for ever)"""
    cons = ubman
    freq = int(re.search(r'CNTFRQ_EL0 (\d+)', cons.run_command('perfrec_test cntfrq')).group(1))
    assert freq > 0
    out, ret = run_rc(cons, 'perfrec_test cntfrq 0')
    if 'writable at EL3 only' in out:
        assert ret == 1 and re.search(r'CNTFRQ_EL0 is writable at EL3 only \(this is EL[12]\)',
                                      out), out
        return
    try:
        assert ret == 0 and 'CNTFRQ_EL0 0' in out, out
        before = registers(cons)
        for cmd in (f'record -o {BUF:#x} -s {BUF_SIZE:#x}', 'record -e cpu-clock',
                    'stat', 'start'):
            out, ret = run_rc(cons, f'perfrec {cmd} -- crc32 0x40000000 0x1000'
                              if cmd != 'start' else 'perfrec start')
            assert ret == 1 and [line for line in out.splitlines() if line.strip()][:-1] == [
                'The generic timer has no frequency (CNTFRQ_EL0 is 0): the firmware must set '
                'it'], (cmd, out)
        assert registers(cons) == before
        assert status(cons)[0] != 'armed'
    finally:
        cons.run_command(f'perfrec_test cntfrq {freq}')
    assert f'CNTFRQ_EL0 {freq}' in cons.run_command('perfrec_test cntfrq')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_el3_split_eoi(ubman):
    """At EL3 the EOI mode is ICC_CTLR_EL3's EOImode_EL3, not ICC_CTLR_EL1's:
    with it set (firmware that splits priority drop and deactivation) every
    period is still sampled, and the bit is given back. Only the first
    sample came once: its EOI dropped the priority and left it active."""
    cons = ubman
    out, ret = run_rc(cons, 'perfrec_test icc_ctlr_el3')
    if ret:
        assert re.search(r"ICC_CTLR_EL3 needs EL3 and a GICv3's system registers "
                         r'\(this is EL\d\)', out), out
        return
    val = int(re.search(r'ICC_CTLR_EL3 (0x[0-9a-f]+)', out).group(1), 16)
    split = val | 4
    try:
        assert f'ICC_CTLR_EL3 {split:#x}' in cons.run_command(
            f'perfrec_test icc_ctlr_el3 {split:#x}')
        res = record(cons, f'-c 100000 -o {BUF:#x} -s {BUF_SIZE:#x}',
                     'crc32 0x40000000 0x100000')
        _, counts, late = status(cons)
        count, period = counts['cycles']
        assert res['samples'] + late == count // period and res['samples'] > 10, (res, late)
        if icount(cons):
            assert late == 0
        assert f'ICC_CTLR_EL3 {split:#x}' in cons.run_command('perfrec_test icc_ctlr_el3')
    finally:
        cons.run_command(f'perfrec_test icc_ctlr_el3 {val:#x}')


# (arguments, the one line that explains, whether usage follows)
BAD_INPUTS = [
    ('record -x 1 -- true', "Unknown option '-x'", True),
    ('record -c 1000 version', "Missing '--' before the command", True),
    ('record -c 1000 --', "Missing the command after '--'", True),
    ('record -c', 'Option -c needs a value', True),
    ('record -c -- true', 'Option -c needs a value', True),
    ('record -c 12abc -- true', "Invalid period '12abc'", False),
    ('record -c 0 -- true', "Invalid period '0'", False),
    ('record -c 99999999999999999999999 -- true', "Invalid period", False),
    ('record -F 0 -- true', "Invalid frequency '0'", False),
    ('record -F -5 -- true', "Invalid frequency '-5'", False),
    ('record -c 1000 -F 100 -- true', 'Give either -c <period> or -F <hz>, not both', True),
    ('record -e foo -- true', "Unknown event 'foo'", False),
    ('record -o zz -- true', "Invalid address 'zz'", False),
    ('record -s 0xg -- true', "Invalid size '0xg'", False),
    ('record -o 0x50000000 -s 0 -- true', 'Invalid buffer size 0', False),
    ('record -o 0x50000001 -s 0x10000 -- true', 'is not 8-byte aligned', False),
    ('record -o 0x10000000 -s 0x1000 -- true', 'is not inside DRAM', False),
    ('record -o 0x7ffff000 -s 0x2000 -- true', 'is not inside DRAM', False),
    ('record -o 0x7f000000 -s 0x1000000 -- true', 'overlaps memory U-Boot uses', False),
    ('record -o 0x50000000 -s 0x100 -- true', 'Buffer too small', False),
    ('record -- perfrec record -- true', 'perfrec is already recording', False),
    ('record -j 51 -- true', "Invalid jitter '51'", False),
    ('record -j x -- true', "Invalid jitter 'x'", False),
    ('record -e cycles,foo -- true', "Unknown event 'foo'", False),
    ('record -e , -- true', "Invalid event list ','", False),
    ('record -e cycles/period=0/ -- true', "Invalid event term 'period=0'", False),
    ('record -e cycles/colour=1/ -- true', "Invalid event term 'colour=1'", False),
    ('record -e cycles/period=100 -- true', 'Invalid event terms', False),
    ('record -e ' + ','.join(['cycles'] * 9) + ' -- true', 'Too many events', False),
    ('record -e r10000 -- true', "Unknown event 'r10000'", False),
    ('record -e cpu-clock,cycles -- true', 'record it alone', False),
    ('record -e cpu-clock -j 5 -- true', '-j does not apply to cpu-clock', False),
    ('record -e cpu-clock -c 10 -- true', 'below its 10000 ns minimum', False),
    ('record -H ' + 'x' * 300 + ' -- true', 'is too long', False),
    ('record -g', "Missing '--' before the command", True),
    ('dump -H', 'Option -H needs a value', True),
    ('record -S 100 -- true', "Unknown option '-S'", True),
    ('start -- true', "Unexpected '--'", True),
    ('start -S 0', "Invalid stream rate '0'", False),
    ('start -S fast', "Invalid stream rate 'fast'", False),
    ('start extra', "Unexpected argument 'extra'", True),
    ('stop', 'perfrec is not recording: nothing to stop', False),
    ('stat -w 0 -- true', "Invalid wrap distance '0'", False),
    ('stat -w 4294967296 -- true', "Invalid wrap distance '4294967296'", False),
    ('stat -c 1000 -- true', "Unknown option '-c'", True),
    ('stat -e cycles/period=5/ -- true', 'stat takes no period or freq', False),
    ('stat', "Missing '--' before the command", True),
    ('list -x', None, True),
    ('report -n 0', "Invalid count '0'", False),
    ('report -n', None, True),
    ('dump -x', "Unknown option '-x'", True),
    ('status -x', None, True),
    ('nosuch', None, True),
]


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
@pytest.mark.parametrize('args,message,usage', BAD_INPUTS)
def test_perfrec_bad_input(ubman, args, message, usage):
    """Bad input: one clear line and rc 1, nothing armed, registers untouched"""
    cons = ubman
    before = registers(cons)
    out, ret = run_rc(cons, 'perfrec ' + args)
    assert ret == 1, out
    lines = [line for line in out.splitlines()
             if line.strip() and not line.startswith('rc:')]
    if message:
        # One line says what is wrong; the usage text may follow it, and a
        # nested recording's own summary (the outer one ran its command)
        extra = [line for line in lines[1:] if not re.match(r'perfrec: \d+ samples', line)]
        assert message in lines[0] and (usage or not extra), out
    assert ('Usage:' in out) == usage, out
    assert status(cons)[0] != 'recording'
    assert registers(cons) == before
    assert 'ok' in cons.run_command('echo ok')
