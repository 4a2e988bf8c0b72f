# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of the boot recording's options that it refuses or replaces

"""The boot recording's event and period come from Kconfig or from the
device tree's /options/u-boot (test_perfrec_boot.py). Before relocation
there is no console: what cannot be sampled is said in one line once the
console is up, and the boot goes on, recorded on cpu-clock or not at all.
"""

import contextlib
import re

import pytest

from perfrec_helpers import events, qemu_dtb, status
from test_perfrec_boot import BOOT_LINE, OPTIONS, boot_with, options_dtb


@contextlib.contextmanager
def options_boot(cons, tmp_path, **props):
    """Boot with /options/u-boot holding @props (options_dtb()) and yield
    the boot log; then restart U-Boot as the other tests boot it"""
    try:
        yield boot_with(cons, options_dtb(cons, tmp_path, **props))
    finally:
        cons.restart_uboot()


def check_unrecorded(cons, boot, line):
    """@line in the boot log, no boot recording adopted, and U-Boot usable"""
    assert line in boot and not BOOT_LINE.search(boot), boot
    assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.parametrize('period', [None, 5000])
def test_perfrec_early_boot_cpu_clock(ubman, tmp_path, period):
    """A device tree (given at boot: 'fdt set' at the prompt comes too late)
    whose PMU has no interrupt: the boot recording samples cpu-clock at its
    highest rate, whatever the period of cycles (events, not ns: 5000 is
    below cpu-clock's 10000 ns minimum)"""
    cons = ubman
    edits = [['-d', '/pmu', 'interrupts']]
    if period:
        edits += [['-p', '-c', OPTIONS], ['-t', 'u', OPTIONS, 'perfrec,boot-period', str(period)]]
    try:
        boot = boot_with(cons, qemu_dtb(cons, tmp_path, 'nopmuirq.dtb', edits))
        assert ('perfrec: /pmu has no "interrupts" property; the boot recording samples '
                'cpu-clock at 100000 Hz instead') in boot, boot
        assert BOOT_LINE.search(boot) and 'not recorded' not in boot, boot
        assert events(cons)['cpu-clock'][0] > 0
    finally:
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_bad_event(ubman, tmp_path):
    """An event this CPU does not know (perfrec,boot-event): one line, an
    unrecorded boot, and the early recording starts after relocation"""
    cons = ubman
    with options_boot(cons, tmp_path, boot_event='no_such_event') as boot:
        line = ("perfrec: event 'no_such_event' is unknown (see 'perfrec list'): the boot is "
                'not recorded')
        check_unrecorded(cons, boot, line)
        assert len(re.findall(r'perfrec: .*\S', boot.split(line)[1])) == 2, boot
        assert status(cons)[0] == 'finalised'


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
def test_perfrec_early_boot_clock_below_minimum(ubman, tmp_path):
    """cpu-clock every 100 ns (perfrec,boot-period, below the 10000 ns every
    arming holds to): one line, an unrecorded boot that reaches its prompt.
    The minimum was checked by 'perfrec record' alone: the boot armed a timer
    whose handler outlasted its period, and never reached the prompt."""
    cons = ubman
    with options_boot(cons, tmp_path, boot_event='cpu-clock', boot_period=100) as boot:
        check_unrecorded(cons, boot, 'perfrec: period 100 ns of cpu-clock is below its 10000 ns '
                         'minimum: the boot is not recorded')
        assert status(cons)[0] != 'armed'


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.buildconfigspec('perfrec_events')
def test_perfrec_early_boot_period_too_long(ubman, tmp_path):
    """perfrec,boot-period 4294967295 of instructions: on a 32-bit event
    counter a late interrupt's gap (up to a period plus 4095 events) would
    not fit, so the boot is not recorded, in one line that names the
    longest period; on a 64-bit one (PMUv3p5) the boot is recorded. The
    line said the period of cpu-clock was below its minimum."""
    cons = ubman
    with options_boot(cons, tmp_path, boot_event='instructions', boot_period=0xffffffff) as boot:
        bits = re.search(r'event counters of (\d+) bits', cons.run_command('perfrec list'))
        assert bits, boot
        line = ("perfrec: period 4294967295 of event 'instructions' is too long for its 32-bit "
                "counter (at most 4294963200): the boot is not recorded")
        if bits.group(1) == '32':
            check_unrecorded(cons, boot, line)
        else:
            assert line not in boot and BOOT_LINE.search(boot), boot
            assert 'ok' in cons.run_command('echo ok')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_early_boot_device_fails(ubman, tmp_path):
    """perfrec's PMU device will not probe when the boot recording is
    adopted after relocation (the test command's fault: perfrec,test-probe-
    error, as a board's power domain or clock could fail it): the recording
    is disarmed and dropped in one line that says why, and U-Boot goes on.
    The adoption logged the error at debug level and went on recording,
    without the device whose removal ends a recording before an OS."""
    cons = ubman
    with options_boot(cons, tmp_path, test_probe_error=5) as boot:
        check_unrecorded(cons, boot, 'perfrec: the boot recording was dropped: its PMU device '
                         'would not probe (error -5)')
        assert status(cons)[0] not in ('armed', 'recording'), boot
