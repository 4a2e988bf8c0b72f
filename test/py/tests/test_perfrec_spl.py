# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of the SPL test vehicle (configs/perfrec-spl.config, make build-spl)

"""No upstream arm64 configuration runs SPL on QEMU. perfrec's test vehicle
does: SPL runs in place from the flash at 0 and copies U-Boot proper
(u-boot.img) into DRAM at CONFIG_TEXT_BASE, where it runs, linked there, and
records its whole boot as the early build does. SPL itself is not sampled:
perfrec is not in it.
"""

import os
import re
import subprocess

import pytest

import test_perfrec_boot as boot
from perfrec_data import PerfData
from perfrec_helpers import fetch, perf

SPL_BANNER = re.compile(r'U-Boot SPL \d{4}\.\d{2}')
PROPER_BANNER = re.compile(r'^U-Boot \d{4}\.\d{2}', re.M)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('spl')
@pytest.mark.buildconfigspec('perfrec_boot')
@pytest.mark.requiredtool('perf')
def test_perfrec_spl_whole_boot(ubman, tmp_path):
    """SPL starts, loads U-Boot proper from the flash, and U-Boot proper,
    linked and run in DRAM, records its boot from board_init_f(): every
    address names its function in the ELF and in perf"""
    cons = ubman
    log = boot.boot_with(cons)
    spl, proper = SPL_BANNER.search(log), PROPER_BANNER.search(log)
    assert spl and proper and spl.start() < proper.start(), log
    assert 'Trying to boot from NOR' in log[spl.end():proper.start()], log
    match = boot.BOOT_LINE.search(log)
    assert match and int(match.group(1)) == int(match.group(2)) > boot.LEAST_BEFORE_RELOC, log
    path, data = fetch(cons, tmp_path)
    pdata = PerfData(data)
    resolved = boot.resolve(pdata, boot.text_of(cons))
    assert boot.boot_problems(resolved) == []
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--sort', 'dso,symbol', '--no-children'])
    assert '[unknown]' not in report
    # The copy by address: perf names its samples copy_loop or relocate_code
    # depending on the layout (see boot.copy_loop_range())
    assert boot.sampled_in_copy(cons, pdata), boot.copy_loop_range(cons)


@pytest.mark.boardspec('qemu_arm64')
@pytest.mark.buildconfigspec('spl')
def test_perfrec_spl_without_perfrec(ubman):
    """perfrec adds nothing to SPL: no symbol of it in u-boot-spl"""
    cons = ubman
    elf = os.path.join(cons.config.build_dir, 'spl', 'u-boot-spl')
    out = subprocess.run(['aarch64-linux-gnu-nm', elf], capture_output=True, text=True,
                         check=True).stdout
    assert 'spl_boot_device' in out and 'perfrec' not in out.lower()
