# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of what a board's own map and device tree may hide: GIC blocks outside
# U-Boot's MMU map, interrupt parents that are not a GIC, silent event counters

"""perfrec reads the GIC at the addresses the device tree gives, and U-Boot's
MMU map (a board's mem_map) may leave them out, as the Raspberry Pi 4's does.
perfrec maps such a block as device memory for the session and gives the
page tables back exactly; where nothing answers, or the block cannot be
mapped, it says so in one line and U-Boot stays usable. 'perfrec_test hole'
makes the GIC's block unmapped as on that board, 'perfrec_test pte' shows
the descriptor that translates an address, so that the tables can be
compared before, during and after.

An interrupt parent that is not a GIC is named with its compatible. An
event counter whose overflow interrupt never comes (QEMU's event counters
under -icount shift=0) is reported when the recording ends, with the
periods it counted and the samples taken.
"""

import contextlib
import os
import re

import pytest

from perfrec_helpers import (BEYOND, BUF, BUF_SIZE, CRC_AT, GIC, dtb_with_gic_at, events,
                             gic_reg, hole, icount, icount_shift, pte, record, record_grown,
                             registers, run_rc)

SHORT_CRC = 'crc32 0x40000000 0x100000'
# Periods a counter must run before too few samples are reported (cmd/perfrec.c)
MIN_PERIODS = 8
BUF_ARGS = f'-o {BUF:#x} -s {BUF_SIZE:#x}'
FALLBACK = re.compile(r'^perfrec: (.*); sampling cpu-clock at (\d+) Hz instead\s*$', re.M)
REFUSED = re.compile(r'^perfrec: (.*): fix the device tree, or sample -e cpu-clock\s*$', re.M)
NO_CLOCK = re.compile(r'^perfrec: cpu-clock cannot sample: (.*?)\s*$', re.M)
MISSED = re.compile(r'^perfrec: (\S+) \(counter (\d+)\) counted (\d+) periods of (\d+) but '
                    r'(\d+) samples were taken: its overflow interrupt (never came; try -e '
                    r'cycles, or cycles beside it \(see the docs on QEMU\'s event counters\)|'
                    r'came late; try a longer period \(-c or -F\))\s*$', re.M)


def no_fallback(res):
    """Assert that the recording summarised in @res sampled its own event"""
    assert not FALLBACK.search(res['out']), res['out']


@contextlib.contextmanager
def edited_gic(cons, dist):
    """Move the GIC distributor in the control device tree to @dist; put it back after"""
    cells = gic_reg(cons)
    words = cells.split()
    words[:2] = [f'{dist >> 32:#x}', f'{dist & 0xffffffff:#x}']
    try:
        cons.run_command(f'fdt set {GIC} reg <{" ".join(words)}>')
        yield
    finally:
        cons.run_command('fdt addr $fdtcontroladdr')
        cons.run_command(f'fdt set {GIC} reg <{cells}>')
        assert gic_reg(cons) == cells


def check_armings_refused(cons, why):
    """Every command that arms an interrupt says @why (a regex) in one line,
    with rc 1, and nothing is left recording"""
    res_out, ret = run_rc(cons, f'perfrec record {BUF_ARGS} -- {SHORT_CRC}')
    match = FALLBACK.search(res_out)
    assert ret == 1 and match and re.fullmatch(why, match.group(1)), res_out
    match = NO_CLOCK.search(res_out)
    assert match and re.fullmatch(why.replace('/pmu', '/timer'), match.group(1)), res_out
    assert 'crc32 for' not in res_out

    for cmd in (f'perfrec record -e cycles {BUF_ARGS} -- {SHORT_CRC}',
                f'perfrec start -e cycles {BUF_ARGS}'):
        out, ret = run_rc(cons, cmd)
        match = REFUSED.search(out)
        assert ret == 1 and match and re.fullmatch(why, match.group(1)), out
        # The line, and rc
        assert len([line for line in out.splitlines() if line.strip()]) == 2, out
    assert 'state: recording' not in cons.run_command('perfrec status')


