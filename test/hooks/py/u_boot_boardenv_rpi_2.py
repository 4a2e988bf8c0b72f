# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# test/py board environment for rpi_2 on QEMU's raspi2b: the cell it runs in

import os

# The cell (set by scripts/perfrec_run_tests.py for the console hook)
env__perfrec_cell = os.environ.get('PERFREC_CELL', 'raspi2b')
env__perfrec_machine = os.environ.get('PERFREC_QEMU_MACHINE', 'raspi2b')
env__perfrec_icount = os.environ.get('PERFREC_QEMU_ICOUNT', '')
