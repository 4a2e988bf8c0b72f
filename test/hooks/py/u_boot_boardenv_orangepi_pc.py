# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for orangepi_pc on QEMU's orangepi-pc: the cell it runs in

import os

# The cell (set by scripts/perfrec_run_tests.py for the console hook)
env__perfrec_cell = os.environ.get('PERFREC_CELL', 'orangepi-pc')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'orangepi-pc')
env__perfrec_icount = os.environ.get('PERFREC_QEMU_ICOUNT', '')
# The boot ROM loads SPL from the SD card, and SPL loads U-Boot proper: test/py
# waits for SPL's banner first
env__spl_skipped = False