def check_refused(cons, why):
    """Every command that touches the GIC says @why (a regex) in one line, with rc 1"""
    check_armings_refused(cons, why)
    # Counting: no interrupt at all in the end, and the counts still come
    out, ret = run_rc(cons, f'perfrec stat -e cycles -- {SHORT_CRC}')
    assert ret == 0 and 'the timer extends the counts instead' in out, out
    assert '32-bit counts may wrap' in out and 'cycles' in out, out
    # 'status -v' shows the registers it can reach, and no GIC's
    regs = registers(cons)
    assert not any(r.startswith('reg GIC') for r in regs), regs


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_gic_unmapped_prompt(ubman):
    """A GIC distributor moved (at the prompt) to a hole of U-Boot's map, or
    beyond its VA range: one line naming the block and its range, rc 1, no
    abort, and the page tables as they were"""
    cons = ubman
    before = registers(cons)
    addr = hole(cons)
    table = pte(cons, addr)
    size = int(gic_reg(cons).split()[3], 16)
    with edited_gic(cons, addr):
        check_refused(cons, rf'/pmu: nothing answers at its GIC distributor {addr:#x}-'
                            rf'{addr + size - 1:#x} \(a read there aborts\)')
        # perfrec mapped the hole to try the read, and gave it back
        assert pte(cons, addr) == table
    assert pte(cons, BEYOND) is None
    with edited_gic(cons, BEYOND):
        check_refused(cons, rf'/pmu: its GIC distributor {BEYOND:#x}-{BEYOND + size - 1:#x} '
                            r'is not in U-Boot\'s MMU map and cannot be mapped \(beyond the '
                            r'translated address range\)')
    assert registers(cons) == before
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_gic_in_ram(ubman):
    """A GIC distributor moved (at the prompt) onto DRAM whose GICD_CTLR
    word has bit 31 set: on a GICv3, RWP that never clears. Each arming
    says which register stayed busy, gives every register back, and U-Boot
    goes on; the waits are bounded by a count too. On a GICv2 (no RWP) the
    probe finds that nothing raised reaches it."""
    cons = ubman
    before = registers(cons)
    fake = BUF + BUF_SIZE
    cons.run_command(f'mw.l {fake:#x} 0 0x4000')
    cons.run_command(f'mw.l {fake:#x} 0x80000000')
    if 'gic-version=3' in cons.config.env['env__perfrec_machine']:
        why = (rf'/pmu: its GIC distributor never finished a write \(GICD_CTLR\.RWP at '
               rf'{fake:#x} stayed set\)')
    else:
        why = r'/pmu: interrupt \d+ \(its "interrupts"\) never reached the GIC when raised'
    with edited_gic(cons, fake):
        check_armings_refused(cons, why)
    assert registers(cons) == before
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_gic_unmapped_boot(ubman, tmp_path):
    """The same, with the device tree given at boot (-dtb): QEMU's own, with
    the GIC's "reg" pointing into the hole"""
    cons = ubman
    addr = hole(cons)
    dtb = dtb_with_gic_at(cons, tmp_path, addr)
    os.environ['PERFREC_QEMU_DTB'] = dtb
    try:
        cons.restart_uboot()
        assert int(gic_reg(cons).split()[0], 16) == addr >> 32
        table = pte(cons, addr)
        check_refused(cons, rf'/pmu: nothing answers at its GIC distributor {addr:#x}-'
                            rf'{addr + 0xffff:#x} \(a read there aborts\)')
        assert pte(cons, addr) == table
        assert 'ok' in cons.run_command('echo ok')
    finally:
        del os.environ['PERFREC_QEMU_DTB']
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_gic_hole_mapped(ubman):
    """The GIC itself outside U-Boot's map, as on the Raspberry Pi 4: perfrec
    maps its block as device memory for the session, samples, and leaves the
    descriptor as it found it"""
    cons = ubman
    dist = int(gic_reg(cons).split()[1], 16)
    before = registers(cons)
    mapped = pte(cons, dist)
    assert mapped[2]
    out = cons.run_command(f'perfrec_test hole {dist:#x}')
    assert 'cleared' in out, out
    try:
        unmapped = pte(cons, dist)
        assert not unmapped[2] and unmapped[0] == mapped[0]

        # Grown until it samples: without icount a loaded host delays the
        # interrupts past the end of a short workload (seen once on 1 MiB)
        res = record_grown(cons, f'-e cycles -c 100000 {BUF_ARGS}', CRC_AT, 0x100000,
                           check=no_fallback)
        count, period, late, _ = events(cons)['cycles']
        if icount(cons):
            assert res['samples'] + late == count // period
        assert pte(cons, dist) == unmapped

        # During a session the block is mapped; 'status -v' reads the GIC through it
        out, ret = run_rc(cons, f'perfrec start -e cycles -c 1000000000 {BUF_ARGS}')
        assert ret == 0, out
        during = pte(cons, dist)
        assert during[2] and during[0] == mapped[0], during
        assert any(r.startswith('reg GICD_CTLR') for r in registers(cons))
        out, ret = run_rc(cons, 'perfrec stop')
        assert ret == 0 and 'not restored' not in out, out
        assert pte(cons, dist) == unmapped

        out, ret = run_rc(cons, f'perfrec stat -e cycles,r11 -- {SHORT_CRC}')
        assert ret == 0 and 'instead' not in out, out
        assert pte(cons, dist) == unmapped
    finally:
        cons.run_command('perfrec_test hole')
    assert pte(cons, dist) == mapped
    assert registers(cons) == before


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_parent_not_gic(ubman):
    """A PMU (and a timer) whose interrupt parent is another controller (the
    Raspberry Pi's BCM2835 one), with that controller's 2-cell specifiers:
    the message names the parent and its compatible, not a missing property"""
    cons = ubman
    before = registers(cons)
    cons.run_command('fdt addr $fdtcontroladdr')
    pmu = cons.run_command('fdt print /pmu')
    timer = cons.run_command('fdt print /timer')
    pmu_irqs = re.search(r'interrupts = (<[^>]*>)', pmu).group(1)
    why = (r'{node}: its interrupt parent /perfrec-intc \(compatible '
           r'"brcm,bcm2835-armctrl-ic"\) is not a GICv2/v3 or a BCM2836 local controller, '
           r'the only controllers perfrec supports')
    try:
        for cmd in ('fdt mknode / perfrec-intc',
                    'fdt set /perfrec-intc compatible "brcm,bcm2835-armctrl-ic"',
                    'fdt set /perfrec-intc interrupt-controller',
                    'fdt set /perfrec-intc #interrupt-cells <2>',
                    'fdt set /perfrec-intc phandle <0x7770>',
                    'fdt set /pmu interrupt-parent <0x7770>',
                    'fdt set /pmu interrupts <9 4>'):
            cons.run_command(cmd)
        def fell_back(res):
            match = FALLBACK.search(res['out'])
            assert match and re.fullmatch(why.format(node='/pmu'), match.group(1)), res['out']
            assert 'has no "interrupts"' not in res['out']
        record_grown(cons, f'-F 10000 {BUF_ARGS}', CRC_AT, 0x100000, check=fell_back)

        out, ret = run_rc(cons, f'perfrec record -e cycles {BUF_ARGS} -- {SHORT_CRC}')
        match = REFUSED.search(out)
        assert ret == 1 and match and re.fullmatch(why.format(node='/pmu'), match.group(1)), out

        cons.run_command('fdt set /timer interrupt-parent <0x7770>')
        out, ret = run_rc(cons, f'perfrec record -e cpu-clock {BUF_ARGS} -- {SHORT_CRC}')
        match = NO_CLOCK.search(out)
        assert ret == 1 and match and re.fullmatch(why.format(node='/timer'),
                                                   match.group(1)), out
    finally:
        cons.run_command('fdt addr $fdtcontroladdr')
        cons.run_command('fdt rm /timer interrupt-parent')
        cons.run_command('fdt rm /pmu interrupt-parent')
        cons.run_command(f'fdt set /pmu interrupts {pmu_irqs}')
        cons.run_command('fdt rm /perfrec-intc')
    assert cons.run_command('fdt print /pmu') == pmu
    assert cons.run_command('fdt print /timer') == timer
    assert registers(cons) == before


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('cmd_perfrec')
def test_perfrec_missed_overflow(ubman):
    """An event counter alone: when its overflow interrupt never comes (QEMU's
    event counters under -icount shift=0), the recording says so with the
    exact periods counted, and so do 'perfrec status' and 'perfrec report';
    where it comes, nothing is said"""
    cons = ubman
    shift = icount_shift(cons)
    # INST_RETIRED exists only under icount; elsewhere CPU_CYCLES on an event counter
    event, period = ('instructions' if icount(cons) else 'r11'), 10007
    res = record(cons, f'-e {event} -c {period} {BUF_ARGS}', SHORT_CRC)
    count, got_period, late, counter = events(cons)[event]
    assert got_period == period and counter < 31
    periods = count // period
    taken = max(periods - late, 0)
    assert periods > 100
    missed = periods >= MIN_PERIODS and 2 * taken < periods
    if shift == 0:
        # The overflow is noticed only when perfrec stops: every period late
        assert missed and taken == 0 == res['samples'] and late == periods
    matches = MISSED.findall(res['out'])
    if not missed:
        assert not matches, res['out']
        return
    assert [m[:5] for m in matches] == [(event, str(counter), str(periods), str(period),
                                         str(taken))], res['out']
    assert matches[0][5].startswith('never came' if not taken else 'came late'), res['out']
    assert MISSED.findall(cons.run_command('perfrec status')) == matches
    assert MISSED.findall(cons.run_command('perfrec report')) == matches

    if shift == 0:
        # Beside the cycle counter, whose interrupt comes, it is sampled: nothing said
        res = record(cons, f'-e {event},cycles -c {period} {BUF_ARGS}', SHORT_CRC)
        assert not MISSED.search(res['out']), res['out']
