# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of recording from early boot (CONFIG_PERFREC_EARLY; configs/perfrec-early.config)

"""U-Boot built with CONFIG_PERFREC_EARLY starts recording when driver model
is up after relocation and stops at the prompt: the profile shows the
driver and environment initialisation that runs before any command.
"""

import os
import re

import pytest

from perfrec_data import PerfData
from perfrec_helpers import (dtb_with_gic_at, events, fetch, hole, perf, pte, symbols,
                             without_pmu)

# Families of functions that initialisation after relocation spends its time in
INIT_ONLY = ('cfi_', 'flash_', 'env_', 'initr_', 'pci_', 'serial_', 'stdio_', 'dm_', 'device_',
             'lists_', 'uclass_')


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_early')
@pytest.mark.requiredtool('perf')
def test_perfrec_early_boot(ubman, tmp_path):
    """Samples from before the prompt, with the symbols of driver init"""
    cons = ubman
    cons.restart_uboot()
    out = cons.run_command('perfrec status')
    assert 'state: finalised' in out, out
    assert events(cons)['cycles'][0] > 0
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    # With CONFIG_PERFREC_BOOT it is the boot recording, adopted (test_perfrec_boot.py)
    boot = cons.config.buildconfig.get('config_perfrec_boot') == 'y'
    assert pdata.samples and pdata.cmdline[:2] == (['u-boot'] if boot else ['perfrec', 'start'])
    reloc = int(re.search(r'reloc off\s*= (0x[0-9a-f]+)', cons.run_command('bdinfo')).group(1),
                16)
    text = [(start, end) for start, end in symbols(cons).values() if end > start]
    assert all(any(start <= s.ip - reloc < end for start, end in text) for s in pdata.samples)
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--sort', 'dso,symbol'])
    names = re.findall(r'\[\.\] (\S+)', report)
    assert any(name.startswith(INIT_ONLY) for name in names), names
    assert '[unknown]' not in report


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_early')
@pytest.mark.buildconfigspec('cmd_perfrec_test')
def test_perfrec_early_gic_unmapped(ubman, tmp_path):
    """A device tree (given at boot) whose GIC is in a hole of U-Boot's MMU
    map where nothing answers: the early start says so and fails, the boot
    goes on to the prompt with nothing armed and the tables as they were"""
    cons = ubman
    addr = hole(cons)
    table = pte(cons, addr)
    os.environ['PERFREC_QEMU_DTB'] = dtb_with_gic_at(cons, tmp_path, addr)
    try:
        cons.restart_uboot()
        boot = cons.get_spawn_output()
        why = (f'/pmu: nothing answers at its GIC distributor {addr:#x}-{addr + 0xffff:#x} '
               '(a read there aborts)')
        assert f'perfrec: {why}; sampling cpu-clock at' in boot, boot
        assert 'perfrec: the early recording did not start' in boot, boot
        assert 'state: idle' in cons.run_command('perfrec status')
        assert pte(cons, addr) == table
        assert 'ok' in cons.run_command('echo ok')
    finally:
        del os.environ['PERFREC_QEMU_DTB']
        cons.restart_uboot()


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('perfrec_early')
@pytest.mark.requiredtool('perf')
def test_perfrec_early_no_pmu(ubman, tmp_path):
    """A CPU without a PMU (QEMU's pmu=off): the boot is recorded on
    cpu-clock, with one line saying why, and perf names every sample"""
    cons = ubman
    with without_pmu(cons):
        boot = cons.get_spawn_output()
        assert re.search(r'^perfrec: this CPU has no PMUv3 \(ID_AA64DFR0_EL1\.PMUVer\); '
                         r'.*cpu-clock.* instead\s*$', boot, re.M), boot
        assert 'state: finalised' in cons.run_command('perfrec status')
        assert events(cons)['cpu-clock'][0] > 0
        path, data = fetch(cons, tmp_path)
        assert PerfData(data).samples
        report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                                 '--stdio', '--sort', 'dso,symbol'])
        assert 'cpu-clock' in report and '[unknown]' not in report, report[:2000]
