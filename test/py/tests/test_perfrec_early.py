# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Tests of recording from early boot (CONFIG_PERFREC_EARLY; configs/perfrec-early.config)

"""U-Boot built with CONFIG_PERFREC_EARLY starts recording when driver model
is up after relocation and stops at the prompt: the profile shows the
driver and environment initialisation that runs before any command.
"""

import re

import pytest

from perfrec_data import PerfData
from perfrec_helpers import events, fetch, perf, symbols

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
    assert pdata.samples and pdata.cmdline[:2] == ['perfrec', 'start']
    reloc = int(re.search(r'reloc off\s*= (0x[0-9a-f]+)', cons.run_command('bdinfo')).group(1),
                16)
    text = [(start, end) for start, end in symbols(cons).values() if end > start]
    assert all(any(start <= s.ip - reloc < end for start, end in text) for s in pdata.samples)
    report = perf(tmp_path, ['report', '-i', path, '--symfs=' + cons.config.build_dir,
                             '--stdio', '--sort', 'symbol'])
    names = re.findall(r'\[\.\] (\S+)', report)
    assert any(name.startswith(INIT_ONLY) for name in names), names
    assert '[unknown]' not in report
